package workloads

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// Tolerances of the generator's statistical tests, with the reason for
// each.
const (
	// loadTol: the generator fills each class to within loadTolerance
	// (0.2%) of its target; 1% leaves room and still is "within a few %".
	loadTol = 0.01
	// scvSamplerTol: the sample c² of n H2(c²=4) gaps has standard error
	// ≈ √(Var X²/n)/E[X]² ≈ √(1025/n) with unit mean (E X⁴ ≈ 1050); for
	// n = 400,000 that is 0.05, so 0.25 is 5 standard errors.
	scvSamplerTol = 0.25
	scvSamplerN   = 400_000
	// scvWorkloadTol: a 200-hour window has ≈ 60,000 gaps, standard error
	// ≈ 0.13; 0.65 is 5 standard errors.
	scvWorkloadTol   = 0.65
	scvWorkloadHours = 200
	// slackTol: deadlines and runtimes are rounded to 1 ms and runtimes
	// are ≥ 1 s, so recomputed slack is off by at most 0.1 percentage
	// point.
	slackTol = 0.1
)

func TestParamsErrors(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(p *Params)
		wantErr string
	}{
		{"zero nodes", func(p *Params) { p.Nodes = 0 }, "nodes must be ≥ 1, got 0"},
		{"more racks than nodes", func(p *Params) { p.Nodes = 4 }, "racks must be in [1, 4], got 8"},
		{"zero racks", func(p *Params) { p.Racks = 0 }, "racks must be in [1, 256], got 0"},
		{"too many racks", func(p *Params) { p.Nodes, p.Racks = 1_000_000, 100_000 }, "racks must be in [1, 65536], got 100000"},
		{"racks too wide", func(p *Params) { p.Nodes = 1_000_000_000 }, "nodes must be ≤ 134217728 (16777216 per rack × 8 racks), got 1000000000"},
		{"zero hours", func(p *Params) { p.Hours = 0 }, "hours must be > 0, got 0"},
		{"negative load", func(p *Params) { p.Load = -1 }, "load must be > 0, got -1"},
		{"nan load", func(p *Params) { p.Load = math.NaN() }, "load must be > 0, got NaN"},
		{"slo share above 1", func(p *Params) { p.SLOShare = 1.5 }, "slo share must be in [0, 1], got 1.5"},
		{"empty slack set", func(p *Params) { p.SlackPct = nil }, "slack set is empty"},
		{"negative slack", func(p *Params) { p.SlackPct = []float64{20, -5} }, "slack must be in [0, 1e+06] percent, got -5"},
		{"huge slack", func(p *Params) { p.SlackPct = []float64{20, 1e308} }, "slack must be in [0, 1e+06] percent, got 1e+308"},
		{"preferred fraction 0", func(p *Params) { p.PreferredFraction = 0 }, "preferred fraction must be in (0, 1], got 0"},
		{"slowdown below 1", func(p *Params) { p.Slowdown = 0.9 }, "slowdown must be ≥ 1, got 0.9"},
		{"arrival scv below 1", func(p *Params) { p.ArrivalSCV = 0.5 }, "arrival c² must be ≥ 1 (H2 arrivals), got 0.5"},
		{"negative history", func(p *Params) { p.HistoryJobs = -1 }, "history jobs must be in [0, 2000000], got -1"},
		{"negative drift", func(p *Params) { p.Drift = -0.1 }, "drift must be ≥ 0, got -0.1"},
		{"outlier share", func(p *Params) { p.OutlierShare = 2 }, "outlier share must be in [0, 1], got 2"},
		{"outlier factors", func(p *Params) { p.OutlierMin, p.OutlierMax = 0.5, 8 }, "outlier factors must satisfy 1 ≤ min ≤ max, got [0.5, 8]"},
		{"variable share", func(p *Params) { p.VariableShare = -1 }, "variable share must be in [0, 1], got -1"},
		{"negative value", func(p *Params) { p.BEValue = -1 }, "be value must be in [0, 1e+12], got -1"},
		{"too many jobs", func(p *Params) { p.Hours = 1e5 }, "more than 2000000"},
		{"window too long", func(p *Params) { p.Hours = 3e5 }, "hours must be ≤ 277777.8 (a window of at most 1e+09 s), got 300000"},
		// A sparse window's history, at the window's rate, would reach
		// back further than a workload may (the validation of the result
		// would call it a bug).
		{"history too long ago", func(p *Params) { p.Nodes, p.Load, p.Hours = 8, 1e-6, 1000 }, "before the window, more than 1e+09 s; ask for a higher load or more nodes"},
	}
	for _, gen := range Generators() {
		for _, tc := range tests {
			t.Run(gen+"/"+tc.name, func(t *testing.T) {
				p := defaults(t, gen)
				p.Nodes, p.Racks = 256, DefaultRacks // the layout the messages speak of
				tc.mutate(&p)
				_, err := Generate(gen, p)
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.HasPrefix(err.Error(), gen+" workload: ") {
					t.Fatalf("got %v, want an error %q… containing %q", err, gen+" workload: ", tc.wantErr)
				}
				if !errors.Is(err, ErrInvalid) {
					t.Errorf("error %q does not match ErrInvalid", err)
				}
			})
		}
	}
	// Unknown generators are errors, for every entry point.
	if _, err := Generate("borg", DefaultGoogleParams()); err == nil || !strings.Contains(err.Error(), `unknown workload generator "borg"`) || !errors.Is(err, ErrInvalid) {
		t.Errorf("Generate(borg): %v", err)
	}
	if _, err := DefaultParams("borg"); err == nil || !errors.Is(err, ErrInvalid) {
		t.Errorf("DefaultParams(borg): %v", err)
	}
	p := DefaultGoogleParams()
	p.Nodes = 0
	if err := p.Validate(); err == nil || err.Error() != "workload params: nodes must be ≥ 1, got 0: "+ErrInvalid.Error() {
		t.Errorf("Validate: %v", err)
	}
}

func TestLoadAndMix(t *testing.T) {
	tests := []struct {
		name     string
		nodes    int
		racks    int
		hours    float64
		load     float64
		sloShare float64
	}{
		{"defaults", 256, 8, 5, 1.4, 0.5},
		{"light", 256, 8, 5, 0.5, 0.5},
		{"SLO heavy", 256, 8, 5, 1.4, 0.8},
		{"BE only", 256, 8, 5, 1.0, 0},
		{"small cluster", 64, 4, 2, 1.4, 0.5},
		{"long window", 256, 8, 24, 1.4, 0.5},
	}
	for _, gen := range Generators() {
		for _, tc := range tests {
			for seed := uint64(1); seed <= 3; seed++ {
				p := defaults(t, gen)
				p.Nodes, p.Racks, p.Hours, p.Load, p.SLOShare, p.Seed = tc.nodes, tc.racks, tc.hours, tc.load, tc.sloShare, seed
				p.HistoryJobs = 100
				s := Stats(generateEnv(t, gen, p))
				if math.Abs(s.Load-tc.load)/tc.load > loadTol {
					t.Errorf("%s %s seed %d: load %.4f, want %.2f ± %.0f%%", gen, tc.name, seed, s.Load, tc.load, 100*loadTol)
				}
				want := map[string]float64{"slo": tc.load * tc.sloShare, "be": tc.load * (1 - tc.sloShare)}
				for _, g := range s.ByClass {
					if math.Abs(g.Load-want[g.Name]) > loadTol*tc.load {
						t.Errorf("%s %s seed %d: %s load %.4f, want %.3f", gen, tc.name, seed, g.Name, g.Load, want[g.Name])
					}
					delete(want, g.Name)
				}
				for c, l := range want {
					if l > 0 {
						t.Errorf("%s %s seed %d: no %s jobs, want load %.2f", gen, tc.name, seed, c, l)
					}
				}
			}
		}
	}
}

// TestGoogleJobCount checks the paper's scale: 5 hours on 256 nodes at
// load 1.4 is "~1500 jobs" (3Sigma §5). Single seeds vary (heavy-tailed
// sizes); the mean over seeds must be near 1,500 and every seed within a
// factor of 2.
func TestGoogleJobCount(t *testing.T) {
	const seeds = 12
	total := 0
	for seed := uint64(1); seed <= seeds; seed++ {
		p := DefaultGoogleParams()
		p.Seed, p.HistoryJobs = seed, 0
		n := len(generate(t, p).Jobs)
		if n < 750 || n > 3000 {
			t.Errorf("seed %d: %d jobs, want 750–3000", seed, n)
		}
		total += n
	}
	if mean := total / seeds; mean < 1300 || mean > 1800 {
		t.Errorf("mean %d jobs over %d seeds, want 1300–1800", mean, seeds)
	}
}

func TestH2SamplerSCV(t *testing.T) {
	for _, want := range []float64{1, 4, 9} {
		h := newH2(3, want)
		rng := rand.New(rand.NewPCG(1, 2))
		x := make([]float64, scvSamplerN)
		sum := 0.0
		for i := range x {
			x[i] = h.sample(rng)
			sum += x[i]
		}
		if mean := sum / scvSamplerN; math.Abs(mean-3)/3 > 0.02 {
			t.Errorf("c²=%v: mean %.3f, want 3", want, mean)
		}
		tol := scvSamplerTol * want / 4 // the standard error grows with c²
		if got := scv(x); math.Abs(got-want) > max(tol, 0.05) {
			t.Errorf("c²=%v: sample c² %.3f", want, got)
		}
	}
}

func TestGoogleArrivalSCV(t *testing.T) {
	p := DefaultGoogleParams()
	p.Hours, p.HistoryJobs = scvWorkloadHours, 0
	w := generate(t, p)
	got := Stats(w).ArrivalSCV
	t.Logf("%d arrivals over %v h: c²a = %.3f", len(w.Jobs), p.Hours, got)
	if math.Abs(got-4) > scvWorkloadTol {
		t.Errorf("c²a = %.3f, want 4 ± %.2f", got, scvWorkloadTol)
	}
}

func TestSLOJobs(t *testing.T) {
	tests := []struct {
		name  string
		slack []float64
		racks int
		frac  float64
		want  int // preferred racks per SLO job; 0 = all racks
	}{
		{"defaults", []float64{20, 40, 60, 80}, 8, 0.75, 6},
		{"one slack", []float64{50}, 8, 0.75, 6},
		{"fractional slack", []float64{0, 12.5, 300}, 8, 0.5, 4},
		{"all racks", []float64{20}, 8, 1, 0},
		{"one of four", []float64{20}, 4, 0.25, 1},
	}
	for _, gen := range Generators() {
		for _, tc := range tests {
			t.Run(gen+"/"+tc.name, func(t *testing.T) { testSLOJobs(t, gen, tc.slack, tc.racks, tc.frac, tc.want) })
		}
	}
}

// testSLOJobs checks one generation's deadlines and preferred racks.
func testSLOJobs(t *testing.T, gen string, slacks []float64, racks int, frac float64, want int) {
	p := defaults(t, gen)
	p.SlackPct, p.Racks, p.PreferredFraction = slacks, racks, frac
	p.SLOShare = 0.5 // the task-level generators' default is best-effort only
	w := generateEnv(t, gen, p)
	used := map[float64]int{}
	for _, jobs := range [][]Job{w.History, w.Jobs} {
		for _, j := range jobs {
			if j.Class == BestEffort {
				if len(j.Preferred) != 0 || j.Deadline != 0 {
					t.Fatalf("BE job %d: preferred %v, deadline %v; want all racks, none", j.ID, j.Preferred, j.Deadline)
				}
				continue
			}
			if len(j.Preferred) != want {
				t.Fatalf("SLO job %d prefers %v, want %d of %d racks", j.ID, j.Preferred, want, racks)
			}
			slack := (j.Deadline - j.Submit - j.Runtime) / j.Runtime * 100
			hit := false
			for _, s := range slacks {
				if math.Abs(slack-s) <= slackTol {
					used[s]++
					hit = true
				}
			}
			if !hit {
				t.Fatalf("SLO job %d: slack %.4f%% not in %v", j.ID, slack, slacks)
			}
		}
	}
	for _, s := range slacks {
		if used[s] == 0 {
			t.Errorf("slack %v%% never drawn", s)
		}
	}
}

// TestGooglePreferredRacksUniform checks that SLO jobs' preferred sets are
// random: every rack is preferred by about 6/8 of them.
func TestGooglePreferredRacksUniform(t *testing.T) {
	w := generate(t, DefaultGoogleParams())
	counts := make([]int, 8)
	slo := 0
	for _, j := range w.Jobs {
		if j.Class == SLO {
			slo++
			for _, r := range j.Preferred {
				counts[r]++
			}
		}
	}
	for r, c := range counts {
		// Binomial(slo, 0.75): 5 standard deviations.
		if d := math.Abs(float64(c) - 0.75*float64(slo)); d > 5*math.Sqrt(float64(slo)*0.75*0.25) {
			t.Errorf("rack %d preferred by %d of %d SLO jobs, want ≈ 75%%", r, c, slo)
		}
	}
}

func TestGoogleShape(t *testing.T) {
	p := DefaultGoogleParams()
	w := generate(t, p)
	if got := w.Header.Cluster.PartitionNodes; len(got) != 8 || got[0] != 32 || w.Header.Cluster.Slowdown != 1.5 {
		t.Errorf("cluster %+v, want 8 racks of 32, slowdown 1.5", w.Header.Cluster)
	}
	if w.Header.WindowS != 18000 || w.Header.Generator != GeneratorGoogle || w.Header.Seed != p.Seed {
		t.Errorf("header %+v", w.Header)
	}
	if len(w.History) != p.HistoryJobs {
		t.Errorf("%d history jobs, want %d", len(w.History), p.HistoryJobs)
	}
	for i, j := range w.Jobs {
		if j.ID != i {
			t.Fatalf("window job %d has id %d", i, j.ID)
		}
		if j.Features.Name == "" || j.Features.User == "" || j.Features.App == "" || j.Kind == "" {
			t.Fatalf("job %d lacks features: %+v kind %q", j.ID, j.Features, j.Kind)
		}
		if want := int(j.Submit/3600) % 24; j.Features.SubmitHour != want {
			t.Fatalf("job %d submitted at %v s has hour %d", j.ID, j.Submit, j.Features.SubmitHour)
		}
	}
	if w.History[len(w.History)-1].Features.SubmitHour != 23 || w.History[len(w.History)-1].Features.SubmitDay != 6 {
		t.Errorf("last history job (just before 0) should be on day 6, hour 23: %+v", w.History[len(w.History)-1].Features)
	}
	s := Stats(w)
	kinds := []string{}
	for _, g := range s.ByKind {
		kinds = append(kinds, g.Name)
	}
	if strings.Join(kinds, ",") != "short,medium,long,very-long" {
		t.Errorf("kinds by median runtime: %v", kinds)
	}
	// Heavy tails: the biggest gangs and runtimes are far above the median.
	if s.GangSize.P50 > 4 || s.GangSize.Max < 16*s.GangSize.P50 {
		t.Errorf("gang sizes not heavy-tailed: %+v", s.GangSize)
	}
	if s.Runtime.P99 < 10*s.Runtime.P50 || s.Runtime.P50 < 60 || s.Runtime.P50 > 3600 {
		t.Errorf("runtimes: %+v", s.Runtime)
	}
}

func TestGoogleValues(t *testing.T) {
	p := DefaultGoogleParams()
	p.SLOValue, p.BEValue = 5, 2
	for _, j := range generate(t, p).Jobs {
		if want := map[Class]float64{SLO: 5, BestEffort: 2}[j.Class]; j.Value != want {
			t.Fatalf("job %d (%v) value %v, want %v", j.ID, j.Class, j.Value, want)
		}
	}
	p.ValuePerNodeHour = true
	w := generate(t, p)
	for _, j := range w.Jobs {
		per := map[Class]float64{SLO: 5, BestEffort: 2}[j.Class]
		// value / (per · nodes) is the name's median runtime in hours: the
		// same for every job of a name.
		if j.Value <= 0 || j.Value/(per*float64(j.Nodes)) > 24 {
			t.Fatalf("job %d value %v", j.ID, j.Value)
		}
	}
}

func TestDeterministic(t *testing.T) {
	files := map[string][]byte{}
	for _, gen := range Generators() {
		p := defaults(t, gen)
		a := encode(t, generateEnv(t, gen, p))
		b := encode(t, generateEnv(t, gen, p))
		if !bytes.Equal(a, b) {
			t.Fatalf("%s: same params gave different files", gen)
		}
		p.Seed++
		if c := encode(t, generateEnv(t, gen, p)); bytes.Equal(a, c) {
			t.Fatalf("%s: different seeds gave the same file", gen)
		}
		// The caller's slack slice is not retained.
		q := defaults(t, gen)
		w := generateEnv(t, gen, q)
		q.SlackPct[0] = 99
		if bytes.Contains(w.Header.Params, []byte("99")) {
			t.Errorf("%s: header params alias the caller's slack slice", gen)
		}
		files[gen] = a
	}
	if bytes.Equal(files[GeneratorGoogle], files[GeneratorHedgeFund]) || bytes.Equal(files[GeneratorHedgeFund], files[GeneratorMustang]) {
		t.Error("two environments gave the same file")
	}
}

// TestGoogleUnchanged pins the default Google-like workload of seed 1, byte
// for byte: experiments and their recorded results depend on it, so a change
// of the engine that moves it must be deliberate (update the digest and say
// so in the commit).
func TestGoogleUnchanged(t *testing.T) {
	const want = "0956cad124a7a77755635ba005404ae8c182147bfdde1f245b0fe2fcc2153be1"
	sum := sha256.Sum256(encode(t, generate(t, DefaultGoogleParams())))
	if got := hex.EncodeToString(sum[:]); got != want {
		t.Errorf("default google workload (seed 1) has SHA-256 %s, want %s", got, want)
	}
}

// TestCatalogStable checks that the job-name catalogue does not depend on
// hours or load: the same name has the same user, app, kind and requested
// time (but in DAG workloads, whose stages take their first stage's name).
func TestCatalogStable(t *testing.T) {
	for _, gen := range Generators() {
		if models[gen].dags {
			continue
		}
		p := defaults(t, gen)
		a := generateEnv(t, gen, p)
		p.Hours, p.Load = 2, 0.7
		b := generateEnv(t, gen, p)
		names := map[string]Job{}
		for _, j := range a.History {
			names[j.Features.Name] = j
		}
		for _, j := range b.History {
			if o, ok := names[j.Features.Name]; ok && (o.Features.User != j.Features.User || o.Features.App != j.Features.App || o.Kind != j.Kind || o.Requested != j.Requested) {
				t.Fatalf("%s: name %s changed: %+v vs %+v", gen, j.Features.Name, o, j)
			}
		}
	}
}

// TestGoogleHistoryPredicts checks that the prediction knobs act as meant,
// with a stand-in predictor (per-name median of the history, see
// standInProfile): at the defaults some jobs are off by a factor ≥ 2 and most
// are within ±25%; with drift, outliers and variable names off, almost none
// are off by 2×; with many outliers, many are. The calibration itself (8–12%
// off by 2× with 3σPredict, as the Google trace in 3Sigma §2.1) is checked by
// TestGoogleLikeEstimateErrors in package experiments.
func TestGoogleHistoryPredicts(t *testing.T) {
	const seeds = 8
	var off, within float64
	for seed := uint64(1); seed <= seeds; seed++ {
		p := DefaultGoogleParams()
		p.Seed = seed
		pr := standInProfile(generate(t, p))
		off += pr.offBy2 / seeds
		within += pr.within25 / seeds
	}
	t.Logf("defaults, %d seeds: off by ≥2× %.1f%%, within ±25%% %.1f%%", seeds, 100*off, 100*within)
	if off < 0.03 || off > 0.12 || within < 0.6 {
		t.Errorf("off by ≥2× %.1f%% (want 3–12%%), within ±25%% %.1f%% (want ≥ 60%%)", 100*off, 100*within)
	}

	p := DefaultGoogleParams()
	p.Drift, p.OutlierShare, p.VariableShare = 0, 0, 0
	pr := standInProfile(generate(t, p))
	t.Logf("no drift, outliers or variable names: %v", pr)
	if pr.offBy2 > 0.01 || pr.within25 < 0.85 {
		t.Errorf("easy workload: %v, want ≤ 1%% off by 2× and ≥ 85%% within ±25%%", pr)
	}
	p.OutlierShare = 0.2
	if hard := standInProfile(generate(t, p)); hard.offBy2 < 0.15 {
		t.Errorf("20%% outliers: %v, want ≥ 15%% off by 2×", hard)
	}
}

func TestParamsOf(t *testing.T) {
	for _, gen := range Generators() {
		p := defaults(t, gen)
		p.Seed, p.HistoryJobs, p.Hours = 42, 10, 1
		w := generateEnv(t, gen, p)
		g, got, err := ParamsOf(&w.Header)
		if err != nil || g != gen {
			t.Fatalf("%s: ParamsOf: %q, %v", gen, g, err)
		}
		again := generateEnv(t, g, got)
		if !bytes.Equal(encode(t, w), encode(t, again)) {
			t.Errorf("%s: regenerating from the header's params gave a different workload", gen)
		}
		if _, err := GoogleParamsOf(&w.Header); (err == nil) != (gen == GeneratorGoogle) {
			t.Errorf("%s: GoogleParamsOf: %v", gen, err)
		}
	}
	if _, _, err := ParamsOf(&smallWorkload().Header); err == nil {
		t.Error("params of a hand-made workload decoded")
	}
}

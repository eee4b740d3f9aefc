package wing

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/plannerhq/planner/workloads/datalake"
)

// TestCalibrationInferred is acceptance 1: on seeds 1–3 every §2.3 share
// the profile infers from the log meets its target, and the inferred
// edges have precision and recall ≥ 0.95 against the generator's truth.
func TestCalibrationInferred(t *testing.T) {
	for _, seed := range seeds {
		l, p := profileOf(t, seed)
		for _, tg := range datalake.Targets {
			t.Run(fmt.Sprintf("seed%d/%s", seed, tg.Name), func(t *testing.T) {
				v, err := p.Shares.Get(tg.Name)
				if err != nil {
					t.Fatal(err)
				}
				if !tg.Met(v) {
					t.Errorf("inferred %s = %.3f misses %.2f (above %v, at most %v)", tg.Name, v, tg.Value, tg.Above, tg.AtMost)
				}
			})
		}
		t.Run(fmt.Sprintf("seed%d/edges", seed), func(t *testing.T) {
			ev := Evaluate(p, l)
			if ev.EdgePrecision < 0.95 || ev.EdgeRecall < 0.95 {
				t.Errorf("edge precision %.4f, recall %.4f; want ≥ 0.95", ev.EdgePrecision, ev.EdgeRecall)
			}
			if ev.ValueAgreement < 0.999 {
				t.Errorf("job-local values agree for %.4f of valued jobs", ev.ValueAgreement)
			}
			if ev.ClassAccuracy < 0.98 || ev.DepKindAccuracy < 0.98 {
				t.Errorf("Table 1 classes right for %.4f of templates, kinds for %.4f of edges; want ≥ 0.98", ev.ClassAccuracy, ev.DepKindAccuracy)
			}
		})
	}
}

// TestFig5ValueFunction plays Fig. 5 through the whole profiler: daily
// jobs A at 00:00, B at 01:00 and C at 02:00 reading A, D at 03:00 and E
// at 03:30 reading C, with 1…5 downloads each. An A job is worth all 15;
// it loses B's 2 when B arrives an hour after it, C's subtree (3 + 4 +
// 5) when C arrives after two hours, and keeps its own 1 to the end.
func TestFig5ValueFunction(t *testing.T) {
	const h = datalake.Hour
	g := dailyLog([]tspec{
		{name: "A", org: "o1", offset: 0, runtime: 600, downloads: 1},
		{name: "B", org: "o1", offset: h, runtime: 600, reads: []string{"A"}, downloads: 2},
		{name: "C", org: "o2", offset: 2 * h, runtime: 600, reads: []string{"A"}, downloads: 3},
		{name: "D", org: "o2", offset: 3 * h, runtime: 600, reads: []string{"C"}, downloads: 4},
		{name: "E", org: "o3", offset: 3.5 * h, runtime: 600, reads: []string{"C"}, downloads: 5},
	})
	p, err := Build(g, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"A", "B", "C", "D", "E"} {
		tc := &p.Templates[p.byName[name]]
		if !tc.Periodic {
			t.Fatalf("%s is %s, want periodic", name, tc.Class())
		}
	}
	const at = 100 * h
	e := p.Estimate("A", "u-A", at)
	if !e.Recurring || e.Value != 15 {
		t.Fatalf("A: recurring %v, value %v; want recurring, 15", e.Recurring, e.Value)
	}
	want := []Step{{At: at + h, Drop: 2, Template: "B"}, {At: at + 2*h, Drop: 12, Template: "C"}}
	if len(e.VF.Steps) != len(want) {
		t.Fatalf("A's steps %+v, want %+v", e.VF.Steps, want)
	}
	for i, s := range e.VF.Steps {
		if s.Template != want[i].Template || math.Abs(s.At-want[i].At) > 1e-9 || math.Abs(s.Drop-want[i].Drop) > 1e-9 {
			t.Errorf("step %d: %+v, want %+v", i, s, want[i])
		}
	}
	for _, c := range []struct{ t, v float64 }{{at + 0.5*h, 15}, {at + h, 15}, {at + 1.5*h, 13}, {at + 5*h, 1}} {
		if got := e.VF.At(c.t); math.Abs(got-c.v) > 1e-9 {
			t.Errorf("A's value at +%.1f h: %v, want %v", (c.t-at)/h, got, c.v)
		}
	}
	if f := e.VF.Final(); math.Abs(f-1) > 1e-9 {
		t.Errorf("A retains %v, want its own 1", f)
	}
	// C loses D an hour after it and E after an hour and a half.
	c := p.Estimate("C", "u-C", at).VF
	if c.Height != 12 || len(c.Steps) != 2 || c.Steps[0].Template != "D" || c.Steps[1].Template != "E" ||
		math.Abs(c.Steps[0].At-(at+h)) > 1e-9 || math.Abs(c.Steps[1].At-(at+1.5*h)) > 1e-9 || math.Abs(c.Final()-3) > 1e-9 {
		t.Errorf("C's value function %+v", c)
	}
	// Aggregate value efficiency: 15 downloads over the five jobs' 5 × 1/6 h.
	if got := e.Efficiency; math.Abs(got-15/(5.0/6)) > 1e-9 {
		t.Errorf("A's efficiency %v, want %v", got, 15/(5.0/6))
	}
	if got := e.DirectEfficiency; math.Abs(got-6) > 1e-9 {
		t.Errorf("A's direct efficiency %v, want 6", got)
	}
}

// TestNoHardStepForPolling checks that only hard dependents step a value
// function: a polling dependent waits for the output, so it takes none.
func TestNoHardStepForPolling(t *testing.T) {
	const h = datalake.Hour
	specs := []tspec{
		{name: "A", org: "o", offset: 0, runtime: 600, downloads: 1},
		{name: "B", org: "o", offset: h, runtime: 600, reads: []string{"A"}, downloads: 2},
	}
	g := dailyLog(specs)
	// P reads A 5 minutes after each A ends, at a varying time: polling.
	for i := range g.Jobs {
		if j := g.Jobs[i]; j.Template == "A" {
			s := j.End + 300 + float64(i%7)*30
			g.Jobs = append(g.Jobs, datalake.LogJob{ID: len(g.Jobs), Template: "P", User: "u-P", Org: "o",
				Submit: s, Start: s, End: s + 600, ComputeHours: 1.0 / 6, Reads: j.Writes, Writes: []string{fmt.Sprint("P/", i)}})
		}
	}
	p, err := Build(g, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if c := p.Templates[p.byName["P"]]; !c.Polling {
		t.Fatalf("P is %s, want polling", c.Class())
	}
	vf := p.Estimate("A", "u-A", 0).VF
	if len(vf.Steps) != 1 || vf.Steps[0].Template != "B" {
		t.Errorf("A's steps %+v, want one for B", vf.Steps)
	}
}

func TestEstimateAdHoc(t *testing.T) {
	_, p := profileOf(t, 1)
	var user string
	for n := range p.Users {
		user = n
		break
	}
	e := p.Estimate("never-seen", user, 0)
	if e.Recurring || e.Efficiency != p.Users[user].Efficiency || len(e.VF.Steps) != 0 {
		t.Errorf("ad-hoc estimate %+v, want the user's median %+v", e, p.Users[user])
	}
	if e := p.Estimate("never-seen", "nobody", 0); e.Efficiency != p.AdHoc.Efficiency {
		t.Errorf("unknown user's estimate %v, want the ad-hoc median %v", e.Efficiency, p.AdHoc.Efficiency)
	}
}

// TestConvergence checks Fig. 6's shape: value found grows with every
// iteration from the job-local value to all of it.
func TestConvergence(t *testing.T) {
	_, p := profileOf(t, 1)
	c := p.Convergence
	if len(c) != p.Iterations+1 || c[0].Iteration != 0 {
		t.Fatalf("%d convergence points for %d iterations", len(c), p.Iterations)
	}
	for i := 1; i < len(c); i++ {
		if c[i].MeanShare < c[i-1].MeanShare || c[i].TotalShare < c[i-1].TotalShare {
			t.Errorf("value found fell at iteration %d: %+v after %+v", i, c[i], c[i-1])
		}
	}
	if last := c[len(c)-1]; math.Abs(last.MeanShare-1) > 1e-9 || math.Abs(last.TotalShare-1) > 1e-9 {
		t.Errorf("converged at %+v, want all of it", last)
	}
	if c[0].TotalShare > 0.5 {
		t.Errorf("job-local value is %.2f of aggregate value; the lake hides most value downstream", c[0].TotalShare)
	}
}

// TestProfileReadsOnlyTheLog checks that the truth the log leaves out —
// template kinds, dependency kinds, the lake's window — changes nothing
// in the profile.
func TestProfileReadsOnlyTheLog(t *testing.T) {
	l, err := datalake.Generate(datalake.Params{Seed: 9, Scale: 0.25})
	if err != nil {
		t.Fatal(err)
	}
	p1, err := Build(l.Log(), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for i := range l.Templates {
		l.Templates[i].Kind = datalake.Kind((int(l.Templates[i].Kind) + 1) % 5)
		l.Templates[i].Deps = nil
	}
	for i := range l.Jobs {
		for k := range l.Jobs[i].Inputs {
			l.Jobs[i].Inputs[k].Kind = datalake.Soft
		}
		if l.Jobs[i].Submit >= 0 {
			l.Jobs[i].Outputs = nil
		}
	}
	p2, err := Build(l.Log(), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(struct {
		S datalake.Shares
		C []IterationValue
		T []TemplateStats
		A []Arrival
	}{p1.Shares, p1.Convergence, p1.Stats, p1.Arrivals})
	b, _ := json.Marshal(struct {
		S datalake.Shares
		C []IterationValue
		T []TemplateStats
		A []Arrival
	}{p2.Shares, p2.Convergence, p2.Stats, p2.Arrivals})
	if !bytes.Equal(a, b) {
		t.Fatal("changing the truth outside the log changed the profile")
	}
}

func TestArrivalThreshold(t *testing.T) {
	l, err := datalake.Generate(datalake.Params{Seed: 4, Scale: 0.25})
	if err != nil {
		t.Fatal(err)
	}
	g := l.Log()
	predicted := func(tr float64) int {
		o := DefaultOptions()
		o.Threshold = tr
		p, err := Build(g, o)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, a := range p.Arrivals {
			if a.Predicted {
				n++
			}
			if a.Predicted != (a.Consumed >= tr && a.Consumed > 0) {
				t.Fatalf("tr %v: pair consumed %v predicted %v", tr, a.Consumed, a.Predicted)
			}
		}
		return n
	}
	if lo, hi := predicted(0.9), predicted(0.05); lo >= hi {
		t.Errorf("tr 0.9 predicts %d pairs, tr 0.05 %d: a higher threshold must predict fewer", lo, hi)
	}
}

func TestOptionsValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Options)
	}{
		{"window", func(o *Options) { o.Window = 0 }},
		{"value window", func(o *Options) { o.ValueWindow = math.Inf(1) }},
		{"threshold", func(o *Options) { o.Threshold = 1.5 }},
		{"rule share", func(o *Options) { o.RuleShare = 0 }},
		{"min recurring", func(o *Options) { o.MinRecurring = 0 }},
		{"periodic cv", func(o *Options) { o.PeriodicCV = math.NaN() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := DefaultOptions()
			tt.edit(&o)
			if err := o.Validate(); err == nil {
				t.Errorf("accepted %+v", o)
			}
		})
	}
	if err := DefaultOptions().Validate(); err != nil {
		t.Error(err)
	}
	if _, err := Build(&datalake.Log{}, DefaultOptions()); err == nil {
		t.Error("built a profile of an empty log")
	}
}

// TestOracle checks the oracle's values on the window: aggregate value
// at least job-local value, and the window's value conserved at its
// source jobs.
func TestOracle(t *testing.T) {
	l, err := datalake.Generate(datalake.Params{Seed: 3, Scale: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	jobs, tr := l.WindowJobs(), l.Truth()
	vals := Oracle(jobs, tr, 1e12) // no window: conservation is exact
	hasUp := map[int]bool{}
	for _, e := range tr.Edges() {
		hasUp[e[1]] = true
	}
	total, sources := 0.0, 0.0
	for i, v := range vals {
		if v.AggValue < v.Local-1e-9 || v.AggCompute < v.Compute-1e-9 {
			t.Fatalf("job %d: %+v", jobs[i].ID, v)
		}
		total += v.Local
		if !hasUp[jobs[i].ID] {
			sources += v.AggValue
		}
	}
	if math.Abs(sources-total) > 1e-6*total {
		t.Errorf("sources hold %v of the window's %v", sources, total)
	}
}

package workloads

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestParseScalability(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		ok   bool
	}{
		{"scalability-2000", 2000, true},
		{"scalability-1", 1, true},
		{"scalability-007", 7, true},
		{"scalability-1000000", 1_000_000, true},
		{"scalability-1000001", 0, false},
		{"scalability-0", 0, false},
		{"scalability-", 0, false},
		{"scalability--5", 0, false},
		{"scalability-+5", 0, false},
		{"scalability-2e3", 0, false},
		{"scalability-99999999999999999999", 0, false},
		{"scalability", 0, false},
		{"google", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, ok := ParseScalability(tc.name)
			if n != tc.n || ok != tc.ok {
				t.Errorf("ParseScalability(%q) = %d, %v; want %d, %v", tc.name, n, ok, tc.n, tc.ok)
			}
			if IsGenerator(tc.name) != tc.ok && tc.name != "google" {
				t.Errorf("IsGenerator(%q) = %v", tc.name, !tc.ok)
			}
		})
	}
	if ScalabilityName(4000) != "scalability-4000" {
		t.Errorf("ScalabilityName(4000) = %q", ScalabilityName(4000))
	}
}

// TestScalabilityWorkload: SCALABILITY-N has N jobs an hour exactly, on
// the GOOGLE cluster, at the offered load asked, and its history is drawn
// at the window's runtime scale.
func TestScalabilityWorkload(t *testing.T) {
	for _, tc := range []struct {
		n     int
		hours float64
		load  float64
	}{
		{2000, 5, 0.95},
		{4000, 1, 0.95},
		{4000, 1, 1.4},
		{300, 2, 0.5},
	} {
		gen := ScalabilityName(tc.n)
		p, err := DefaultParams(gen)
		if err != nil {
			t.Fatal(err)
		}
		if p.Load != 0.95 || p.Nodes != 12583 || p.JobsPerHour != tc.n || p.Cluster().Name != GoogleClusterName {
			t.Fatalf("%s defaults: load %v, nodes %d, jobs/h %d, cluster %q", gen, p.Load, p.Nodes, p.JobsPerHour, p.Cluster().Name)
		}
		p.Hours, p.Load = tc.hours, tc.load
		w, err := Generate(gen, p)
		if err != nil {
			t.Fatal(err)
		}
		if want := int(float64(tc.n) * tc.hours); len(w.Jobs) != want {
			t.Errorf("%s, %v h: %d jobs, want %d", gen, tc.hours, len(w.Jobs), want)
		}
		load := Work(w.Jobs) / (float64(w.Header.Cluster.TotalNodes()) * w.Header.WindowS)
		if math.Abs(load-tc.load) > 1e-3*tc.load {
			t.Errorf("%s at load %v: offered load %v", gen, tc.load, load)
		}
		if w.Header.Generator != gen {
			t.Errorf("header generator %q, want %q", w.Header.Generator, gen)
		}
		// The predictor learns the window's runtime scale: history and
		// window medians of the names both have agree within a factor 2.
		if r := medianRuntime(w.History) / medianRuntime(w.Jobs); r < 0.5 || r > 2 {
			t.Errorf("%s: history median runtime / window median = %v", gen, r)
		}
		_, q, err := ParamsOf(&w.Header)
		if err != nil || q.JobsPerHour != tc.n {
			t.Errorf("ParamsOf: jobs/h %d, %v", q.JobsPerHour, err)
		}
		again, err := Generate(gen, q)
		if err != nil {
			t.Fatal(err)
		}
		var a, b bytes.Buffer
		if err := Write(&a, w); err != nil {
			t.Fatal(err)
		}
		if err := Write(&b, again); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: regenerating from the header's params gives another workload", gen)
		}
	}
}

func medianRuntime(jobs []Job) float64 {
	rt := make([]float64, len(jobs))
	for i := range jobs {
		rt[i] = jobs[i].Runtime
	}
	return quantiles(rt).P50
}

// TestScalabilityParamsRefused: the job count belongs to the generator's
// name.
func TestScalabilityParamsRefused(t *testing.T) {
	p, _ := DefaultParams("scalability-100")
	if _, err := Generate("scalability-200", p); !errors.Is(err, ErrInvalid) {
		t.Errorf("jobs per hour 100 under scalability-200: %v", err)
	}
	g := DefaultGoogleParams()
	g.JobsPerHour = 10
	if _, err := Generate(GeneratorGoogle, g); !errors.Is(err, ErrInvalid) {
		t.Errorf("jobs per hour on google: %v", err)
	}
	p, _ = DefaultParams("scalability-1000000")
	if _, err := Generate("scalability-1000000", p); !errors.Is(err, ErrInvalid) {
		t.Errorf("5 million jobs: %v", err)
	}
}

// TestTasksOf: gang sizes follow the Google trace's tasks per job: the
// share of single-task jobs, the median, p90 and the mean within the
// sampling error of 200,000 draws, and sizes above the cluster never.
func TestTasksOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 200_000
	x := make([]float64, n)
	one, sum := 0, 0.0
	for i := range x {
		k := tasksOf(rng, googleTasks, 1<<20)
		x[i] = float64(k)
		sum += x[i]
		if k == 1 {
			one++
		}
	}
	total := 0.0
	for _, b := range googleTasks {
		total += b.count
	}
	if got, want := float64(one)/n, 7400/total; math.Abs(got-want) > 0.005 {
		t.Errorf("single-task share %v, want %v", got, want)
	}
	if q := quantiles(x).P50; q != 1 {
		t.Errorf("median %v, want 1", q)
	}
	if q := quantiles(x).P90; q < 9 || q > 16 {
		t.Errorf("p90 %v, want in the trace's 9–16 bin (16)", q)
	}
	// The trace's mean is 27.1; log-uniform within bins gives about the
	// same (the heavy bins dominate, so the tolerance is wide).
	if m := sum / n; m < 20 || m > 36 {
		t.Errorf("mean %v, want ≈ 27", m)
	}
	for range 10_000 {
		if k := tasksOf(rng, googleTasks, 100); k < 1 || k > 100 {
			t.Fatalf("size %d outside [1, 100]", k)
		}
	}
}

package threesigma

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/estimate"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/solver"
	"github.com/plannerhq/planner/utility"
	"github.com/plannerhq/planner/workloads"
)

// thoughtConfig plans in 2.5-minute slices with starts at every slice up to
// 15 minutes, so the thought experiment's start times are all options.
func thoughtConfig() Config {
	return Config{Slice: 150, Slices: 12, Starts: []int{0, 1, 2, 3, 4, 5, 6}}
}

// TestThoughtExperiment is 3Sigma §2.3: one node, an SLO job with a 15-minute
// deadline (value 10) and a best-effort job (value 1, decaying), both with
// runtimes of mean 5 minutes. With runtimes uniform on [0, 10] min, running
// the BE job first leaves the SLO job a 50% chance at best, so the plan starts
// the SLO job; with [2.5, 7.5] min both fit in the window even at their
// longest, so the plan starts the BE job first. A point estimate of 5 min
// (3sigma-nodist) starts the BE job first in both cases.
func TestThoughtExperiment(t *testing.T) {
	uniform := func(lo, hi float64) distributions.Piecewise { return distributions.Uniform{Lo: lo, Hi: hi} }
	tests := []struct {
		name  string
		dist  distributions.Piecewise
		first int // job ID started now
	}{
		{name: "A uniform 0-10 min: SLO first", dist: uniform(0, 600), first: 1},
		{name: "B uniform 2.5-7.5 min: BE first", dist: uniform(150, 450), first: 2},
		{name: "point 5 min: BE first", dist: distributions.Point{V: 300}, first: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			slo := newJob(1).SLO(900).Value(10).Runtime(300).Job()
			be := newJob(2).Value(1).Runtime(300).Job()
			s, err := NewCustom(Name3Sigma, thoughtConfig(), fixedEstimator{1: tc.dist, 2: tc.dist})
			if err != nil {
				t.Fatal(err)
			}
			h := plannertest.New(t, s, []int{1}, 60)
			h.Submit(slo, be)
			d := h.Step()
			if d.Stats.Fallback || !d.Stats.Solved {
				t.Fatalf("stats %+v: want a solved cycle", d.Stats)
			}
			if len(d.Start) != 1 || d.Start[0].JobID != tc.first {
				t.Fatalf("started %+v, want job %d first", d.Start, tc.first)
			}
		})
	}
}

// randomWorkload is a seeded mix of SLO and BE jobs on a small cluster.
func randomWorkload(seed uint64, n int, nodes int) []*workloads.Job {
	rng := rand.New(rand.NewPCG(seed, 7))
	var jobs []*workloads.Job
	t := 0.0
	for i := range n {
		t += rng.ExpFloat64() * 40
		rt := 60 + rng.Float64()*600
		b := newJob(i + 1).Submit(t).Runtime(rt).Nodes(1 + rng.IntN(nodes/2)).Value(rt).Name([]string{"a", "b", "c"}[rng.IntN(3)])
		if rng.IntN(2) == 0 {
			b = b.SLO(t + rt*(1.2+0.2*float64(rng.IntN(4)))).Preferred(rng.IntN(2)).Value(2 * rt)
		}
		jobs = append(jobs, b.Job())
	}
	return jobs
}

// TestHarnessInvariants steps every variant through a seeded workload and
// checks, cycle by cycle, that decisions never exceed the free nodes, only
// best-effort jobs are preempted (both checked by the harness), only options
// starting in slice 0 are enacted, and the cycles are solved.
func TestHarnessInvariants(t *testing.T) {
	type run struct {
		name, variant string
		cfg           Config
	}
	var runs []run
	for _, v := range Variants() {
		runs = append(runs, run{v, v, Config{Mode: SolveDeterministic}})
	}
	runs = append(runs, run{"3sigma rack rows everywhere", Name3Sigma, Config{Mode: SolveDeterministic, RackSlices: 1000}})
	for _, r := range runs {
		v := r.variant
		t.Run(r.name, func(t *testing.T) {
			s, err := NewVariant(r.cfg, v, nil)
			if err != nil {
				t.Fatal(err)
			}
			s.Train(historyFor(randomWorkload(99, 60, 8)))
			var planned, later int
			s.inspect = func(c *cycle) {
				if !c.solved {
					return
				}
				now := map[int]bool{}
				for _, o := range c.opts {
					if c.res.X[o.x] > 0.5 {
						if o.start == 0 {
							now[c.jobs[o.job].p.Job.ID] = true
						} else {
							later++
						}
					}
				}
				planned += len(now)
				for _, pl := range c.dec.Start {
					if !now[pl.JobID] {
						t.Errorf("cycle %d: job %d started without an s = 0 option chosen", c.id, pl.JobID)
					}
				}
			}
			h := plannertest.New(t, s, []int{4, 4}, 60)
			h.Submit(randomWorkload(1, 40, 8)...)
			fallbacks := 0
			for range 60 {
				if d := h.Step(); d.Stats.Fallback {
					fallbacks++
				}
			}
			if fallbacks > 0 {
				t.Errorf("%d fallbacks in 60 cycles, want 0", fallbacks)
			}
			if len(h.Completed) < 10 { // the workload overloads the 8 nodes; ~20 is typical
				t.Errorf("only %d of 40 jobs completed in an hour", len(h.Completed))
			}
			t.Logf("%s: completed %d, starts now %d, options chosen for later %d, preemptions %d", v, len(h.Completed), planned, later, len(h.Preemptions))
		})
	}
}

func historyFor(jobs []*workloads.Job) []workloads.Job {
	var h []workloads.Job
	for _, j := range jobs {
		h = append(h, *j)
	}
	return h
}

// TestUnderestimateExpInc: a job that outlives its distribution (at most
// 100 s) has its expected end extended by 1, 2, then 4 cycles, each time its
// elapsed time passes the previous expected end (3Sigma §4.2).
func TestUnderestimateExpInc(t *testing.T) {
	job := newJob(1).Runtime(10000).Job()
	s, err := NewCustom(Name3Sigma, Config{}, fixedEstimator{1: distributions.Uniform{Lo: 0, Hi: 100}})
	if err != nil {
		t.Fatal(err)
	}
	const cycleLen = 60.0
	run := &planner.Running{Job: job, Start: 0, Alloc: []int{1}}
	var ends []float64
	for now := 0.0; now <= 600; now += cycleLen {
		st := &planner.State{Now: now, Cluster: workloads.Cluster{PartitionNodes: []int{2}, Slowdown: 1.5}, Free: []int{1}, Running: []*planner.Running{run}, Interval: cycleLen}
		if _, err := s.Schedule(context.Background(), st); err != nil {
			t.Fatal(err)
		}
		if e := s.ext[1]; e != nil && (len(ends) == 0 || ends[len(ends)-1] != e.end) {
			ends = append(ends, e.end)
		}
	}
	// Elapsed 120 ≥ 100: end 100 + 60; elapsed 180 ≥ 160: + 120; elapsed
	// 300 ≥ 280: + 240 → 520; elapsed 540 ≥ 520: + 480 → 1000.
	want := []float64{160, 280, 520, 1000}
	if !slices.Equal(ends, want) {
		t.Fatalf("expected ends %v, want %v (extensions of 1, 2, 4, 8 cycles)", ends, want)
	}
	for i := 1; i < len(want); i++ {
		if got := (ends[i] - ends[i-1]) / cycleLen; got != float64(int(1)<<i) {
			t.Errorf("extension %d is %v cycles, want %d", i, got, 1<<i)
		}
	}
	// A restarted run starts over.
	run2 := &planner.Running{Job: job, Start: 700, Alloc: []int{1}}
	st := &planner.State{Now: 710, Cluster: workloads.Cluster{PartitionNodes: []int{2}, Slowdown: 1.5}, Free: []int{1}, Running: []*planner.Running{run2}, Interval: cycleLen}
	if _, err := s.Schedule(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	if e := s.ext[1]; e != nil {
		t.Errorf("restarted run kept extension %+v", *e)
	}
}

// TestFallbackImpossibleLimit: with a 1 ns solve limit no solver answers;
// the cycle counts a fallback and still starts jobs by priority.
func TestFallbackImpossibleLimit(t *testing.T) {
	s, err := NewCustom(NamePointPerfEst, Config{SolveTimeout: time.Nanosecond}, estimate.Perfect{})
	if err != nil {
		t.Fatal(err)
	}
	h := plannertest.New(t, s, []int{4}, 60)
	h.Submit(newJob(1).Nodes(2).Job(), newJob(2).Nodes(2).SLO(1000).Job(), newJob(3).Nodes(3).Job())
	d := h.Step()
	if !d.Stats.Fallback {
		t.Fatalf("stats %+v: want a fallback", d.Stats)
	}
	if len(d.Start) == 0 || d.Start[0].JobID != 2 {
		t.Fatalf("fallback started %+v, want the SLO job 2 first", d.Start)
	}
}

// TestPreemptsOnlyBestEffort: a high-value SLO job that can only make its
// deadline now preempts the best-effort job holding the node, but never an
// SLO job.
func TestPreemptsOnlyBestEffort(t *testing.T) {
	for _, class := range []workloads.Class{workloads.BestEffort, workloads.SLO} {
		t.Run(class.String(), func(t *testing.T) {
			s, err := NewCustom(NamePointPerfEst, Config{}, estimate.Perfect{})
			if err != nil {
				t.Fatal(err)
			}
			holder := newJob(1).Runtime(3000).Value(1).Job()
			if class == workloads.SLO {
				holder = newJob(1).Runtime(3000).Value(1).SLO(1e6).Job()
			}
			h := plannertest.New(t, s, []int{1}, 60)
			h.Submit(holder)
			h.Step()
			h.Submit(newJob(2).Submit(60).Runtime(300).SLO(400).Value(100).Job())
			d := h.Step()
			wantPreempt := class == workloads.BestEffort
			if got := slices.Contains(d.Preempt, 1); got != wantPreempt {
				t.Fatalf("decision %+v: preempted job 1 = %v, want %v", d, got, wantPreempt)
			}
			if wantPreempt && (len(d.Start) != 1 || d.Start[0].JobID != 2) {
				t.Fatalf("started %+v, want the SLO job 2", d.Start)
			}
		})
	}
}

// TestVariants checks on small hand cases that the variants differ as
// Table 1 and §6.2 say.
func TestVariants(t *testing.T) {
	t.Run("pointperfest uses the true runtime", func(t *testing.T) {
		// True runtime 300 s fits the 400 s deadline; the untrained
		// predictor's default estimate (600 s) does not.
		job := newJob(1).Runtime(300).SLO(400).Value(10).Job()
		for v, want := range map[string]bool{NamePointPerfEst: true, NamePointRealEst: false} {
			s, err := NewVariant(Config{}, v, nil)
			if err != nil {
				t.Fatal(err)
			}
			h := plannertest.New(t, s, []int{1}, 60)
			h.Submit(job)
			d := h.Step()
			if got := len(d.Start) == 1; got != want {
				t.Errorf("%s: started %+v, want started = %v", v, d.Start, want)
			}
			if e := s.jobs[1].est.Point; v == NamePointPerfEst && e != 300 {
				t.Errorf("%s: estimate %v, want the true runtime 300", v, e)
			}
		}
	})
	t.Run("over-estimate handling", func(t *testing.T) {
		// History: jobs named "x" run 1000–1200 s; this one has 500 s to its
		// deadline (and really needs 400 s). With no over-estimate handling
		// it is worthless; with it (always, or adaptively since its chance is
		// 0 < threshold) it runs on the idle node.
		var hist []workloads.Job
		for i := range 20 {
			hist = append(hist, *newJob(100 + i).Name("x").Runtime(1000 + 10*float64(i)).Job())
		}
		job := newJob(1).Name("x").Runtime(400).SLO(500).Value(10).Job()
		for v, want := range map[string]bool{Name3SigmaNoOE: false, Name3SigmaNoAdapt: true, Name3Sigma: true, NamePointRealEst: false, Name3SigmaNoDist: true} {
			s, err := NewVariant(Config{}, v, nil)
			if err != nil {
				t.Fatal(err)
			}
			s.Train(hist)
			h := plannertest.New(t, s, []int{1}, 60)
			h.Submit(job)
			d := h.Step()
			if got := len(d.Start) == 1; got != want {
				t.Errorf("%s: started %+v, want started = %v", v, d.Start, want)
			}
		}
	})
	t.Run("adaptive extends only hopeless jobs", func(t *testing.T) {
		// History uniform-ish on 100–1000 s; deadline 500 s after submit:
		// P(T ≤ 500) ≈ 0.45, above the threshold, so 3sigma keeps the step
		// while 3sigma-noadapt extends.
		var hist []workloads.Job
		for i := range 50 {
			hist = append(hist, *newJob(100 + i).Name("y").Runtime(100 + 18*float64(i)).Job())
		}
		job := newJob(1).Name("y").Runtime(400).SLO(500).Value(10).Job()
		for v, want := range map[string]bool{Name3Sigma: false, Name3SigmaNoAdapt: true} {
			s, err := NewVariant(Config{}, v, nil)
			if err != nil {
				t.Fatal(err)
			}
			s.Train(hist)
			var extended bool
			s.inspect = func(c *cycle) {
				for _, pj := range c.jobs {
					extended = len(pj.curve.Knots()) > 1
				}
			}
			h := plannertest.New(t, s, []int{1}, 60)
			h.Submit(job)
			h.Step()
			if extended != want {
				t.Errorf("%s: curve extended = %v, want %v", v, extended, want)
			}
		}
	})
	t.Run("unknown variant", func(t *testing.T) {
		if _, err := New("3sigma-bogus", planner.Options{}); err == nil {
			t.Fatal("want an error")
		}
	})
	for _, v := range Variants() {
		s, err := New(v, planner.Options{})
		if err != nil || s.Name() != v {
			t.Errorf("New(%q) = %v, %v", v, s, err)
		}
	}
	_ = utility.OverestimateOff
}

// TestDeterministicMode: in deterministic mode the same workload gives the
// same decisions, cycle by cycle, and no cycle reports a time limit.
func TestDeterministicMode(t *testing.T) {
	runOnce := func() []*planner.Decision {
		s, err := NewVariant(Config{Mode: SolveDeterministic}, Name3Sigma, nil)
		if err != nil {
			t.Fatal(err)
		}
		s.Train(historyFor(randomWorkload(99, 60, 8)))
		h := plannertest.New(t, s, []int{4, 4}, 60)
		h.Submit(randomWorkload(2, 30, 8)...)
		for range 40 {
			if d := h.Step(); d.Stats.TimeLimited {
				t.Errorf("cycle at %v: time limited in deterministic mode", h.Now)
			}
		}
		return h.Decisions
	}
	a, b := runOnce(), runOnce()
	for i := range a {
		if !slices.EqualFunc(a[i].Start, b[i].Start, func(x, y planner.Placement) bool {
			return x.JobID == y.JobID && slices.Equal(x.Alloc, y.Alloc)
		}) || !slices.Equal(a[i].Preempt, b[i].Preempt) {
			t.Fatalf("cycle %d differs: %+v vs %+v", i, a[i], b[i])
		}
	}
}

// TestCycleTimeLimitedByTheGuard: a deterministic cycle counts as time
// limited only when the wall guard stopped its solve (GuardStopped, or a
// solve that ran to the guard), not when it used up its work limit.
func TestCycleTimeLimitedByTheGuard(t *testing.T) {
	const limit = 10 * time.Second
	tests := []struct {
		name          string
		mode          SolveMode
		res           solver.Result
		wall          time.Duration
		wantTimeLimit bool
	}{
		{"work limit reached", SolveDeterministic, solver.Result{TimeLimited: true}, time.Second, false},
		{"guard stopped before the limit", SolveDeterministic, solver.Result{TimeLimited: true, GuardStopped: true}, limit - 30*time.Millisecond, true},
		{"stopped at its own time limit", SolveDeterministic, solver.Result{TimeLimited: true}, limit, true},
		{"timed solve at its limit", SolveWall, solver.Result{TimeLimited: true}, time.Second, true},
		{"timed solve within its limit", SolveWall, solver.Result{}, time.Second, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := tt.res
			c := &cycle{s: &ThreeSigma{cfg: Config{Mode: tt.mode}}, dec: &planner.Decision{}, res: &res, solveWall: tt.wall, limit: limit}
			c.fillStats()
			if c.dec.Stats.TimeLimited != tt.wantTimeLimit {
				t.Errorf("TimeLimited = %v, want %v", c.dec.Stats.TimeLimited, tt.wantTimeLimit)
			}
		})
	}
}

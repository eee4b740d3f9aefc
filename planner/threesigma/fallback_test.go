package threesigma

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/estimate"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/solver"
	"github.com/plannerhq/planner/workloads"
)

// fallbackCycle is a cycle of pointperfest (true runtimes as estimates)
// with the fallback rule given, on st.
func fallbackCycle(t *testing.T, rule Fallback, st *planner.State) *cycle {
	t.Helper()
	s, err := NewCustom(NamePointPerfEst, Config{Fallback: rule}, estimate.Perfect{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.newCycle(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// started lists the jobs a decision starts, in order.
func startedIDs(d *planner.Decision) []int {
	var ids []int
	for _, pl := range d.Start {
		ids = append(ids, pl.JobID)
	}
	return ids
}

// TestFallbackDemotesLateSLOJobs: every rule starts an SLO job that can
// still meet its deadline before one whose deadline has passed or is out
// of reach, and ranks the late ones with the best-effort jobs.
func TestFallbackDemotesLateSLOJobs(t *testing.T) {
	passed := newJob(1).Submit(0).SLO(500).Runtime(100).Job()      // deadline passed at 600
	outOfReach := newJob(2).Submit(10).SLO(650).Runtime(100).Job() // 600 + 100 > 650
	canMake := newJob(3).Submit(500).SLO(2000).Runtime(100).Job()  // 600 + 100 ≤ 2000
	earlyBE := newJob(4).Submit(5).Runtime(100).Job()              // before the late SLO job 2
	for _, rule := range []Fallback{FallbackGS, FallbackSLearn, FallbackPrio} {
		t.Run(rule.String(), func(t *testing.T) {
			st := &planner.State{Now: 600, Interval: 60,
				Cluster: workloads.Cluster{PartitionNodes: []int{2}, Slowdown: 1.5}, Free: []int{2},
				Pending: []*planner.Pending{{Job: passed}, {Job: outOfReach}, {Job: canMake}, {Job: earlyBE}}}
			c := fallbackCycle(t, rule, st)
			c.fallback()
			if err := c.dec.Validate(st); err != nil {
				t.Fatal(err)
			}
			// Two nodes: job 3 (can still make it), then the oldest of the
			// rest by submit: job 1 (submitted at 0; all the same size).
			if got := startedIDs(c.dec); !slices.Equal(got, []int{3, 1}) {
				t.Errorf("fallback started %v, want [3 1]", got)
			}
			if !c.dec.Stats.Fallback {
				t.Error("decision not marked as the fallback's")
			}
			st.Free = []int{1}
			c.fallback()
			if got := startedIDs(c.dec); !slices.Equal(got, []int{3}) {
				t.Errorf("with one node the fallback started %v, want [3]", got)
			}
		})
	}
}

// TestFallbackNeverStartsLateAheadOfUrgent: on random states of one
// partition, no rule gives a late SLO job (or a best-effort one) nodes
// that an SLO job that can still make its deadline, left waiting, could
// have started on: a waiting urgent job is wider than the nodes left free
// plus those of every late SLO job started.
func TestFallbackNeverStartsLateAheadOfUrgent(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 26))
	for trial := range 300 {
		nodes := 4 + rng.IntN(12)
		now := 1000.0
		var pend []*planner.Pending
		var running []*planner.Running
		free := nodes
		for id := range 2 + rng.IntN(6) {
			b := newJob(id).Submit(float64(rng.IntN(900))).Nodes(1 + rng.IntN(nodes)).Runtime(float64(50 + rng.IntN(500)))
			if rng.IntN(3) > 0 {
				b = b.SLO(now + float64(rng.IntN(800)) - 200)
			}
			pend = append(pend, &planner.Pending{Job: b.Job()})
		}
		for id := 100; free > 0 && rng.IntN(2) == 0; id++ {
			k := 1 + rng.IntN(free)
			running = append(running, &planner.Running{Job: newJob(id).Nodes(k).Runtime(5000).Job(), Start: float64(rng.IntN(900)), Alloc: []int{k}})
			free -= k
		}
		for _, rule := range []Fallback{FallbackGS, FallbackSLearn, FallbackPrio} {
			st := &planner.State{Now: now, Interval: 60, Cluster: workloads.Cluster{PartitionNodes: []int{nodes}, Slowdown: 1.5},
				Free: []int{free}, Pending: pend, Running: running}
			c := fallbackCycle(t, rule, st)
			c.fallback()
			d := c.dec
			if err := d.Validate(st); err != nil {
				t.Fatalf("trial %d, %v: %v", trial, rule, err)
			}
			left := free
			for _, id := range d.Preempt {
				for _, r := range running {
					if r.Job.ID == id {
						left += r.Alloc[0]
					}
				}
			}
			byID := map[int]*workloads.Job{}
			for _, p := range pend {
				byID[p.Job.ID] = p.Job
			}
			lateNodes := 0
			for _, pl := range d.Start {
				left -= pl.Alloc[0]
				if j := byID[pl.JobID]; !(j.Class == workloads.SLO && now+j.Runtime <= j.Deadline) {
					lateNodes += pl.Alloc[0]
				}
			}
			for _, p := range pend {
				j := p.Job
				urgent := j.Class == workloads.SLO && now+j.Runtime <= j.Deadline
				if urgent && !slices.Contains(startedIDs(d), j.ID) && j.Nodes <= left+lateNodes {
					t.Fatalf("trial %d, %v: urgent job %d (%d nodes) waits while %d nodes are free and %d went to other jobs: %+v",
						trial, rule, j.ID, j.Nodes, left, lateNodes, d)
				}
			}
		}
	}
}

// TestFallbackPlacesUrgentJobsWell: an urgent SLO job that its preferred
// rack cannot hold now takes the nodes of the best-effort job there
// rather than run slowed; when an SLO job holds that rack, it runs slowed
// on the other rack if it can still make its deadline at that pace, and
// waits otherwise.
func TestFallbackPlacesUrgentJobsWell(t *testing.T) {
	for _, tc := range []struct {
		name     string
		holder   workloads.Class
		deadline float64
		preempt  []int
		alloc    []int // nil: not started
	}{
		{"best-effort on the preferred rack: stopped", workloads.BestEffort, 1000 + 200, []int{10}, []int{4, 0}},
		{"SLO on the preferred rack, slack: slowed", workloads.SLO, 1000 + 200, nil, []int{0, 4}},
		{"SLO on the preferred rack, tight: waits", workloads.SLO, 1000 + 130, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			holder := newJob(10).Nodes(4).Runtime(5000).Job()
			holder.Class, holder.Deadline = tc.holder, 1e6
			slo := newJob(1).Nodes(4).Runtime(100).Preferred(0).SLO(tc.deadline).Job()
			st := &planner.State{Now: 1000, Interval: 60, Cluster: workloads.Cluster{PartitionNodes: []int{4, 4}, Slowdown: 1.5},
				Free: []int{0, 4}, Pending: []*planner.Pending{{Job: slo}},
				Running: []*planner.Running{{Job: holder, Start: 0, Alloc: []int{4, 0}}}}
			c := fallbackCycle(t, FallbackGS, st)
			c.fallback()
			if err := c.dec.Validate(st); err != nil {
				t.Fatal(err)
			}
			var alloc []int
			if len(c.dec.Start) == 1 {
				alloc = c.dec.Start[0].Alloc
			}
			if !slices.Equal(c.dec.Preempt, tc.preempt) || len(c.dec.Start) > 1 || !slices.Equal(alloc, tc.alloc) {
				t.Errorf("preempted %v, started %+v; want %v and alloc %v", c.dec.Preempt, c.dec.Start, tc.preempt, tc.alloc)
			}
		})
	}
}

// TestFallbackGSBySize: the GS rule starts the smaller best-effort job
// first, by the planner's estimates, though it arrived last.
func TestFallbackGSBySize(t *testing.T) {
	big := newJob(1).Nodes(2).Runtime(50000).Job()
	small := newJob(2).Submit(30).Nodes(2).Runtime(60).Job()
	st := &planner.State{Now: 100, Interval: 60, Cluster: workloads.Cluster{PartitionNodes: []int{2}, Slowdown: 1.5},
		Free: []int{2}, Pending: []*planner.Pending{{Job: big}, {Job: small}}}
	for rule, want := range map[Fallback]int{FallbackGS: 2, FallbackPrio: 1, FallbackSLearn: 1} {
		c := fallbackCycle(t, rule, st)
		c.fallback()
		if got := startedIDs(c.dec); !slices.Equal(got, []int{want}) {
			t.Errorf("%v started %v, want [%d]", rule, got, want)
		}
	}
}

// failingSolver is a backend whose every solve fails.
type failingSolver struct{}

func (failingSolver) Name() string { return "fails" }
func (failingSolver) Solve(context.Context, *solver.Model, *solver.Settings) (*solver.Result, error) {
	return nil, errors.New("backend down")
}

// TestEveryCycleDecides: with a backend that fails every solve, one that
// panics, no solver at all and a fail rate of 1, every cycle that has
// something to plan is decided by the fallback of each rule, its decision
// valid (the harness checks it), and every job completes.
func TestEveryCycleDecides(t *testing.T) {
	backends := []struct {
		name   string
		cfg    Config
		inject func(*ThreeSigma)
	}{
		{"failing backend", Config{}, func(s *ThreeSigma) { s.solver = failingSolver{} }},
		{"panicking backend", Config{}, func(s *ThreeSigma) { s.solver = panicSolver{} }},
		{"solver none", Config{Solver: planner.SolverNone}, func(*ThreeSigma) {}},
		{"fail rate 1", Config{FailRate: 1}, func(*ThreeSigma) {}},
	}
	for _, b := range backends {
		for _, rule := range []Fallback{FallbackGS, FallbackSLearn, FallbackPrio} {
			t.Run(b.name+"/"+rule.String(), func(t *testing.T) {
				cfg := b.cfg
				cfg.Fallback, cfg.Mode = rule, SolveDeterministic
				s, err := NewCustom(NamePointPerfEst, cfg, estimate.Perfect{})
				if err != nil {
					t.Fatal(err)
				}
				b.inject(s)
				h := plannertest.New(t, s, []int{4, 4}, 60)
				var jobs []*workloads.Job
				for id := range 12 {
					jb := newJob(id).Submit(float64(id * 40)).Nodes(1 + id%5).Runtime(float64(100 + 37*id))
					if id%2 == 0 {
						jb = jb.Preferred(id % 2).SLO(float64(id*40 + 400 + 60*id))
					}
					jobs = append(jobs, jb.Job())
				}
				jobs = append(jobs, newJob(20).Submit(100).Tasks(1, 50, 70, 90, 30, 200).Job())
				h.Submit(jobs...)
				for range 200 {
					pending := len(h.State().Pending)
					d := h.Step()
					if pending > 0 && !d.Stats.Fallback {
						t.Fatalf("t=%v: %d pending, cycle not decided by the fallback: %+v", h.Now, pending, d.Stats)
					}
					if d.Stats.Fallback && (d.Stats.FailedStage != "solve" || d.Stats.Failure == "") {
						t.Fatalf("t=%v: stats %+v, want the failed solve named", h.Now, d.Stats)
					}
					if len(h.Completed) == len(jobs) {
						return
					}
				}
				t.Fatalf("%d of %d jobs completed", len(h.Completed), len(jobs))
			})
		}
	}
}

// TestFailRate: a fail rate fails about that share of the solves, the
// same cycles for the same seed and other ones for another seed.
func TestFailRate(t *testing.T) {
	failed := func(seed uint64) []bool {
		s, err := NewCustom(NamePointPerfEst, Config{FailRate: 0.3, Seed: seed, Mode: SolveDeterministic, Solver: solver.GreedyName}, estimate.Perfect{})
		if err != nil {
			t.Fatal(err)
		}
		h := plannertest.New(t, s, []int{4}, 60)
		var out []bool
		for i := range 400 {
			h.Submit(newJob(i).Submit(h.Now).Runtime(30).Job())
			d := h.Step()
			out = append(out, d.Stats.Fallback)
			if d.Stats.Fallback && !errors.Is(errors.New(d.Stats.Failure), ErrFailedOnPurpose) && d.Stats.FailedStage != "solve" {
				t.Fatalf("stats %+v", d.Stats)
			}
		}
		return out
	}
	a, b, other := failed(1), failed(1), failed(2)
	if !slices.Equal(a, b) {
		t.Error("the same seed failed other cycles")
	}
	if slices.Equal(a, other) {
		t.Error("another seed failed the same cycles")
	}
	n := 0
	for _, f := range a {
		if f {
			n++
		}
	}
	// 400 draws at 0.3: 120 ± 4 σ (σ = 9.2).
	if n < 83 || n > 157 {
		t.Errorf("%d of 400 solves failed, want about 120", n)
	}
}

func TestParseFallback(t *testing.T) {
	for _, name := range Fallbacks() {
		f, err := ParseFallback(name)
		if err != nil || f.String() != name {
			t.Errorf("ParseFallback(%q) = %v, %v", name, f, err)
		}
	}
	if f, err := ParseFallback(""); err != nil || f != DefaultFallback {
		t.Errorf(`ParseFallback("") = %v, %v`, f, err)
	}
	if _, err := ParseFallback("lifo"); err == nil {
		t.Error("lifo accepted")
	}
	if _, err := NewCustom(NamePointPerfEst, Config{FailRate: 1.5}, estimate.Perfect{}); err == nil {
		t.Error("fail rate 1.5 accepted")
	}
}

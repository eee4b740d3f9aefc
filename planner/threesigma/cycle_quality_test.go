package threesigma

import (
	"slices"
	"testing"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/planner/estimate"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/solver"
)

// TestSlowPenaltyPrefersPreferredRacks: an SLO job with time to spare is
// worth its full value on its preferred rack and on any rack alike (its
// deadline is met either way); the slowdown penalty breaks the tie toward
// the preferred rack, where it holds its node 1/Slowdown as long and keeps
// its margin. When only the other rack is free and the deadline is near,
// the slowed start still wins over waiting.
func TestSlowPenaltyPrefersPreferredRacks(t *testing.T) {
	t.Run("both racks free", func(t *testing.T) {
		for id := 1; id <= 6; id++ {
			s, err := NewCustom(NamePointPerfEst, Config{Mode: SolveDeterministic}, estimate.Perfect{})
			if err != nil {
				t.Fatal(err)
			}
			var utils map[bool]float64
			s.inspect = func(c *cycle) {
				utils = map[bool]float64{}
				for _, o := range c.opts {
					if o.start == 0 {
						utils[c.jobs[o.job].sets[o.set].all] = o.util
					}
				}
			}
			h := plannertest.New(t, s, []int{4, 4}, 60)
			h.Submit(newJob(id).Nodes(1 + id%4).Runtime(100).SLO(10000).Value(1000).Preferred(id % 2).Job())
			d := h.Step()
			if len(d.Start) != 1 {
				t.Fatalf("job %d: started %+v, want it started now", id, d.Start)
			}
			if a := d.Start[0].Alloc; a[1-id%2] != 0 {
				t.Errorf("job %d prefers rack %d: placed %v, want only the preferred rack", id, id%2, a)
			}
			if want := utils[false] * (1 - DefaultSlowPenalty); utils[true] != want {
				t.Errorf("job %d: slice-0 values %v, want the all-racks option at %v", id, utils, want)
			}
		}
	})
	t.Run("only the other rack, deadline near", func(t *testing.T) {
		s, err := NewCustom(NamePointPerfEst, Config{Mode: SolveDeterministic}, estimate.Perfect{})
		if err != nil {
			t.Fatal(err)
		}
		h := plannertest.New(t, s, []int{1, 1}, 60)
		h.Submit(newJob(1).Runtime(5000).SLO(1e6).Value(1000).Preferred(0).Job())
		h.Step() // job 1 takes rack 0 for 5000 s
		// Job 2 prefers rack 0 too; it must start now, slowed (150 s), to
		// meet its deadline 200 s away.
		h.Submit(newJob(2).Submit(60).Runtime(100).SLO(260).Value(1000).Preferred(0).Job())
		d := h.Step()
		if len(d.Start) != 1 || d.Start[0].JobID != 2 || !slices.Equal(d.Start[0].Alloc, []int{0, 1}) {
			t.Fatalf("started %+v, want job 2 on rack 1 now", d.Start)
		}
	})
}

// TestAdaptiveOverestimateFromFirstCycle: the adaptive switch judges a job
// from the first cycle that could start it, not from its submit time. The
// job below has 85 s to its deadline at submit and runs 80–120 s by its
// distribution (a 12.5% chance, above the 5% threshold), but the first cycle
// comes 55 s after submit: from there it has no chance at all, so its
// over-estimate extension is on and it is tried on the idle node (it really
// runs 20 s). Without over-estimate handling it is worthless.
func TestAdaptiveOverestimateFromFirstCycle(t *testing.T) {
	for v, want := range map[string]bool{Name3Sigma: true, Name3SigmaNoOE: false} {
		job := newJob(1).Submit(5).Runtime(20).SLO(90).Value(1000).Job()
		s, err := NewVariant(Config{Mode: SolveDeterministic}, v, nil)
		if err != nil {
			t.Fatal(err)
		}
		s.est = fixedEstimator{1: distributions.Uniform{Lo: 80, Hi: 120}}
		h := plannertest.New(t, s, []int{1}, 60)
		h.Submit(job)
		h.Step() // t = 0: not submitted yet
		d := h.Step()
		if got := len(d.Start) == 1; got != want {
			t.Errorf("%s: started %+v at t=60, want started = %v", v, d.Start, want)
		}
		if v == Name3Sigma && !(h.Completed[1] <= 90) {
			t.Errorf("%s: job completed at %v, want by its deadline 90", v, h.Completed[1])
		}
	}
}

// TestAlignedStartsNest: every start slice s > 0 of a cycle is start s − 1
// of the next one, so a planned start stays an option until it comes due,
// and each cycle has as many starts as the configuration gives.
func TestAlignedStartsNest(t *testing.T) {
	const H = 60
	for abs := int64(0); abs < 500; abs++ {
		cur, next := alignedStarts(DefaultStarts, H, abs), alignedStarts(DefaultStarts, H, abs+1)
		if cur[0] != 0 || !slices.IsSorted(cur) || cur[len(cur)-1] >= H {
			t.Fatalf("abs %d: starts %v, want ascending from 0 below %d", abs, cur, H)
		}
		if n := len(cur); n < len(DefaultStarts)-1 || n > len(DefaultStarts) {
			t.Fatalf("abs %d: %d starts %v for %v", abs, n, cur, DefaultStarts)
		}
		for _, s := range cur[1:] {
			if !slices.Contains(next, s-1) {
				t.Fatalf("abs %d: start %d (slice %d) is not start %d of the next cycle %v", abs, s, abs+int64(s), s-1, next)
			}
		}
	}
}

// TestSetRowsNoPhantomCapacity: rack 0 is held by a long best-effort job A;
// an SLO job J needs all of rack 0 (its only preferred rack) and a
// best-effort job B needs four nodes anywhere. Past slice 0 the capacity
// rows are cluster-wide, so without the set rows the plan "J at slice 1 on
// rack 0, B later" fits the cluster-wide rows although rack 0 will not be
// free at slice 1 unless A is stopped: nothing starts, and rack 1 idles
// while J's start slips. With the set row of {rack 0} the plan sees that J
// needs A preempted whenever it starts, and does it now: J on rack 0 and B
// on rack 1. (Plan commitment is off, so that the rows alone decide.)
func TestSetRowsNoPhantomCapacity(t *testing.T) {
	for _, noSet := range []bool{false, true} {
		cfg := Config{Mode: SolveDeterministic, CommitPenalty: -1, NoSetRows: noSet}
		s, err := NewCustom(NamePointPerfEst, cfg, estimate.Perfect{})
		if err != nil {
			t.Fatal(err)
		}
		h := plannertest.New(t, s, []int{4, 4}, 60)
		h.Submit(newJob(1).Nodes(4).Runtime(10000).Value(100).Job())
		if d := h.Step(); len(d.Start) != 1 || d.Start[0].Alloc[0] != 4 {
			t.Fatalf("t=0: started %+v, want job 1 on rack 0", d.Start)
		}
		h.Submit(newJob(2).Submit(60).Nodes(4).Runtime(100).SLO(2060).Value(1000).Preferred(0).Job(),
			newJob(3).Submit(60).Nodes(4).Runtime(5000).Value(100).Job())
		d := h.Step()
		started := map[int][]int{}
		for _, pl := range d.Start {
			started[pl.JobID] = pl.Alloc
		}
		ok := slices.Equal(d.Preempt, []int{1}) && slices.Equal(started[2], []int{4, 0}) && slices.Equal(started[3], []int{0, 4})
		if !noSet && !ok {
			t.Errorf("with set rows: preempt %v, started %v; want job 1 preempted, job 2 on rack 0, job 3 on rack 1", d.Preempt, started)
		}
		if noSet {
			t.Logf("without set rows: preempt %v, started %v", d.Preempt, started)
		}
	}
}

// TestCommitPenaltyStopsSlip: a plan's start is a promise to the next
// cycle. Options later than the slice the previous plan chose lose
// CommitPenalty of their value; options at or before it keep it.
func TestCommitPenaltyStopsSlip(t *testing.T) {
	s, err := NewCustom(NamePointPerfEst, Config{Mode: SolveDeterministic}, estimate.Perfect{})
	if err != nil {
		t.Fatal(err)
	}
	type opt struct {
		abs  int64
		util float64
	}
	var opts []opt
	var planned int64
	var hasPlan bool
	s.inspect = func(c *cycle) {
		opts = opts[:0]
		for _, o := range c.opts {
			if c.jobs[o.job].p.Job.ID == 2 && !c.jobs[o.job].sets[o.set].all {
				opts = append(opts, opt{c.abs + int64(o.start), o.util})
			}
		}
		if in := s.jobs[2]; in != nil {
			planned, hasPlan = in.planned, in.hasPlan
		}
	}
	// Job 1 holds the only node for 290 s; job 2 (SLO, deadline far) can
	// only be planned after it.
	h := plannertest.New(t, s, []int{1}, 60)
	h.Submit(newJob(1).Runtime(290).SLO(1e5).Value(1000).Job())
	h.Step()
	h.Submit(newJob(2).Submit(60).Runtime(100).SLO(1e5).Value(1000).Job())
	h.Step()
	if !hasPlan || planned <= 1 {
		t.Fatalf("after t=60: planned %v (has %v), want job 2 planned after job 1", planned, hasPlan)
	}
	first := planned
	h.Step() // t = 120: options after the planned slice are penalised
	if len(opts) == 0 {
		t.Fatal("no options for job 2 at t=120")
	}
	top := 0.0
	for _, o := range opts {
		top = max(top, o.util)
	}
	for _, o := range opts {
		if o.abs > first && o.util > top*(1-DefaultCommitPenalty)+1e-9 {
			t.Errorf("option at slice %d (planned %d) worth %v, want at most %v", o.abs, first, o.util, top*(1-DefaultCommitPenalty))
		}
		if o.abs <= first && o.util < top*(1-DefaultEarlyBias) {
			t.Errorf("option at slice %d (planned %d) worth %v, want no commitment penalty", o.abs, first, o.util)
		}
	}
}

// TestBreakTies: equal objective coefficients become distinct, by less than
// tieBreak of the largest, the same way every time.
func TestBreakTies(t *testing.T) {
	mk := func() *solver.Model {
		m := &solver.Model{Maximize: true}
		for j := range 200 {
			obj := 10.0
			if j%3 == 0 {
				obj = 0 // count columns
			}
			m.Vars = append(m.Vars, solver.Var{Kind: solver.Binary, Upper: 1, Obj: obj})
		}
		return m
	}
	a, b := mk(), mk()
	breakTies(a)
	breakTies(b)
	seen := map[float64]bool{}
	for j, v := range a.Vars {
		if v.Obj != b.Vars[j].Obj {
			t.Fatalf("column %d: %v then %v", j, v.Obj, b.Vars[j].Obj)
		}
		base := mk().Vars[j].Obj
		if d := v.Obj - base; d < 0 || d >= tieBreak*10 {
			t.Fatalf("column %d: moved by %v, want in [0, %v)", j, d, tieBreak*10)
		}
		if seen[v.Obj] {
			t.Fatalf("column %d: objective %v ties another column", j, v.Obj)
		}
		seen[v.Obj] = true
	}
}

package threesigma

import (
	"math"
	"slices"
	"testing"

	"github.com/plannerhq/planner/planner/plannertest"
)

// TestPreemptsOnlyWhenAStartNeedsTheNodes: 4 nodes, a cycle a minute. At
// 0, SLO job 1 (2 nodes, 120 s) and best-effort job 2 (2 nodes, 5000 s)
// start. At 60, SLO job 3 (4 nodes, 600 s, deadline 750) can start at the
// earliest at 120, when job 1 ends, and only on job 2's nodes too: the
// plan starts it at slice 1 and drops job 2's keep. Job 2 keeps running
// until then, since nothing starts now on its nodes; at 120 job 3 starts
// and job 2 is preempted.
func TestPreemptsOnlyWhenAStartNeedsTheNodes(t *testing.T) {
	s, err := NewCustom(Name3Sigma, Config{}, fixedEstimator{})
	if err != nil {
		t.Fatal(err)
	}
	h := plannertest.New(t, s, []int{4}, 60)
	h.Submit(newJob(1).Nodes(2).Runtime(120).SLO(1000).Value(1000).Job(),
		newJob(2).Nodes(2).Runtime(5000).Value(100).Job(),
		newJob(3).Submit(30).Nodes(4).Runtime(600).SLO(750).Value(1000).Job())
	if d := h.Step(); len(d.Start) != 2 || len(d.Preempt) != 0 {
		t.Fatalf("t=0: started %+v, preempted %v; want jobs 1 and 2 started", d.Start, d.Preempt)
	}
	if d := h.Step(); len(d.Start) != 0 || len(d.Preempt) != 0 {
		t.Fatalf("t=60: started %+v, preempted %v; want nothing done yet", d.Start, d.Preempt)
	}
	if d := h.Step(); len(d.Start) != 1 || d.Start[0].JobID != 3 || !slices.Equal(d.Preempt, []int{2}) {
		t.Fatalf("t=120: started %+v, preempted %v; want job 3 started on job 2's nodes", d.Start, d.Preempt)
	}
}

// TestKeepValueCountsLostWork checks a running best-effort job's keep
// value against its closed form: a job of value 100 with a point runtime
// of 20,000 s, at its utility's floor (it completes more than
// Config.BEDecay after its submit), that has run 4,000 s: 10 (the floor,
// 0.1 × 100) + LostWork × 100 × 4,000 / 20,000, 20 at the default 0.5.
func TestKeepValueCountsLostWork(t *testing.T) {
	for _, tc := range []struct {
		name     string
		lostWork float64
		want     float64
	}{{"default", 0, 20}, {"none", -1, 10}, {"whole", 1, 30}} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewCustom(Name3Sigma, Config{LostWork: tc.lostWork, Slice: 600}, fixedEstimator{})
			if err != nil {
				t.Fatal(err)
			}
			got := math.NaN()
			s.inspect = func(c *cycle) {
				for _, k := range c.keeps {
					if k.run.Job.ID == 1 {
						got = k.value
					}
				}
			}
			h := plannertest.New(t, s, []int{1}, 4000)
			h.Submit(newJob(1).Runtime(20000).Value(100).Job(), newJob(2).Submit(3000).Runtime(20000).Value(100).Job())
			h.Step() // job 1 starts at 0
			if d := h.Step(); len(d.Preempt) != 0 {
				t.Errorf("t=4000: preempted %v for a job of the same value", d.Preempt)
			}
			if math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("keep value %v, want %v", got, tc.want)
			}
		})
	}
}

package threesigma

import (
	"testing"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/planner/plannertest"
)

// TestHeldNodes: 8 nodes, a cycle a minute. Job 1 (4 nodes, 120 s) starts
// at 0. At 60 job 2 (SLO, 8 nodes, 600 s, deadline 750) must start at 120,
// when job 1 ends, to meet its deadline, and job 3 (best-effort, 4 nodes,
// 600 s) started now would take 4 of its nodes until 660. The plan starts
// job 2 at slice 1 and keeps the 4 idle nodes for it: HeldNodes = min(4
// idle, 8) = 4. At 120 job 2 starts and nothing is held.
func TestHeldNodes(t *testing.T) {
	s, err := NewCustom(Name3Sigma, Config{}, fixedEstimator{3: distributions.Uniform{Lo: 300, Hi: 900}})
	if err != nil {
		t.Fatal(err)
	}
	h := plannertest.New(t, s, []int{8}, 60)
	h.Submit(newJob(1).Nodes(4).Runtime(120).SLO(1000).Value(1000).Job(),
		newJob(2).Submit(60).Nodes(8).Runtime(600).SLO(750).Value(1000).Job(),
		newJob(3).Submit(60).Nodes(4).Runtime(600).Value(100).Job())
	if d := h.Step(); len(d.Start) != 1 || d.Stats.HeldNodes != 0 {
		t.Fatalf("t=0: started %+v, held %d; want job 1 and nothing held", d.Start, d.Stats.HeldNodes)
	}
	if d := h.Step(); len(d.Start) != 0 || d.Stats.HeldNodes != 4 || !d.Stats.Solved {
		t.Fatalf("t=60: started %+v, held %d, stats %+v; want nothing started and 4 nodes held", d.Start, d.Stats.HeldNodes, d.Stats)
	}
	if d := h.Step(); len(d.Start) != 1 || d.Start[0].JobID != 2 || d.Stats.HeldNodes != 0 {
		t.Fatalf("t=120: started %+v, held %d; want job 2 and nothing held", d.Start, d.Stats.HeldNodes)
	}
	// The estimates it planned with: a point at job 2's runtime, and the
	// lower end of job 3's uniform distribution.
	for id, want := range map[int]float64{2: 600, 3: 300} {
		if v, ok := s.ShortestRuntime(id); !ok || v != want {
			t.Errorf("ShortestRuntime(%d) = %v, %v; want %v", id, v, ok, want)
		}
	}
	if _, ok := s.ShortestRuntime(99); ok {
		t.Error("ShortestRuntime of an unknown job: ok")
	}
}

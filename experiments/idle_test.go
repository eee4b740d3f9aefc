package experiments

import (
	"context"
	"math"
	"testing"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/workloads"
)

// TestIdleBreakdown checks IdleBreakdown on hand-made runs, by hand.
func TestIdleBreakdown(t *testing.T) {
	// Two partitions of 4 nodes. Job 0 holds partition 0 over [0, 100).
	// Job 1 (3 nodes, prefers partition 0) waits from 0 to 100 and runs
	// on partition 0 to 200. Job 2 (5 nodes, any partition) waits from 0
	// to 150 and runs on [1 4] to 250, the end of the span.
	//
	//   [0, 60): 4 idle (partition 1); job 1 fits 4. The cycle at 0
	//     held 3: held 3 × 60 = 180; the rest, 1 node, holds no waiting
	//     gang: fragmented 1 × 60 = 60.
	//   [60, 100): the cycle at 60 held nothing; job 1 fits the 4 idle
	//     nodes only off its preferred partition: fragmented 4 × 40 = 160.
	//   [100, 150): 5 idle; job 2 fits them: other 5 × 50 = 250.
	//   [150, 200): nothing idle. [200, 250): 3 idle, nothing waits.
	res := &SimResult{End: 250, Nodes: 8, PartitionNodes: []int{4, 4},
		Jobs: []JobRecord{
			{JobID: 0, Class: workloads.BestEffort, Submit: 0, Nodes: 4},
			{JobID: 1, Class: workloads.SLO, Submit: 0, Nodes: 3, Preferred: []int{0}},
			{JobID: 2, Class: workloads.BestEffort, Submit: 0, Nodes: 5},
		},
		Runs: []RunRecord{
			{JobID: 0, Start: 0, End: 100, Alloc: []int{4, 0}},
			{JobID: 1, Start: 100, End: 200, Alloc: []int{3, 0}},
			{JobID: 2, Start: 150, End: 250, Alloc: []int{1, 4}},
		},
		Cycles: []CycleRecord{
			{Now: 0, Stats: planner.CycleStats{HeldNodes: 3}},
			{Now: 60}, {Now: 100}, {Now: 150},
		},
	}
	want := IdleCapacity{Fit: 650, Held: 180, Fragmented: 220, Other: 250}
	if got := IdleBreakdown(res); !closeIdle(got, want) {
		t.Errorf("IdleBreakdown = %+v, want %+v", got, want)
	}
	m := res.Metrics()
	if math.Abs(m.IdleFit-650.0/3600) > 1e-12 || math.Abs(m.IdleHeld+m.IdleFragmented+m.IdleOther-m.IdleFit) > 1e-12 {
		t.Errorf("metrics: idle %v = held %v + fragmented %v + other %v, want 650/3600 in all", m.IdleFit, m.IdleHeld, m.IdleFragmented, m.IdleOther)
	}

	// A job waits again after a preemption, and a run under way at the
	// end counts only within the span: one partition of 4, job 0 (4
	// nodes) runs [0, 50), is preempted, and runs again from 80 past the
	// end (200). It waits over [50, 80): other 4 × 30 = 120.
	res = &SimResult{End: 200, Nodes: 4, PartitionNodes: []int{4},
		Jobs: []JobRecord{{JobID: 0, Submit: 0, Nodes: 4, Preemptions: 1}},
		Runs: []RunRecord{{JobID: 0, Start: 0, End: 50, Alloc: []int{4}, Preempted: true},
			{JobID: 0, Start: 80, End: 500, Alloc: []int{4}}},
	}
	if got, want := IdleBreakdown(res), (IdleCapacity{Fit: 120, Other: 120}); !closeIdle(got, want) {
		t.Errorf("after a preemption: %+v, want %+v", got, want)
	}
}

func closeIdle(a, b IdleCapacity) bool {
	near := func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*max(1, math.Abs(y)) }
	return near(a.Fit, b.Fit) && near(a.Held, b.Held) && near(a.Fragmented, b.Fragmented) && near(a.Other, b.Other)
}

// TestIdleBreakdownOfSimulation is the run of TestTimeSeries: 4 nodes; job
// 0 (4 nodes) runs [0, 120), is preempted and runs again from 240; job 1
// (2 nodes) runs [120, 220), job 2 (1 node) [180, 210); jobs 1 and 2 wait
// from 100. Idle while a waiting gang fits: [120, 180) 2 nodes with job 2
// (1 node) waiting, and [220, 240) 4 nodes with job 0 waiting; over [180,
// 220) only job 0 (4 nodes) waits and 1 or 2 nodes are idle. No plan
// holds nodes: other = 2 × 60 + 4 × 20 = 200 node-seconds.
func TestIdleBreakdownOfSimulation(t *testing.T) {
	in := Input{Cluster: cluster(4), Window: 100,
		Jobs: jobsOf(newJob(0, 0, 4, 1000), newJob(1, 100, 2, 100).slo(400), newJob(2, 100, 1, 30))}
	sim, err := NewSim(in, SimConfig{Interval: 60, Drain: 5000}, &plannertest.Func{SchedName: "preempter", F: preemptSLO})
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := IdleBreakdown(res), (IdleCapacity{Fit: 200, Other: 200}); !closeIdle(got, want) {
		t.Errorf("IdleBreakdown = %+v, want %+v", got, want)
	}
}

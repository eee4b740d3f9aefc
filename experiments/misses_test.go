package experiments

import (
	"context"
	"testing"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/workloads"
)

// TestClassifyMiss checks each cause and the priority order on jobs of
// runtime 100 s and deadline 1000 s, by hand.
func TestClassifyMiss(t *testing.T) {
	slo := func(mod func(*JobRecord)) JobRecord {
		j := JobRecord{JobID: 1, Class: workloads.SLO, Submit: 0, Deadline: 1000, Nodes: 2, Runtime: 100}
		mod(&j)
		return j
	}
	ran := func(start, end float64) func(*JobRecord) {
		return func(j *JobRecord) {
			j.Started, j.Start, j.Completed, j.End = true, start, true, end
			j.MetDeadline = end <= j.Deadline
		}
	}
	both := func(fs ...func(*JobRecord)) func(*JobRecord) {
		return func(j *JobRecord) {
			for _, f := range fs {
				f(j)
			}
		}
	}
	est := func(v float64) func(*JobRecord) { return func(j *JobRecord) { j.ShortestEstimate = v } }
	preempted := func(j *JobRecord) { j.Preemptions = 1 }
	tests := []struct {
		name string
		job  JobRecord
		want MissCause
	}{
		{"best-effort", JobRecord{Class: workloads.BestEffort, Runtime: 100}, MissNone},
		{"met", slo(ran(850, 950)), MissNone},
		{"never started", slo(func(*JobRecord) {}), MissNeverStarted},
		{"preempted, never restarted", slo(preempted), MissPreempted},
		{"preempted, restarted late: preempted first", slo(both(preempted, ran(990, 1090))), MissPreempted},
		// No estimate: late means after deadline − runtime = 900.
		{"no estimate, started at 901", slo(ran(901, 1001)), MissStartedLate},
		{"no estimate, slowed from 880 (880 + 100 ≤ 1000)", slo(ran(880, 1030)), MissSlowed},
		{"no estimate, started late and slowed: late first", slo(ran(950, 1100)), MissStartedLate},
		// Shortest estimate 50 s: late means after 950.
		{"estimate 50, started at 920, ran its 100 s", slo(both(est(50), ran(920, 1020))), MissOverran},
		{"estimate 50, started at 960", slo(both(est(50), ran(960, 1060))), MissStartedLate},
		{"estimate 50, slowed from 920: missed at 100 s too", slo(both(est(50), ran(920, 1070))), MissOverran},
		{"estimate 50, slowed from 890: made it at 100 s", slo(both(est(50), ran(890, 1040))), MissSlowed},
		// Estimate 300 s, above the true runtime: late after 700.
		{"estimate 300, started at 920", slo(both(est(300), ran(920, 1020))), MissStartedLate},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.job.classifyMiss(); got != tc.want {
				t.Errorf("%+v: %v, want %v", tc.job, got, tc.want)
			}
		})
	}
}

func TestParseMissCause(t *testing.T) {
	for _, c := range append([]MissCause{MissNone}, MissCauses...) {
		got, err := ParseMissCause(c.String())
		if err != nil || got != c {
			t.Errorf("ParseMissCause(%q) = %v, %v", c.String(), got, err)
		}
	}
	if _, err := ParseMissCause("late"); err == nil {
		t.Error("ParseMissCause(late): no error")
	}
}

// estimating starts pending jobs in submit order while they fit
// (planner.PlaceGreedy) and reports a shortest runtime of 50 s for jobs 0
// and 1.
type estimating struct{ *plannertest.Func }

func newEstimating() estimating {
	return estimating{&plannertest.Func{SchedName: "fifo", F: func(st *planner.State) (*planner.Decision, error) {
		return &planner.Decision{Start: planner.PlaceGreedy(st, st.Pending)}, nil
	}}}
}

func (estimating) ShortestRuntime(id int) (float64, bool) {
	v, ok := map[int]float64{0: 50, 1: 50}[id]
	return v, ok
}

// TestMissCausesInSimulation: the simulator records the shortest runtime
// the scheduler reported when it started a job, and classes the misses.
func TestMissCausesInSimulation(t *testing.T) {
	// 2 nodes. Job 0 (2 nodes, 100 s, deadline 1000) starts at 0 and
	// meets it. Job 1 (2 nodes, 300 s, deadline 350) waits for job 0 and
	// starts at 100: 100 ≤ 350 − 50, so in time for the estimate's
	// shortest runtime; it ends at 400 and overran. Job 2 (2 nodes, 100 s,
	// deadline 300) would have to start by 200 but starts at 400: late.
	in := Input{Cluster: cluster(2), Window: 100, Jobs: jobsOf(newJob(0, 0, 2, 100).slo(1000),
		newJob(1, 0, 2, 300).slo(350), newJob(2, 0, 2, 100).slo(300))}
	sim, err := NewSim(in, SimConfig{Interval: 100, Drain: 1000}, newEstimating())
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		start, est float64
		miss       MissCause
	}{{0, 50, MissNone}, {100, 50, MissOverran}, {400, 0, MissStartedLate}}
	for i, w := range want {
		j := res.Jobs[i]
		if j.Start != w.start || j.ShortestEstimate != w.est || j.Miss != w.miss {
			t.Errorf("job %d: start %v, shortest estimate %v, miss %v; want %v, %v, %v", i, j.Start, j.ShortestEstimate, j.Miss, w.start, w.est, w.miss)
		}
	}
	m := res.Metrics()
	if m.MissOverran != 1 || m.MissStartedLate != 1 || m.MissNeverStarted+m.MissPreempted+m.MissSlowed != 0 {
		t.Errorf("metrics %+v", m)
	}
}

package experiments

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/plannerhq/planner/planner"
)

// after makes the job a stage that waits for job id.
func (b *jobB) after(id int) *jobB {
	b.j.After = &id
	return b
}

// TestSimulateDAG: a later stage is pending only once its predecessor
// has completed, submitted at its predecessor's end, though nodes are
// free before; the DAG's JCT runs from its first stage's submit to its
// last stage's end. On 4 nodes with 10 s cycles: stage 0 (tasks of 25 s
// and 15 s) from 0 to 25; stage 1 (a 2-node gang of 12 s) released at 25,
// started at 30, done at 42; stage 2 (a task of 5 s) released at 42, run
// 50–55. Job 3, outside the DAG, runs 0–100 beside them.
func TestSimulateDAG(t *testing.T) {
	in := Input{Cluster: cluster(4), Window: 10, Jobs: jobsOf(
		newJob(2, 0, 0, 0).tasks(5).after(1),
		newJob(0, 0, 0, 0).tasks(25, 15),
		newJob(1, 0, 2, 12).after(0),
		newJob(3, 0, 1, 100),
	)}
	sched := greedyTasks()
	inner := sched.F
	sched.F = func(st *planner.State) (*planner.Decision, error) {
		d, err := inner(st)
		if err != nil {
			return nil, err
		}
		var gangs []*planner.Pending
		for _, p := range st.Pending {
			if !p.Job.TaskLevel() {
				gangs = append(gangs, p)
			}
		}
		free := slices.Clone(st.Free)
		for _, ts := range d.StartTasks {
			free[ts.Partition]-- // one-node tasks
		}
		d.Start = planner.PlaceGreedy(&planner.State{Cluster: st.Cluster, Free: free}, gangs)
		return d, nil
	}
	sim, err := NewSim(in, SimConfig{Interval: 10}, sched)
	if err != nil {
		t.Fatal(err)
	}
	ends := map[int]float64{}
	stepAll(t, sim, func(st *planner.State) {
		// The jobs completed by this cycle (its step completed them first).
		for _, r := range sim.Result().Jobs {
			if r.Completed {
				ends[r.JobID] = r.End
			}
		}
		for _, p := range st.Pending {
			if pred, ok := p.Job.Predecessor(); ok {
				if e, done := ends[pred]; !done || p.Job.Submit != e || st.Now < e {
					t.Errorf("t=%g: job %d pending (submit %g), its predecessor %d done %v at %g", st.Now, p.Job.ID, p.Job.Submit, pred, done, e)
				}
			}
		}
	})
	res := sim.Result()
	want := []struct{ submit, start, end float64 }{{0, 0, 25}, {25, 30, 42}, {42, 50, 55}, {0, 0, 100}}
	for i, w := range want {
		r := res.Jobs[i]
		if r.Submit != w.submit || r.Start != w.start || r.End != w.end || !r.Completed {
			t.Errorf("job %d: submit %g start %g end %g (completed %v, DAG %d); want %+v", i, r.Submit, r.Start, r.End, r.Completed, r.DAG, w)
		}
		if wantDAG := map[bool]int{true: 0, false: 3}[i < 3]; r.DAG != wantDAG || r.Stage != (i == 1 || i == 2) {
			t.Errorf("job %d: DAG %d stage %v", i, r.DAG, r.Stage)
		}
	}
	if got := DAGJCTs(res.Jobs); !slices.Equal(got, []float64{55}) {
		t.Errorf("DAG JCTs %v, want [55]", got)
	}
	m := ComputeTaskMetrics(res.Jobs, nil)
	if m.DAGs != 1 || m.DAGJCTMean != 55 || m.DAGJCTP50 != 55 {
		t.Errorf("task metrics %+v", m)
	}
	// The table's DAG columns.
	var tab strings.Builder
	rep := &Report{Runs: []RunResult{{Scheduler: "greedy", Metrics: Metrics{Task: m}}}}
	if err := rep.WriteTable(&tab); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tab.String(), "DAG JCT mean s") || !strings.Contains(tab.String(), "55") {
		t.Errorf("table:\n%s", tab.String())
	}
}

// TestDAGJCTsIncomplete: a DAG with a stage not completed has no JCT; a
// workload without DAGs has none (NaN metrics).
func TestDAGJCTsIncomplete(t *testing.T) {
	jobs := []JobRecord{{JobID: 0, DAG: 0, Completed: true, End: 10}, {JobID: 1, DAG: 0, Stage: true}, {JobID: 2, DAG: 2, Completed: true, End: 5}}
	if got := DAGJCTs(jobs); len(got) != 0 {
		t.Errorf("DAG JCTs %v, want none", got)
	}
	if m := ComputeTaskMetrics(jobs, nil); m.DAGs != 0 || !math.IsNaN(m.DAGJCTMean) {
		t.Errorf("metrics %+v", m)
	}
}

func TestSimulateDAGInvalid(t *testing.T) {
	tests := []struct {
		name string
		jobs []*jobB
		want string
	}{
		{"missing predecessor", []*jobB{newJob(0, 0, 1, 10).after(5)}, "job 0: after names job 5, which is not in the workload"},
		{"cycle", []*jobB{newJob(0, 0, 1, 10).after(1), newJob(1, 0, 1, 10).after(0)}, "has a cycle"},
		{"before its predecessor", []*jobB{newJob(0, 5, 1, 10), newJob(1, 0, 1, 10).after(0)}, "job 1: submit 0 s is before its predecessor 0's 5 s"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewSim(Input{Cluster: cluster(4), Window: 10, Jobs: jobsOf(tc.jobs...)}, SimConfig{Interval: 10}, greedyTasks())
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

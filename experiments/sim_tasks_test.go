package experiments

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/workloads"
)

// tasks makes the job task-level with one-node tasks of the durations.
func (b *jobB) tasks(durations ...float64) *jobB {
	b.j.TaskNodes = 1
	b.j.TaskDurations = durations
	b.j.Nodes = len(durations)
	b.j.Runtime = workloads.MeanTaskDuration(durations)
	return b
}

// greedyTasks starts every waiting task that fits, jobs in pending order.
func greedyTasks() *plannertest.Func {
	return &plannertest.Func{SchedName: "greedy-tasks", F: func(st *planner.State) (*planner.Decision, error) {
		return &planner.Decision{StartTasks: planner.PlaceTasksGreedy(st, st.Pending)}, nil
	}}
}

// TestSimulateTasks: the tasks of a job run independently as nodes free
// up; the job is pending while a task waits and running while a task
// runs, completes with its last task, and waits to its first.
func TestSimulateTasks(t *testing.T) {
	in := Input{Cluster: cluster(2), Window: 100, Jobs: jobsOf(newJob(0, 0, 0, 0).tasks(100, 50, 30))}
	sched := greedyTasks()
	sim, err := NewSim(in, SimConfig{Interval: 60}, sched)
	if err != nil {
		t.Fatal(err)
	}
	if sim.Limit() != TaskDrainWindows*100 {
		t.Errorf("limit %g, want %d windows", sim.Limit(), TaskDrainWindows)
	}
	states := stepAll(t, sim, nil)
	// t=0: tasks 0 (100 s) and 1 (50 s) start; t=60: task 1 is done, task
	// 2 (30 s) starts; the job is done at 100, when task 0 ends.
	if len(states) != 2 {
		t.Fatalf("%d cycles, want 2", len(states))
	}
	st := states[1]
	if len(st.Pending) != 1 || !slices.Equal(st.Pending[0].Waiting, []int{2}) {
		t.Errorf("pending at t=60: %+v", st.Pending)
	}
	if len(st.Running) != 1 || st.Running[0].Done != 1 || st.Running[0].Start != 0 ||
		!slices.Equal(st.Running[0].Tasks, []planner.RunningTask{{Task: 0, Partition: 0, Start: 0}}) ||
		!slices.Equal(st.Running[0].Alloc, []int{1}) {
		t.Errorf("running at t=60: %+v", st.Running[0])
	}
	res := sim.Result()
	r := res.Jobs[0]
	if !r.Completed || r.Start != 0 || r.End != 100 || r.Tasks != 3 || r.TasksStarted != 3 || r.TasksDone != 3 ||
		r.TaskWaitSum != 60 || r.TaskWork != 180 || !slices.Equal(r.Partitions, []int{0}) {
		t.Errorf("record %+v", r)
	}
	var ends [][3]float64 // task, end, job done
	for _, c := range sched.Observed {
		done := 0.0
		if c.JobDone {
			done = 1
		}
		ends = append(ends, [3]float64{float64(c.Task), c.End, done})
	}
	if want := [][3]float64{{1, 50, 0}, {2, 90, 0}, {0, 100, 1}}; !slices.Equal(ends, want) {
		t.Errorf("observed (task, end, done) %v, want %v", ends, want)
	}
	var runs [][3]float64 // task, start, end
	for _, run := range res.Runs {
		runs = append(runs, [3]float64{float64(run.Task), run.Start, run.End})
	}
	if want := [][3]float64{{0, 0, 100}, {1, 0, 50}, {2, 60, 90}}; !slices.Equal(runs, want) {
		t.Errorf("runs %v, want %v", runs, want)
	}
	m := res.Metrics()
	if m.JCTMean != 100 || m.WaitMean != 0 || m.Utilization != 0.9 || m.BEGoodput != 180.0/3600 || res.End != 100 {
		t.Errorf("metrics %+v, span %g", m, res.End)
	}
}

// TestTasksAtTheLimit: a task under way at the drain limit runs to its end
// but counts its work within the span; a task still waiting never starts,
// so the job does not complete, yet its completed tasks are goodput.
func TestTasksAtTheLimit(t *testing.T) {
	in := Input{Cluster: cluster(1), Window: 100, Jobs: jobsOf(newJob(0, 0, 0, 0).tasks(1000, 10))}
	sim, err := NewSim(in, SimConfig{Interval: 60, Drain: 100}, greedyTasks())
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r := res.Jobs[0]
	if r.Completed || r.TasksDone != 1 || r.TasksStarted != 1 || r.TaskWork != 200 || res.End != 200 || res.BusyNodeSeconds != 200 {
		t.Errorf("record %+v, span %g, busy %g", r, res.End, res.BusyNodeSeconds)
	}
	if m := res.Metrics(); m.BEGoodput != 200.0/3600 || m.Completed != 0 || !math.IsNaN(m.JCTMean) {
		t.Errorf("metrics %+v", m)
	}
}

// TestTaskSlowdown: a task off the job's preferred partitions runs
// Slowdown× longer, and its completion says so.
func TestTaskSlowdown(t *testing.T) {
	in := Input{Cluster: cluster(1, 1), Window: 100, Jobs: jobsOf(newJob(0, 0, 0, 0).tasks(100, 100).prefer(0))}
	sched := greedyTasks()
	sim, err := NewSim(in, SimConfig{Interval: 60}, sched)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Jobs[0]; r.End != 150 || !r.Slowed || !slices.Equal(r.Partitions, []int{0, 1}) {
		t.Errorf("record %+v", r)
	}
	c := sched.Observed[1]
	if c.Task != 1 || !c.Slowed || c.Slowdown != 1.5 || c.PreferredRuntime() != 100 {
		t.Errorf("completion %+v", c)
	}
}

// TestTaskDecisionsChecked: the simulator ends the run on a task-level job
// started whole and on a task that is not waiting.
func TestTaskDecisionsChecked(t *testing.T) {
	tests := []struct {
		name string
		d    *planner.Decision
		rule error
	}{
		{"started whole", &planner.Decision{Start: []planner.Placement{{JobID: 0, Alloc: []int{2}}}}, planner.ErrJobKind},
		{"a task out of range", &planner.Decision{StartTasks: []planner.TaskPlacement{{JobID: 0, Task: 2}}}, planner.ErrNotWaiting},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Cluster: cluster(2), Window: 100, Jobs: jobsOf(newJob(0, 0, 0, 0).tasks(10, 10))}
			sim, err := NewSim(in, SimConfig{Interval: 60}, &plannertest.Func{SchedName: "bad",
				F: func(*planner.State) (*planner.Decision, error) { return tc.d, nil }})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := sim.Run(context.Background()); !errors.Is(err, tc.rule) {
				t.Errorf("error %v, want %v", err, tc.rule)
			}
		})
	}
}

// TestRunRefusesGangSchedulers: a scheduler that runs gang jobs only is
// refused a workload of task-level jobs before any run starts.
func TestRunRefusesGangSchedulers(t *testing.T) {
	in := Input{Name: "tasks", Cluster: cluster(2), Window: 100, Jobs: jobsOf(newJob(0, 0, 0, 0).tasks(10, 10))}
	_, err := Run(context.Background(), in, testRegistry(), RunConfig{Schedulers: []string{"prio"}, Sim: SimConfig{Interval: 60}})
	if !errors.Is(err, planner.ErrNoTasks) || err.Error() != "scheduler prio does not schedule task-level jobs, which workload tasks has (none is registered)" {
		t.Errorf("error %v", err)
	}
}

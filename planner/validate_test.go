package planner_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/workloads"
)

// validateState: partitions of 2 and 3 nodes; job 1 (BE, 2 nodes) runs on
// partition 0, job 2 (SLO, 1 node) on partition 1; jobs 3 (BE, 2 nodes)
// and 4 (SLO, 3 nodes) are pending. Free: 0 and 2.
func validateState() *planner.State {
	run := func(j *workloads.Job, alloc ...int) *planner.Running {
		return &planner.Running{Job: j, Alloc: alloc}
	}
	return &planner.State{
		Cluster: workloads.Cluster{PartitionNodes: []int{2, 3}, Slowdown: 1.5},
		Free:    []int{0, 2},
		Running: []*planner.Running{
			run(plannertest.NewJob(1).Nodes(2).Job(), 2, 0),
			run(plannertest.NewJob(2).SLO(900).Job(), 0, 1),
		},
		Pending: []*planner.Pending{
			{Job: plannertest.NewJob(3).Nodes(2).Job()},
			{Job: plannertest.NewJob(4).Nodes(3).SLO(900).Job()},
		},
	}
}

func start(id int, alloc ...int) planner.Placement { return planner.Placement{JobID: id, Alloc: alloc} }

func TestDecisionValidate(t *testing.T) {
	tests := []struct {
		name string
		d    *planner.Decision
		rule error // nil: valid
		job  int
	}{
		{name: "nothing to do", d: &planner.Decision{}},
		{name: "nil decision", d: nil},
		{name: "a start that fits", d: &planner.Decision{Start: []planner.Placement{start(3, 0, 2)}}},
		{name: "a preemption makes room", d: &planner.Decision{Preempt: []int{1}, Start: []planner.Placement{start(4, 2, 1)}}},
		{name: "capacity per partition", d: &planner.Decision{Start: []planner.Placement{start(3, 1, 1)}}, rule: planner.ErrCapacity, job: 3},
		{name: "capacity over starts", d: &planner.Decision{Preempt: []int{1}, Start: []planner.Placement{start(3, 2, 0), start(4, 1, 2)}}, rule: planner.ErrCapacity, job: 4},
		{name: "start of a running job", d: &planner.Decision{Start: []planner.Placement{start(1, 0, 2)}}, rule: planner.ErrNotPending, job: 1},
		{name: "start of an unknown job", d: &planner.Decision{Start: []planner.Placement{start(9, 0, 1)}}, rule: planner.ErrUnknownJob, job: 9},
		{name: "preempt of a pending job", d: &planner.Decision{Preempt: []int{3}}, rule: planner.ErrNotRunning, job: 3},
		{name: "preempt of an unknown job", d: &planner.Decision{Preempt: []int{9}}, rule: planner.ErrUnknownJob, job: 9},
		{name: "preempt of an SLO job", d: &planner.Decision{Preempt: []int{2}}, rule: planner.ErrNotPreemptible, job: 2},
		{name: "started twice", d: &planner.Decision{Start: []planner.Placement{start(3, 0, 2), start(3, 0, 2)}}, rule: planner.ErrDuplicateJob, job: 3},
		{name: "preempted twice", d: &planner.Decision{Preempt: []int{1, 1}}, rule: planner.ErrDuplicateJob, job: 1},
		{name: "preempted and restarted", d: &planner.Decision{Preempt: []int{1}, Start: []planner.Placement{start(1, 2, 0)}}, rule: planner.ErrDuplicateJob, job: 1},
		{name: "allocation of the wrong length", d: &planner.Decision{Start: []planner.Placement{start(3, 2)}}, rule: planner.ErrAllocation, job: 3},
		{name: "negative count", d: &planner.Decision{Start: []planner.Placement{start(3, -1, 3)}}, rule: planner.ErrAllocation, job: 3},
		{name: "gang too small", d: &planner.Decision{Start: []planner.Placement{start(3, 0, 1)}}, rule: planner.ErrGangSize, job: 3},
		{name: "gang too large", d: &planner.Decision{Start: []planner.Placement{start(4, 0, 2)}}, rule: planner.ErrGangSize, job: 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := validateState()
			err := tc.d.Validate(st)
			if tc.rule == nil {
				if err != nil {
					t.Fatalf("valid decision refused: %v", err)
				}
				return
			}
			if !errors.Is(err, tc.rule) || !errors.Is(err, planner.ErrInvalidDecision) {
				t.Fatalf("error %v, want %v and ErrInvalidDecision", err, tc.rule)
			}
			var de *planner.DecisionError
			if !errors.As(err, &de) || de.JobID != tc.job {
				t.Errorf("error %v does not name job %d", err, tc.job)
			}
			if want := fmt.Sprintf("job %d: %v", tc.job, tc.rule); !strings.Contains(err.Error(), want) {
				t.Errorf("message %q does not say %q", err, want)
			}
			if st.Free[0] != 0 || st.Free[1] != 2 {
				t.Error("Validate modified the state")
			}
		})
	}
}

// taskState: one partition of 2 nodes and one of 3, 1 and 2 free; job 5
// (task-level, tasks of one node, 0 and 2 waiting, 1 running on partition
// 1, 3 done) and job 6 (task-level, tasks of 2 nodes, 0 and 1 waiting)
// are pending; job 7 is a pending gang job; job 8 is task-level and has
// only running tasks.
func taskState() *planner.State {
	j5 := plannertest.NewJob(5).Tasks(1, 10, 20, 30, 40).Job()
	j8 := plannertest.NewJob(8).Tasks(1, 10).Job()
	return &planner.State{
		Cluster: workloads.Cluster{PartitionNodes: []int{2, 3}, Slowdown: 1.5},
		Free:    []int{1, 2},
		Running: []*planner.Running{
			{Job: j5, Alloc: []int{0, 1}, Tasks: []planner.RunningTask{{Task: 1, Partition: 1}}, Done: 1},
			{Job: j8, Alloc: []int{1, 0}, Tasks: []planner.RunningTask{{Task: 0, Partition: 0}}},
		},
		Pending: []*planner.Pending{
			{Job: j5, Waiting: []int{0, 2}},
			{Job: plannertest.NewJob(6).Tasks(2, 10, 10).Job(), Waiting: []int{0, 1}},
			{Job: plannertest.NewJob(7).Job()},
		},
	}
}

func task(id, task, part int) planner.TaskPlacement {
	return planner.TaskPlacement{JobID: id, Task: task, Partition: part}
}

func TestDecisionValidateTasks(t *testing.T) {
	tests := []struct {
		name string
		d    *planner.Decision
		rule error // nil: valid
		job  int
	}{
		{name: "waiting tasks that fit", d: &planner.Decision{StartTasks: []planner.TaskPlacement{task(5, 0, 0), task(5, 2, 1)}}},
		{name: "a wide task and a gang", d: &planner.Decision{Start: []planner.Placement{start(7, 1, 0)}, StartTasks: []planner.TaskPlacement{task(6, 1, 1)}}},
		{name: "a running task", d: &planner.Decision{StartTasks: []planner.TaskPlacement{task(5, 1, 0)}}, rule: planner.ErrNotWaiting, job: 5},
		{name: "a done task", d: &planner.Decision{StartTasks: []planner.TaskPlacement{task(5, 3, 0)}}, rule: planner.ErrNotWaiting, job: 5},
		{name: "a task out of range", d: &planner.Decision{StartTasks: []planner.TaskPlacement{task(5, 4, 0)}}, rule: planner.ErrNotWaiting, job: 5},
		{name: "a task started twice", d: &planner.Decision{StartTasks: []planner.TaskPlacement{task(5, 0, 1), task(5, 0, 1)}}, rule: planner.ErrDuplicateTask, job: 5},
		{name: "capacity of a partition", d: &planner.Decision{StartTasks: []planner.TaskPlacement{task(5, 0, 0), task(5, 2, 0)}}, rule: planner.ErrCapacity, job: 5},
		{name: "a wide task needs its nodes in one partition", d: &planner.Decision{StartTasks: []planner.TaskPlacement{task(6, 0, 0)}}, rule: planner.ErrCapacity, job: 6},
		{name: "capacity after a gang", d: &planner.Decision{Start: []planner.Placement{start(7, 0, 1)}, StartTasks: []planner.TaskPlacement{task(6, 0, 1)}}, rule: planner.ErrCapacity, job: 6},
		{name: "no such partition", d: &planner.Decision{StartTasks: []planner.TaskPlacement{task(5, 0, 2)}}, rule: planner.ErrAllocation, job: 5},
		{name: "a task-level job started whole", d: &planner.Decision{Start: []planner.Placement{start(5, 1, 1)}}, rule: planner.ErrJobKind, job: 5},
		{name: "a gang job started by tasks", d: &planner.Decision{StartTasks: []planner.TaskPlacement{task(7, 0, 0)}}, rule: planner.ErrJobKind, job: 7},
		{name: "a job with no waiting task", d: &planner.Decision{StartTasks: []planner.TaskPlacement{task(8, 0, 0)}}, rule: planner.ErrNotPending, job: 8},
		{name: "an unknown job", d: &planner.Decision{StartTasks: []planner.TaskPlacement{task(9, 0, 0)}}, rule: planner.ErrUnknownJob, job: 9},
		{name: "tasks are not preempted", d: &planner.Decision{Preempt: []int{8}}, rule: planner.ErrNotPreemptible, job: 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := taskState()
			err := tc.d.Validate(st)
			if tc.rule == nil {
				if err != nil {
					t.Fatalf("valid decision refused: %v", err)
				}
				return
			}
			if !errors.Is(err, tc.rule) || !errors.Is(err, planner.ErrInvalidDecision) {
				t.Fatalf("error %v, want %v and ErrInvalidDecision", err, tc.rule)
			}
			var de *planner.DecisionError
			if !errors.As(err, &de) || de.JobID != tc.job {
				t.Errorf("error %v does not name job %d", err, tc.job)
			}
			if st.Free[0] != 1 || st.Free[1] != 2 {
				t.Error("Validate modified the state")
			}
		})
	}
}

func ExampleDecision_Validate() {
	st := &planner.State{
		Cluster: workloads.Cluster{PartitionNodes: []int{4}, Slowdown: 1.5},
		Free:    []int{4},
		Pending: []*planner.Pending{{Job: plannertest.NewJob(7).Nodes(6).Job()}},
	}
	d := &planner.Decision{Start: []planner.Placement{{JobID: 7, Alloc: []int{6}}}}
	err := d.Validate(st)
	fmt.Println(err)
	fmt.Println(errors.Is(err, planner.ErrCapacity))
	// Output:
	// invalid decision: job 7: capacity exceeded: 6 nodes in partition 0, only 4 free
	// true
}

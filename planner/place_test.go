package planner

import (
	"slices"
	"testing"

	"github.com/plannerhq/planner/workloads"
)

func prioJob(id int, class workloads.Class, submit, deadline float64, nodes int, pref ...int) *workloads.Job {
	return &workloads.Job{ID: id, Class: class, Submit: submit, Deadline: deadline, Nodes: nodes, Runtime: 100, Preferred: pref}
}

func TestPlaceJob(t *testing.T) {
	c := workloads.Cluster{PartitionNodes: []int{4, 4, 4}, Slowdown: 1.5}
	tests := []struct {
		name  string
		free  []int
		job   *workloads.Job
		want  []int // nil: does not fit
		prefd bool  // all nodes preferred
	}{
		{"fits in one preferred partition", []int{4, 4, 4}, prioJob(0, workloads.SLO, 0, 9, 3, 1, 2), []int{0, 3, 0}, true},
		{"fullest preferred partition first", []int{4, 2, 3}, prioJob(0, workloads.SLO, 0, 9, 4, 1, 2), []int{0, 1, 3}, true},
		{"spans preferred partitions", []int{4, 2, 3}, prioJob(0, workloads.SLO, 0, 9, 5, 1, 2), []int{0, 2, 3}, true},
		{"off-preferred when preferred cannot hold it", []int{4, 2, 1}, prioJob(0, workloads.SLO, 0, 9, 5, 1, 2), []int{4, 1, 0}, false},
		{"no preferences: anywhere, largest first", []int{1, 3, 2}, prioJob(0, workloads.BestEffort, 0, 0, 4), []int{0, 3, 1}, true},
		{"does not fit", []int{1, 1, 1}, prioJob(0, workloads.BestEffort, 0, 0, 4), nil, false},
		{"ties by lower partition", []int{2, 2, 2}, prioJob(0, workloads.BestEffort, 0, 0, 3), []int{2, 1, 0}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			free := slices.Clone(tc.free)
			got, ok := PlaceJob(c, free, tc.job)
			if !slices.Equal(free, tc.free) {
				t.Error("PlaceJob modified free")
			}
			if ok != (tc.want != nil) || !slices.Equal(got, tc.want) {
				t.Fatalf("PlaceJob = %v, %v; want %v", got, ok, tc.want)
			}
			if !ok {
				return
			}
			all := true
			for r, k := range got {
				if k > 0 && !tc.job.IsPreferred(r) {
					all = false
				}
			}
			if all != tc.prefd {
				t.Errorf("all preferred = %v, want %v", all, tc.prefd)
			}
		})
	}
}

func pending(jobs ...*workloads.Job) []*Pending {
	out := make([]*Pending, len(jobs))
	for i, j := range jobs {
		out[i] = &Pending{Job: j}
	}
	return out
}

func ids(ps []*Pending) []int {
	out := make([]int, len(ps))
	for i, p := range ps {
		out[i] = p.Job.ID
	}
	return out
}

func TestPrioOrder(t *testing.T) {
	in := pending(
		prioJob(0, workloads.BestEffort, 5, 0, 1),
		prioJob(1, workloads.SLO, 9, 500, 1),
		prioJob(2, workloads.BestEffort, 1, 0, 1),
		prioJob(3, workloads.SLO, 1, 900, 1),
		prioJob(4, workloads.SLO, 2, 500, 1),
		prioJob(5, workloads.BestEffort, 1, 0, 1),
	)
	before := ids(in)
	got := ids(PrioOrder(in))
	// SLO by deadline (ties: submit), then BE by submit (ties: id).
	if want := []int{4, 1, 3, 2, 5, 0}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	if !slices.Equal(ids(in), before) {
		t.Error("PrioOrder modified its input")
	}
}

func TestPlaceTask(t *testing.T) {
	tests := []struct {
		name      string
		free      []int
		taskNodes int
		preferred []int
		want      int // −1: does not fit
	}{
		{"most free preferred partition", []int{1, 3, 2}, 1, []int{0, 2}, 2},
		{"off the preferred ones when they are full", []int{0, 3, 2}, 2, []int{0}, 1},
		{"every partition preferred, ties to the lower", []int{2, 2}, 1, nil, 0},
		{"a task's nodes in one partition", []int{1, 1}, 2, nil, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			j := &workloads.Job{ID: 1, TaskNodes: tc.taskNodes, TaskDurations: []float64{10}, Nodes: tc.taskNodes,
				Runtime: 10, Preferred: tc.preferred}
			r, ok := PlaceTask(tc.free, j)
			if (tc.want < 0) == ok || (ok && r != tc.want) {
				t.Errorf("PlaceTask = %d, %v; want %d", r, ok, tc.want)
			}
		})
	}
}

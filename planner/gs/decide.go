package gs

import (
	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/workloads"
)

// Sizer estimates a job's size in node-seconds for GS's queues: its mean
// task runtime × Job.Nodes (a gang job: its runtime × Nodes).
type Sizer func(job *workloads.Job) float64

// Decide is one GS cycle on st with the sizes size gives: every pending
// job is an item of the queue of its size (Config.QueueOf) with all its
// waiting tasks, items in the state's order (the simulator's and the
// service's: submit time, then id), every running job's nodes in use count
// for the queue of its size, and Plan shares the free nodes. It keeps no
// state, so any scheduler can decide a cycle with it from its own
// estimates (a fallback when a solve gives no answer).
func Decide(st *planner.State, cfg Config, size Sizer) *planner.Decision {
	items := make([]Item, len(st.Pending))
	for i, p := range st.Pending {
		items[i] = Item{P: p, Queue: cfg.QueueOf(size(p.Job)), Tasks: p.Waiting}
	}
	used := make([]float64, cfg.Queues)
	for _, r := range st.Running {
		used[cfg.QueueOf(size(r.Job))] += float64(held(r))
	}
	return Plan(st, cfg, items, used, nil)
}

// held is the nodes a running job holds.
func held(r *planner.Running) int {
	n := 0
	for _, k := range r.Alloc {
		n += k
	}
	return n
}

package planner

import (
	"cmp"
	"slices"

	"github.com/plannerhq/planner/workloads"
)

// PrioOrder returns the pending jobs in Prio's order: SLO jobs by deadline,
// then submit time, then id; then best-effort jobs by submit time, then id.
// The input is not modified.
func PrioOrder(pending []*Pending) []*Pending {
	order := slices.Clone(pending)
	slices.SortStableFunc(order, ComparePrio)
	return order
}

// ComparePrio is Prio's order as a comparison: SLO before best-effort, SLO
// jobs by deadline, then submit time, then id.
func ComparePrio(a, b *Pending) int {
	ja, jb := a.Job, b.Job
	if ja.Class != jb.Class {
		if ja.Class == workloads.SLO {
			return -1
		}
		return 1
	}
	if ja.Class == workloads.SLO {
		if c := cmp.Compare(ja.Deadline, jb.Deadline); c != 0 {
			return c
		}
	}
	if c := cmp.Compare(ja.Submit, jb.Submit); c != 0 {
		return c
	}
	return cmp.Compare(ja.ID, jb.ID)
}

// PlaceGreedy places the jobs of order, in that order, on the free nodes of
// state (state.Free is not modified): each job that fits now gets the nodes
// PlaceJob chooses, and a job that does not fit is skipped (backfill). It
// never preempts. It is Prio's placement and the fallback of the planning
// schedulers.
func PlaceGreedy(state *State, order []*Pending) []Placement {
	free := slices.Clone(state.Free)
	var out []Placement
	for _, p := range order {
		alloc, ok := PlaceJob(state.Cluster, free, p.Job)
		if !ok {
			continue
		}
		for r, k := range alloc {
			free[r] -= k
		}
		out = append(out, Placement{JobID: p.Job.ID, Alloc: alloc})
	}
	return out
}

// PlaceJob chooses job.Nodes nodes among free[r] (free is not modified):
//
//   - If the job's preferred partitions together have enough free nodes, it
//     takes only preferred nodes (no slowdown).
//   - Otherwise, if the whole cluster has enough free nodes, it takes nodes
//     anywhere and the job runs Cluster.Slowdown× longer: a runtime-blind
//     scheduler cannot tell whether waiting for preferred nodes would pay.
//   - Otherwise the job does not fit (ok = false).
//
// Within the allowed partitions it fills the partition with the most free
// nodes first (ties: lower index), so a gang touches few partitions and
// small holes are left for small jobs. When the slowdown is taken anyway,
// preferred partitions are not favoured: once one node is off the preferred
// set the job is slowed whatever the mix.
func PlaceJob(c workloads.Cluster, free []int, job *workloads.Job) (alloc []int, ok bool) {
	if job.Nodes <= 0 || len(free) == 0 {
		return nil, false
	}
	prefFree := 0
	for r, f := range free {
		if f > 0 && job.IsPreferred(r) {
			prefFree += f
		}
	}
	allowed := func(r int) bool { return job.IsPreferred(r) }
	if prefFree < job.Nodes {
		if sumNodes(free) < job.Nodes {
			return nil, false
		}
		allowed = func(int) bool { return true }
	}
	parts := make([]int, 0, len(free))
	for r, f := range free {
		if f > 0 && allowed(r) {
			parts = append(parts, r)
		}
	}
	slices.SortStableFunc(parts, func(a, b int) int { return cmp.Compare(free[b], free[a]) })
	alloc = make([]int, len(free))
	need := job.Nodes
	for _, r := range parts {
		k := min(need, free[r])
		alloc[r] = k
		need -= k
		if need == 0 {
			break
		}
	}
	return alloc, true
}

func sumNodes(v []int) int {
	s := 0
	for _, x := range v {
		s += x
	}
	return s
}

// PlaceTask chooses the partition for one task of the task-level job
// (Job.TaskNodes nodes in one partition) among free[r] (free is not
// modified): the preferred partition with the most free nodes that holds
// the task, else any such partition (the task then runs
// Cluster.Slowdown× longer), ties to the lower index; ok = false when no
// partition holds it.
func PlaceTask(free []int, job *workloads.Job) (r int, ok bool) {
	n := job.TaskNodes
	best, bestOff := -1, -1
	for p, f := range free {
		if f < n || n <= 0 {
			continue
		}
		if job.IsPreferred(p) {
			if best < 0 || f > free[best] {
				best = p
			}
		} else if bestOff < 0 || f > free[bestOff] {
			bestOff = p
		}
	}
	if best >= 0 {
		return best, true
	}
	return bestOff, bestOff >= 0
}

// PlaceTasksGreedy starts waiting tasks of the task-level jobs of order,
// job by job in that order and each job's tasks in index order, on the
// free nodes of state (PlaceTask; state.Free is not modified), until a
// task does not fit; gang jobs in order are skipped. It is the simplest
// task placement, for tests and as a building block.
func PlaceTasksGreedy(state *State, order []*Pending) []TaskPlacement {
	free := slices.Clone(state.Free)
	var out []TaskPlacement
	for _, p := range order {
		if !p.Job.TaskLevel() {
			continue
		}
		for _, k := range p.Waiting {
			r, ok := PlaceTask(free, p.Job)
			if !ok {
				break
			}
			free[r] -= p.Job.TaskNodes
			out = append(out, TaskPlacement{JobID: p.Job.ID, Task: k, Partition: r})
		}
	}
	return out
}

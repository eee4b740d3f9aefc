package gs

import (
	"slices"

	"github.com/plannerhq/planner/planner"
)

// Item is what a pending job may start from one queue this cycle: the
// waiting tasks Tasks of a task-level job, in the order to start them, or
// a gang job whole (Tasks ignored).
type Item struct {
	P     *planner.Pending
	Queue int
	Tasks []int
}

// Plan hands the free nodes of st to items, one node-holding unit (a task,
// or a gang) at a time, and returns the starts (SLearn §5.1.1):
//
//   - across queues, weighted sharing: the next unit goes to the queue q,
//     among those with an item left, whose nodes in use (used[q] at the
//     start of the cycle, plus what Plan starts for it) are the least
//     relative to its weight, used[q] · WeightRatio^q, ties to the higher
//     priority (lower q);
//   - within a queue, the head item (items keep their order within a
//     queue: FIFO when the caller lists jobs by submit time) takes every
//     unit it can before the next; a unit that fits nowhere (a gang wider
//     than the free nodes, a task wider than any partition's) ends its
//     item for this cycle, and the next item goes on (no reservation);
//   - then, with nodes still free, the spare items in their order (work
//     conservation: SLearn's non-pilot tasks of jobs whose estimate is
//     not known yet).
//
// Tasks go where planner.PlaceTask puts them, gangs where planner.PlaceJob
// does. used has one entry per queue and is not modified; an item's queue
// outside [0, Queues) is clamped to it.
func Plan(st *planner.State, cfg Config, items []Item, used []float64, spare []Item) *planner.Decision {
	d := &planner.Decision{}
	left := st.FreeNodes()
	if left == 0 {
		return d
	}
	free := slices.Clone(st.Free)
	// Per-queue scratch, on the stack for up to stackQueues queues: Plan
	// runs at every arrival and completion.
	n := cfg.Queues
	var fb [2 * stackQueues]float64
	var ib [2 * stackQueues]int
	fs, is := fb[:], ib[:]
	if n > stackQueues {
		fs, is = make([]float64, 2*n), make([]int, 2*n)
	}
	w := fs[:n]
	cfg.weights(w)
	load := fs[n : 2*n] // used[q] · WeightRatio^q as units start
	for q := range load {
		if q < len(used) {
			load[q] = used[q] * w[q]
		}
	}
	queue := func(it Item) int { return min(max(it.Queue, 0), cfg.Queues-1) }
	// heads[q] is the index in items of queue q's head item (len(items)
	// when the queue is done): each queue walks items in order, skipping
	// the other queues' (no per-queue copies of a long queue).
	heads := is[:n]
	next := func(q, from int) int {
		for from < len(items) && queue(items[from]) != q {
			from++
		}
		return from
	}
	for q := range heads {
		heads[q] = len(items)
	}
	for i := len(items) - 1; i >= 0; i-- { // one pass: each queue's first item
		heads[queue(items[i])] = i
	}
	started := is[n : 2*n] // units the head item started
	for left > 0 {
		q := -1
		for k := range heads {
			if heads[k] < len(items) && (q < 0 || load[k] < load[q]) {
				q = k
			}
		}
		if q < 0 {
			break
		}
		n, more := startUnit(st, d, free, items[heads[q]], started[q])
		if n > 0 {
			left -= n
			load[q] += float64(n) * w[q]
			started[q]++
		}
		if n == 0 || !more {
			heads[q] = next(q, heads[q]+1)
			started[q] = 0
		}
	}
	for _, it := range spare {
		for k := 0; left > 0; k++ {
			n, more := startUnit(st, d, free, it, k)
			left -= n
			if n == 0 || !more {
				break
			}
		}
	}
	return d
}

// PlanFIFO is Plan with every job of pending in one queue, in that
// order, and no spare items: each job takes every unit it can before the
// next. It reads pending only until the free nodes are gone, so that a
// decision at each completion costs the jobs it reaches, not the whole
// queue (Plan reads every item).
func PlanFIFO(st *planner.State, pending []*planner.Pending) *planner.Decision {
	d := &planner.Decision{}
	left := st.FreeNodes()
	if left == 0 {
		return d
	}
	free := slices.Clone(st.Free)
	for _, p := range pending {
		if left == 0 {
			break
		}
		it := Item{P: p, Tasks: p.Waiting}
		for k := 0; left > 0; k++ {
			n, more := startUnit(st, d, free, it, k)
			left -= n
			if n == 0 || !more {
				break
			}
		}
	}
	return d
}

// stackQueues is the most queues Plan keeps its scratch on the stack for.
const stackQueues = 16

// startUnit starts the unit k of item it on free (taking its nodes) into
// d: its task Tasks[k], or, for a gang job (k = 0), the gang. It returns
// the nodes taken (0 when the unit fits nowhere) and whether the item has
// units after this one.
func startUnit(st *planner.State, d *planner.Decision, free []int, it Item, k int) (nodes int, more bool) {
	j := it.P.Job
	if !j.TaskLevel() {
		if k > 0 {
			return 0, false
		}
		alloc, ok := planner.PlaceJob(st.Cluster, free, j)
		if !ok {
			return 0, false
		}
		for r, n := range alloc {
			free[r] -= n
		}
		d.Start = append(d.Start, planner.Placement{JobID: j.ID, Alloc: alloc})
		return j.Nodes, false
	}
	if k >= len(it.Tasks) {
		return 0, false
	}
	r, ok := planner.PlaceTask(free, j)
	if !ok {
		return 0, false
	}
	free[r] -= j.TaskNodes
	d.StartTasks = append(d.StartTasks, planner.TaskPlacement{JobID: j.ID, Task: it.Tasks[k], Partition: r})
	return j.TaskNodes, k+1 < len(it.Tasks)
}

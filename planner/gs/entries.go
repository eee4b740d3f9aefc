package gs

import (
	"cmp"
	"slices"
)

// Entries keeps GS's queues first in, first out: for each job, the queue
// it is in and when it entered it. A job that moves to another queue (LAS
// demotes a job as it gets service; SLearn moves a job from the sampling
// queue to the queue of its estimate) enters that queue's tail, behind
// the jobs already there, as in a multi-level feedback queue.
type Entries struct {
	next uint64
	m    map[int]entry
}

type entry struct {
	queue int
	seq   uint64
}

// NewEntries returns empty Entries.
func NewEntries() *Entries { return &Entries{m: map[int]entry{}} }

// Enter notes that job id is in queue q now: it keeps its place in the
// order of entries when it was in q already, else it takes a new one after
// every other.
func (e *Entries) Enter(id, q int) {
	if en, ok := e.m[id]; ok && en.queue == q {
		return
	}
	e.next++
	e.m[id] = entry{queue: q, seq: e.next}
}

// Forget drops a job that is done.
func (e *Entries) Forget(id int) { delete(e.m, id) }

// Order sorts items by when their jobs entered their queues (Enter;
// stable: items of one job keep their order), for Plan.
func (e *Entries) Order(items []Item) {
	slices.SortStableFunc(items, func(a, b Item) int {
		return cmp.Compare(e.m[a.P.Job.ID].seq, e.m[b.P.Job.ID].seq)
	})
}

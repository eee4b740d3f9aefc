package planner

import (
	"errors"
	"fmt"
	"slices"

	"github.com/plannerhq/planner/workloads"
)

// ErrInvalidDecision is matched (errors.Is) by every error of
// Decision.Validate, beside the sentinel of the rule the decision breaks.
var ErrInvalidDecision = errors.New("invalid decision")

// The rules of Decision.Validate, one sentinel each.
var (
	// ErrUnknownJob: the decision names a job the state does not hold.
	ErrUnknownJob = errors.New("unknown job")
	// ErrNotPending: a start of a job that is not pending.
	ErrNotPending = errors.New("job not pending")
	// ErrNotRunning: a preemption of a job that is not running.
	ErrNotRunning = errors.New("job not running")
	// ErrNotPreemptible: a preemption of an SLO job (only best-effort jobs
	// may be preempted).
	ErrNotPreemptible = errors.New("job not preemptible")
	// ErrDuplicateJob: a job started or preempted twice in one decision.
	ErrDuplicateJob = errors.New("job named twice")
	// ErrAllocation: an allocation with the wrong number of partitions or
	// a negative count.
	ErrAllocation = errors.New("malformed allocation")
	// ErrGangSize: an allocation whose nodes do not add up to the job's
	// gang size.
	ErrGangSize = errors.New("wrong gang size")
	// ErrCapacity: the starts take more nodes of a partition than are free
	// once the decision's preemptions have released theirs.
	ErrCapacity = errors.New("capacity exceeded")
	// ErrJobKind: a task-level job started whole (Decision.Start), or a
	// gang job started by tasks (Decision.StartTasks).
	ErrJobKind = errors.New("wrong kind of start")
	// ErrNotWaiting: a task start of a task that is not waiting (out of
	// range, started, or done).
	ErrNotWaiting = errors.New("task not waiting")
	// ErrDuplicateTask: a task started twice in one decision.
	ErrDuplicateTask = errors.New("task named twice")
)

// DecisionError is a decision breaking one rule of the cluster contract.
// It matches ErrInvalidDecision and its rule's sentinel (Rule).
type DecisionError struct {
	JobID  int
	Rule   error
	Detail string
}

func (e *DecisionError) Error() string {
	return fmt.Sprintf("%v: job %d: %v: %s", ErrInvalidDecision, e.JobID, e.Rule, e.Detail)
}

// Unwrap gives ErrInvalidDecision and the rule's sentinel to errors.Is.
func (e *DecisionError) Unwrap() []error { return []error{ErrInvalidDecision, e.Rule} }

func decisionErr(id int, rule error, format string, args ...any) error {
	return &DecisionError{JobID: id, Rule: rule, Detail: fmt.Sprintf(format, args...)}
}

// Validate checks d against the cluster contract in state st and returns
// the first rule it breaks (a *DecisionError), or nil:
//
//   - a preempted job is a running gang job, of class best-effort, and
//     preempted once (tasks are not preempted);
//   - a started gang job is pending and started once;
//   - an allocation has one count ≥ 0 per partition, adding up to the
//     job's gang size (Job.Nodes);
//   - a started task belongs to a pending task-level job, is one of its
//     waiting tasks (Pending.Waiting), is started once, and names a
//     partition of the cluster;
//   - gang jobs are started by Start, task-level jobs by StartTasks;
//   - per partition r, the starts (gangs, then tasks of Job.TaskNodes
//     nodes each) take at most Free[r] plus the nodes the decision's
//     preemptions release there.
//
// Every driver calls it before carrying a decision out (RunCycle); a nil
// or empty decision is valid (nothing to do). Ledger.Apply carries a
// decision out by the same rules (rules), refusing item by item.
func (d *Decision) Validate(st *State) error {
	if d.Empty() {
		return nil
	}
	w := newRules(d.lookup(st), st.Free, d)
	for _, id := range d.Preempt {
		if err := w.preempt(id); err != nil {
			return err
		}
	}
	for _, pl := range d.Start {
		if err := w.start(pl); err != nil {
			return err
		}
	}
	for _, ts := range d.StartTasks {
		if err := w.startTask(ts); err != nil {
			return err
		}
	}
	return nil
}

// entries are a cluster's jobs as the rules read them: the pending
// entry of job id (nil when it is not pending), and its running one (nil
// when it is not running).
type entries interface {
	pendingEntry(id int) *Pending
	runningEntry(id int) *Running
}

// rules are the cluster contract (Validate) as a walk over a decision's
// items in the contract's order: its preemptions, then its gang starts,
// then its task starts. Each item is checked against the entries and the
// nodes free once the items before it that kept the rules are carried
// out; an item that keeps them takes its nodes (a preemption gives its
// back) from the walk's own copy of the free nodes. Validate stops at the
// first broken rule; Ledger.Apply refuses that item and goes on. The
// entries are not changed.
type rules struct {
	b     entries
	free  []int
	named map[int]bool    // jobs preempted or started (each once)
	tasks map[[2]int]bool // tasks started, by job and task
}

func newRules(b entries, free []int, d *Decision) *rules {
	w := &rules{b: b, free: slices.Clone(free), named: make(map[int]bool, len(d.Preempt)+len(d.Start))}
	if len(d.StartTasks) > 0 {
		w.tasks = make(map[[2]int]bool, len(d.StartTasks))
	}
	return w
}

// reset readies w for a walk of d on b, keeping its memory; the caller
// sets w.free.
func (w *rules) reset(b entries, d *Decision) {
	w.b = b
	// A map that a long decision grew is made anew rather than cleared:
	// clearing costs its size.
	if n := len(d.Preempt) + len(d.Start); w.named == nil || len(w.named) > max(64, 4*n) {
		w.named = make(map[int]bool, n)
	} else {
		clear(w.named)
	}
	if n := len(d.StartTasks); w.tasks == nil || len(w.tasks) > max(64, 4*n) {
		w.tasks = make(map[[2]int]bool, n)
	} else {
		clear(w.tasks)
	}
}

// preempt checks the preemption of job id and releases its nodes.
func (w *rules) preempt(id int) error {
	r := w.b.runningEntry(id)
	switch {
	case w.named[id]:
		return decisionErr(id, ErrDuplicateJob, "preempted twice")
	case r == nil && w.b.pendingEntry(id) != nil:
		return decisionErr(id, ErrNotRunning, "preempted while pending")
	case r == nil:
		return decisionErr(id, ErrUnknownJob, "preempted, but the cluster does not hold it")
	case r.Job.Class != workloads.BestEffort:
		return decisionErr(id, ErrNotPreemptible, "preempted, but only best-effort jobs may be preempted (class %v)", r.Job.Class)
	case r.Job.TaskLevel():
		return decisionErr(id, ErrNotPreemptible, "preempted, but the tasks of a task-level job are not preempted")
	}
	w.named[id] = true
	for p, n := range r.Alloc {
		if p < len(w.free) {
			w.free[p] += n
		}
	}
	return nil
}

// start checks the start of a gang job and takes its nodes.
func (w *rules) start(pl Placement) error {
	id := pl.JobID
	var job *workloads.Job
	if p := w.b.pendingEntry(id); p != nil {
		job = p.Job
	}
	switch {
	case w.named[id]:
		return decisionErr(id, ErrDuplicateJob, "started twice, or started and preempted")
	case job == nil && w.b.runningEntry(id) != nil:
		return decisionErr(id, ErrNotPending, "started while running")
	case job == nil:
		return decisionErr(id, ErrUnknownJob, "started, but it is not pending (not submitted yet, or unknown)")
	case job.TaskLevel():
		return decisionErr(id, ErrJobKind, "a task-level job is started by tasks (StartTasks), not whole")
	case len(pl.Alloc) != len(w.free):
		return decisionErr(id, ErrAllocation, "allocation has %d partitions, the cluster %d", len(pl.Alloc), len(w.free))
	}
	w.named[id] = true
	n := 0
	for p, k := range pl.Alloc {
		if k < 0 {
			return decisionErr(id, ErrAllocation, "%d nodes in partition %d", k, p)
		}
		n += k
	}
	if n != job.Nodes {
		return decisionErr(id, ErrGangSize, "allocation has %d nodes, the job needs %d", n, job.Nodes)
	}
	for p, k := range pl.Alloc {
		if k > w.free[p] {
			return decisionErr(id, ErrCapacity, "%d nodes in partition %d, only %d free", k, p, w.free[p])
		}
	}
	for p, k := range pl.Alloc {
		w.free[p] -= k
	}
	return nil
}

// startTask checks the start of a task of a task-level job and takes its
// nodes.
func (w *rules) startTask(ts TaskPlacement) error {
	id := ts.JobID
	p := w.b.pendingEntry(id)
	switch {
	case p == nil && w.b.runningEntry(id) != nil:
		return decisionErr(id, ErrNotPending, "task %d started, but the job has no waiting task", ts.Task)
	case p == nil:
		return decisionErr(id, ErrUnknownJob, "task %d started, but the job is not pending (not submitted yet, or unknown)", ts.Task)
	case !p.Job.TaskLevel():
		return decisionErr(id, ErrJobKind, "a gang job is started whole (Start), not by tasks")
	case w.tasks[[2]int{id, ts.Task}]:
		return decisionErr(id, ErrDuplicateTask, "task %d started twice", ts.Task)
	case !isWaiting(p.Waiting, ts.Task):
		return decisionErr(id, ErrNotWaiting, "task %d started, but it is not waiting (out of range, running or done)", ts.Task)
	case ts.Partition < 0 || ts.Partition >= len(w.free):
		return decisionErr(id, ErrAllocation, "task %d in partition %d, the cluster has %d", ts.Task, ts.Partition, len(w.free))
	case p.Job.TaskNodes > w.free[ts.Partition]:
		return decisionErr(id, ErrCapacity, "task %d needs %d nodes in partition %d, only %d free", ts.Task, p.Job.TaskNodes, ts.Partition, w.free[ts.Partition])
	}
	w.tasks[[2]int{id, ts.Task}] = true
	w.free[ts.Partition] -= p.Job.TaskNodes
	return nil
}

// isWaiting reports whether task is in waiting (ascending).
func isWaiting(waiting []int, task int) bool {
	_, ok := slices.BinarySearch(waiting, task)
	return ok
}

// lookup indexes the pending and running entries of st that d names: a
// decision names few jobs of a long queue, mostly near its head, so the
// pending list is scanned until every named job is found, and the running
// list only for the preempted jobs and the named jobs not pending. The
// indexes are sorted slices, not maps: Validate runs at every decision.
func (d *Decision) lookup(st *State) stateBooks {
	ids := make([]int, 0, len(d.Start)+len(d.StartTasks)+len(d.Preempt))
	for _, pl := range d.Start {
		ids = append(ids, pl.JobID)
	}
	for _, ts := range d.StartTasks {
		ids = append(ids, ts.JobID)
	}
	ids = append(ids, d.Preempt...)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	pending := byJob[*Pending]{ids: ids, v: make([]*Pending, len(ids))}
	found := 0
	for _, p := range st.Pending {
		if found == len(ids) {
			break
		}
		if i, ok := slices.BinarySearch(ids, p.Job.ID); ok {
			if pending.v[i] == nil {
				found++
			}
			pending.v[i] = p
		}
	}
	want := slices.Clone(d.Preempt)
	for i, id := range ids {
		if pending.v[i] == nil {
			want = append(want, id)
		}
	}
	slices.Sort(want)
	want = slices.Compact(want)
	running := byJob[*Running]{ids: want, v: make([]*Running, len(want))}
	found = 0
	for _, r := range st.Running {
		if found == len(want) {
			break
		}
		if i, ok := slices.BinarySearch(want, r.Job.ID); ok {
			if running.v[i] == nil {
				found++
			}
			running.v[i] = r
		}
	}
	return stateBooks{pending, running}
}

// stateBooks are the entries of a State that a decision names (lookup).
type stateBooks struct {
	pending byJob[*Pending]
	running byJob[*Running]
}

func (b stateBooks) pendingEntry(id int) *Pending { return b.pending.get(id) }
func (b stateBooks) runningEntry(id int) *Running { return b.running.get(id) }

// byJob is entries of a state by job id: v[i] is job ids[i]'s (nil when
// the state does not hold it); ids ascending.
type byJob[T any] struct {
	ids []int
	v   []T
}

// get is job id's entry, the zero T (nil) when there is none.
func (b byJob[T]) get(id int) T {
	if i, ok := slices.BinarySearch(b.ids, id); ok {
		return b.v[i]
	}
	var zero T
	return zero
}

// Empty reports whether d starts and preempts nothing (a nil d too).
func (d *Decision) Empty() bool {
	return d == nil || len(d.Start)+len(d.StartTasks)+len(d.Preempt) == 0
}

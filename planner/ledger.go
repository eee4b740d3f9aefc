package planner

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/plannerhq/planner/workloads"
)

// Ledger is the cluster's books, the one copy of them every driver keeps:
// the nodes of each partition a decision may use and the nodes the runs
// hold there, the pending jobs by (submit time, id) and the running ones
// by id — the order a State shows them in — and of each task-level job
// its waiting and running tasks. A driver adds the jobs submitted
// (Add), carries decisions out (Apply, by the rules of Decision.Validate),
// and reports what its cluster did: a run's real start (Started), a run
// or task that completed (Complete), a job gone without completing
// (Remove). What the cluster does with time — when a run ends — is the
// driver's: the simulator's event heap, a service's clients, a test's
// hand-stepped clock. A Ledger is used by one goroutine at a time.
//
// The Pending and Running values are the Ledger's own, shared with the
// States it hands out (View): they change as it changes, and a value that
// leaves the books (a stopped or completed run) keeps what it held.
type Ledger struct {
	// cluster is the cluster the views show; PartitionNodes[r] is
	// max(capacity[r], used[r]), the nodes a planner counts in r.
	cluster  workloads.Cluster
	capacity []int
	used     []int
	interval float64

	pending []*Pending
	running []*Running
	jobs    map[int]*entry
	// pendingNodes is Σ the nodes the pending jobs ask for (a task-level
	// job's waiting tasks').
	pendingNodes int

	view    State // View's, reused from view to view
	started []int // startJobTasks' scratch list of task indices
	walk    rules // Preview's, reused from call to call
}

// entry is the books of one job, from Add until it completes or leaves.
type entry struct {
	job *workloads.Job
	// pending is the job's pending entry, kept across preemptions;
	// queued tells whether it is in the pending list.
	pending *Pending
	queued  bool
	running *Running // nil while nothing of the job runs
	// Of a task-level job: whether a task started, the first start, and
	// the completed tasks.
	started bool
	first   float64
	done    int
}

// ErrLedger is wrapped when a driver reports to a Ledger what its books
// cannot hold: a run they do not hold (Complete, Started), a job twice
// (Add). It is a bug of the driver.
var ErrLedger = errors.New("ledger")

// NewLedger returns the empty books of cluster c, whose every node is
// available; interval is the driver's period (State.Interval).
func NewLedger(c workloads.Cluster, interval float64) *Ledger {
	c = c.Clone()
	return &Ledger{cluster: c, capacity: slices.Clone(c.PartitionNodes), used: make([]int, len(c.PartitionNodes)),
		interval: interval, jobs: map[int]*entry{}}
}

// Cluster is the cluster as the books count it (read-only).
func (l *Ledger) Cluster() workloads.Cluster { return l.cluster }

// SetCapacity sets the nodes of partition r a decision may use (a
// service's nodes drained or lost, or given back). Runs that hold more
// keep their nodes; none is free there until they end.
func (l *Ledger) SetCapacity(r, nodes int) {
	l.capacity[r] = nodes
	l.count(r)
}

// count refreshes the nodes a planner counts in partition r.
func (l *Ledger) count(r int) {
	if n := max(l.capacity[r], l.used[r]); l.cluster.PartitionNodes[r] != n {
		l.cluster.PartitionNodes[r] = n
	}
}

// Free is the idle nodes of each partition a decision may use,
// max(0, capacity − used) (a fresh slice).
func (l *Ledger) Free() []int { return l.freeInto(nil) }

func (l *Ledger) freeInto(dst []int) []int {
	dst = dst[:0]
	for r, c := range l.capacity {
		dst = append(dst, max(0, c-l.used[r]))
	}
	return dst
}

// FreeNodes is Σ Free.
func (l *Ledger) FreeNodes() int {
	n := 0
	for r, c := range l.capacity {
		n += max(0, c-l.used[r])
	}
	return n
}

// Used is the nodes the runs hold in partition r.
func (l *Ledger) Used(r int) int { return l.used[r] }

// Pending are the pending jobs in the contract's order (read-only).
func (l *Ledger) Pending() []*Pending { return l.pending }

// Running are the running jobs by id (read-only).
func (l *Ledger) Running() []*Running { return l.running }

// PendingNodes is Σ the nodes the pending jobs ask for: a gang's nodes,
// a task-level job's waiting tasks' nodes.
func (l *Ledger) PendingNodes() int { return l.pendingNodes }

// Lookup is job id's pending entry and its running one (nil when it is
// not pending, not running, or not in the books).
func (l *Ledger) Lookup(id int) (*Pending, *Running) {
	e := l.jobs[id]
	if e == nil {
		return nil, nil
	}
	return e.pendingEntry(), e.running
}

// Task is the running task of task-level job id.
func (l *Ledger) Task(id, task int) (RunningTask, bool) {
	if e := l.jobs[id]; e != nil && e.running != nil {
		if i, ok := slices.BinarySearchFunc(e.running.Tasks, task, byTaskIndex); ok {
			return e.running.Tasks[i], true
		}
	}
	return RunningTask{}, false
}

func (e *entry) pendingEntry() *Pending {
	if e.queued {
		return e.pending
	}
	return nil
}

func (l *Ledger) pendingEntry(id int) *Pending {
	if e := l.jobs[id]; e != nil {
		return e.pendingEntry()
	}
	return nil
}

func (l *Ledger) runningEntry(id int) *Running {
	if e := l.jobs[id]; e != nil {
		return e.running
	}
	return nil
}

// Add puts a submitted job in the books, pending (a task-level job with
// every task waiting). The job is the driver's and must not change while
// it is in the books. A job already there is an error.
func (l *Ledger) Add(j *workloads.Job) error {
	if _, ok := l.jobs[j.ID]; ok {
		return fmt.Errorf("%w: job %d is in the books already", ErrLedger, j.ID)
	}
	e := &entry{job: j, pending: &Pending{Job: j}}
	if j.TaskLevel() {
		e.pending.Waiting = make([]int, j.Tasks())
		for k := range e.pending.Waiting {
			e.pending.Waiting[k] = k
		}
	}
	l.jobs[j.ID] = e
	l.enqueue(e)
	return nil
}

// Remove takes job id out of the books without a completion (it failed,
// or its client withdrew it): pending, it leaves the queue; running, its
// nodes are free. It reports whether the books held it.
func (l *Ledger) Remove(id int) bool {
	e := l.jobs[id]
	if e == nil {
		return false
	}
	if e.queued {
		l.dequeue(e)
		l.pendingNodes -= l.asked(e)
	}
	if r := e.running; r != nil {
		l.release(r.Alloc)
		l.removeRunning(e)
	}
	delete(l.jobs, id)
	return true
}

// asked is the nodes a pending job asks for.
func (l *Ledger) asked(e *entry) int {
	if e.job.TaskLevel() {
		return len(e.pending.Waiting) * e.job.TaskNodes
	}
	return e.job.Nodes
}

// View is the State a cycle at now hands a scheduler: the books' own
// Pending and Running lists, not copies (State's contract: the scheduler
// reads them and reorders only copies), and a copy of the free nodes, in
// memory reused from view to view. It is valid until the books change; a
// driver that keeps it past that, or hands it to another goroutine,
// takes a Snapshot.
func (l *Ledger) View(now float64) *State {
	st := &l.view
	*st = State{Now: now, Cluster: l.cluster, Free: l.freeInto(st.Free), Pending: l.pending, Running: l.running,
		Interval: l.interval}
	return st
}

// Snapshot is View as a deep copy (State.Clone, with its own cluster),
// which the books' later changes leave as it is.
func (l *Ledger) Snapshot(now float64) *State {
	st := l.View(now).Clone()
	st.Cluster = l.cluster.Clone()
	return st
}

// Preview is what Apply would carry out of d at now, without changing the
// books: the items that keep the rules of Decision.Validate, each checked
// against the books once the items before it that keep them are carried
// out, and the others refused with the rule they break.
func (l *Ledger) Preview(now float64, d *Decision) *ApplyResult {
	res := &ApplyResult{Now: now}
	if d.Empty() {
		return res
	}
	w := &l.walk
	w.reset(l, d)
	w.free = l.freeInto(w.free)
	refuse := func(ref Refusal, err error) bool {
		if err != nil {
			ref.Err = err
			res.Refused = append(res.Refused, ref)
		}
		return err == nil
	}
	preempted, started, tasks := kept[int]{all: d.Preempt}, kept[Placement]{all: d.Start}, kept[TaskPlacement]{all: d.StartTasks}
	for i, id := range d.Preempt {
		preempted.add(i, refuse(Refusal{JobID: id, Preempt: true}, w.preempt(id)))
	}
	for i, pl := range d.Start {
		started.add(i, refuse(Refusal{JobID: pl.JobID}, w.start(pl)))
	}
	for i, ts := range d.StartTasks {
		tasks.add(i, refuse(Refusal{JobID: ts.JobID, Task: ts.Task, Tasks: true}, w.startTask(ts)))
	}
	res.Preempted, res.Started, res.StartedTasks = preempted.list(), started.list(), tasks.list()
	return res
}

// kept are the items of all that keep the rules: all itself, not a copy,
// until one does not.
type kept[T any] struct {
	all, out []T
	cut      bool
}

// add says whether all[i] keeps the rules (called for i = 0, 1, …).
func (k *kept[T]) add(i int, ok bool) {
	switch {
	case ok && k.cut:
		k.out = append(k.out, k.all[i])
	case !ok && !k.cut:
		k.cut, k.out = true, slices.Clone(k.all[:i])
	}
}

func (k *kept[T]) list() []T {
	if k.cut {
		return k.out
	}
	return k.all
}

// Apply carries d out at now, item by item (Preview): preemptions first
// (each run stopped, its work lost, its job pending again), then the gang
// starts, then the task starts. It returns what it carried out and what
// it refused, which the driver tells the scheduler (Scheduler.Applied).
func (l *Ledger) Apply(now float64, d *Decision) *ApplyResult {
	res := l.Preview(now, d)
	for _, id := range res.Preempted {
		e := l.jobs[id]
		l.release(e.running.Alloc)
		l.removeRunning(e)
		e.pending.Preemptions++
		l.enqueue(e)
	}
	for _, pl := range res.Started {
		l.startGang(now, l.jobs[pl.JobID], pl.Alloc)
	}
	for i, starts := 0, res.StartedTasks; i < len(starts); {
		k := i + 1
		for k < len(starts) && starts[k].JobID == starts[i].JobID {
			k++
		}
		l.startJobTasks(now, l.jobs[starts[i].JobID], starts[i:k])
		i = k
	}
	return res
}

// startGang starts a pending gang job on alloc at now.
func (l *Ledger) startGang(now float64, e *entry, alloc []int) {
	alloc = slices.Clone(alloc)
	l.dequeue(e)
	l.pendingNodes -= e.job.Nodes
	for r, k := range alloc {
		l.used[r] += k
	}
	e.running = &Running{Job: e.job, Start: now, Alloc: alloc, Slowed: e.job.SlowedOn(alloc)}
	l.addRunning(e)
}

// startJobTasks starts tasks of one task-level job at now. Its Pending
// and Running values, and their Waiting and Tasks, are updated in place:
// a State is valid for its cycle only.
func (l *Ledger) startJobTasks(now float64, e *entry, starts []TaskPlacement) {
	if e.running == nil {
		e.running = &Running{Job: e.job, Alloc: make([]int, len(l.used))}
		l.addRunning(e)
	}
	if !e.started {
		e.started, e.first = true, now
	}
	r, n := e.running, e.job.TaskNodes
	l.started = l.started[:0]
	for _, ts := range starts {
		l.started = append(l.started, ts.Task)
		l.used[ts.Partition] += n
		r.Alloc[ts.Partition] += n
		r.Tasks = append(r.Tasks, RunningTask{Task: ts.Task, Partition: ts.Partition, Start: now})
		r.Slowed = r.Slowed || !e.job.IsPreferred(ts.Partition)
	}
	slices.Sort(l.started)
	slices.SortFunc(r.Tasks, func(a, b RunningTask) int { return cmp.Compare(a.Task, b.Task) })
	r.Start, r.Done = e.first, e.done
	e.pending.Waiting = without(e.pending.Waiting, l.started)
	l.pendingNodes -= len(starts) * n
	if len(e.pending.Waiting) == 0 {
		l.dequeue(e)
	}
}

// Started records when the run of gang job id really began, as its
// cluster reports it (a service's client; later, a worker that binds a
// task when a probe reaches the head of its queue). The run's Start, and
// its completion's, is then at.
func (l *Ledger) Started(id int, at float64) error {
	e := l.jobs[id]
	if e == nil || e.running == nil || e.job.TaskLevel() {
		return fmt.Errorf("%w: job %d has no gang run under way", ErrLedger, id)
	}
	e.running.Start = at
	return nil
}

// Complete ends the run of job id at end — of a gang job the run, of a
// task-level job its task task — and returns the record the scheduler
// observes, with the runtime end − start.
func (l *Ledger) Complete(id, task int, end float64) (Completion, error) {
	return l.complete(id, task, end, math.NaN())
}

// CompleteMeasured is Complete with the runtime the cluster measured
// (seconds), for a cluster that reports it (a service's client).
func (l *Ledger) CompleteMeasured(id, task int, end, runtime float64) (Completion, error) {
	return l.complete(id, task, end, runtime)
}

// complete is the one place a Completion is made: the run's nodes are
// freed, and the record says whether the job is done (a gang's run; a
// task-level job's last task), whether the run was slowed off the job's
// preferred partitions and by what, and the speed it ran at. A NaN
// runtime is end − start.
func (l *Ledger) complete(id, task int, end, runtime float64) (Completion, error) {
	e := l.jobs[id]
	if e == nil || e.running == nil {
		return Completion{}, fmt.Errorf("%w: job %d is not running", ErrLedger, id)
	}
	r, j := e.running, e.job
	c := Completion{Job: j, End: end, Slowdown: 1}
	if !j.TaskLevel() {
		l.release(r.Alloc)
		l.removeRunning(e)
		delete(l.jobs, id)
		c.JobDone, c.Start, c.Slowed, c.Speed = true, r.Start, r.Slowed, l.cluster.SpeedOf(r.Alloc)
	} else {
		i, ok := slices.BinarySearchFunc(r.Tasks, task, byTaskIndex)
		if !ok {
			return Completion{}, fmt.Errorf("%w: task %d of job %d is not running", ErrLedger, task, id)
		}
		rt := r.Tasks[i]
		n := j.TaskNodes
		r.Tasks = slices.Delete(r.Tasks, i, i+1)
		r.Alloc[rt.Partition] -= n
		l.used[rt.Partition] -= n
		l.count(rt.Partition)
		e.done++
		r.Done = e.done
		c.Task, c.Start, c.Slowed, c.Speed = rt.Task, rt.Start, !j.IsPreferred(rt.Partition), l.cluster.Speed(rt.Partition)
		if c.Slowed {
			r.Slowed = slices.ContainsFunc(r.Tasks, func(t RunningTask) bool { return !j.IsPreferred(t.Partition) })
		}
		if len(r.Tasks) == 0 {
			l.removeRunning(e)
		}
		if c.JobDone = e.done == j.Tasks(); c.JobDone {
			delete(l.jobs, id)
		}
	}
	c.Runtime = runtime
	if math.IsNaN(runtime) {
		c.Runtime = end - c.Start
	}
	if c.Slowed {
		c.Slowdown = l.cluster.Slowdown
	}
	return c, nil
}

// Audit checks the books: no partition's runs hold more nodes than it
// counts, none holds a negative number, and — when full, which reads
// every run — the nodes held are those of the running jobs. A failure is
// a bug of the books or of their driver.
func (l *Ledger) Audit(full bool) error {
	var held []int
	if full {
		held = make([]int, len(l.used))
		for _, r := range l.running {
			for p, k := range r.Alloc {
				held[p] += k
			}
		}
	}
	for p, u := range l.used {
		if u < 0 || u > l.cluster.PartitionNodes[p] || full && u != held[p] {
			return fmt.Errorf("%w: partition %d: %d nodes, %d used (runs hold %v), capacity %d",
				ErrLedger, p, l.cluster.PartitionNodes[p], u, held, l.capacity[p])
		}
	}
	return nil
}

func (l *Ledger) release(alloc []int) {
	for r, k := range alloc {
		if k != 0 {
			l.used[r] -= k
			l.count(r)
		}
	}
}

// enqueue puts e in the pending list, kept in (submit, id) order.
func (l *Ledger) enqueue(e *entry) {
	i, _ := slices.BinarySearchFunc(l.pending, e.job, bySubmitID)
	l.pending = slices.Insert(l.pending, i, e.pending)
	e.queued = true
	l.pendingNodes += l.asked(e)
}

// dequeue takes e out of the pending list.
func (l *Ledger) dequeue(e *entry) {
	if i, ok := slices.BinarySearchFunc(l.pending, e.job, bySubmitID); ok {
		l.pending = slices.Delete(l.pending, i, i+1)
	}
	e.queued = false
}

func (l *Ledger) addRunning(e *entry) {
	i, _ := slices.BinarySearchFunc(l.running, e.job.ID, byRunningID)
	l.running = slices.Insert(l.running, i, e.running)
}

func (l *Ledger) removeRunning(e *entry) {
	if i, ok := slices.BinarySearchFunc(l.running, e.job.ID, byRunningID); ok {
		l.running = slices.Delete(l.running, i, i+1)
	}
	e.running = nil
}

func bySubmitID(p *Pending, j *workloads.Job) int {
	if c := cmp.Compare(p.Job.Submit, j.Submit); c != 0 {
		return c
	}
	return cmp.Compare(p.Job.ID, j.ID)
}

func byRunningID(r *Running, id int) int { return cmp.Compare(r.Job.ID, id) }

func byTaskIndex(rt RunningTask, k int) int { return cmp.Compare(rt.Task, k) }

// without removes from sorted a, in place, the elements of sorted b.
func without(a, b []int) []int {
	out := a[:0]
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j < len(b) && b[j] == x {
			continue
		}
		out = append(out, x)
	}
	return out
}

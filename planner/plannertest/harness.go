package plannertest

import (
	"cmp"
	"context"
	"slices"
	"testing"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/workloads"
)

// Cluster is a recording fake cluster (CONVENTIONS 15) on a hand-stepped
// clock: a planner.Ledger holds its books, and Step runs the scheduler
// for one cycle through planner.RunCycle (a decision that breaks the
// contract, a Schedule error or a panic in it fails the test), then
// advances the clock by one interval, completing the jobs whose true
// runtime has passed (Scheduler.Observe). Every decision and completion
// is recorded.
type Cluster struct {
	T testing.TB
	S planner.Scheduler
	// Spec is the cluster; the books are made of it at the first Submit,
	// State or Step, so a test may change it before.
	Spec     workloads.Cluster
	Now      float64
	Interval float64

	// Refuse, when set, is asked about every start before it is carried
	// out: a non-nil error refuses it (as a live cluster may), and the job
	// stays pending. RefuseTask is the same for task starts.
	Refuse     func(planner.Placement) error
	RefuseTask func(planner.TaskPlacement) error
	// AllowPanic makes a panic in Schedule what it is in every driver, a
	// failed stage of the cycle (planner.RunCycle), instead of a failure
	// of the test.
	AllowPanic bool

	books *planner.Ledger
	// future are the jobs submitted after Now, by submit time then id:
	// each enters the books at its submit time.
	future []*workloads.Job

	// Records. A task-level job is in Completed once its last task
	// completed; Starts counts its task starts.
	Decisions   []*planner.Decision
	Applied     []*planner.ApplyResult
	Completions []planner.Completion
	Completed   map[int]float64 // job → completion time
	Preemptions map[int]int     // job → times preempted
	Starts      map[int]int     // job → times started
}

// New returns a cluster of the given partitions (node counts) with the
// papers' slowdown of 1.5 off a job's preferred partitions, a cycle every
// interval seconds, at time 0.
func New(t testing.TB, s planner.Scheduler, partitions []int, interval float64) *Cluster {
	return &Cluster{T: t, S: s, Interval: interval,
		Spec:      workloads.Cluster{PartitionNodes: slices.Clone(partitions), Slowdown: 1.5},
		Completed: map[int]float64{}, Preemptions: map[int]int{}, Starts: map[int]int{}}
}

// Books are the cluster's books.
func (c *Cluster) Books() *planner.Ledger {
	if c.books == nil {
		c.books = planner.NewLedger(c.Spec, c.Interval)
	}
	return c.books
}

// Submit queues jobs; each enters the books at its Submit time. A
// task-level job is pending with every task waiting.
func (c *Cluster) Submit(jobs ...*workloads.Job) {
	c.T.Helper()
	for _, j := range jobs {
		i, _ := slices.BinarySearchFunc(c.future, j, func(a, b *workloads.Job) int {
			return cmp.Or(cmp.Compare(a.Submit, b.Submit), cmp.Compare(a.ID, b.ID))
		})
		c.future = slices.Insert(c.future, i, j)
	}
	c.admit()
}

// admit moves the jobs submitted by Now into the books.
func (c *Cluster) admit() {
	c.T.Helper()
	l := c.Books()
	for len(c.future) > 0 && c.future[0].Submit <= c.Now {
		if err := l.Add(c.future[0]); err != nil {
			c.T.Fatalf("t=%v: %v", c.Now, err)
		}
		c.future = c.future[1:]
	}
}

// State is the cluster as the scheduler sees it now (a copy).
func (c *Cluster) State() *planner.State {
	c.admit()
	return c.books.Snapshot(c.Now)
}

// Step runs one cycle at the current time, then advances the clock by one
// interval, completing jobs on the way. It returns the decision.
func (c *Cluster) Step() *planner.Decision {
	c.T.Helper()
	c.admit()
	cy := planner.RunCycle(context.Background(), c.S, c, c.Now, planner.CycleOptions{})
	switch st := cy.Decision.Stats; {
	case cy.Err != nil:
		c.T.Fatalf("t=%v: Schedule: %v", c.Now, cy.Err)
	case cy.Invalid != nil:
		c.T.Fatalf("t=%v: %v", c.Now, cy.Invalid)
	case st.FailedStage == planner.StageSchedule && !c.AllowPanic:
		c.T.Fatalf("t=%v: %s", c.Now, st.Failure)
	}
	c.Decisions = append(c.Decisions, cy.Decision)
	c.Advance(c.Now + c.Interval)
	return cy.Decision
}

// View is the books' view (planner.Books).
func (c *Cluster) View(now float64) *planner.State { return c.Books().View(now) }

// Apply carries d out (planner.Books): the starts Refuse and RefuseTask
// refuse stay pending, the books carry out the rest, and the result is
// recorded.
func (c *Cluster) Apply(now float64, d *planner.Decision) *planner.ApplyResult {
	keep := &planner.Decision{Preempt: d.Preempt}
	var refused []planner.Refusal
	for _, pl := range d.Start {
		if c.Refuse != nil {
			if err := c.Refuse(pl); err != nil {
				refused = append(refused, planner.Refusal{JobID: pl.JobID, Err: err})
				continue
			}
		}
		keep.Start = append(keep.Start, pl)
	}
	for _, ts := range d.StartTasks {
		if c.RefuseTask != nil {
			if err := c.RefuseTask(ts); err != nil {
				refused = append(refused, planner.Refusal{JobID: ts.JobID, Task: ts.Task, Tasks: true, Err: err})
				continue
			}
		}
		keep.StartTasks = append(keep.StartTasks, ts)
	}
	res := c.Books().Apply(now, keep)
	res.Refused = append(refused, res.Refused...)
	for _, id := range res.Preempted {
		c.Preemptions[id]++
	}
	for _, pl := range res.Started {
		c.Starts[pl.JobID]++
	}
	for _, ts := range res.StartedTasks {
		c.Starts[ts.JobID]++
	}
	c.Applied = append(c.Applied, res)
	return res
}

// Advance completes every running gang job and task whose true runtime
// ends by t, in completion order (ties: by job id, then task index),
// telling the scheduler of each, and sets the clock to t.
func (c *Cluster) Advance(t float64) {
	c.T.Helper()
	l := c.Books()
	for {
		id, task, end := c.nextEnd()
		if id < 0 || end > t {
			break
		}
		comp, err := l.Complete(id, task, end)
		if err != nil {
			c.T.Fatalf("t=%v: %v", end, err)
		}
		if comp.JobDone {
			c.Completed[id] = end
		}
		c.Completions = append(c.Completions, comp)
		c.S.Observe(comp)
	}
	c.Now = t
}

// nextEnd is the earliest end among the running gangs and tasks: the
// job, its task (0 for a gang) and the end; id < 0 when nothing runs.
func (c *Cluster) nextEnd() (id, task int, end float64) {
	id = -1
	for _, r := range c.Books().Running() {
		if !r.Job.TaskLevel() {
			if e := r.Start + c.Spec.RuntimeOn(r.Job, r.Alloc); id < 0 || e < end {
				id, task, end = r.Job.ID, 0, e
			}
			continue
		}
		for _, rt := range r.Tasks {
			if e := rt.Start + r.Job.TaskDurations[rt.Task]*c.Spec.TaskFactor(r.Job, rt.Partition); id < 0 || e < end {
				id, task, end = r.Job.ID, rt.Task, e
			}
		}
	}
	return id, task, end
}

// Snapshot copies st deep enough that enacting a decision does not change
// it (planner.State.Clone).
func Snapshot(st *planner.State) *planner.State { return st.Clone() }

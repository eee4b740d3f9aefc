package planner

import (
	"context"
	"slices"
	"time"

	"github.com/plannerhq/planner/workloads"
)

// Scheduler is one scheduling policy. Every driver (the simulator, the
// service, the test harness) uses it the same way:
//
//  1. Train once with the history of completed jobs;
//  2. every cycle, RunCycle: Schedule with the cluster's state at the time
//     the driver passes in; check the decision with Decision.Validate;
//     carry it out (Ledger.Apply: preemptions first, then starts) and tell
//     the scheduler what was carried out with Applied;
//  3. Observe each completion as it happens (Ledger.Complete).
//
// A Scheduler is used by one driver goroutine at a time.
type Scheduler interface {
	// Name is the policy's registry name ("3sigma", "prio", …).
	Name() string
	// Train feeds completed jobs observed before the run (pre-training
	// history for the predictor). Policies without a predictor ignore it.
	Train(history []workloads.Job)
	// Schedule runs one cycle at state.Now and returns what to do now.
	Schedule(ctx context.Context, state *State) (*Decision, error)
	// Applied is told what the driver carried out of the last decision.
	// A scheduler that remembers its decisions between cycles must not
	// assume that every start and preemption happened.
	Applied(result *ApplyResult)
	// Observe is told that a run of a job completed.
	Observe(c Completion)
}

// State is the cluster as a driver sees it at the start of a cycle. Times
// are seconds on the driver's clock (the simulator's or the service's). It
// is valid for its cycle: a driver may update its entries in place as it
// carries out the decision (Clone keeps a copy).
//
// A scheduler reads a State and never writes it: Pending and Running may
// be the driver's own lists, handed over without a copy so that a
// decision at every arrival and completion does not cost the length of
// the queue; their entries and the slices in them (Waiting, Alloc, Tasks)
// are read-only, and a scheduler that wants another order sorts a copy
// (PrioOrder). Free is a copy the driver makes each cycle, read-only
// too: a scheduler places on a clone of it, as the placement helpers do.
// A scheduler keeps nothing of a State past its Schedule call but the Job
// pointers.
type State struct {
	Now     float64
	Cluster workloads.Cluster
	// Free[r] is the number of idle nodes of partition r now.
	Free    []int
	Pending []*Pending
	Running []*Running
	// Interval is the driver's period (seconds): the next cycle comes at
	// most this long after Now, sooner for a policy that decides on
	// events (Timing).
	Interval float64
}

// FreeNodes is the idle nodes of the cluster, Σ Free.
func (st *State) FreeNodes() int { return sumNodes(st.Free) }

// Clone copies st deep enough that carrying out a decision does not change
// it: its Free, Pending and Running entries with their waiting and running
// tasks (not the jobs). Nil for nil.
func (st *State) Clone() *State {
	if st == nil {
		return nil
	}
	c := *st
	c.Free = slices.Clone(st.Free)
	c.Pending = make([]*Pending, len(st.Pending))
	for i, p := range st.Pending {
		cp := *p
		cp.Waiting = slices.Clone(p.Waiting)
		c.Pending[i] = &cp
	}
	c.Running = make([]*Running, len(st.Running))
	for i, r := range st.Running {
		cr := *r
		cr.Alloc = slices.Clone(r.Alloc)
		cr.Tasks = slices.Clone(r.Tasks)
		c.Running[i] = &cr
	}
	return &c
}

// Pending is a submitted job that is not running: a gang job waiting for
// its start, or a task-level job (Job.TaskLevel) with tasks that have not
// started. A task-level job with both waiting and running tasks is in
// State.Pending and in State.Running.
type Pending struct {
	Job *workloads.Job
	// Preemptions counts how often the job was preempted (and re-queued).
	Preemptions int
	// Waiting are the indices of a task-level job's tasks that have not
	// started, ascending; nil for a gang job. Read-only.
	Waiting []int
}

// Running is a job holding nodes: a gang job's run, or the running tasks
// of a task-level job.
type Running struct {
	Job *workloads.Job
	// Start is the start of a gang job's current run; of a task-level job,
	// the start of its first task.
	Start float64
	// Alloc[r] is the number of nodes the job holds in partition r (a
	// task-level job: its running tasks together).
	Alloc []int
	// Slowed is true when some node is outside the job's preferred set.
	Slowed bool
	// Tasks are the running tasks of a task-level job, by task index; nil
	// for a gang job. Read-only.
	Tasks []RunningTask
	// Done counts the completed tasks of a task-level job.
	Done int
}

// RunningTask is one running task of a task-level job: it holds
// Job.TaskNodes nodes of Partition since Start.
type RunningTask struct {
	Task      int
	Partition int
	Start     float64
}

// Placement starts a pending gang job now on Alloc[r] nodes of each
// partition r; Σ Alloc = job.Nodes.
type Placement struct {
	JobID int
	Alloc []int
}

// TaskPlacement starts the waiting task Task of the task-level job JobID
// now on Job.TaskNodes nodes of partition Partition. A task runs its
// duration × Cluster.Slowdown off the job's preferred partitions, divided
// by the partition's speed.
type TaskPlacement struct {
	JobID, Task, Partition int
}

// Decision is the outcome of one cycle.
type Decision struct {
	// Start starts gang jobs, StartTasks tasks of task-level jobs; a
	// task-level job is never started whole, nor a gang job by tasks.
	Start      []Placement
	StartTasks []TaskPlacement
	// Preempt lists running best-effort gang jobs to stop and re-queue
	// (their progress is lost). Preemptions happen before the starts.
	Preempt []int
	// Plan lists the later starts the policy's plan foresees for pending
	// jobs, by time then job. It is information for operators (the
	// service shows it): drivers enact only Start and Preempt, Validate
	// does not read it, and the next cycle plans again. Policies that do
	// not plan ahead leave it empty.
	Plan  []PlannedStart
	Stats CycleStats
}

// PlannedStart is a start a plan foresees: job JobID at At (seconds on the
// driver's clock, after State.Now) on Alloc[r] nodes of partition r. A
// plan over pools of interchangeable partitions does not say which of a
// pool's partitions a job will get: Alloc then fills the pool's
// partitions in order, as an indication.
type PlannedStart struct {
	JobID int
	At    float64
	Alloc []int
}

// CycleStats are the measurements of one cycle, for the metrics of DESIGN.md.
type CycleStats struct {
	Cycle       time.Duration // wall time of the whole cycle
	Solve       time.Duration // wall time of the solve (zero without one)
	Solved      bool          // a MILP was solved this cycle
	TimeLimited bool          // the solve hit its limit
	Fallback    bool          // the fallback heuristic decided this cycle
	// Objective is the plan's objective (expected utility) when Solved.
	Objective float64
	// FailedStage names the stage of the cycle that failed (returned an
	// error or panicked), leaving the decision to the fallback; "" when
	// none did. Failure is its error; Panicked tells a recovered panic.
	FailedStage string
	Failure     string
	Panicked    bool
	Options     int // placement options in the model
	Vars, Rows  int
	// HeldNodes are idle nodes the cycle's plan keeps for jobs it starts
	// later: of the nodes idle once the decision is carried out, those the
	// gangs the plan starts at its next start slice ask for,
	// min(idle nodes, Σ their nodes). A policy that plans no future
	// starts leaves it 0. Drivers report the idle capacity it explains.
	HeldNodes int
}

// EstimateReporter is implemented by a scheduler that plans with runtime
// estimates, so that a driver can say whether it started a job too late
// for any runtime it expected.
type EstimateReporter interface {
	// ShortestRuntime is the shortest nominal runtime (seconds, on
	// preferred nodes of speed 1) the scheduler's estimate of a pending or
	// running job allows; ok is false when it has no estimate of the job.
	ShortestRuntime(jobID int) (seconds float64, ok bool)
}

// ApplyResult is what a driver carried out of a decision: the jobs it
// preempted and started, and the starts and preemptions it could not
// carry out, with why (a live cluster can refuse what a plan asked).
type ApplyResult struct {
	Now          float64
	Preempted    []int
	Started      []Placement
	StartedTasks []TaskPlacement
	Refused      []Refusal
}

// Refusal is a start or preemption a driver did not carry out.
type Refusal struct {
	JobID   int
	Preempt bool // a preemption, else a start
	// Task is the task of a refused task start (Tasks true).
	Task  int
	Tasks bool
	Err   error
}

// Completion is the record of a run that ended because the job completed,
// or of one task of a task-level job (Task).
type Completion struct {
	Job *workloads.Job
	// Task is the index of the completed task of a task-level job (0 for
	// a gang job); JobDone is true when it was the job's last task to
	// complete (always for a gang job).
	Task    int
	JobDone bool
	// Start and End of the run (seconds on the driver's clock).
	Start, End float64
	// Runtime is the measured runtime of the run (seconds), End − Start.
	Runtime float64
	// Slowed is true when the run held a node outside the job's preferred
	// partitions; Slowdown is the factor its runtime took for it (the
	// cluster's slowdown when Slowed, else 1).
	Slowed   bool
	Slowdown float64
	// Speed is the speed factor the run had: the lowest speed among the
	// partitions it held nodes in (workloads.Cluster.SpeedOf). Zero means
	// 1, as on a cluster without speeds.
	Speed float64
}

// PreferredRuntime is the run's runtime brought back to preferred nodes of
// speed 1: Runtime / Slowdown × Speed (without the slowdown when the run
// was not slowed, without the speed when it is zero). It is what a
// predictor should learn: the estimates are of nominal runtimes, and a
// scheduler scales them by the speed and slowdown of a placement.
func (c Completion) PreferredRuntime() float64 {
	rt := c.Runtime
	if c.Slowed && c.Slowdown > 0 {
		rt /= c.Slowdown
	}
	if c.Speed > 0 {
		rt *= c.Speed
	}
	return rt
}

// EstimateRecord is what a policy that sizes jobs by a runtime estimate
// believed of one job, for reports: the estimate it scheduled the job by
// (the mean task runtime of a task-level job, a gang job's runtime;
// seconds on preferred nodes of speed 1), the priority queue that put the
// job in, and the queue its true runtime would have (the same rule on
// Job.Runtime). Tasks is the job's tasks (1 for a gang).
type EstimateRecord struct {
	JobID, Tasks     int
	Estimate         float64
	Queue, TrueQueue int
}

// Estimating is a Scheduler that reports, after a run, the estimates it
// sized jobs by (the prediction error and queue metrics of SLearn
// §5.2.3–5.2.4).
type Estimating interface {
	Estimates() []EstimateRecord
}

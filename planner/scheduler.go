package planner

import (
	"context"
	"time"

	"github.com/plannerhq/planner/workloads"
)

// Scheduler is one scheduling policy. The simulator and the service drive
// it the same way: Train once with history, then every cycle Schedule with
// the cluster's state at the time the driver passes in, and Observe each
// completion. A Scheduler is used by one driver goroutine at a time.
type Scheduler interface {
	// Name is the policy's registry name ("3sigma", "prio", …).
	Name() string
	// Train feeds completed jobs observed before the run (pre-training
	// history for the predictor). Policies without a predictor ignore it.
	Train(history []workloads.Job)
	// Schedule runs one cycle at state.Now and returns what to do now.
	Schedule(ctx context.Context, state *State) (*Decision, error)
	// Observe is told that job finished after running for runtime seconds
	// (its actual runtime, slowdown included), at time now.
	Observe(job *workloads.Job, runtime, now float64)
}

// State is the cluster as a driver sees it at the start of a cycle. Times
// are seconds on the driver's clock (the simulator's or the service's).
type State struct {
	Now     float64
	Cluster workloads.Cluster
	// Free[r] is the number of idle nodes of partition r now.
	Free    []int
	Pending []*Pending
	Running []*Running
	// Interval is the time to the next cycle (seconds).
	Interval float64
}

// Pending is a submitted job that is not running.
type Pending struct {
	Job *workloads.Job
	// Preemptions counts how often the job was preempted (and re-queued).
	Preemptions int
}

// Running is a job holding nodes.
type Running struct {
	Job   *workloads.Job
	Start float64 // start of the current run
	// Alloc[r] is the number of nodes the job holds in partition r.
	Alloc []int
	// Slowed is true when some node is outside the job's preferred set.
	Slowed bool
}

// Placement starts a pending job now on Alloc[r] nodes of each partition r;
// Σ Alloc = job.Nodes.
type Placement struct {
	JobID int
	Alloc []int
}

// Decision is the outcome of one cycle.
type Decision struct {
	Start []Placement
	// Preempt lists running best-effort jobs to stop and re-queue (their
	// progress is lost). Preemptions happen before the starts.
	Preempt []int
	Stats   CycleStats
}

// CycleStats are the measurements of one cycle, for the metrics of DESIGN.md.
type CycleStats struct {
	Cycle       time.Duration // wall time of the whole cycle
	Solve       time.Duration // wall time of the solve (zero without one)
	Solved      bool          // a MILP was solved this cycle
	TimeLimited bool          // the solve hit its limit
	Fallback    bool          // the fallback heuristic decided this cycle
	Options     int           // placement options in the model
	Vars, Rows  int
}

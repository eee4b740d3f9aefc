package planner

import (
	"errors"
	"fmt"

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
//   - a preempted job is running, of class best-effort, and preempted once;
//   - a started job is pending and started once;
//   - an allocation has one count ≥ 0 per partition, adding up to the
//     job's gang size (Job.Nodes);
//   - per partition r, the starts take at most Free[r] plus the nodes the
//     decision's preemptions release there.
//
// Every driver calls it before carrying a decision out; a nil decision is
// valid (nothing to do).
func (d *Decision) Validate(st *State) error {
	if d == nil {
		return nil
	}
	pending := make(map[int]*workloads.Job, len(st.Pending))
	for _, p := range st.Pending {
		pending[p.Job.ID] = p.Job
	}
	running := make(map[int]*Running, len(st.Running))
	for _, r := range st.Running {
		running[r.Job.ID] = r
	}
	free := make([]int, len(st.Free))
	copy(free, st.Free)
	named := make(map[int]bool, len(d.Preempt)+len(d.Start))
	for _, id := range d.Preempt {
		r := running[id]
		switch {
		case named[id]:
			return decisionErr(id, ErrDuplicateJob, "preempted twice")
		case r == nil && pending[id] != nil:
			return decisionErr(id, ErrNotRunning, "preempted while pending")
		case r == nil:
			return decisionErr(id, ErrUnknownJob, "preempted, but the cluster does not hold it")
		case r.Job.Class != workloads.BestEffort:
			return decisionErr(id, ErrNotPreemptible, "preempted, but only best-effort jobs may be preempted (class %v)", r.Job.Class)
		}
		named[id] = true
		for p, n := range r.Alloc {
			if p < len(free) {
				free[p] += n
			}
		}
	}
	for _, pl := range d.Start {
		id := pl.JobID
		job := pending[id]
		switch {
		case named[id]:
			return decisionErr(id, ErrDuplicateJob, "started twice, or started and preempted")
		case job == nil && running[id] != nil:
			return decisionErr(id, ErrNotPending, "started while running")
		case job == nil:
			return decisionErr(id, ErrUnknownJob, "started, but it is not pending (not submitted yet, or unknown)")
		case len(pl.Alloc) != len(free):
			return decisionErr(id, ErrAllocation, "allocation has %d partitions, the cluster %d", len(pl.Alloc), len(free))
		}
		named[id] = true
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
			if k > free[p] {
				return decisionErr(id, ErrCapacity, "%d nodes in partition %d, only %d free", k, p, free[p])
			}
			free[p] -= k
		}
	}
	return nil
}

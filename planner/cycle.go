package planner

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/rs/zerolog"
)

// Books are a cluster's books as a cycle reads and changes them: a
// *Ledger, or a driver's adapter over its Ledger that records what Apply
// carried out (the simulator's runs and events), filters it (a test's
// refusing cluster), or keeps the Ledger behind a lock or a journal (the
// service, whose View is then a Snapshot).
type Books interface {
	// View is the state a cycle at now plans on.
	View(now float64) *State
	// Apply carries a decision out at now, refusing item by item what no
	// longer holds (Ledger.Apply).
	Apply(now float64, d *Decision) *ApplyResult
}

// FallbackScheduler is a Scheduler with a rule that decides a cycle
// without its plan (the planners' fallback): RunCycle asks it for the
// cycle whose Schedule panicked.
type FallbackScheduler interface {
	Scheduler
	Fallback(ctx context.Context, st *State) *Decision
}

// StageSchedule is the CycleStats.FailedStage of a cycle whose Schedule
// panicked (RunCycle).
const StageSchedule = "schedule"

// CycleOptions are what a driver asks of RunCycle beside the cycle.
type CycleOptions struct {
	// Log receives the cycle's lines (LogCycle) and a panic's stack.
	Log zerolog.Logger
	// Keep makes Cycle.State a copy of the view, taken before the
	// decision is carried out (State.Clone); otherwise it is the view.
	Keep bool
	// SkipIdle: a view without a pending job asks no decision
	// (Cycle.Skipped).
	SkipIdle bool
}

// Cycle is what one cycle did.
type Cycle struct {
	Now float64
	// State is the view the scheduler planned on (a copy with Keep).
	State *State
	// Decision is the scheduler's (never nil once it was asked), with the
	// stats of a recovered panic.
	Decision *Decision
	// Result is what was carried out of it and refused, as the scheduler
	// was told.
	Result *ApplyResult
	// Wall is the wall time of the decision: Schedule, and the fallback
	// after a panic.
	Wall time.Duration
	// Err is the error Schedule returned; Invalid the rule of the
	// contract the decision breaks (Decision.Validate on the view). Either
	// way nothing of it was carried out.
	Err, Invalid error
	// Skipped: nothing was pending (CycleOptions.SkipIdle), the scheduler
	// was not asked.
	Skipped bool
}

// RunCycle runs one cycle of sched at now on books, the same for every
// driver: the view; Schedule, timed, with any panic recovered (the cycle
// is then decided by the policy's fallback, FallbackScheduler, or is
// empty, and its stats name the failed stage StageSchedule); the decision
// checked against the view (Decision.Validate) and, when it keeps the
// contract, carried out by the books (Books.Apply, before the scheduler
// is told); Applied; LogCycle. A decision that
// breaks the contract, or a Schedule error, is refused whole: the driver
// reads Cycle.Invalid or Cycle.Err and decides whether the run goes on.
func RunCycle(ctx context.Context, sched Scheduler, books Books, now float64, o CycleOptions) Cycle {
	view := books.View(now)
	c := Cycle{Now: now, State: view}
	if o.SkipIdle && len(view.Pending) == 0 {
		c.Skipped = true
		return c
	}
	wall := time.Now() // a measurement of the scheduler, not the driver's clock
	d, err := decide(ctx, sched, view, o.Log)
	c.Wall = time.Since(wall)
	if o.Keep {
		c.State = view.Clone()
	}
	if d == nil {
		d = &Decision{}
	}
	c.Decision = d
	switch {
	case err != nil:
		c.Err = err
		c.Result = RefuseAll(now, d, err)
	default:
		if c.Invalid = d.Validate(view); c.Invalid != nil {
			c.Result = RefuseAll(now, d, c.Invalid)
			break
		}
		c.Result = books.Apply(now, d)
	}
	sched.Applied(c.Result)
	LogCycle(o.Log, view, d, c.Wall)
	return c
}

// decide is Schedule with a panic recovered: the cycle is then the
// fallback's, or empty, and says so in its stats.
func decide(ctx context.Context, sched Scheduler, st *State, log zerolog.Logger) (d *Decision, err error) {
	d, p, err := schedule(ctx, sched.Schedule, st)
	if p == nil {
		return d, err
	}
	log.Error().Float64("t", st.Now).Str("scheduler", sched.Name()).Str("panic", fmt.Sprint(p.value)).
		Bytes("stack", p.stack).Msg("the scheduler panicked; the cycle goes on without its plan")
	d = nil
	if fb, ok := sched.(FallbackScheduler); ok {
		d, _, _ = schedule(ctx, func(ctx context.Context, st *State) (*Decision, error) {
			return fb.Fallback(ctx, st), nil
		}, st)
	}
	if d == nil {
		d = &Decision{}
	} else {
		d.Stats.Fallback = true
	}
	d.Stats.FailedStage, d.Stats.Failure, d.Stats.Panicked = StageSchedule, p.Error(), true
	return d, nil
}

// schedulePanic is a panic recovered in Schedule.
type schedulePanic struct {
	value any
	stack []byte
}

func (p *schedulePanic) Error() string { return fmt.Sprintf("panic in Schedule: %v", p.value) }

// schedule calls f, recovering a panic.
func schedule(ctx context.Context, f func(context.Context, *State) (*Decision, error), st *State) (d *Decision, p *schedulePanic, err error) {
	defer func() {
		if v := recover(); v != nil {
			d, p, err = nil, &schedulePanic{value: v, stack: debug.Stack()}, nil
		}
	}()
	d, err = f(ctx, st)
	return d, nil, err
}

// RefuseAll is the result of a decision none of which was carried out,
// each item refused with err.
func RefuseAll(now float64, d *Decision, err error) *ApplyResult {
	res := &ApplyResult{Now: now}
	if d == nil {
		return res
	}
	for _, id := range d.Preempt {
		res.Refused = append(res.Refused, Refusal{JobID: id, Preempt: true, Err: err})
	}
	for _, pl := range d.Start {
		res.Refused = append(res.Refused, Refusal{JobID: pl.JobID, Err: err})
	}
	for _, ts := range d.StartTasks {
		res.Refused = append(res.Refused, Refusal{JobID: ts.JobID, Task: ts.Task, Tasks: true, Err: err})
	}
	return res
}

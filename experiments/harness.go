package experiments

import (
	"context"
	"slices"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/workloads"
)

// Harness is a recording fake cluster for scheduler tests (CONVENTIONS
// §15): it is the simulator's cluster side, stepped one cycle at a time by
// the test, and it records the state each cycle showed the scheduler and
// the decision it got back. Invalid decisions are errors, as in a run.
type Harness struct {
	Sim   *Sim
	Steps []Step
}

// Step is one recorded cycle. State is a snapshot: its Pending and Running
// entries are copies taken before the decision was enacted.
type Step struct {
	State    *planner.State
	Decision *planner.Decision
}

// NewHarness prepares a simulation of in with sched (Train is called with
// in.History).
func NewHarness(in Input, cfg SimConfig, sched planner.Scheduler) (*Harness, error) {
	s, err := NewSim(in, cfg, sched)
	if err != nil {
		return nil, err
	}
	sched.Train(slices.Clone(in.History))
	return &Harness{Sim: s}, nil
}

// Step runs the next cycle and returns its record; nil when the run has
// ended.
func (h *Harness) Step(ctx context.Context) (*Step, error) {
	st, d, err := h.Sim.Step(ctx)
	if st == nil && err == nil {
		return nil, nil
	}
	rec := Step{State: snapshot(st), Decision: d}
	h.Steps = append(h.Steps, rec)
	return &h.Steps[len(h.Steps)-1], err
}

// StepUntil runs cycles until the next cycle would be after t or the run
// ends.
func (h *Harness) StepUntil(ctx context.Context, t float64) error {
	for !h.Sim.Done() && h.Sim.Now() <= t {
		if _, err := h.Step(ctx); err != nil {
			return err
		}
	}
	return nil
}

// Finish runs to the end and returns the result.
func (h *Harness) Finish(ctx context.Context) (*SimResult, error) {
	for !h.Sim.Done() {
		if _, err := h.Step(ctx); err != nil {
			return nil, err
		}
	}
	return h.Sim.Result(), nil
}

func snapshot(st *planner.State) *planner.State {
	if st == nil {
		return nil
	}
	c := *st
	c.Free = slices.Clone(st.Free)
	c.Pending = make([]*planner.Pending, len(st.Pending))
	for i, p := range st.Pending {
		cp := *p
		c.Pending[i] = &cp
	}
	c.Running = make([]*planner.Running, len(st.Running))
	for i, r := range st.Running {
		cr := *r
		cr.Alloc = slices.Clone(r.Alloc)
		c.Running[i] = &cr
	}
	return &c
}

// FuncScheduler is a Scheduler whose cycle is a function (for tests).
type FuncScheduler struct {
	SchedName string
	F         func(*planner.State) (*planner.Decision, error)
	// Observed records every Observe call.
	Observed []Observation
}

// Observation is one Observe call.
type Observation struct {
	JobID        int
	Runtime, Now float64
}

var _ planner.Scheduler = (*FuncScheduler)(nil)

// Name is SchedName.
func (f *FuncScheduler) Name() string { return f.SchedName }

// Train does nothing.
func (f *FuncScheduler) Train([]workloads.Job) {}

// Schedule calls F.
func (f *FuncScheduler) Schedule(_ context.Context, st *planner.State) (*planner.Decision, error) {
	return f.F(st)
}

// Observe records the call.
func (f *FuncScheduler) Observe(j *workloads.Job, runtime, now float64) {
	f.Observed = append(f.Observed, Observation{JobID: j.ID, Runtime: runtime, Now: now})
}

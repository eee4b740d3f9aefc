package plannertest

import (
	"context"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/workloads"
)

// Func is a Scheduler whose cycle is a function, recording what the driver
// tells it: for tests of drivers (the simulator) and of the contract.
type Func struct {
	SchedName string
	F         func(*planner.State) (*planner.Decision, error)
	// Results records every Applied call, Observed every Observe call.
	Results  []*planner.ApplyResult
	Observed []planner.Completion
}

var _ planner.Scheduler = (*Func)(nil)

// Name is SchedName.
func (f *Func) Name() string { return f.SchedName }

// Train does nothing.
func (f *Func) Train([]workloads.Job) {}

// Schedule calls F.
func (f *Func) Schedule(_ context.Context, st *planner.State) (*planner.Decision, error) {
	return f.F(st)
}

// Applied records the result.
func (f *Func) Applied(r *planner.ApplyResult) { f.Results = append(f.Results, r) }

// Observe records the completion.
func (f *Func) Observe(c planner.Completion) { f.Observed = append(f.Observed, c) }

package solver

import "context"

// engine is one in-process solve procedure. The cgo engines (cbc, clp's LP,
// lpsolve) and the heuristics share this shape so that the child-process
// worker (worker.go) can run any of them by name.
//
// An engine reports every improved feasible incumbent through inc (which may
// be nil) as soon as it has one: a parent that kills the worker at the
// deadline keeps the best answer reported so far. The returned Result needs
// Status, X, Objective, Bound, Nodes and TimeLimited; Backend and Wall are
// filled in by the caller. X is snapped and checked by the caller too.
type engine func(ctx context.Context, m *Model, s *Settings, inc func(x []float64)) (*Result, error)

// lpRelaxation is the answer of an LP relaxation (integrality dropped).
type lpRelaxation struct {
	X           []float64 // primal values; nil when no answer
	Objective   float64   // in the model's sense
	Optimal     bool      // solved to optimality (the objective is then a valid bound)
	Infeasible  bool      // the relaxation (hence the MILP) is infeasible
	TimeLimited bool
}

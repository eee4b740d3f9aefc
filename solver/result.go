package solver

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Status is the outcome of a solve.
type Status int

const (
	// NoSolution: the limit was reached (or the backend gave up) without a
	// feasible answer. Result.X is nil.
	NoSolution Status = iota
	// Feasible: a verified feasible answer, optimality not proven (limit reached
	// or the backend is a heuristic).
	Feasible
	// Optimal: a verified answer proven optimal within the backend's tolerance.
	Optimal
	// Infeasible: the model was proven to have no feasible answer.
	Infeasible
)

var statusNames = [...]string{"no_solution", "feasible", "optimal", "infeasible"}

func (s Status) String() string {
	if s < 0 || int(s) >= len(statusNames) {
		return fmt.Sprintf("Status(%d)", int(s))
	}
	return statusNames[s]
}

// ParseStatus is the inverse of Status.String.
func ParseStatus(s string) (Status, error) {
	for i, n := range statusNames {
		if n == s {
			return Status(i), nil
		}
	}
	return 0, fmt.Errorf("solver: unknown status %q", s)
}

// Sentinel errors; match them with errors.Is. A solve that proves its model
// infeasible is no error: it returns a Result of Status Infeasible.
var (
	// ErrNoSolution is for callers that need an answer and got none
	// (Status NoSolution or Infeasible); Solve itself does not return it.
	ErrNoSolution   = errors.New("solver: no solution within the limit")
	ErrInvalidModel = errors.New("solver: invalid model")
	ErrUnknown      = errors.New("solver: unknown backend")
)

// Settings control a solve. A nil *Settings means DefaultSettings().
type Settings struct {
	// TimeLimit bounds the wall time of Solve: every backend returns within
	// TimeLimit + 50 ms (cgo backends run in a child process that is killed at
	// the deadline). Zero means no limit.
	TimeLimit time.Duration
	// Deterministic replaces the clock by work limits (WorkLimit) so the same
	// model always gives the same answer; TimeLimit then only guards against a
	// runaway solve and a solve that reaches it is reported as TimeLimited.
	Deterministic bool
	// WorkLimit bounds the work of a deterministic solve: branch-and-bound
	// nodes for cbc/lpsolve (greedy and clp always run their steps to the
	// end). Zero means the backend's default.
	WorkLimit int64
	// Threads for backends that can use several (cbc). Zero means 1.
	Threads int
	// Start is an optional feasible (or nearly feasible) answer to warm-start from.
	Start []float64
	// RelGap stops a proving backend once (bound − objective)/|objective| ≤ RelGap.
	RelGap float64
}

// DefaultSettings: a 1 s wall limit, one thread, gap 1e-6.
func DefaultSettings() *Settings {
	return &Settings{TimeLimit: time.Second, Threads: 1, RelGap: 1e-6}
}

// Result is the answer of a solve. X is set (and verified feasible by
// Model.CheckFeasible) whenever Status is Feasible or Optimal.
type Result struct {
	Backend   string
	Status    Status
	X         []float64
	Objective float64 // objective value of X in the model's sense
	// Bound is the best proven bound on the optimum (an upper bound when
	// maximising); NaN when the backend has none.
	Bound float64
	// Gap = |Bound − Objective| / max(|Objective|, 1e-9); NaN without a bound.
	Gap         float64
	Wall        time.Duration
	Nodes       int64 // branch-and-bound nodes
	TimeLimited bool  // the time (or work) limit stopped the solve
	// GuardStopped: a deterministic solve was stopped by the wall-clock
	// guard (Settings.TimeLimit) before its work limit, so its answer
	// depends on the machine's speed and load.
	GuardStopped bool
}

// Solver is one backend.
type Solver interface {
	// Name is the backend's registry name ("cbc", "clp", "lpsolve", "greedy").
	Name() string
	// Solve solves m under s (nil means DefaultSettings). It returns a Result
	// for every outcome a model can have (optimal, feasible, infeasible, no
	// solution); the error is non-nil only for an invalid model (wrapping
	// ErrInvalidModel) or a backend failure (wrapped).
	Solve(ctx context.Context, m *Model, s *Settings) (*Result, error)
}

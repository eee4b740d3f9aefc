//go:build ignore

package solver

import (
	"context"
	"fmt"
	"sort"
	"time"
)

// Backend names.
const (
	CBC       = "cbc"       // COIN-OR CBC branch-and-cut (exact, slow to first answer)
	CLP       = "clp"       // CLP LP relaxation + rounding and repair
	LPSolve   = "lpsolve"   // lp_solve 5.5 branch-and-bound (exact)
	Greedy    = "greedy"    // pure Go greedy + local improvement
	Portfolio = "portfolio" // the default: LP + rounding + local improvement, CBC as improver
)

// Default is the backend a planner uses unless told otherwise.
const Default = Portfolio

// Backends lists the backends compiled into this binary, sorted by name.
// Without cgo only greedy is available.
func Backends() []string {
	var names []string
	for n := range workerEngines() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// LibraryVersions maps each C library compiled in ("cbc", "clp", "lpsolve")
// to its version as the library itself reports it.
func LibraryVersions() map[string]string { return cLibraryVersions() }

// New returns the backend called name, or an error wrapping ErrUnknown that
// lists the backends of this build.
func New(name string) (Solver, error) {
	if name == Greedy {
		return greedySolver{}, nil
	}
	if _, ok := workerEngines()[name]; !ok {
		return nil, fmt.Errorf("%w %q (this build has: %v)", ErrUnknown, name, Backends())
	}
	return processSolver{name: name}, nil
}

// processSolver runs a C-backed engine in a child process (worker.go) so
// that the wall-clock limit holds whatever the C library does.
type processSolver struct{ name string }

func (p processSolver) Name() string { return p.name }

func (p processSolver) Solve(ctx context.Context, m *Model, s *Settings) (*Result, error) {
	if s == nil {
		s = DefaultSettings()
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return solveInWorker(ctx, p.name, m, s)
}

// greedySolver runs the pure-Go greedy engine in process: it checks the
// context between moves, so it needs no child process to hold its limit.
type greedySolver struct{}

func (greedySolver) Name() string { return Greedy }

func (greedySolver) Solve(ctx context.Context, m *Model, s *Settings) (*Result, error) {
	return solveInProcess(ctx, Greedy, greedyEngine, m, s)
}

// solveInProcess runs eng under s's limit in this process and verifies its answer.
func solveInProcess(ctx context.Context, name string, eng engine, m *Model, s *Settings) (*Result, error) {
	if s == nil {
		s = DefaultSettings()
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	start := time.Now()
	if s.TimeLimit > 0 && !s.Deterministic {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.TimeLimit)
		defer cancel()
	}
	best := &Result{Backend: name, Status: NoSolution}
	res, err := eng(ctx, m, s, func(x []float64) { best.offer(m, x) })
	if err != nil {
		return nil, fmt.Errorf("solver: %s: %w", name, err)
	}
	best.Bound, best.Nodes, best.TimeLimited = res.Bound, res.Nodes, res.TimeLimited
	best.offer(m, res.X)
	if res.Status == Infeasible {
		best.Status = Infeasible
	}
	best.Wall = time.Since(start)
	best.finish(m)
	return best, nil
}

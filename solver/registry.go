package solver

import (
	"context"
	"fmt"
	"sort"
)

// Backend names (GreedyName is in greedy.go).
const (
	CBCName     = "cbc"     // COIN-OR CBC branch-and-cut (exact, slow to a first answer)
	CLPName     = "clp"     // the default: greedy constructions, the LP relaxation (CLP), rounding and repair
	LPSolveName = "lpsolve" // lp_solve 5.5 branch-and-bound (exact)
)

// DefaultName is the backend a planner uses unless told otherwise.
const DefaultName = CLPName

// Backends lists the backends compiled into this binary, sorted by name.
// Without cgo only greedy is available.
func Backends() []string {
	names := []string{GreedyName}
	for n := range cgoEngines() {
		names = append(names, n)
	}
	if haveCLP() {
		names = append(names, CLPName)
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
	switch {
	case name == GreedyName:
		return GreedySolver{}, nil // in process: it looks at the clock itself
	case name == CLPName && haveCLP():
		return clpSolver{}, nil // in process but for its LP
	}
	if _, ok := workerEngines()[name]; !ok || name == lpEngineName {
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
	start := wallNow() // the limit counts from the call, checks included
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return solveInWorker(ctx, p.name, m, s, start)
}

package solver

import (
	"context"
	"fmt"
)

// Backend names.
const (
	CBCName     = "cbc"     // COIN-OR CBC branch-and-cut (exact, slow to a first answer)
	CLPName     = "clp"     // the default: greedy constructions, the LP relaxation (CLP), rounding and repair
	GreedyName  = "greedy"  // greedy constructions alone, pure Go
	LPSolveName = "lpsolve" // lp_solve 5.5 branch-and-bound (exact)
)

// DefaultName is the backend a planner uses unless told otherwise.
const DefaultName = CLPName

// Default is the backend a planner uses unless told otherwise in this
// build: DefaultName, or GreedyName in a build without the C libraries
// (CGO_ENABLED=0), whose planners then run on the greedy constructions
// alone (Fallback says so).
func Default() string {
	if _, ok := lookup(DefaultName); ok {
		return DefaultName
	}
	return GreedyName
}

// Fallback is the one-line warning a command prints when Default is not
// DefaultName, "" when it is.
func Fallback() string {
	if Default() == DefaultName {
		return ""
	}
	return fmt.Sprintf("warning: this build has no C solver libraries (built with CGO_ENABLED=0): the planners use the %s backend instead of %s", GreedyName, DefaultName)
}

// Placement is where a backend's solve runs.
type Placement int

const (
	// InProcess: the whole solve runs in the calling process and looks at
	// the clock itself.
	InProcess Placement = iota
	// LPInWorker: the solve runs in the calling process but for its LP
	// relaxation, which runs in a worker process (worker.go) killed at its
	// deadline: CLP cannot be stopped from Go.
	LPInWorker
	// InWorker: the whole solve runs in a worker process killed at the
	// deadline: the C library does not look at the clock often enough, and
	// a cgo call cannot be abandoned.
	InWorker
)

var placementNames = [...]string{"in process", "in process, its LP in a worker", "in a worker"}

func (p Placement) String() string {
	if p < 0 || int(p) >= len(placementNames) {
		return fmt.Sprintf("Placement(%d)", int(p))
	}
	return placementNames[p]
}

// Backend describes one backend of this build.
type Backend struct {
	Name      string // registry name (New, --solver)
	Engine    string // what it runs, in a few words
	Placement Placement
	// Library is the C library it binds with the version the library
	// reports at run time ("CBC 2.10.8"); empty for pure Go.
	Library string
}

// backendRow is one row of the backend table.
type backendRow struct {
	name, engine string
	placement    Placement
	solver       Solver
	// library is the C library it binds ("CBC"), empty for pure Go; its
	// row is in a build with cgo only. version reads the library's version
	// at run time; it and the other bindings are nil in a build without cgo
	// (engines_nocgo.go).
	library string
	version func() string
	// worker is what a worker process runs for this backend: the whole
	// solve (InWorker) or its LP relaxation (LPInWorker); nil for InProcess.
	worker engine
	// reuse: a worker that answered this backend's request in time may
	// take the next request. Only CLP's LP is known to leave no state
	// behind that changes a later solve; whether CBC and lp_solve do has
	// not been checked, so their workers exit after one request.
	reuse bool
}

// backendTable is every backend of the project, sorted by name: New,
// Backends, BackendTable, LibraryVersions and the worker (worker.go) all
// read it.
var backendTable = []backendRow{
	{name: CBCName, engine: "branch-and-cut (exact; slow to a first answer)", placement: InWorker,
		solver: processSolver{name: CBCName}, library: "CBC", version: cbcVersion, worker: cbcEngine},
	{name: CLPName, engine: "greedy + LP relaxation + rounding and repair", placement: LPInWorker,
		solver: clpSolver{}, library: "CLP", version: clpVersion, worker: lpEngine, reuse: true},
	{name: GreedyName, engine: "greedy constructions", placement: InProcess, solver: GreedySolver{}},
	{name: LPSolveName, engine: "branch-and-bound (exact)", placement: InWorker,
		solver: processSolver{name: LPSolveName}, library: "lp_solve", version: lpsolveVersion, worker: lpsolveEngine},
}

// builtRows returns the rows of the backends compiled into this binary:
// without cgo, greedy alone.
func builtRows() []*backendRow {
	rows := make([]*backendRow, 0, len(backendTable))
	for i := range backendTable {
		if r := &backendTable[i]; r.library == "" || cgoBuild {
			rows = append(rows, r)
		}
	}
	return rows
}

// lookup returns the row of backend name when this binary has it.
func lookup(name string) (*backendRow, bool) {
	for _, r := range builtRows() {
		if r.name == name {
			return r, true
		}
	}
	return nil, false
}

// BackendTable describes the backends compiled into this binary, sorted by
// name, each library's version read from the library.
func BackendTable() []Backend {
	var bs []Backend
	for _, r := range builtRows() {
		b := Backend{Name: r.name, Engine: r.engine, Placement: r.placement}
		if r.library != "" {
			b.Library = r.library + " " + r.version()
		}
		bs = append(bs, b)
	}
	return bs
}

// Backends lists the names of the backends compiled into this binary,
// sorted. Without cgo only greedy is available.
func Backends() []string {
	var names []string
	for _, r := range builtRows() {
		names = append(names, r.name)
	}
	return names
}

// LibraryVersions maps each backend of this build that binds a C library
// ("cbc", "clp", "lpsolve") to the library's version as it reports it.
func LibraryVersions() map[string]string {
	v := map[string]string{}
	for _, b := range BackendTable() {
		if b.Library != "" {
			v[b.Name] = b.Library
		}
	}
	return v
}

// New returns the backend called name, or an error wrapping ErrUnknown that
// lists the backends of this build.
func New(name string) (Solver, error) {
	r, ok := lookup(name)
	if !ok {
		return nil, fmt.Errorf("%w %q (this build has: %v)", ErrUnknown, name, Backends())
	}
	return r.solver, nil
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

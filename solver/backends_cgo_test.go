//go:build cgo

package solver

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// The tests of this file go through the path users call — New, then
// Solve, so a child process for cbc and lpsolve and for clp's LP — for
// every backend of the build (with cgo: cbc, clp, greedy, lpsolve).

// solveEach solves m with every backend of the build under s, each in a
// subtest, and calls f with its answer.
func solveEach(t *testing.T, m *Model, s *Settings, f func(t *testing.T, name string, r *Result, err error)) {
	t.Helper()
	for _, name := range Backends() {
		t.Run(name, func(t *testing.T) {
			sv, err := New(name)
			if err != nil {
				t.Fatal(err)
			}
			r, err := sv.Solve(context.Background(), m, s)
			f(t, name, r, err)
		})
	}
}

// backendGuard bounds the solves of these tests: far above what they take
// (all of them together take about 3 s), so that a busy CI machine starting
// child processes slowly cannot fail them.
const backendGuard = time.Minute

// TestBackendsEnumerated: every backend, through New and Solve, on the
// 100 seeded instances of ≤ 16 binaries whose optimum enumeration found:
// exact backends reach it, the others answer feasibly and never beat it.
func TestBackendsEnumerated(t *testing.T) {
	if testing.Short() {
		t.Skip("400 child processes")
	}
	cases := enumCases(100)
	for _, name := range Backends() {
		t.Run(name, func(t *testing.T) {
			sv, err := New(name)
			if err != nil {
				t.Fatal(err)
			}
			optimal, feasible := 0, 0
			for _, c := range cases {
				set := enumSettings()
				set.TimeLimit = backendGuard
				r, err := sv.Solve(context.Background(), c.m, set)
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				checkEnumAnswer(t, c, name, r, exactEngines[name])
				if c.feasible {
					feasible++
				}
				if c.feasible && r.X != nil && sameObjective(c.m.ObjectiveValue(r.X), c.opt) {
					optimal++
				}
			}
			t.Logf("%s: optimum on %d of the %d feasible cases", name, optimal, feasible)
		})
	}
}

// TestBackendsEdgeModels: models without columns or rows, with every
// column fixed, with a zero objective, and pure LPs have an answer, and
// every backend returns it with its objective.
func TestBackendsEdgeModels(t *testing.T) {
	noColumns := &Model{}
	noColumns.AddRow("", nil, nil, LE, 1) // 0 ≤ 1

	fixed := &Model{Maximize: true}
	fixed.AddVar("a", Integer, 2, 2, 3)
	fixed.AddVar("b", Binary, 1, 1, 1)

	zero := &Model{}
	u := zero.AddVar("u", Integer, 0, 5, 0)
	v := zero.AddVar("v", Continuous, 0, 5, 0)
	zero.AddRow("r", []int{u, v}, []float64{1, 1}, GE, 2.5)

	noRows := &Model{Maximize: true}
	noRows.AddVar("", Integer, 0, 7, 2)
	noRows.AddVar("", Binary, 0, 1, -1)
	noRows.AddVar("", Continuous, -1, 2.5, 1)

	// max p + q, p + 2q ≤ 4, 3p + q ≤ 6: p = 1.6, q = 1.2.
	lp := &Model{Maximize: true}
	p := lp.AddVar("p", Continuous, 0, math.Inf(1), 1)
	q := lp.AddVar("q", Continuous, 0, math.Inf(1), 1)
	lp.AddRow("", []int{p, q}, []float64{1, 2}, LE, 4)
	lp.AddRow("", []int{p, q}, []float64{3, 1}, LE, 6)

	for _, tc := range []struct {
		name string
		m    *Model
		want float64
		// lpOnly: the optimum is checked only for the backends that solve
		// an LP (greedy, which solves none, may answer below it)
		lpOnly bool
	}{
		{"empty", &Model{}, 0, false},
		{"no columns", noColumns, 0, false},
		{"all fixed", fixed, 7, false},
		{"zero objective", zero, 0, false},
		{"no rows", noRows, 2*7 + 2.5, true},
		{"pure LP", lp, 2.8, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			solveEach(t, tc.m, &Settings{TimeLimit: backendGuard}, func(t *testing.T, name string, r *Result, err error) {
				if err != nil {
					t.Fatal(err)
				}
				if r.X == nil || (r.Status != Optimal && r.Status != Feasible) {
					t.Fatalf("status %v, answer %v; want the answer %v", r.Status, r.X, tc.want)
				}
				mustCheck(t, tc.m, r)
				solvesLP := name != GreedyName
				if (solvesLP || !tc.lpOnly) && math.Abs(r.Objective-tc.want) > 1e-6 {
					t.Errorf("objective %v, want %v", r.Objective, tc.want)
				}
			})
		})
	}
}

// TestBackendsInfeasible: no backend answers a model without a feasible
// point, and none claims infeasibility of one that has one (above).
func TestBackendsInfeasible(t *testing.T) {
	noColumns := &Model{}
	noColumns.AddRow("", nil, nil, GE, 1) // 0 ≥ 1
	lpInfeasible := &Model{}
	a := lpInfeasible.AddVar("a", Continuous, 0, 1, 1)
	lpInfeasible.AddRow("", []int{a}, []float64{1}, GE, 2)
	for name, m := range map[string]*Model{"0 ≥ 1": noColumns, "LP infeasible": lpInfeasible, "integer infeasible": cgoInfeasibleModel()} {
		t.Run(name, func(t *testing.T) {
			solveEach(t, m, &Settings{TimeLimit: backendGuard}, func(t *testing.T, _ string, r *Result, err error) {
				if err != nil {
					t.Fatal(err)
				}
				if r.X != nil || (r.Status != Infeasible && r.Status != NoSolution) {
					t.Fatalf("status %v, answer %v for an infeasible model", r.Status, r.X)
				}
			})
		})
	}
}

// TestBackendsRejectBadNumbers: NaN and ±Inf in a row, a right-hand side
// or the objective are refused by every backend before any solve, with an
// error naming the row and the column.
func TestBackendsRejectBadNumbers(t *testing.T) {
	for _, tc := range []struct {
		name  string
		set   func(m *Model, x int)
		names []string
	}{
		{"row NaN", func(m *Model, x int) { m.AddRow("caprow", []int{x}, []float64{math.NaN()}, LE, 1) }, []string{"caprow", "xcol"}},
		{"row +Inf", func(m *Model, x int) { m.AddRow("caprow", []int{x}, []float64{math.Inf(1)}, LE, 1) }, []string{"caprow", "xcol"}},
		{"row −Inf", func(m *Model, x int) { m.AddRow("caprow", []int{x}, []float64{math.Inf(-1)}, LE, 1) }, []string{"caprow", "xcol"}},
		{"rhs NaN", func(m *Model, x int) { m.AddRow("caprow", []int{x}, []float64{1}, LE, math.NaN()) }, []string{"caprow"}},
		{"rhs +Inf", func(m *Model, x int) { m.AddRow("caprow", []int{x}, []float64{1}, LE, math.Inf(1)) }, []string{"caprow"}},
		{"objective +Inf", func(m *Model, x int) { m.Vars[x].Obj = math.Inf(1) }, []string{"xcol"}},
		{"objective −Inf", func(m *Model, x int) { m.Vars[x].Obj = math.Inf(-1) }, []string{"xcol"}},
		{"objective NaN", func(m *Model, x int) { m.Vars[x].Obj = math.NaN() }, []string{"xcol"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &Model{Maximize: true}
			tc.set(m, m.AddVar("xcol", Binary, 0, 1, 1))
			solveEach(t, m, nil, func(t *testing.T, _ string, _ *Result, err error) {
				if !errors.Is(err, ErrInvalidModel) {
					t.Fatalf("want ErrInvalidModel, got %v", err)
				}
				for _, n := range tc.names {
					if !strings.Contains(err.Error(), n) {
						t.Errorf("error does not name %s: %v", n, err)
					}
				}
			})
		})
	}
}

// TestBackendsUnbounded: no backend calls an unbounded model solved. It
// may answer with a finite feasible point (the heuristics), with no
// answer, or with an error; lp_solve's "optimal" at its infinity (1e30) in
// a column without an upper bound is no answer.
func TestBackendsUnbounded(t *testing.T) {
	models := map[string]*Model{}
	for name, kind := range map[string]VarKind{"continuous": Continuous, "integer": Integer} {
		m := &Model{Maximize: true}
		a := m.AddVar("a", kind, 0, math.Inf(1), 1)
		b := m.AddVar("b", Continuous, 0, math.Inf(1), 1)
		m.AddRow("", []int{a, b}, []float64{1, -1}, GE, 0)
		models[name] = m
	}
	// Without rows lp_solve answered "optimal" at 1e30 (−1e30).
	up := &Model{Maximize: true}
	up.AddVar("a", Continuous, 0, math.Inf(1), 1)
	models["no rows, maximise"] = up
	down := &Model{}
	down.AddVar("a", Continuous, math.Inf(-1), 5, 1)
	models["no rows, minimise"] = down
	for name, m := range models {
		t.Run(name, func(t *testing.T) {
			solveEach(t, m, &Settings{TimeLimit: backendGuard}, func(t *testing.T, _ string, r *Result, err error) {
				if err != nil {
					t.Logf("error: %v", err)
					return
				}
				if r.Status == Optimal || r.Status == Infeasible {
					t.Fatalf("status %v for an unbounded model (answer %v)", r.Status, r.X)
				}
				mustCheck(t, m, r)
				for j, v := range r.X {
					if math.Abs(v) >= 1e20 {
						t.Errorf("column %d at %v: not a number of an answer", j, v)
					}
				}
			})
		})
	}
}

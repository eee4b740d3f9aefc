package solver_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/plannerhq/planner/solver"
)

// knapsack builds max 10a + 13b + 7c s.t. 4a + 6b + 3c ≤ 9, binary:
// the optimum takes b and c (20).
func knapsack() *solver.Model {
	m := &solver.Model{Name: "knapsack", Maximize: true}
	a := m.AddVar("a", solver.Binary, 0, 1, 10)
	b := m.AddVar("b", solver.Binary, 0, 1, 13)
	c := m.AddVar("c", solver.Binary, 0, 1, 7)
	m.AddRow("weight", []int{a, b, c}, []float64{4, 6, 3}, solver.LE, 9)
	return m
}

// A model is built column by column and row by row, then solved by a
// backend of the registry under a wall-clock limit; a deterministic solve
// gives the same answer on every machine. Greedy is pure Go, in every build.
func Example() {
	m := knapsack()
	s, err := solver.New(solver.GreedyName)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := s.Solve(context.Background(), m, &solver.Settings{TimeLimit: 10 * time.Second, Deterministic: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Backend, res.Status, res.Objective, res.X)
	fmt.Println("feasible:", m.CheckFeasible(res.X) == nil)
	// Output:
	// greedy feasible 20 [0 1 1]
	// feasible: true
}

// An infeasible model is an outcome, not an error: its Result has Status
// Infeasible and no answer.
func Example_infeasible() {
	m := &solver.Model{}
	x := m.AddVar("x", solver.Integer, 0, 3, 1)
	m.AddRow("at least four", []int{x}, []float64{1}, solver.GE, 4)
	res, err := solver.GreedySolver{}.Solve(context.Background(), m, nil)
	fmt.Println(res.Status, res.X == nil, err)
	// Output: infeasible true <nil>
}

// New refuses a name that is not a backend of this build; the error
// lists those there are.
func ExampleNew() {
	_, err := solver.New("gurobi")
	fmt.Println(errors.Is(err, solver.ErrUnknown))
	// Output: true
}

// BackendTable describes each backend: its engine, where it runs and the
// C library it binds (the C backends are in a build with cgo only).
func ExampleBackendTable() {
	for _, b := range solver.BackendTable() {
		if b.Name == solver.GreedyName {
			fmt.Printf("%s: %s, %s, library %q\n", b.Name, b.Engine, b.Placement, b.Library)
		}
	}
	// Output: greedy: greedy constructions, in process, library ""
}

// CheckFeasible names the first row or bound an answer breaks.
func ExampleModel_CheckFeasible() {
	m := knapsack()
	fmt.Println(m.CheckFeasible([]float64{0, 1, 1}))
	fmt.Println(m.CheckFeasible([]float64{1, 1, 0}))
	// Output:
	// <nil>
	// solver: row weight violated: lhs 10, rhs 9
}

// WriteLP writes a model in CPLEX LP format, which CBC, CLP and lp_solve
// read.
func ExampleModel_WriteLP() {
	if err := knapsack().WriteLP(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// \ Problem name: knapsack
	// Maximize
	//  obj: + 10 a + 13 b + 7 c
	// Subject To
	//  weight: + 4 a + 6 b + 3 c <= 9
	// Bounds
	// Binary
	//   a b c
	// End
}

// ParseStatus reads back what Status.String writes, as the JSON outputs
// carry it.
func ExampleParseStatus() {
	st, err := solver.ParseStatus(solver.Optimal.String())
	fmt.Println(st, err)
	// Output: optimal <nil>
}

package solver_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/plannerhq/planner/solver"
	"github.com/plannerhq/planner/solver/instances"
)

func rackModel(t testing.TB, jobs int, seed uint64) *solver.Model {
	t.Helper()
	p := instances.DefaultParams()
	p.Jobs, p.Seed = jobs, seed
	in, err := instances.Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	return in.Model
}

// TestGreedyDeterministic: in deterministic mode the same model gives the
// same answer, whatever the scheduling of the parallel streams.
func TestGreedyDeterministic(t *testing.T) {
	m := rackModel(t, 60, 3)
	s := &solver.Settings{Deterministic: true, WorkLimit: 300, TimeLimit: time.Minute}
	a, err := solver.GreedySolver{}.Solve(context.Background(), m, s)
	if err != nil {
		t.Fatal(err)
	}
	b, err := solver.GreedySolver{}.Solve(context.Background(), m, s)
	if err != nil {
		t.Fatal(err)
	}
	if a.Status != solver.Feasible || !slices.Equal(a.X, b.X) || a.Nodes != b.Nodes {
		t.Fatalf("two deterministic solves differ: %s %v / %s %v, moves %d / %d", a.Status, a.Objective, b.Status, b.Objective, a.Nodes, b.Nodes)
	}
	if a.Nodes != s.WorkLimit {
		t.Errorf("made %d moves, work limit %d", a.Nodes, s.WorkLimit)
	}
	if !a.TimeLimited {
		t.Error("a solve stopped by its work limit should say so")
	}
}

// TestGreedyWorkLimitBelowChains: a work limit smaller than the number of
// local-search chains is still a limit (a chain with a share of 0 moves once
// ran until the wall-clock guard).
func TestGreedyWorkLimitBelowChains(t *testing.T) {
	m := rackModel(t, 60, 3)
	s := &solver.Settings{Deterministic: true, WorkLimit: 1, TimeLimit: time.Minute}
	r, err := solver.GreedySolver{}.Solve(context.Background(), m, s)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != solver.Feasible || r.Nodes > 1 {
		t.Fatalf("status %s, %d moves for a work limit of 1", r.Status, r.Nodes)
	}
}

// TestGreedyRackAnswers: answers on the rack instances are feasible, the
// local search never loses value, and a timed solve ends with an answer at
// least as good as its first construction.
func TestGreedyRackAnswers(t *testing.T) {
	m := rackModel(t, 100, 1)
	x := solver.RoundAndRepairForTest(m, nil)
	if x == nil {
		t.Fatal("no construction")
	}
	if err := m.CheckFeasible(x); err != nil {
		t.Fatal(err)
	}
	y, moves := solver.ImproveForTest(context.Background(), m, x, 500)
	if err := m.CheckFeasible(y); err != nil {
		t.Fatal(err)
	}
	if m.ObjectiveValue(y) < m.ObjectiveValue(x) {
		t.Errorf("improve lost value: %v → %v", m.ObjectiveValue(x), m.ObjectiveValue(y))
	}
	if moves != 500 {
		t.Errorf("%d moves, want 500", moves)
	}
	// Long enough that a loaded machine still gives the analysis and the
	// first construction their few milliseconds of processor time before
	// the limit (a solve out of time before its first answer has none).
	const limit = time.Second
	res, err := solver.GreedySolver{}.Solve(context.Background(), m, &solver.Settings{TimeLimit: limit})
	if err != nil || res.Status != solver.Feasible {
		t.Fatal(err, res.Status)
	}
	if res.Objective < m.ObjectiveValue(x) {
		t.Errorf("timed solve %v below its own construction %v", res.Objective, m.ObjectiveValue(x))
	}
	// Wall time is measured by the benchmarks, not asserted here.
	t.Logf("%v limit: objective %.1f after %d moves, wall %v", limit, res.Objective, res.Nodes, res.Wall)
}

// TestGuardStopped: a deterministic solve is marked GuardStopped when its
// wall-clock guard, not its work limit, stops it (its answer then depends
// on the machine), and only then; a timed solve never is.
func TestGuardStopped(t *testing.T) {
	m := rackModel(t, 60, 3)
	tests := []struct {
		name string
		s    solver.Settings
		want bool
	}{
		{"work limit reached", solver.Settings{Deterministic: true, WorkLimit: 50, TimeLimit: time.Minute}, false},
		{"guard reached", solver.Settings{Deterministic: true, WorkLimit: 1 << 40, TimeLimit: 50 * time.Millisecond}, true},
		{"timed", solver.Settings{TimeLimit: 50 * time.Millisecond}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := solver.GreedySolver{}.Solve(context.Background(), m, &tc.s)
			if err != nil {
				t.Fatal(err)
			}
			if res.GuardStopped != tc.want {
				t.Errorf("GuardStopped = %v, want %v", res.GuardStopped, tc.want)
			}
		})
	}
}

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
// same answer.
func TestGreedyDeterministic(t *testing.T) {
	m := rackModel(t, 60, 3)
	s := &solver.Settings{Deterministic: true, TimeLimit: time.Minute}
	a, err := solver.GreedySolver{}.Solve(context.Background(), m, s)
	if err != nil {
		t.Fatal(err)
	}
	b, err := solver.GreedySolver{}.Solve(context.Background(), m, s)
	if err != nil {
		t.Fatal(err)
	}
	if a.Status != solver.Feasible || !slices.Equal(a.X, b.X) {
		t.Fatalf("two deterministic solves differ: %s %v / %s %v", a.Status, a.Objective, b.Status, b.Objective)
	}
	if a.TimeLimited || a.GuardStopped {
		t.Errorf("a solve that ran to its end says it was limited: %+v", a)
	}
}

// TestGreedyRackAnswers: answers on the rack instances are feasible, and a
// timed solve ends with an answer at least as good as its first
// construction.
func TestGreedyRackAnswers(t *testing.T) {
	m := rackModel(t, 100, 1)
	x := solver.RoundAndRepairForTest(m, nil)
	if x == nil {
		t.Fatal("no construction")
	}
	if err := m.CheckFeasible(x); err != nil {
		t.Fatal(err)
	}
	// Long enough that a loaded machine still gives the analysis and the
	// constructions their few milliseconds of processor time before the
	// limit (a solve out of time before its first answer has none).
	const limit = 5 * time.Second
	res, err := solver.GreedySolver{}.Solve(context.Background(), m, &solver.Settings{TimeLimit: limit})
	if err != nil || res.Status != solver.Feasible {
		t.Fatal(err, res.Status)
	}
	if res.Objective < m.ObjectiveValue(x) {
		t.Errorf("timed solve %v below its own construction %v", res.Objective, m.ObjectiveValue(x))
	}
	// Wall time is measured by the benchmarks, not asserted here.
	t.Logf("%v limit: objective %.1f, wall %v", limit, res.Objective, res.Wall)
}

// TestGuardStopped: a deterministic solve is marked GuardStopped when its
// wall-clock guard stops it (its answer then depends on the machine), and
// only then; a timed solve never is.
func TestGuardStopped(t *testing.T) {
	m := rackModel(t, 300, 3) // its analysis alone takes milliseconds
	tests := []struct {
		name string
		s    solver.Settings
		want bool
	}{
		{"steps done", solver.Settings{Deterministic: true, TimeLimit: time.Minute}, false},
		{"guard reached", solver.Settings{Deterministic: true, TimeLimit: time.Microsecond}, true},
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

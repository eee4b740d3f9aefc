package solver_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/plannerhq/planner/solver"
	"github.com/plannerhq/planner/solver/instances"
)

func rackInstance(t testing.TB, jobs int, seed uint64) *solver.Model {
	t.Helper()
	p := instances.DefaultParams()
	p.Jobs, p.Seed = jobs, seed
	inst, err := instances.Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	return inst.Model
}

// TestWallLimitHeldOnHardInstance: on a 300-job instance (no exact backend
// solves it in 500 ms) every backend returns by its limit with a feasible
// answer or none (and a status that says which), and a deterministic
// solve whose work limit would take hours is stopped by its wall-clock
// guard: the kill of the worker (or, in process, a look at the clock) is
// all that stops it.
func TestWallLimitHeldOnHardInstance(t *testing.T) {
	if testing.Short() {
		t.Skip("solves a 300-job instance with every backend")
	}
	m := rackInstance(t, 300, 1)
	const limit = 500 * time.Millisecond
	for _, tc := range []struct {
		name string
		set  solver.Settings
	}{
		{"timed", solver.Settings{TimeLimit: limit}},
		{"runaway work limit", solver.Settings{Deterministic: true, WorkLimit: 1 << 40, TimeLimit: limit}},
	} {
		for _, name := range solver.Backends() {
			t.Run(tc.name+"/"+name, func(t *testing.T) {
				s, err := solver.New(name)
				if err != nil {
					t.Fatal(err)
				}
				set := tc.set
				start := time.Now()
				res, err := s.Solve(context.Background(), m, &set)
				wall := time.Since(start)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: %s objective %.1f wall %v (limit %v)", name, res.Status, res.Objective, wall, limit)
				if wall > limit+solver.ReturnSlack {
					t.Errorf("returned after %v for a %v limit", wall, limit)
				}
				if res.X != nil {
					if err := m.CheckFeasible(res.X); err != nil {
						t.Errorf("returned an infeasible answer: %v", err)
					}
				}
				if answered := res.Status == solver.Feasible || res.Status == solver.Optimal; answered != (res.X != nil) {
					t.Errorf("status %s with an answer: %v", res.Status, res.X != nil)
				}
			})
		}
	}
}

func TestContextCancelStopsWorker(t *testing.T) {
	if !slices.Contains(solver.Backends(), solver.CBCName) {
		t.Skip("no cbc in this build")
	}
	m := rackInstance(t, 300, 2)
	const cancelAfter = 200 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), cancelAfter)
	defer cancel()
	s, _ := solver.New(solver.CBCName)
	start := time.Now()
	// The limit is far beyond the slack: only the cancellation can end
	// the solve in time.
	res, err := s.Solve(ctx, m, &solver.Settings{TimeLimit: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if w := time.Since(start); w > cancelAfter+solver.ReturnSlack {
		t.Errorf("a solve cancelled after %v returned after %v", cancelAfter, w)
	}
	if !res.TimeLimited {
		t.Errorf("a cancelled solve should be reported as limited: %+v", res.Status)
	}
}

// TestDeterministicCLPRepeats: two deterministic clp solves of a model give
// the same answer, with the LP bound above it.
func TestDeterministicCLPRepeats(t *testing.T) {
	if !slices.Contains(solver.Backends(), solver.CLPName) {
		t.Skip("no clp in this build")
	}
	m := rackInstance(t, 60, 3)
	s, _ := solver.New(solver.CLPName)
	set := &solver.Settings{Deterministic: true, TimeLimit: time.Minute}
	a, err := s.Solve(context.Background(), m, set)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Solve(context.Background(), m, set)
	if err != nil {
		t.Fatal(err)
	}
	if a.X == nil || !slices.Equal(a.X, b.X) || a.Objective != b.Objective {
		t.Fatalf("deterministic solves differ: %v vs %v", a.Objective, b.Objective)
	}
	if math.IsNaN(a.Bound) || a.Bound < a.Objective-1e-6 {
		t.Errorf("bound %v below objective %v", a.Bound, a.Objective)
	}
}

func TestUnknownBackend(t *testing.T) {
	_, err := solver.New("gurobi")
	if !errors.Is(err, solver.ErrUnknown) {
		t.Fatalf("want ErrUnknown, got %v", err)
	}
}

func TestInvalidModelRejectedBeforeWorker(t *testing.T) {
	for _, name := range solver.Backends() {
		s, _ := solver.New(name)
		m := &solver.Model{Maximize: true}
		x := m.AddVar("x", solver.Binary, 0, 1, 1)
		m.AddRow("cap", []int{x}, []float64{math.NaN()}, solver.LE, 1)
		_, err := s.Solve(context.Background(), m, nil)
		if !errors.Is(err, solver.ErrInvalidModel) {
			t.Errorf("%s: want ErrInvalidModel, got %v", name, err)
		}
		if err != nil && !bytes.Contains([]byte(err.Error()), []byte("cap")) {
			t.Errorf("%s: error does not name the row: %v", name, err)
		}
	}
}

// TestCLPGuardStopped: a deterministic clp solve that its guard stops is
// marked GuardStopped, and one that runs its steps to the end is not.
func TestCLPGuardStopped(t *testing.T) {
	if !slices.Contains(solver.Backends(), solver.CLPName) {
		t.Skip("no clp backend in this build")
	}
	s, err := solver.New(solver.CLPName)
	if err != nil {
		t.Fatal(err)
	}
	m := rackInstance(t, 300, 3) // its analysis alone takes milliseconds
	for _, tc := range []struct {
		limit time.Duration
		want  bool
	}{{time.Minute, false}, {time.Microsecond, true}} {
		res, err := s.Solve(context.Background(), m, &solver.Settings{Deterministic: true, TimeLimit: tc.limit})
		if err != nil {
			t.Fatal(err)
		}
		if res.GuardStopped != tc.want {
			t.Errorf("guard %s: GuardStopped = %v, want %v", tc.limit, res.GuardStopped, tc.want)
		}
	}
}

package solver_test

import (
	"context"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/plannerhq/planner/solver"
)

// TestSolveUnderCPUHog: with a child process keeping twice the machine's
// cores busy, a timed solve of the in-process backends (greedy, and clp
// with its LP in a worker) never answers below the greedy constructions
// of the same model — the first answer every solve makes and keeps. The
// limit has a loaded machine's margin: unloaded, the constructions of a
// 300-job rack instance take tens of milliseconds and clp's LP a few
// hundred.
func TestSolveUnderCPUHog(t *testing.T) {
	if testing.Short() {
		t.Skip("solves under a CPU hog")
	}
	const limit = 5 * time.Second
	backends := []string{solver.GreedyName}
	if slices.Contains(solver.Backends(), solver.CLPName) {
		backends = append(backends, solver.CLPName)
	}
	models := []*solver.Model{rackModel(t, 300, 1), rackModel(t, 300, 2)}
	floors := make([]float64, len(models))
	for i, m := range models {
		x := solver.RoundAndRepairForTest(m, nil)
		if x == nil {
			t.Fatal("no greedy construction")
		}
		floors[i] = m.ObjectiveValue(x)
	}
	stop := solver.StartCPUHogForTest(t, 2*runtime.NumCPU())
	defer stop()
	for _, name := range backends {
		s, err := solver.New(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range models {
			res, err := s.Solve(context.Background(), m, &solver.Settings{TimeLimit: limit})
			if err != nil {
				t.Fatalf("%s, instance %d: %v", name, i+1, err)
			}
			if res.X == nil {
				t.Errorf("%s, instance %d: no answer under load (status %s, wall %v)", name, i+1, res.Status, res.Wall)
				continue
			}
			if err := m.CheckFeasible(res.X); err != nil {
				t.Errorf("%s, instance %d: %v", name, i+1, err)
			}
			if res.Objective < floors[i]-1e-9*floors[i] {
				t.Errorf("%s, instance %d: objective %.2f under load, below the greedy constructions' %.2f",
					name, i+1, res.Objective, floors[i])
			}
			t.Logf("%s, instance %d: %.2f (greedy %.2f), wall %v", name, i+1, res.Objective, floors[i], res.Wall)
		}
	}
}

//go:build cgo

package solver_test

import (
	"context"
	"testing"

	"github.com/plannerhq/planner/solver"
	"github.com/plannerhq/planner/solver/instances"
)

// TestBranchStart: on the 100-job rack instance of seed 3 the LP leaves
// the option of its most valuable job open (0.53 at start slice 4, 0.47 at
// slice 8) and the guided construction uses it; the branch start is a
// feasible plan without it. On seed 2 no open option is worth a third of
// the objective, and there is no branch.
func TestBranchStart(t *testing.T) {
	for _, c := range []struct {
		seed   uint64
		branch bool
	}{{3, true}, {2, false}} {
		p := instances.DefaultParams()
		p.Jobs, p.Seed = 100, c.seed
		in, err := instances.Generate(p)
		if err != nil {
			t.Fatal(err)
		}
		m := in.Model
		guide := solver.LPGuideForTest(context.Background(), m)
		if guide == nil {
			t.Fatal("no LP answer")
		}
		h := solver.NewHeuristicForTest(m)
		best := h.RoundAndRepair(guide)
		obj := m.ObjectiveValue(best)
		// The branch option as the rule defines it, from the instance's
		// own description of its options.
		branch := -1
		for i, o := range in.Options {
			if g := guide[o.X]; g > 0.2 && g < 0.8 && best[o.X] > 0.5 && o.Utility >= obj/3 &&
				(branch < 0 || o.Utility > in.Options[branch].Utility) {
				branch = i
			}
		}
		alt := h.BranchStart(best)
		if !c.branch {
			if branch >= 0 || alt != nil {
				t.Errorf("seed %d: branch option %d, start %v; want neither", c.seed, branch, alt != nil)
			}
			continue
		}
		if branch < 0 || alt == nil {
			t.Fatalf("seed %d: branch option %d, start %v; want both", c.seed, branch, alt != nil)
		}
		if err := m.CheckFeasible(alt); err != nil {
			t.Fatalf("seed %d: branch start: %v", c.seed, err)
		}
		o := in.Options[branch]
		if alt[o.X] > 0.5 {
			t.Errorf("seed %d: the branch start still uses job %d at slice %d", c.seed, o.Job, o.Start)
		}
		if v := m.ObjectiveValue(alt); v < 0.9*obj {
			t.Errorf("seed %d: branch start %.2f, want within 10%% of the construction's %.2f", c.seed, v, obj)
		}
	}
}

// TestDeterministicRoundingIgnoresClock: the portfolio's heuristic core
// (LP, guided constructions, sampling, branch start, local search) in
// deterministic mode gives the same answer whatever the clock says.
func TestDeterministicRoundingIgnoresClock(t *testing.T) {
	deterministicUnderJumpingClock(t, rackModel(t, 100, 3), func(m *solver.Model, s *solver.Settings) (*solver.Result, error) {
		return solver.RoundingForTest(context.Background(), m, s)
	})
}

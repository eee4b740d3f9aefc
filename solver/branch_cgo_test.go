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

// TestSecondGuide: on the 100-job rack instance of seed 4 the LP splits
// the 68-node job 63 between start slices 16 and 32, the guided
// construction starts it at one of them, and of the open choices that one
// weighs the most (value × gang size). The second guides are the LP with
// the job held to each side — its other options fixed at zero — the side
// the construction took (keep) and the job's other open option (flip):
// each a bound no higher than the first LP, none of those options taken,
// and a feasible construction from it.
func TestSecondGuide(t *testing.T) {
	p := instances.DefaultParams()
	p.Jobs, p.Seed = 100, 4
	in, err := instances.Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	m := in.Model
	g := solver.SecondGuideForTest(context.Background(), m)
	if g.Root == nil || g.Best == nil {
		t.Fatal("no LP answer or no construction")
	}
	// The branch option as the rule defines it, from the instance's own
	// description of its options.
	branch := -1
	weight := func(o instances.Option) float64 { return o.Utility * float64(in.Jobs[o.Job].Nodes) }
	for i, o := range in.Options {
		if v := g.Root[o.X]; v > 0.2 && v < 0.8 && g.Best[o.X] > 0.5 &&
			(branch < 0 || weight(o) > weight(in.Options[branch])) {
			branch = i
		}
	}
	if branch < 0 {
		t.Fatal("no open option in the construction")
	}
	o := in.Options[branch]
	if o.Job != 63 || g.Branch != o.X {
		t.Fatalf("branch on column %d; want job %d at slice %d (column %d), expected job 63", g.Branch, o.Job, o.Start, o.X)
	}
	// The flip side: the job's other option the LP takes at an open share.
	flip := -1
	for _, r := range in.Jobs[o.Job].Options {
		if v := g.Root[in.Options[r].X]; r != branch && v > 0.2 && (flip < 0 || v > g.Root[in.Options[flip].X]) {
			flip = r
		}
	}
	if flip < 0 || g.Flip != in.Options[flip].X {
		t.Fatalf("flip side on column %d; want the job's other open option (index %d)", g.Flip, flip)
	}
	if f := in.Options[flip]; f.Start == o.Start || (f.Start != 16 && f.Start != 32) {
		t.Errorf("sides at slices %d and %d; want 16 and 32", o.Start, f.Start)
	}
	for _, side := range []struct {
		name         string
		held         int
		guide, start []float64
	}{{"keep", branch, g.Guide, g.Start}, {"flip", flip, g.FlipGuide, g.FlipStart}} {
		if side.guide == nil || side.start == nil {
			t.Errorf("no %s guide", side.name)
			continue
		}
		for _, r := range in.Jobs[o.Job].Options {
			if r != side.held && side.guide[in.Options[r].X] > 1e-9 {
				t.Errorf("the %s guide takes job %d at slice %d (rack set all=%v) at %.3f; want 0",
					side.name, o.Job, in.Options[r].Start, in.Options[r].AllRacks, side.guide[in.Options[r].X])
			}
		}
		if root, second := m.ObjectiveValue(g.Root), m.ObjectiveValue(side.guide); second > root+1e-6*root {
			t.Errorf("%s LP %.4f above the first %.4f: it is a restriction", side.name, second, root)
		}
		if err := m.CheckFeasible(side.start); err != nil {
			t.Errorf("%s guide's construction: %v", side.name, err)
		}
	}
}

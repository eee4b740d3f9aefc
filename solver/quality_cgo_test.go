//go:build cgo

package solver_test

import (
	"context"
	"testing"
	"time"

	"github.com/plannerhq/planner/solver"
)

// TestRoundingQualityRack holds the portfolio's heuristic core (LP of the
// reduced model, guided constructions, sampling, the two local-search
// chains) to a share of the best objectives known for two 100-job rack
// instances when it was written (BENCHMARKS.md; seed 1's has risen by 0.1%
// and seed 4's by 0.4% since, instances/best-known-default.json) at a fixed
// amount of work, about what a 1 s solve makes (40,000 moves since the
// recreates offer a core of the items; 10,000 before). Measured: 98.86%
// (seed 1) and 99.07% (seed 4) since the chains exchange their bests
// (98.90% and 99.61% before, with this one seed of the search; over ten
// seeds the mean rose, BENCHMARKS.md, "Exchanges between the chains");
// with 10,000 moves of the full recreate it was 99.19% and 98.79%. A
// change to the search that loses more than a few tenths of a percent here
// fails it.
func TestRoundingQualityRack(t *testing.T) {
	if testing.Short() {
		t.Skip("about 2 s of search")
	}
	const minShare = 0.985
	for _, c := range []struct {
		seed      uint64
		bestKnown float64
	}{
		{1, 7385.42},
		{4, 7741.32},
	} {
		m := rackModel(t, 100, c.seed)
		s := &solver.Settings{Deterministic: true, WorkLimit: 40_000, TimeLimit: time.Minute}
		res, err := solver.RoundingForTest(context.Background(), m, s)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.CheckFeasible(res.X); err != nil {
			t.Fatalf("seed %d: %v", c.seed, err)
		}
		if share := res.Objective / c.bestKnown; share < minShare {
			t.Errorf("seed %d: objective %.2f is %.2f%% of the best known %.2f, want ≥ %.1f%%",
				c.seed, res.Objective, 100*share, c.bestKnown, 100*minShare)
		}
	}
}

//go:build cgo

package solver_test

import (
	"context"
	"testing"
	"time"

	"github.com/plannerhq/planner/solver"
)

// benchRounding solves the rack instances of seeds 1–5 with the rounding
// engine (the portfolio's core: LP of the reduced model, guided and sampled
// constructions, local search) in process under a 1 s deadline, and
// reports the mean objective as a share of the LP bound (obj/bound).
func benchRounding(b *testing.B, jobs int) {
	var models []*solver.Model
	for seed := uint64(1); seed <= 5; seed++ {
		models = append(models, rackModel(b, jobs, seed))
	}
	var ratio, moves float64
	for b.Loop() {
		ratio, moves = 0, 0
		for _, m := range models {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			res, err := solver.RoundingForTest(ctx, m, solver.DefaultSettings())
			cancel()
			if err != nil || res.X == nil {
				b.Fatal(err)
			}
			ratio += res.Objective / res.Bound / float64(len(models))
			moves += float64(res.Nodes) / float64(len(models))
		}
	}
	b.ReportMetric(ratio, "obj/bound")
	b.ReportMetric(moves, "moves")
}

func BenchmarkRounding100(b *testing.B) { benchRounding(b, 100) }
func BenchmarkRounding300(b *testing.B) { benchRounding(b, 300) }

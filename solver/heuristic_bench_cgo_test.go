//go:build cgo

package solver_test

import (
	"context"
	"testing"
	"time"

	"github.com/plannerhq/planner/solver"
)

// benchCLP solves the rack instances of seeds 1–5 with the clp backend
// (through New: the LP in a worker) under a 1 s limit, and reports the
// mean objective as a share of the LP bound (obj/bound).
func benchCLP(b *testing.B, jobs int) {
	var models []*solver.Model
	for seed := uint64(1); seed <= 5; seed++ {
		models = append(models, rackModel(b, jobs, seed))
	}
	s, err := solver.New(solver.CLPName)
	if err != nil {
		b.Fatal(err)
	}
	var ratio float64
	for b.Loop() {
		ratio = 0
		for _, m := range models {
			res, err := s.Solve(context.Background(), m, &solver.Settings{TimeLimit: time.Second})
			if err != nil || res.X == nil {
				b.Fatal(err)
			}
			ratio += res.Objective / res.Bound / float64(len(models))
		}
	}
	b.ReportMetric(ratio, "obj/bound")
}

func BenchmarkCLP100(b *testing.B) { benchCLP(b, 100) }
func BenchmarkCLP300(b *testing.B) { benchCLP(b, 300) }

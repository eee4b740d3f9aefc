package solver_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/plannerhq/planner/solver"
)

// BenchmarkFirstAnswer is the time to a first feasible answer on the rack
// instances at 1,000 and 4,000 pending jobs (8 racks × 32 nodes, 60
// slices, 7 start options; seed 1), the goals being ≤ 100 ms and ≤ 500 ms:
//
//   - greedy: the greedy backend's whole solve (validation, analysis,
//     constructions, check), which is also the first answer of a clp
//     solve;
//   - clp-1s: the clp backend under a 1 s limit, reporting obj/greedy, its
//     answer over the greedy backend's (1: the LP did not finish in time
//     and the greedy constructions stand).
func BenchmarkFirstAnswer(b *testing.B) {
	for _, jobs := range []int{1000, 4000} {
		m := rackModel(b, jobs, 1)
		greedy, err := solver.GreedySolver{}.Solve(context.Background(), m, &solver.Settings{TimeLimit: time.Minute})
		if err != nil || greedy.X == nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("greedy/%d", jobs), func(b *testing.B) {
			for b.Loop() {
				res, err := solver.GreedySolver{}.Solve(context.Background(), m, &solver.Settings{TimeLimit: time.Minute})
				if err != nil || res.X == nil {
					b.Fatal(err)
				}
			}
		})
		if !slices.Contains(solver.Backends(), solver.CLPName) {
			continue
		}
		clp, _ := solver.New(solver.CLPName)
		b.Run(fmt.Sprintf("clp-1s/%d", jobs), func(b *testing.B) {
			var ratio float64
			for b.Loop() {
				res, err := clp.Solve(context.Background(), m, &solver.Settings{TimeLimit: time.Second})
				if err != nil || res.X == nil {
					b.Fatal(err, res.Status)
				}
				ratio = res.Objective / greedy.Objective
			}
			b.ReportMetric(ratio, "obj/greedy")
		})
	}
}

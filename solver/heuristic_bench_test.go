package solver_test

import (
	"context"
	"testing"

	"github.com/plannerhq/planner/solver"
)

// BenchmarkGreedy300 is the "greedy" backend with the default 1 s limit on
// the 300-job rack instance (seed 1): it reports the objective reached
// (obj).
func BenchmarkGreedy300(b *testing.B) {
	m := rackModel(b, 300, 1)
	s := solver.DefaultSettings()
	var obj float64
	for b.Loop() {
		res, err := solver.GreedySolver{}.Solve(context.Background(), m, s)
		if err != nil || res.X == nil {
			b.Fatal(err, res.Status)
		}
		obj = res.Objective
	}
	b.ReportMetric(obj, "obj")
}

// BenchmarkRoundAndRepair300 is one rounding of the 300-job instance:
// the analysis of the model and the constructions in every base order,
// guided by the LP answer of the reduced model when cgo has CLP (the LP
// itself is solved once, outside the timing), unguided otherwise.
func BenchmarkRoundAndRepair300(b *testing.B) {
	m := rackModel(b, 300, 1)
	guide := solver.LPGuideForTest(context.Background(), m)
	if guide == nil {
		b.Log("no LP guide in this build: unguided constructions")
	}
	var obj float64
	for b.Loop() {
		x := solver.RoundAndRepairForTest(m, guide)
		if x == nil {
			b.Fatal("no answer")
		}
		obj = m.ObjectiveValue(x)
	}
	b.ReportMetric(obj, "obj")
}

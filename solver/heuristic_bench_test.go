package solver_test

import (
	"context"
	"testing"

	"github.com/plannerhq/planner/solver"
	"github.com/plannerhq/planner/solver/instances"
)

// benchInstance generates the jobs-job RC256 instance of seed 1.
func benchInstance(b *testing.B, jobs int) *solver.Model {
	b.Helper()
	p := instances.DefaultParams()
	p.Jobs = jobs
	in, err := instances.Generate(p)
	if err != nil {
		b.Fatal(err)
	}
	return in.Model
}

// BenchmarkGreedy300 is the "greedy" backend with a 1 s limit on the
// 300-job instance: it reports the objective reached (obj) and the moves made.
func BenchmarkGreedy300(b *testing.B) {
	m := benchInstance(b, 300)
	s := solver.DefaultSettings()
	var obj, moves float64
	for b.Loop() {
		res, err := solver.GreedySolver{}.Solve(context.Background(), m, s)
		if err != nil || res.X == nil {
			b.Fatal(err, res.Status)
		}
		obj, moves = res.Objective, float64(res.Nodes)
	}
	b.ReportMetric(obj, "obj")
	b.ReportMetric(moves, "moves")
}

// BenchmarkRoundAndRepair300 is the unguided construction on the 300-job
// instance (the analysis of the model included).
func BenchmarkRoundAndRepair300(b *testing.B) {
	m := benchInstance(b, 300)
	var obj float64
	for b.Loop() {
		x := solver.RoundAndRepairForTest(m, nil)
		if x == nil {
			b.Fatal("no answer")
		}
		obj = m.ObjectiveValue(x)
	}
	b.ReportMetric(obj, "obj")
}

// BenchmarkImproveMoves300 is the cost of local-improvement moves on the
// 300-job instance: 2,000 moves from the greedy answer per iteration.
func BenchmarkImproveMoves300(b *testing.B) {
	m := benchInstance(b, 300)
	h := solver.NewHeuristicForTest(m)
	x := h.RoundAndRepair(nil)
	solver.SetDebugStats(func(items, active int, pending, tests, always int64) {
		b.Logf("items %d active %d per move: pending %d tests %d always %d", items, active, pending, tests, always)
	})
	var obj float64
	for b.Loop() {
		y, _ := h.Improve(context.Background(), x, 2000)
		obj = m.ObjectiveValue(y)
	}
	b.ReportMetric(obj, "obj")
}

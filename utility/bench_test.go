package utility_test

import (
	"math/rand/v2"
	"testing"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/utility"
)

// benchStarts are 120 one-minute slices: the plan horizon of one job.
func benchStarts() []float64 {
	s := make([]float64, 120)
	for i := range s {
		s[i] = 60 * float64(i)
	}
	return s
}

// BenchmarkExpectedUtility80x120 values one 80-segment runtime (roughly
// 0–1 h) at 120 starts. Goal: ≤ 20 µs per op.
func BenchmarkExpectedUtility80x120(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	d, err := distributions.NewPiecewiseUniform(randomDist(r, 80, 3600))
	if err != nil {
		b.Fatal(err)
	}
	starts := benchStarts()
	step, _ := utility.SLOStep(100, 5400)
	ext, _ := utility.SLOExtended(100, 5400, 5, 5400)
	decay, _ := utility.LinearDecay(1, 0, 4*3600)       // the whole support on one ramp
	shortDecay, _ := utility.LinearDecay(1, 3600, 5400) // ramp across the support
	curves := []struct {
		name string
		c    utility.Curve
	}{{"step", step}, {"extended", ext}, {"decay", decay}, {"shortdecay", shortDecay}}
	out := make([]float64, len(starts))
	for _, cv := range curves {
		b.Run(cv.name+"/prepared", func(b *testing.B) {
			rt, err := utility.NewRuntime(d)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				rt.ExpectedUtility(cv.c, starts, out)
			}
		})
		b.Run(cv.name+"/oneshot", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := utility.ExpectedUtility(cv.c, d, starts, out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCapacity1000x120 computes C[r,t] for 8 racks × 120 slices with
// 1,000 running jobs on 80-segment distributions. Goal: ≤ 2 ms per op.
func BenchmarkCapacity1000x120(b *testing.B) {
	r := rand.New(rand.NewPCG(2, 2))
	nodes := []int{32, 32, 32, 32, 32, 32, 32, 32}
	jobs := make([]utility.Running, 1000)
	prepared := make([]utility.Running, len(jobs))
	for i := range jobs {
		held := make([]int, len(nodes))
		held[r.IntN(len(nodes))] = 1 + r.IntN(4)
		d, err := distributions.NewPiecewiseUniform(randomDist(r, 80, 3600))
		if err != nil {
			b.Fatal(err)
		}
		rt, err := utility.NewRuntime(d)
		if err != nil {
			b.Fatal(err)
		}
		jobs[i] = utility.Running{Nodes: held, Dist: d, Elapsed: r.Float64() * 1800}
		prepared[i] = utility.Running{Nodes: held, Dist: rt, Elapsed: jobs[i].Elapsed}
	}
	ts := benchStarts()
	out := make([]float64, len(nodes)*len(ts))
	for _, bc := range []struct {
		name string
		jobs []utility.Running
	}{{"piecewise", jobs}, {"runtime", prepared}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := utility.Capacity(nodes, bc.jobs, ts, out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package utility_test

import (
	"fmt"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/utility"
)

func ExampleExpectedUtility() {
	// An SLO job worth 10 with its deadline at t = 900 s, whose runtime is
	// uniform on [0, 600] s.
	slo, err := utility.SLOStep(10, 900)
	if err != nil {
		panic(err)
	}
	runtime, err := distributions.NewUniform(0, 600)
	if err != nil {
		panic(err)
	}
	eu, err := utility.ExpectedUtility(slo, runtime, []float64{0, 300, 600, 900}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(eu)
	// Output: [10 10 5 0]
}

func ExampleRRC() {
	// A job whose runtime is uniform on [0, 100] s has run for 50 s: it
	// will finish uniformly in the next 50 s.
	d, err := distributions.NewUniform(0, 100)
	if err != nil {
		panic(err)
	}
	rrc, err := utility.RRC(d, 50, []float64{0, 10, 25, 50}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(rrc)
	// Output: [1 0.8 0.5 0]
}

func ExampleCapacity() {
	// Two racks of 4 nodes; one job holds 2 nodes in rack 0 and 1 in
	// rack 1 and will finish uniformly within 100 s of starting (now).
	d, err := distributions.NewUniform(0, 100)
	if err != nil {
		panic(err)
	}
	jobs := []utility.Running{{Nodes: []int{2, 1}, Dist: d, Elapsed: 0}}
	c, err := utility.Capacity([]int{4, 4}, jobs, []float64{0, 50, 100}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println("rack 0:", c[0:3])
	fmt.Println("rack 1:", c[3:6])
	// Output:
	// rack 0: [2 3 4]
	// rack 1: [3 3.5 4]
}

func ExampleSLOCurve() {
	// A job whose history says it needs 200–400 s but whose deadline is
	// 100 s after submission: adaptive over-estimate handling extends it.
	history, err := distributions.NewUniform(200, 400)
	if err != nil {
		panic(err)
	}
	c, extended, err := utility.SLOCurve(utility.OverestimateAdaptive,
		utility.SLOSpec{Value: 10, Submit: 0, Deadline: 100}, history)
	if err != nil {
		panic(err)
	}
	fmt.Println(extended, c.At(100), c.At(150), c.At(200))
	// Output: true 10 0.25 0
}

func ExampleRuntime() {
	// Prepare a job's runtime once per cycle, then value several curves
	// at every start of the horizon without allocating.
	d, err := distributions.NewPiecewiseUniform([]distributions.Segment{
		{Lo: 60, Hi: 60, Mass: 0.5},   // half the runs take exactly 1 min
		{Lo: 120, Hi: 240, Mass: 0.5}, // the rest 2–4 min
	})
	if err != nil {
		panic(err)
	}
	rt, err := utility.NewRuntime(d)
	if err != nil {
		panic(err)
	}
	slo, _ := utility.SLOStep(1, 300)
	be, _ := utility.LinearDecay(1, 0, 600)
	starts := []float64{0, 60, 120}
	out := make([]float64, len(starts))
	fmt.Printf("SLO %.3f\n", rt.ExpectedUtility(slo, starts, out))
	fmt.Printf("BE  %.3f\n", rt.ExpectedUtility(be, starts, out))
	// Output:
	// SLO [1.000 1.000 0.750]
	// BE  [0.800 0.700 0.600]
}

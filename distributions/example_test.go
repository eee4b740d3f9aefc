package distributions_test

import (
	"errors"
	"fmt"

	"github.com/plannerhq/planner/distributions"
)

// A job's runtime history goes into an 80-bin streaming histogram; the
// scheduler then asks for probabilities, quantiles and the piecewise-uniform
// segments it integrates over.
func ExampleHistogram() {
	h := distributions.NewHistogram(distributions.DefaultMaxBins)
	for _, runtime := range []float64{60, 60, 90, 120, 600} { // seconds
		if err := h.Update(runtime); err != nil {
			fmt.Println(err)
		}
	}
	fmt.Printf("count %v, min %v, max %v\n", h.Count(), h.Min(), h.Max())
	fmt.Printf("P(T ≤ 90 s) = %.3f\n", h.CDF(90))
	fmt.Printf("median %.1f s, exact sample mean %.0f s\n", h.Quantile(0.5), h.SampleMean())
	for _, s := range h.Segments()[:3] {
		fmt.Printf("[%g, %g] mass %.2f\n", s.Lo, s.Hi, s.Mass)
	}
	fmt.Println(h.Update(-1))
	// Output:
	// count 5, min 60, max 600
	// P(T ≤ 90 s) = 0.500
	// median 90.0 s, exact sample mean 186 s
	// [60, 60] mass 0.20
	// [60, 75] mass 0.20
	// [75, 90] mass 0.10
	// distributions: invalid argument: histogram value -1 must be a finite runtime ≥ 0
}

// A running job's remaining resource consumption: condition its runtime
// distribution on the time it has already run.
func ExampleConditional() {
	runtime := distributions.Uniform{Lo: 0, Hi: 100} // seconds
	after60, err := distributions.Conditional(runtime, 60)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("E[T | T > 60] = %.0f s\n", after60.Mean())
	fmt.Printf("RRC(80, 60) = P(T > 80 | T > 60) = %.2f\n", after60.Survival(80))

	// A job that has outlived every runtime its distribution allows.
	_, err = distributions.Conditional(runtime, 120)
	fmt.Println(errors.Is(err, distributions.ErrBeyondSupport))
	// Output:
	// E[T | T > 60] = 80 s
	// RRC(80, 60) = P(T > 80 | T > 60) = 0.50
	// true
}

// Scale models the 1.5× slowdown off the preferred racks; Discretize turns
// a lognormal into segments for the exact expected-utility integral.
func ExampleScale() {
	ln, _ := distributions.NewLogNormalFromMoments(600, 300)
	slow, _ := distributions.Scale(ln, 1.5)
	fmt.Printf("mean %.0f s → %.0f s off preferred racks\n", ln.Mean(), slow.Mean())
	p, _ := distributions.Discretize(slow, 64)
	fmt.Printf("%d segments, mean %.0f s\n", p.Len(), p.Mean())
	// Output:
	// mean 600 s → 900 s off preferred racks
	// 64 segments, mean 900 s
}

package distributions

import "math/rand/v2"

// Dist is a distribution of job runtimes in seconds, supported on [0, Max()].
//
// Every implementation is safe for concurrent readers; none reads a global
// random source (Rand takes an injected *rand.Rand).
type Dist interface {
	// CDF returns P(T ≤ t).
	CDF(t float64) float64
	// Survival returns P(T > t) = 1 − CDF(t), computed without cancellation
	// where the implementation can.
	Survival(t float64) float64
	// Quantile returns the smallest t with CDF(t) ≥ p, for p in [0, 1].
	Quantile(p float64) float64
	// Mean returns E[T] in seconds.
	Mean() float64
	// Max returns the largest runtime the distribution allows (the upper end
	// of its support); +Inf for unbounded families such as the lognormal.
	Max() float64
	// Rand draws one runtime using r.
	Rand(r *rand.Rand) float64
}

// Segment is one piece of a piecewise-uniform distribution: probability Mass
// spread uniformly over [Lo, Hi]. Lo == Hi is a point mass at Lo.
type Segment struct {
	Lo, Hi float64 // seconds, Lo ≤ Hi
	Mass   float64 // probability, ≥ 0
}

// Piecewise is a Dist whose density is piecewise uniform. The expected-utility
// and remaining-consumption math of package utility integrates exactly over
// Segments; the segments are sorted by Lo, do not overlap, and their masses
// sum to 1 (within 1e-12). CDF must agree with Segments exactly.
type Piecewise interface {
	Dist
	Segments() []Segment
}

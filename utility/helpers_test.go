package utility_test

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/plannerhq/planner/distributions"
)

// Test tolerances. The package and the reference formulas round differently,
// so exact equality is asked only where both sides are exactly
// representable.
const (
	// ulpTol: closed forms on O(1) numbers that take one or two roundings.
	ulpTol = 1e-15
	// closeTol: closed forms and direct formulas on O(1) numbers after a
	// few dozen roundings (sums over up to 80 segments, 1 − CDF).
	closeTol = 1e-12
	// subtractTol: the reference computes 1 − CDF(x), losing up to a few
	// ulps of 1 to cancellation before anything is compared.
	subtractTol = 1e-13
	// capacityTol: node counts (≤ 32) minus sums over 50 jobs of RRC
	// values, where the reference divides two cancelled differences.
	capacityTol = 1e-9
)

// segDist is a test-only distributions.Piecewise built from segments. Its
// CDF is computed directly from the segments so the tests can check the
// package's own sums against it.
type segDist []distributions.Segment

var _ distributions.Piecewise = segDist(nil)

func (d segDist) Segments() []distributions.Segment { return slices.Clone(d) }

func (d segDist) CDF(t float64) float64 {
	acc := 0.0
	for _, s := range d {
		switch {
		case s.Hi <= t:
			acc += s.Mass
		case s.Lo < t:
			acc += s.Mass * (t - s.Lo) / (s.Hi - s.Lo)
		}
	}
	return math.Min(acc, 1)
}

func (d segDist) Survival(t float64) float64 { return 1 - d.CDF(t) }

func (d segDist) Quantile(p float64) float64 {
	acc := 0.0
	for _, s := range d {
		if acc+s.Mass >= p && s.Mass > 0 {
			if s.Hi == s.Lo {
				return s.Lo
			}
			return s.Lo + (p-acc)/s.Mass*(s.Hi-s.Lo)
		}
		acc += s.Mass
	}
	return d.Max()
}

func (d segDist) Mean() float64 {
	m := 0.0
	for _, s := range d {
		m += s.Mass * (s.Lo + s.Hi) / 2
	}
	return m
}

func (d segDist) Max() float64              { return d[len(d)-1].Hi }
func (d segDist) Rand(r *rand.Rand) float64 { return d.Quantile(r.Float64()) }

// uniform is U[lo, hi] (a point mass when lo == hi).
func uniform(lo, hi float64) segDist { return segDist{{Lo: lo, Hi: hi, Mass: 1}} }

// randomDist draws a piecewise distribution with n segments on roughly
// [0, scale]: random widths and gaps, about a fifth point masses, some
// touching neighbours and some zero masses; masses sum to 1.
func randomDist(r *rand.Rand, n int, scale float64) segDist {
	d := make(segDist, n)
	x := r.Float64() * scale / 10
	sum := 0.0
	step := scale / float64(n)
	for j := range d {
		if r.IntN(4) != 0 { // gap
			x += r.Float64() * step / 2
		}
		w := r.Float64() * step
		if r.IntN(5) == 0 {
			w = 0
		}
		m := r.ExpFloat64()
		if r.IntN(15) == 0 {
			m = 0
		}
		if r.IntN(8) == 0 { // a rare, light segment: far tails
			m *= 1e-6
		}
		d[j] = distributions.Segment{Lo: x, Hi: x + w, Mass: m}
		sum += m
		x += w
	}
	if sum == 0 {
		d[0].Mass, sum = 1, 1
	}
	for j := range d {
		d[j].Mass /= sum
	}
	return d
}

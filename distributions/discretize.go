package distributions

import (
	"fmt"
	"math"
)

// DiscretizeTailQuantile is where Discretize caps an unbounded upper tail:
// the last segment ends at Quantile(DiscretizeTailQuantile) and carries the
// mass above it as well. At 0.9999 the capped mass (1e-4) is below the
// precision any runtime history of a few thousand jobs supports, and the cap
// stays finite for every lognormal a real job history fits (for Sigma = 3 it
// is about e^{11}·median).
const DiscretizeTailQuantile = 0.9999

// Discretize returns a piecewise-uniform approximation of d with n
// quantile-spaced segments, for the exact expected-utility integrals of
// package utility. With P = 1 if d.Max() is finite and P =
// DiscretizeTailQuantile otherwise, the edges are x_i = d.Quantile(i·P/n),
// i = 0..n (x_0 clamped to ≥ 0); segment i spans [x_{i−1}, x_i] with mass
// P/n, and the last also receives the capped tail mass 1 − P. Edges that
// coincide (atoms, flat CDF regions) become point masses.
//
// If d is already Piecewise, its own segments are returned unchanged and n
// is ignored. n must be ≥ 1; errors wrap ErrInvalid.
func Discretize(d Dist, n int) (*PiecewiseUniform, error) {
	if pw, ok := d.(Piecewise); ok {
		return NewPiecewiseUniform(pw.Segments())
	}
	if n < 1 {
		return nil, fmt.Errorf("%w: discretize needs n ≥ 1 segments, got %d", ErrInvalid, n)
	}
	top := 1.0
	if math.IsInf(d.Max(), 1) {
		top = DiscretizeTailQuantile
	}
	segs := make([]Segment, 0, n)
	prev := math.Max(0, d.Quantile(0))
	for i := 1; i <= n; i++ {
		x := d.Quantile(float64(i) * top / float64(n))
		if i == n && top == 1 {
			x = math.Min(x, d.Max())
		}
		if !(x >= prev) { // NaN, or a non-monotone foreign quantile
			x = prev
		}
		m := top / float64(n)
		if i == n {
			m += 1 - top
		}
		segs = append(segs, Segment{Lo: prev, Hi: x, Mass: m})
		prev = x
	}
	out, err := NewPiecewiseUniform(segs)
	if err != nil {
		return nil, fmt.Errorf("discretizing into %d segments: %w", n, err)
	}
	return out, nil
}

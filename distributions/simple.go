package distributions

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Uniform is the uniform distribution on [Lo, Hi] seconds:
// F(t) = (t − Lo)/(Hi − Lo) on [Lo, Hi], mean (Lo + Hi)/2. Lo == Hi is a
// point mass at Lo. Fields must satisfy 0 ≤ Lo ≤ Hi < +Inf; NewUniform checks
// that, and methods on an invalid literal return meaningless numbers but
// never panic.
type Uniform struct {
	Lo, Hi float64
}

var _ Piecewise = Uniform{}

// NewUniform returns Uniform{lo, hi}, or an error wrapping ErrInvalid unless
// 0 ≤ lo ≤ hi < +Inf.
func NewUniform(lo, hi float64) (Uniform, error) {
	if !finiteNonNeg(lo) || !finiteNonNeg(hi) || lo > hi {
		return Uniform{}, fmt.Errorf("%w: uniform bounds [%v, %v] need 0 ≤ lo ≤ hi < +Inf", ErrInvalid, lo, hi)
	}
	return Uniform{Lo: lo, Hi: hi}, nil
}

// CDF returns P(T ≤ t).
func (u Uniform) CDF(t float64) float64 {
	switch {
	case t != t:
		return math.NaN()
	case t >= u.Hi:
		return 1
	case t <= u.Lo:
		return 0
	}
	return (t - u.Lo) / (u.Hi - u.Lo)
}

// Survival returns P(T > t).
func (u Uniform) Survival(t float64) float64 {
	switch {
	case t != t:
		return math.NaN()
	case t >= u.Hi:
		return 0
	case t <= u.Lo:
		return 1
	}
	return (u.Hi - t) / (u.Hi - u.Lo)
}

// Quantile returns Lo + q·(Hi − Lo), clamped to [Lo, Hi].
func (u Uniform) Quantile(q float64) float64 {
	switch {
	case q != q:
		return math.NaN()
	case q <= 0:
		return u.Lo
	case q >= 1:
		return u.Hi
	}
	return math.Min(u.Lo+q*(u.Hi-u.Lo), u.Hi)
}

// Mean returns (Lo + Hi)/2.
func (u Uniform) Mean() float64 { return u.Lo/2 + u.Hi/2 }

// Max returns Hi.
func (u Uniform) Max() float64 { return u.Hi }

// Rand returns Lo + U·(Hi − Lo) with U from r.
func (u Uniform) Rand(r *rand.Rand) float64 { return u.Quantile(r.Float64()) }

// Segments returns the single segment {Lo, Hi, 1}.
func (u Uniform) Segments() []Segment { return []Segment{{Lo: u.Lo, Hi: u.Hi, Mass: 1}} }

func (u Uniform) upperPartialMean(e float64) float64 {
	s := u.Survival(e)
	if s == 0 {
		return 0
	}
	return s * (math.Max(e, u.Lo)/2 + u.Hi/2)
}

// Point is a point mass: the runtime is exactly V seconds (V ≥ 0, finite).
type Point struct {
	V float64
}

var _ Piecewise = Point{}

// NewPoint returns Point{v}, or an error wrapping ErrInvalid unless
// 0 ≤ v < +Inf.
func NewPoint(v float64) (Point, error) {
	if !finiteNonNeg(v) {
		return Point{}, fmt.Errorf("%w: point runtime %v must be finite and ≥ 0", ErrInvalid, v)
	}
	return Point{V: v}, nil
}

// CDF returns 1 if t ≥ V, else 0.
func (p Point) CDF(t float64) float64 {
	switch {
	case t != t:
		return math.NaN()
	case t >= p.V:
		return 1
	}
	return 0
}

// Survival returns 1 if t < V, else 0.
func (p Point) Survival(t float64) float64 {
	switch {
	case t != t:
		return math.NaN()
	case t >= p.V:
		return 0
	}
	return 1
}

// Quantile returns V for every q (NaN for NaN).
func (p Point) Quantile(q float64) float64 {
	if q != q {
		return math.NaN()
	}
	return p.V
}

// Mean returns V.
func (p Point) Mean() float64 { return p.V }

// Max returns V.
func (p Point) Max() float64 { return p.V }

// Rand returns V; r is not used.
func (p Point) Rand(*rand.Rand) float64 { return p.V }

// Segments returns the single point mass {V, V, 1}.
func (p Point) Segments() []Segment { return []Segment{{Lo: p.V, Hi: p.V, Mass: 1}} }

func (p Point) upperPartialMean(e float64) float64 {
	if p.V > e {
		return p.V
	}
	return 0
}

package utility

import (
	"fmt"
	"math"
	"sort"
)

// Knot is one breakpoint of a Curve at absolute completion time X (seconds
// on the plan clock). Left is the value U(X) itself and the limit from the
// left; Right is the limit from the right, U(X+). Left ≠ Right is a jump.
//
// A completion exactly at X takes the Left value: an SLO deadline is
// inclusive ("value V until D inclusive, 0 after", 3Sigma §3.1, Fig. 3(a)).
type Knot struct {
	X           float64 // seconds, plan clock
	Left, Right float64 // utility (unitless value)
}

// piece is U on one interval between knots, u(x) = base + slope·(x − anchor).
// The anchor is the end of the interval whose value is smaller in magnitude,
// so that a non-negative curve is evaluated without cancellation near zero.
type piece struct {
	base, slope, anchor float64
}

// Curve is a utility function U(x) of absolute completion time x (seconds on
// the plan clock): constant before the first knot and after the last one,
// linear between consecutive knots, with a jump allowed at every knot.
//
// With knots X_0 < … < X_{N−1}, piece q covers (X_{q−1}, X_q] (X_{−1} = −∞,
// X_N = +∞): piece 0 is the constant Left_0, piece N the constant
// Right_{N−1}, and piece q in between runs linearly from Right_{q−1} at
// X_{q−1} to Left_q at X_q.
//
// The zero Curve is U ≡ 0. A Curve is immutable and safe for concurrent use.
type Curve struct {
	xs     []float64 // knot times, strictly increasing
	pieces []piece   // len(xs)+1 pieces, or none for the zero Curve
	knots  []Knot    // as given, for Knots
}

// NewCurve returns the piecewise-linear curve through knots (see Curve).
// The knots must be finite and strictly increasing in X; at least one knot
// is required. The slope between two knots must be finite (two knots very
// close together with different values are rejected).
func NewCurve(knots ...Knot) (Curve, error) {
	if len(knots) == 0 {
		return Curve{}, fmt.Errorf("%w: curve needs at least one knot", ErrInvalid)
	}
	for i, k := range knots {
		if !finite(k.X) || !finite(k.Left) || !finite(k.Right) {
			return Curve{}, fmt.Errorf("%w: curve knot %d is not finite: %+v", ErrInvalid, i, k)
		}
		if i > 0 && !(k.X > knots[i-1].X) {
			return Curve{}, fmt.Errorf("%w: curve knot %d at X=%g is not after knot %d at X=%g", ErrInvalid, i, k.X, i-1, knots[i-1].X)
		}
	}
	n := len(knots)
	c := Curve{
		xs:     make([]float64, n),
		pieces: make([]piece, n+1),
		knots:  append([]Knot(nil), knots...),
	}
	for i, k := range knots {
		c.xs[i] = k.X
	}
	c.pieces[0] = piece{base: knots[0].Left}
	c.pieces[n] = piece{base: knots[n-1].Right}
	for q := 1; q < n; q++ {
		x0, x1 := knots[q-1].X, knots[q].X
		r, l := knots[q-1].Right, knots[q].Left
		slope := (l - r) / (x1 - x0)
		if !finite(slope) {
			return Curve{}, fmt.Errorf("%w: curve slope between knots %d and %d is not finite (%g over %g s)", ErrInvalid, q-1, q, l-r, x1-x0)
		}
		switch {
		case slope == 0:
			c.pieces[q] = piece{base: r}
		case math.Abs(l) <= math.Abs(r):
			c.pieces[q] = piece{base: l, slope: slope, anchor: x1}
		default:
			c.pieces[q] = piece{base: r, slope: slope, anchor: x0}
		}
	}
	return c, nil
}

// SLOStep is the SLO utility of 3Sigma §3.1, Fig. 3(a): value for a
// completion at or before deadline (seconds, plan clock), 0 after.
// value must be finite and ≥ 0 and deadline finite.
func SLOStep(value, deadline float64) (Curve, error) {
	if !finite(value) || value < 0 {
		return Curve{}, fmt.Errorf("%w: SLO value must be finite and ≥ 0, got %g", ErrInvalid, value)
	}
	if !finite(deadline) {
		return Curve{}, fmt.Errorf("%w: SLO deadline must be finite, got %g", ErrInvalid, deadline)
	}
	return NewCurve(Knot{X: deadline, Left: value, Right: 0})
}

// LinearDecay is the best-effort (latency-sensitive) utility of 3Sigma §3.1:
// value for a completion at or before start, then decaying linearly in the
// completion time to 0 at zero, and 0 after:
//
//	U(x) = value                                  x ≤ start
//	U(x) = value · (zero − x) / (zero − start)    start < x ≤ zero
//	U(x) = 0                                      x > zero
//
// The planner uses start = the job's submit time and zero = submit + decay
// window, so a job's value falls by value/window per second of latency.
// value must be finite and ≥ 0; start and zero finite with zero > start.
func LinearDecay(value, start, zero float64) (Curve, error) {
	if !finite(value) || value < 0 {
		return Curve{}, fmt.Errorf("%w: decay value must be finite and ≥ 0, got %g", ErrInvalid, value)
	}
	if !finite(start) || !finite(zero) || !(zero > start) {
		return Curve{}, fmt.Errorf("%w: decay needs finite start < zero, got start %g, zero %g", ErrInvalid, start, zero)
	}
	return NewCurve(Knot{X: start, Left: value, Right: value}, Knot{X: zero, Left: 0, Right: 0})
}

// SLOExtended is the over-estimate extension of the SLO step (3Sigma §4.2,
// Fig. 3(d)): value for a completion at or before deadline; just after the
// deadline the value drops to post (< value) and then decays linearly to 0
// at deadline + window (seconds), 0 after:
//
//	U(x) = value                                           x ≤ D
//	U(x) = post · (D + window − x) / window                D < x ≤ D + window
//	U(x) = 0                                               x > D + window
//
// Keeping post below value makes a job that can only finish late rank below
// every SLO job of the same value that can still make its deadline, so it
// runs only on resources nothing better wants. Requires 0 ≤ post < value,
// finite deadline, finite window > 0.
func SLOExtended(value, deadline, post, window float64) (Curve, error) {
	if !finite(value) || value < 0 {
		return Curve{}, fmt.Errorf("%w: SLO value must be finite and ≥ 0, got %g", ErrInvalid, value)
	}
	if !finite(post) || post < 0 || !(post < value) {
		return Curve{}, fmt.Errorf("%w: post-deadline value must satisfy 0 ≤ post < value (%g), got %g", ErrInvalid, value, post)
	}
	if !finite(deadline) {
		return Curve{}, fmt.Errorf("%w: SLO deadline must be finite, got %g", ErrInvalid, deadline)
	}
	if !finite(window) || !(window > 0) || !finite(deadline+window) || !(deadline+window > deadline) {
		return Curve{}, fmt.Errorf("%w: post-deadline window must be finite, > 0 and representable after deadline %g, got %g", ErrInvalid, deadline, window)
	}
	return NewCurve(Knot{X: deadline, Left: value, Right: post}, Knot{X: deadline + window, Left: 0, Right: 0})
}

// Knots returns a copy of the curve's knots (nil for the zero Curve).
func (c Curve) Knots() []Knot { return append([]Knot(nil), c.knots...) }

// IsZero reports whether c is the zero Curve (U ≡ 0).
func (c Curve) IsZero() bool { return len(c.pieces) == 0 }

// At returns U(x) for a completion at x seconds on the plan clock. A
// completion exactly at a knot takes the knot's Left value.
func (c Curve) At(x float64) float64 {
	if len(c.pieces) == 0 {
		return 0
	}
	q := sort.SearchFloat64s(c.xs, x) // first knot with X ≥ x: x ∈ (X_{q−1}, X_q]
	return c.pieces[q].at(x)
}

func (p piece) at(x float64) float64 {
	if p.slope == 0 {
		return p.base
	}
	return p.base + p.slope*(x-p.anchor)
}

// finite reports whether x is neither NaN nor ±Inf (x − x is NaN exactly
// for those).
func finite(x float64) bool { return x-x == 0 }

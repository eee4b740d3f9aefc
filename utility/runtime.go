package utility

import (
	"errors"
	"fmt"
	"math"

	"github.com/plannerhq/planner/distributions"
)

// MassTolerance is how far the masses of a piecewise distribution may sum
// from 1 before it is rejected. distributions promises 1e-12; this is looser
// so a histogram rebuilt from rounded persisted state still passes, and far
// tighter than any error that would change a scheduling decision. The
// masses are used as given, not renormalised.
const MassTolerance = 1e-9

// Runtime is a piecewise-uniform runtime distribution prepared for repeated
// valuation: the segments in columns plus prefix and suffix mass sums. Build
// one per (job, slowdown) per cycle with NewRuntime and reuse it for every
// curve and start; its methods do not allocate when given an output slice.
// A Runtime is immutable and safe for concurrent use. The zero Runtime has
// no segments: its ExpectedUtility is NaN and RRC, Capacity and
// Consumption reject it.
type Runtime struct {
	lo, hi, mid, m []float64 // per segment: seconds, seconds, seconds, probability
	rho            []float64 // per segment: density m/(Hi − Lo), probability per second (0 for a point mass)
	tail           []float64 // tail[j] = Σ_{i≥j} m_i, len n+1 (summed from the right)
	// Prefix sums from the left in double-double (hi + lo parts), len n+1:
	// mass[j] = Σ_{i<j} m_i and moment[j] = Σ_{i<j} m_i·mid_i (probability ·
	// seconds). Differences of them keep full double precision, so a run
	// of segments can be valued in O(1) without cancellation.
	massH, massL, momH, momL []float64
}

// ErrInvalid is wrapped by every error this package returns for bad input
// (NaN or infinite parameters, malformed distributions, mismatched
// lengths). Match it with errors.Is.
var ErrInvalid = errors.New("utility: invalid argument")

// errEmptyRuntime is returned for a Runtime not built by NewRuntime.
var errEmptyRuntime = fmt.Errorf("%w: empty Runtime (build it with NewRuntime)", ErrInvalid)

// NewRuntime validates d's segments and prepares them. It errors when the
// distribution has no segments, a bound or mass is not finite, a bound is
// negative, Lo > Hi, segments overlap or are out of order, or the masses do
// not sum to 1 within MassTolerance.
func NewRuntime(d distributions.Piecewise) (*Runtime, error) {
	if d == nil {
		return nil, fmt.Errorf("%w: nil distribution", ErrInvalid)
	}
	segs := d.Segments()
	if err := validateSegments(segs); err != nil {
		return nil, err
	}
	n := len(segs)
	buf := make([]float64, 10*n+5)
	next := func(k int) []float64 {
		col := buf[:k:k]
		buf = buf[k:]
		return col
	}
	r := &Runtime{
		lo: next(n), hi: next(n), mid: next(n), m: next(n), rho: next(n),
		tail:  next(n + 1),
		massH: next(n + 1), massL: next(n + 1),
		momH: next(n + 1), momL: next(n + 1),
	}
	for j, s := range segs {
		r.lo[j], r.hi[j], r.m[j] = s.Lo, s.Hi, s.Mass
		r.mid[j] = s.Lo + (s.Hi-s.Lo)/2
		if s.Hi > s.Lo {
			r.rho[j] = s.Mass / (s.Hi - s.Lo)
		}
		r.massH[j+1], r.massL[j+1] = ddAdd(r.massH[j], r.massL[j], s.Mass, 0)
		p := s.Mass * r.mid[j]
		r.momH[j+1], r.momL[j+1] = ddAdd(r.momH[j], r.momL[j], p, math.FMA(s.Mass, r.mid[j], -p))
	}
	for j := n - 1; j >= 0; j-- {
		r.tail[j] = r.tail[j+1] + segs[j].Mass
	}
	return r, nil
}

// validateSegments checks the contract of distributions.Piecewise.
func validateSegments(segs []distributions.Segment) error {
	if len(segs) == 0 {
		return fmt.Errorf("%w: distribution has no segments", ErrInvalid)
	}
	sum := 0.0
	for j, s := range segs {
		if !finite(s.Lo) || !finite(s.Hi) || !finite(s.Mass) {
			return fmt.Errorf("%w: segment %d is not finite: %+v", ErrInvalid, j, s)
		}
		if s.Lo < 0 || s.Lo > s.Hi || s.Mass < 0 {
			return fmt.Errorf("%w: segment %d must have 0 ≤ Lo ≤ Hi and Mass ≥ 0, got %+v", ErrInvalid, j, s)
		}
		if j > 0 && s.Lo < segs[j-1].Hi {
			return fmt.Errorf("%w: segment %d (Lo %g) overlaps or precedes segment %d (Hi %g)", ErrInvalid, j, s.Lo, j-1, segs[j-1].Hi)
		}
		sum += s.Mass
	}
	if math.Abs(sum-1) > MassTolerance {
		return fmt.Errorf("%w: segment masses sum to %.17g, want 1 ± %g", ErrInvalid, sum, MassTolerance)
	}
	return nil
}

// Len returns the number of segments.
func (r *Runtime) Len() int { return len(r.m) }

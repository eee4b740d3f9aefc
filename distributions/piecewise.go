package distributions

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// ErrInvalid is the sentinel wrapped by every constructor error caused by a
// bad argument (NaN, ±Inf, negative runtime, unsorted segments, …). Match it
// with errors.Is.
var ErrInvalid = errors.New("distributions: invalid argument")

// massTolerance is the slack allowed when checking that masses sum to 1. A
// sum of up to a few hundred float64 masses carries a relative rounding error
// of a few 1e-16; 1e-12 leaves three orders of magnitude of headroom while
// still catching any real inconsistency.
const massTolerance = 1e-12

// PiecewiseUniform is an immutable Piecewise distribution: a sorted list of
// segments, each spreading its mass uniformly over [Lo, Hi] seconds (a point
// mass when Lo == Hi). With F the CDF,
//
//	F(t) = Σ_{Hi_i ≤ t} Mass_i + Mass_k·(t − Lo_k)/(Hi_k − Lo_k)
//
// where k is the first segment with Hi_k > t (the second term is present only
// when Lo_k < t). CDF, Survival, Quantile, Mean and Rand are all exact
// functions of Segments. CDF and Survival are O(log n); Quantile is O(log n).
//
// The zero value is not usable; build one with NewPiecewiseUniform,
// NewEmpirical, Discretize, or the Scale/Shift/Conditional transforms.
type PiecewiseUniform struct {
	segs []Segment
	cum  []float64 // cum[i] = Σ_{j<i} Mass_j, len n+1
	tail []float64 // tail[i] = Σ_{j≥i} Mass_j, len n+1 (summed from the top)
	hi   []float64 // hi[i] = segs[i].Hi, for the binary search
}

var _ Piecewise = (*PiecewiseUniform)(nil)

// NewPiecewiseUniform validates segs and returns the distribution they
// describe. Masses are rescaled to sum to 1, zero-mass segments are dropped
// and adjacent point masses at the same place are combined. It returns an
// error wrapping ErrInvalid when a bound is negative or not finite, a mass is
// negative or not finite, Lo > Hi, the segments are unsorted or overlap, or
// the total mass is zero. segs is not retained.
func NewPiecewiseUniform(segs []Segment) (*PiecewiseUniform, error) {
	total := 0.0
	for i, s := range segs {
		if !finiteNonNeg(s.Lo) || !finiteNonNeg(s.Hi) {
			return nil, fmt.Errorf("%w: segment %d bounds [%v, %v] must be finite and ≥ 0", ErrInvalid, i, s.Lo, s.Hi)
		}
		if s.Lo > s.Hi {
			return nil, fmt.Errorf("%w: segment %d has Lo %v > Hi %v", ErrInvalid, i, s.Lo, s.Hi)
		}
		if !finiteNonNeg(s.Mass) {
			return nil, fmt.Errorf("%w: segment %d mass %v must be finite and ≥ 0", ErrInvalid, i, s.Mass)
		}
		if i > 0 && s.Lo < segs[i-1].Hi {
			return nil, fmt.Errorf("%w: segment %d [%v, %v] overlaps or precedes segment %d [%v, %v]",
				ErrInvalid, i, s.Lo, s.Hi, i-1, segs[i-1].Lo, segs[i-1].Hi)
		}
		total += s.Mass
	}
	if !(total > 0) || math.IsInf(total, 0) {
		return nil, fmt.Errorf("%w: total mass %v of %d segments must be finite and > 0", ErrInvalid, total, len(segs))
	}
	out := make([]Segment, 0, len(segs))
	for _, s := range segs {
		if s.Mass == 0 {
			continue
		}
		s.Mass /= total
		if n := len(out); n > 0 && s.Lo == s.Hi && out[n-1].Lo == s.Lo && out[n-1].Hi == s.Hi {
			out[n-1].Mass += s.Mass
			continue
		}
		out = append(out, s)
	}
	return newPiecewiseTrusted(out), nil
}

// newPiecewiseTrusted builds the lookup tables for segments that are already
// valid, non-empty and normalised. It takes ownership of segs.
func newPiecewiseTrusted(segs []Segment) *PiecewiseUniform {
	n := len(segs)
	p := &PiecewiseUniform{
		segs: segs,
		cum:  make([]float64, n+1),
		tail: make([]float64, n+1),
		hi:   make([]float64, n),
	}
	for i, s := range segs {
		p.cum[i+1] = p.cum[i] + s.Mass
		p.hi[i] = s.Hi
	}
	for i := n - 1; i >= 0; i-- {
		p.tail[i] = p.tail[i+1] + segs[i].Mass
	}
	return p
}

// Segments returns a copy of the segments; their masses sum to 1.
func (p *PiecewiseUniform) Segments() []Segment { return slices.Clone(p.segs) }

// Len returns the number of segments.
func (p *PiecewiseUniform) Len() int { return len(p.segs) }

// CDF returns P(T ≤ t).
func (p *PiecewiseUniform) CDF(t float64) float64 {
	if t != t {
		return math.NaN()
	}
	k := firstAbove(p.hi, t)
	if k == len(p.segs) {
		return 1
	}
	c := p.cum[k]
	if s := p.segs[k]; s.Lo < t {
		c += s.Mass * ((t - s.Lo) / (s.Hi - s.Lo))
	}
	return math.Min(c, 1)
}

// Survival returns P(T > t), summed from the upper tail so that small tail
// probabilities keep their relative precision.
func (p *PiecewiseUniform) Survival(t float64) float64 {
	if t != t {
		return math.NaN()
	}
	k := firstAbove(p.hi, t)
	if k == len(p.segs) {
		return 0
	}
	s := p.segs[k]
	if s.Lo >= t {
		return math.Min(p.tail[k], 1)
	}
	return math.Min(p.tail[k+1]+s.Mass*((s.Hi-t)/(s.Hi-s.Lo)), 1)
}

// Quantile returns the smallest t with CDF(t) ≥ q. q ≤ 0 gives the lower end
// of the support, q ≥ 1 the upper end; NaN gives NaN.
func (p *PiecewiseUniform) Quantile(q float64) float64 {
	switch {
	case q != q:
		return math.NaN()
	case q <= 0:
		return p.segs[0].Lo
	case q >= 1:
		return p.segs[len(p.segs)-1].Hi
	}
	// First k with cum[k+1] ≥ q.
	k := firstAtLeast(p.cum[1:], q)
	if k >= len(p.segs) {
		return p.segs[len(p.segs)-1].Hi
	}
	s := p.segs[k]
	return invertUniform(s.Lo, s.Hi, (q-p.cum[k])/s.Mass)
}

// invertUniform returns the smallest float64 t in [lo, hi] whose fraction
// (t − lo)/(hi − lo) of the way through the segment is at least frac, up to
// one rounding: lo + frac·(hi − lo), moved up one ulp when rounding left it
// short (which matters only when the segment is a few ulps wide).
func invertUniform(lo, hi, frac float64) float64 {
	if !(lo < hi) {
		return lo
	}
	t := math.Min(math.Max(lo+frac*(hi-lo), lo), hi)
	if t < hi && (t-lo)/(hi-lo) < frac {
		t = math.Nextafter(t, hi)
	}
	return t
}

// Mean returns Σ Mass_i·(Lo_i + Hi_i)/2 seconds.
func (p *PiecewiseUniform) Mean() float64 {
	m := 0.0
	for _, s := range p.segs {
		m += s.Mass * midpoint(s.Lo, s.Hi)
	}
	return math.Min(math.Max(m, p.Min()), p.Max()) // the clamp only removes rounding
}

// Min returns the lower end of the support.
func (p *PiecewiseUniform) Min() float64 { return p.segs[0].Lo }

// Max returns the upper end of the support.
func (p *PiecewiseUniform) Max() float64 { return p.segs[len(p.segs)-1].Hi }

// Rand draws by inversion: Quantile(U) with U uniform on [0, 1) from r.
func (p *PiecewiseUniform) Rand(r *rand.Rand) float64 { return p.Quantile(r.Float64()) }

// upperPartialMean returns E[T·1{T > e}].
func (p *PiecewiseUniform) upperPartialMean(e float64) float64 {
	m := 0.0
	for i := len(p.segs) - 1; i >= 0; i-- {
		s := p.segs[i]
		if s.Hi <= e {
			break
		}
		if s.Lo >= e {
			if s.Lo == s.Hi && s.Lo == e {
				continue
			}
			m += s.Mass * midpoint(s.Lo, s.Hi)
			continue
		}
		m += s.Mass * ((s.Hi - e) / (s.Hi - s.Lo)) * midpoint(e, s.Hi)
	}
	return m
}

// Empirical is the empirical distribution of a sample of runtimes: a point
// mass of 1/n at each observation (repeated values add up). Its Segments are
// all point masses, so the expected-utility integral over it is the sample
// average of the utility.
type Empirical struct {
	*PiecewiseUniform
	n int
}

// NewEmpirical returns the empirical distribution of samples (seconds). It
// returns an error wrapping ErrInvalid if samples is empty or holds a NaN,
// ±Inf or negative value. samples is not modified.
func NewEmpirical(samples []float64) (*Empirical, error) {
	if len(samples) == 0 {
		return nil, fmt.Errorf("%w: empirical distribution needs at least one sample", ErrInvalid)
	}
	xs := slices.Clone(samples)
	for i, x := range xs {
		if !finiteNonNeg(x) {
			return nil, fmt.Errorf("%w: sample %d is %v, want a finite runtime ≥ 0", ErrInvalid, i, x)
		}
		if x == 0 {
			xs[i] = 0 // normalise -0
		}
	}
	slices.Sort(xs)
	w := 1 / float64(len(xs))
	segs := make([]Segment, 0, len(xs))
	for i := 0; i < len(xs); {
		j := i
		for j < len(xs) && xs[j] == xs[i] {
			j++
		}
		segs = append(segs, Segment{Lo: xs[i], Hi: xs[i], Mass: float64(j-i) * w})
		i = j
	}
	return &Empirical{PiecewiseUniform: newPiecewiseTrusted(segs), n: len(xs)}, nil
}

// N returns the number of samples.
func (e *Empirical) N() int { return e.n }

func finiteNonNeg(x float64) bool { return x >= 0 && x <= math.MaxFloat64 }

// firstAbove returns the first index i with xs[i] > t (len(xs) if none); xs
// is sorted ascending.
func firstAbove(xs []float64, t float64) int {
	lo, hi := 0, len(xs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if xs[m] > t {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// firstAtLeast returns the first index i with xs[i] ≥ t (len(xs) if none);
// xs is sorted ascending.
func firstAtLeast(xs []float64, t float64) int {
	lo, hi := 0, len(xs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if xs[m] >= t {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

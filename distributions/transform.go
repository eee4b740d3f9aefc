package distributions

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/integrate/quad"
)

// ErrBeyondSupport is returned (wrapped) by Conditional when the runtime has
// already passed every value its distribution allows: P(T > elapsed) = 0.
// The distribution has no information left about the job; the scheduler
// applies its under-estimate rule (extend the expected end by 2^n cycles)
// instead. Match it with errors.Is.
var ErrBeyondSupport = errors.New("distributions: elapsed time beyond the distribution's support")

// Scaled is the distribution of Factor·T for T ~ D: a job that runs Factor
// times slower (e.g. 1.5 off its preferred racks). F'(t) = F(t/Factor),
// Q'(q) = Factor·Q(q), E' = Factor·E. Factor must be finite and > 0. Use
// Scale to get a Piecewise result when D is Piecewise.
type Scaled struct {
	D      Dist
	Factor float64
}

var _ Dist = Scaled{}

// CDF returns D.CDF(t/Factor).
func (s Scaled) CDF(t float64) float64 { return s.D.CDF(t / s.Factor) }

// Survival returns D.Survival(t/Factor).
func (s Scaled) Survival(t float64) float64 { return s.D.Survival(t / s.Factor) }

// Quantile returns Factor·D.Quantile(q).
func (s Scaled) Quantile(q float64) float64 { return s.Factor * s.D.Quantile(q) }

// Mean returns Factor·D.Mean().
func (s Scaled) Mean() float64 { return s.Factor * s.D.Mean() }

// Max returns Factor·D.Max().
func (s Scaled) Max() float64 { return s.Factor * s.D.Max() }

// Rand returns Factor·D.Rand(r).
func (s Scaled) Rand(r *rand.Rand) float64 { return s.Factor * s.D.Rand(r) }

func (s Scaled) upperPartialMean(e float64) float64 {
	return s.Factor * upperPartialMean(s.D, e/s.Factor)
}

// Shifted is the distribution of T + Offset for T ~ D, in seconds (a fixed
// start-up cost, or with a negative Offset the time left after a known
// elapsed time). The support must stay ≥ 0: D.Quantile(0) + Offset ≥ 0. Use
// Shift to check that and to get a Piecewise result when D is Piecewise.
type Shifted struct {
	D      Dist
	Offset float64
}

var _ Dist = Shifted{}

// CDF returns D.CDF(t − Offset).
func (s Shifted) CDF(t float64) float64 { return s.D.CDF(t - s.Offset) }

// Survival returns D.Survival(t − Offset).
func (s Shifted) Survival(t float64) float64 { return s.D.Survival(t - s.Offset) }

// Quantile returns D.Quantile(q) + Offset.
func (s Shifted) Quantile(q float64) float64 { return s.D.Quantile(q) + s.Offset }

// Mean returns D.Mean() + Offset.
func (s Shifted) Mean() float64 { return s.D.Mean() + s.Offset }

// Max returns D.Max() + Offset.
func (s Shifted) Max() float64 { return s.D.Max() + s.Offset }

// Rand returns D.Rand(r) + Offset.
func (s Shifted) Rand(r *rand.Rand) float64 { return s.D.Rand(r) + s.Offset }

func (s Shifted) upperPartialMean(e float64) float64 {
	e0 := e - s.Offset
	return upperPartialMean(s.D, e0) + s.Offset*s.D.Survival(e0)
}

// Scale returns the distribution of factor·T for T ~ d. If d is Piecewise
// the result is a *PiecewiseUniform with every segment's bounds multiplied
// by factor; otherwise it is Scaled{d, factor}. It returns an error wrapping
// ErrInvalid unless factor is finite and > 0.
func Scale(d Dist, factor float64) (Dist, error) {
	if !(factor > 0) || math.IsInf(factor, 0) {
		return nil, fmt.Errorf("%w: scale factor %v must be finite and > 0", ErrInvalid, factor)
	}
	pw, ok := d.(Piecewise)
	if !ok {
		return Scaled{D: d, Factor: factor}, nil
	}
	segs := slices.Clone(pw.Segments()) // a foreign Piecewise may hand out its own slice
	for i := range segs {
		segs[i].Lo *= factor
		segs[i].Hi *= factor
	}
	out, err := NewPiecewiseUniform(segs)
	if err != nil {
		return nil, fmt.Errorf("scaling by %v: %w", factor, err)
	}
	return out, nil
}

// Shift returns the distribution of T + offset for T ~ d (seconds). If d is
// Piecewise the result is a *PiecewiseUniform with every segment moved by
// offset; otherwise it is Shifted{d, offset}. It returns an error wrapping
// ErrInvalid if offset is not finite or the shifted support would start
// below 0, i.e. d.Quantile(0) + offset < 0.
func Shift(d Dist, offset float64) (Dist, error) {
	if math.IsNaN(offset) || math.IsInf(offset, 0) {
		return nil, fmt.Errorf("%w: shift offset %v must be finite", ErrInvalid, offset)
	}
	if lo := d.Quantile(0) + offset; !(lo >= 0) {
		return nil, fmt.Errorf("%w: shift by %v moves the lower end of the support to %v < 0", ErrInvalid, offset, lo)
	}
	pw, ok := d.(Piecewise)
	if !ok {
		return Shifted{D: d, Offset: offset}, nil
	}
	segs := slices.Clone(pw.Segments()) // a foreign Piecewise may hand out its own slice
	for i := range segs {
		segs[i].Lo += offset
		segs[i].Hi += offset
	}
	out, err := NewPiecewiseUniform(segs)
	if err != nil {
		return nil, fmt.Errorf("shifting by %v: %w", offset, err)
	}
	return out, nil
}

// Conditional returns the distribution of the total runtime T given that the
// job has already run for elapsed seconds without finishing, T | T > elapsed:
//
//	F_e(t) = 1 − S(t)/S(elapsed)   for t ≥ elapsed, 0 below,
//	E[T | T > elapsed] = E[T·1{T > elapsed}] / S(elapsed).
//
// Its survival function is the paper's remaining resource consumption,
// RRC(t, elapsed) = S(t)/S(elapsed). If d is Piecewise the result is a
// *PiecewiseUniform (segments below elapsed dropped, the straddling one cut
// at elapsed, point masses at elapsed dropped since T > elapsed is strict,
// then renormalised); otherwise it is a *Conditioned.
//
// Errors: elapsed NaN, ±Inf or negative wraps ErrInvalid; S(elapsed) = 0
// (the job outlived its distribution) wraps ErrBeyondSupport; an empty
// histogram wraps ErrEmpty.
func Conditional(d Dist, elapsed float64) (Dist, error) {
	if !finiteNonNeg(elapsed) {
		return nil, fmt.Errorf("%w: elapsed time %v must be finite and ≥ 0", ErrInvalid, elapsed)
	}
	pw, ok := d.(Piecewise)
	if !ok {
		s0 := d.Survival(elapsed)
		if !(s0 > 0) {
			return nil, fmt.Errorf("%w: P(T > %v) = %v (max %v)", ErrBeyondSupport, elapsed, s0, d.Max())
		}
		return &Conditioned{d: d, elapsed: elapsed, s0: s0}, nil
	}
	segs := slices.Clone(pw.Segments()) // a foreign Piecewise may hand out its own slice
	if len(segs) == 0 {
		return nil, fmt.Errorf("conditioning on %v s: %w", elapsed, ErrEmpty)
	}
	kept := segs[:0]
	for _, s := range segs {
		switch {
		case s.Hi <= elapsed:
			continue
		case s.Lo < elapsed:
			s.Mass *= (s.Hi - elapsed) / (s.Hi - s.Lo)
			s.Lo = elapsed
		}
		kept = append(kept, s)
	}
	out, err := NewPiecewiseUniform(kept)
	if err != nil {
		return nil, fmt.Errorf("%w: P(T > %v) = 0 (max %v)", ErrBeyondSupport, elapsed, d.Max())
	}
	return out, nil
}

// Conditioned is T | T > Elapsed for a non-piecewise T ~ D; build it with
// Conditional. Quantile inverts D at 1 − (1 − q)·S(elapsed), so when
// S(elapsed) is below about 1e-16 the upper quantiles saturate at D's upper
// tail; CDF and Survival keep full precision.
type Conditioned struct {
	d       Dist
	elapsed float64
	s0      float64 // S_D(elapsed) > 0
}

var _ Dist = (*Conditioned)(nil)

// Elapsed returns the conditioning time in seconds.
func (c *Conditioned) Elapsed() float64 { return c.elapsed }

// CDF returns 1 − S_D(t)/S_D(elapsed) for t ≥ elapsed, 0 below.
func (c *Conditioned) CDF(t float64) float64 {
	if t != t {
		return math.NaN()
	}
	if t <= c.elapsed {
		return 0
	}
	return clamp01(1 - c.d.Survival(t)/c.s0)
}

// Survival returns S_D(t)/S_D(elapsed) for t ≥ elapsed, 1 below.
func (c *Conditioned) Survival(t float64) float64 {
	if t != t {
		return math.NaN()
	}
	if t <= c.elapsed {
		return 1
	}
	return clamp01(c.d.Survival(t) / c.s0)
}

// Quantile returns max(elapsed, D.Quantile(1 − (1 − q)·S_D(elapsed))).
func (c *Conditioned) Quantile(q float64) float64 {
	switch {
	case q != q:
		return math.NaN()
	case q <= 0:
		return c.elapsed
	}
	return math.Max(c.elapsed, c.d.Quantile(1-(1-q)*c.s0))
}

// Mean returns E[T·1{T > elapsed}]/S(elapsed), in closed form for this
// package's families.
func (c *Conditioned) Mean() float64 { return upperPartialMean(c.d, c.elapsed) / c.s0 }

// Max returns D.Max().
func (c *Conditioned) Max() float64 { return c.d.Max() }

// Rand draws by inversion, Quantile(U) with U from r.
func (c *Conditioned) Rand(r *rand.Rand) float64 { return c.Quantile(r.Float64()) }

func (c *Conditioned) upperPartialMean(e float64) float64 {
	return upperPartialMean(c.d, math.Max(e, c.elapsed)) / c.s0
}

// partialMeaner is implemented by the distributions of this package that
// know E[T·1{T > e}] in closed form.
type partialMeaner interface {
	upperPartialMean(e float64) float64
}

// fallbackQuadPoints is the number of Gauss–Legendre nodes used to integrate
// the quantile function for a Dist from outside this package. 2000 nodes
// resolve the quantile's tail singularity to ~1e-4 relative for the
// lognormal-like shapes runtimes have; only foreign Dists pay for it.
const fallbackQuadPoints = 2000

// upperPartialMean returns E[T·1{T > e}] = ∫_{F(e)}^1 Q(u) du, in closed form
// where d provides it and by quadrature over the quantile function otherwise.
func upperPartialMean(d Dist, e float64) float64 {
	if pm, ok := d.(partialMeaner); ok {
		return pm.upperPartialMean(e)
	}
	f := d.CDF(e)
	if f >= 1 {
		return 0
	}
	return quad.Fixed(d.Quantile, f, 1, fallbackQuadPoints, nil, 0)
}

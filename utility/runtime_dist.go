package utility

import (
	"math"
	"math/rand/v2"

	"github.com/plannerhq/planner/distributions"
)

// A *Runtime is itself a distributions.Piecewise, so the planner can keep
// the prepared form as a job's distribution and hand it to RRC, Capacity
// and Consumption, which then skip fetching, copying and validating
// segments.
var _ distributions.Piecewise = (*Runtime)(nil)

// Segments returns a copy of the segments (nil for the zero Runtime).
func (r *Runtime) Segments() []distributions.Segment {
	if len(r.m) == 0 {
		return nil
	}
	segs := make([]distributions.Segment, len(r.m))
	for j := range segs {
		segs[j] = distributions.Segment{Lo: r.lo[j], Hi: r.hi[j], Mass: r.m[j]}
	}
	return segs
}

// firstAbove returns the first segment j with Hi_j > x, or Len().
func (r *Runtime) firstAbove(x float64) int {
	lo, hi := 0, len(r.hi)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if r.hi[h] <= x {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return lo
}

// CDF returns P(T ≤ x), summed from the left.
func (r *Runtime) CDF(x float64) float64 {
	if math.IsNaN(x) || len(r.m) == 0 {
		return math.NaN()
	}
	j := r.firstAbove(x)
	c := r.massH[j] + r.massL[j]
	if j < len(r.m) && r.lo[j] < x {
		c += r.m[j] * ((x - r.lo[j]) / (r.hi[j] - r.lo[j]))
	}
	return clamp01(c)
}

// Survival returns S(x) = P(T > x) = 1 − CDF(x), summed from the right so
// that small tail probabilities keep their relative accuracy.
func (r *Runtime) Survival(x float64) float64 {
	if math.IsNaN(x) || len(r.m) == 0 {
		return math.NaN()
	}
	return clamp01(r.survivalFrom(r.firstAbove(x), x))
}

// survivalFrom is S(x) given j = the first segment with Hi > x.
func (r *Runtime) survivalFrom(j int, x float64) float64 {
	if j == len(r.m) {
		return 0
	}
	if r.lo[j] >= x { // wholly above x (a point mass here has Lo = Hi > x)
		return r.tail[j]
	}
	return r.tail[j+1] + r.rho[j]*(r.hi[j]-x)
}

// survivalInto writes S(shift + ts[k]) into out[k], unclamped, and returns
// nz: out[nz:] is all zero. Ascending ts (asc) take one forward walk over
// the segments and stop at the end of the support; otherwise every time is
// a binary search and nz = len(ts).
func (r *Runtime) survivalInto(shift float64, ts []float64, asc bool, out []float64) int {
	if !asc {
		for k, t := range ts {
			x := shift + t
			out[k] = r.survivalFrom(r.firstAbove(x), x)
		}
		return len(ts)
	}
	n := len(r.hi)
	j := 0
	for k, t := range ts {
		x := shift + t
		for j < n && r.hi[j] <= x {
			j++
		}
		if j == n {
			clear(out[k:])
			return k
		}
		out[k] = r.survivalFrom(j, x)
	}
	return len(ts)
}

// Quantile returns the smallest t with CDF(t) ≥ p; p ≤ 0 gives the lower
// end of the support, p ≥ 1 the upper end, NaN gives NaN.
func (r *Runtime) Quantile(p float64) float64 {
	n := len(r.m)
	switch {
	case math.IsNaN(p) || n == 0:
		return math.NaN()
	case p <= 0:
		return r.lo[0]
	case p >= 1:
		return r.hi[n-1]
	}
	// First j with mass[j+1] ≥ p and a positive mass.
	lo, hi := 0, n
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if r.massH[h+1]+r.massL[h+1] < p {
			lo = h + 1
		} else {
			hi = h
		}
	}
	for lo < n && r.m[lo] == 0 {
		lo++
	}
	if lo >= n {
		return r.hi[n-1]
	}
	if r.lo[lo] == r.hi[lo] {
		return r.lo[lo]
	}
	t := r.lo[lo] + (p-(r.massH[lo]+r.massL[lo]))/r.m[lo]*(r.hi[lo]-r.lo[lo])
	return math.Min(math.Max(t, r.lo[lo]), r.hi[lo])
}

// Mean returns E[T] = Σ m_j·(Lo_j + Hi_j)/2 seconds.
func (r *Runtime) Mean() float64 {
	if len(r.m) == 0 {
		return math.NaN()
	}
	return r.momH[len(r.m)] + r.momL[len(r.m)]
}

// Max returns the upper end of the support, the last segment's Hi.
func (r *Runtime) Max() float64 {
	if len(r.hi) == 0 {
		return math.NaN()
	}
	return r.hi[len(r.hi)-1]
}

// Rand draws by inversion, Quantile(U) with U uniform on [0, 1) from rnd.
func (r *Runtime) Rand(rnd *rand.Rand) float64 { return r.Quantile(rnd.Float64()) }

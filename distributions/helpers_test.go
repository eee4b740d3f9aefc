package distributions

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
)

// Tolerances of the tests, each with the reason for its size.
const (
	// exactTol: quantities that are equal in exact arithmetic and differ
	// only by the rounding of a few dozen float64 operations.
	exactTol = 1e-12
	// histKSMax is the brief's accuracy bar for an 80-bin histogram of 1e5
	// samples. The sampling noise alone is ≈ 1.36/√1e5 ≈ 0.0043 at 95%.
	histKSMax = 0.02
	// mergeOrderKSMax bounds the KS distance between histograms built from
	// the same shards merged in different orders. Each order makes different
	// greedy merges, but each result is within histKSMax of the truth.
	mergeOrderKSMax = 0.01
	// randMeanSigmas: sample means of Rand must lie within this many
	// standard errors of Mean (a 5σ miss has probability 6e-7 per check,
	// and the seeds are fixed anyway).
	randMeanSigmas = 5
	// randKSMax bounds the KS distance between 2e4 Rand draws and CDF:
	// the 99.9% point of the KS statistic is 1.95/√n ≈ 0.0138.
	randKSMax = 0.0138
	randN     = 20000
	// meanIntegralRelTol: Mean vs a Gauss–Legendre integral of Survival
	// over ~2000 quantile-spaced pieces, truncated at the 1−1e-10 quantile.
	meanIntegralRelTol = 1e-6
	// quantileRoundTripTol: CDF(Quantile(p)) = p up to the inverse-normal
	// and erfc accuracy of gonum and the math package (~1e-15 relative),
	// evaluated through exp/log for the lognormal.
	quantileRoundTripTol = 1e-9
)

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// ksPoints returns the points at which to compare a CDF with another: a
// fine grid over [lo, hi] and every segment edge of the Piecewise
// arguments.
func ksPoints(lo, hi float64, ds ...Dist) []float64 {
	return ksPointsN(20000, lo, hi, ds...)
}

// ksPointsN is ksPoints with a grid of the given size.
func ksPointsN(grid int, lo, hi float64, ds ...Dist) []float64 {
	pts := make([]float64, 0, grid+1)
	for i := 0; i <= grid; i++ {
		pts = append(pts, lo+(hi-lo)*float64(i)/float64(grid))
	}
	for _, d := range ds {
		if p, ok := d.(Piecewise); ok {
			for _, s := range p.Segments() {
				pts = append(pts, s.Lo, s.Hi)
			}
		}
	}
	slices.Sort(pts)
	return slices.Compact(pts)
}

// ks returns sup_t |F(t) − G(t)| over pts, checking both t and the left
// limit just below t so that jumps at point masses are seen from both sides.
func ks(f, g func(float64) float64, pts []float64) float64 {
	d := 0.0
	for _, t := range pts {
		below := math.Nextafter(t, math.Inf(-1))
		d = math.Max(d, math.Abs(f(t)-g(t)))
		d = math.Max(d, math.Abs(f(below)-g(below)))
	}
	return d
}

// sampleKS returns the KS distance between the empirical CDF of xs and F,
// computed exactly at the sample points.
func sampleKS(xs []float64, F func(float64) float64) float64 {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	n := float64(len(xs))
	d := 0.0
	for i, x := range xs {
		f := F(x)
		d = math.Max(d, math.Max(math.Abs(float64(i+1)/n-f), math.Abs(f-float64(i)/n)))
	}
	return d
}

// survivalIntegral returns ∫_0^X S(t) dt by 8-point Gauss–Legendre on each
// piece between consecutive breakpoints: 2000 quantile-spaced points plus
// every segment edge, so that a piecewise-linear S is integrated exactly.
// X is Max() or, for unbounded families, 10^6 times the 1−1e-10 quantile,
// reached with geometric steps of 10% from the median (beyond it a
// lognormal with σ ≤ 2 has survival below 1e-25).
func survivalIntegral(d Dist) float64 {
	top := d.Max()
	pts := []float64{0}
	if math.IsInf(top, 1) {
		q := d.Quantile(1 - 1e-10)
		for x := math.Max(d.Quantile(0.5), 1e-9*q); x < 1e6*q; x *= 1.1 {
			pts = append(pts, x)
		}
		top = 1e6 * q
	}
	pts = append(pts, top)
	for i := 0; i <= 2000; i++ {
		if q := d.Quantile(float64(i) / 2000); q <= top {
			pts = append(pts, q)
		}
	}
	if p, ok := d.(Piecewise); ok {
		for _, s := range p.Segments() {
			pts = append(pts, s.Lo, s.Hi)
		}
	}
	slices.Sort(pts)
	pts = slices.Compact(pts)
	sum := 0.0
	for i := 1; i < len(pts); i++ {
		sum += quad.Fixed(d.Survival, pts[i-1], pts[i], 8, nil, 0)
	}
	return sum
}

func relErr(got, want float64) float64 {
	if got == want {
		return 0
	}
	return math.Abs(got-want) / math.Max(math.Abs(want), 1e-300)
}

// checkDist runs the checks every Dist must pass.
func checkDist(t *testing.T, d Dist, seed uint64) {
	t.Helper()
	// CDF + Survival = 1, CDF monotone, CDF in [0, 1].
	lo, hi := d.Quantile(0), d.Quantile(0.9999)
	if math.IsInf(hi, 1) || hi <= lo {
		hi = lo + 1
	}
	prev := -1.0
	for i := -10; i <= 1010; i++ {
		x := lo + (hi-lo)*float64(i)/1000
		c, s := d.CDF(x), d.Survival(x)
		if !(c >= 0 && c <= 1) || !(s >= 0 && s <= 1) {
			t.Fatalf("CDF(%v)=%v Survival=%v out of [0,1]", x, c, s)
		}
		if math.Abs(c+s-1) > exactTol {
			t.Fatalf("CDF(%v)+Survival(%v) = %v, want 1", x, x, c+s)
		}
		if c < prev {
			t.Fatalf("CDF not monotone at %v: %v < %v", x, c, prev)
		}
		prev = c
	}
	if c := d.CDF(-1); c != 0 {
		t.Errorf("CDF(-1) = %v, want 0 (runtimes are ≥ 0)", c)
	}
	// Quantile: CDF(Q(p)) ≥ p, and = p where the CDF is continuous; Q is
	// the smallest such t, so CDF just below Q(p) is < p (up to rounding).
	for _, p := range []float64{1e-6, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999999} {
		q := d.Quantile(p)
		if c := d.CDF(q); c < p-quantileRoundTripTol {
			t.Errorf("CDF(Quantile(%v)) = %v < p", p, c)
		}
		if below := d.CDF(q - math.Max(1e-9*q, 1e-12)); below > p+quantileRoundTripTol {
			t.Errorf("CDF just below Quantile(%v)=%v is %v > p: not the smallest", p, q, below)
		}
	}
	// Mean = ∫ Survival.
	if m, integ := d.Mean(), survivalIntegral(d); relErr(m, integ) > meanIntegralRelTol {
		t.Errorf("Mean = %v, ∫Survival = %v (rel err %v)", m, integ, relErr(m, integ))
	}
	// Segments consistent with CDF.
	if p, ok := d.(Piecewise); ok {
		checkSegments(t, p)
	}
	// Rand: sample mean and KS.
	r := newRand(seed)
	xs := make([]float64, randN)
	sum, sum2 := 0.0, 0.0
	for i := range xs {
		x := d.Rand(r)
		if !(x >= 0) || x > d.Max() {
			t.Fatalf("Rand gave %v outside [0, Max=%v]", x, d.Max())
		}
		xs[i] = x
		sum += x
		sum2 += x * x
	}
	mean := sum / randN
	sd := math.Sqrt(math.Max(sum2/randN-mean*mean, 0))
	if math.Abs(mean-d.Mean()) > randMeanSigmas*sd/math.Sqrt(randN)+exactTol*math.Abs(mean) {
		t.Errorf("Rand sample mean %v vs Mean %v (sd %v)", mean, d.Mean(), sd)
	}
	if _, ok := d.(Piecewise); !ok || !hasAtoms(d.(Piecewise)) {
		if k := sampleKS(xs, d.CDF); k > randKSMax {
			t.Errorf("Rand KS distance %v > %v", k, randKSMax)
		}
	}
}

func hasAtoms(p Piecewise) bool {
	for _, s := range p.Segments() {
		if s.Lo == s.Hi {
			return true
		}
	}
	return false
}

// checkSegments checks the Piecewise contract: sorted, non-overlapping,
// masses summing to 1, and CDF equal to the integral of the segments.
func checkSegments(t *testing.T, p Piecewise) { checkSegmentsN(t, 20000, p) }

// checkSegmentsN is checkSegments with a comparison grid of the given size.
func checkSegmentsN(t *testing.T, grid int, p Piecewise) {
	t.Helper()
	segs := p.Segments()
	if len(segs) == 0 {
		t.Fatal("no segments")
	}
	total := 0.0
	for i, s := range segs {
		if !(s.Lo <= s.Hi) || !(s.Mass >= 0) || s.Lo < 0 {
			t.Fatalf("segment %d = %+v invalid", i, s)
		}
		if i > 0 && s.Lo < segs[i-1].Hi {
			t.Fatalf("segment %d %+v overlaps %+v", i, s, segs[i-1])
		}
		total += s.Mass
	}
	if math.Abs(total-1) > massTolerance {
		t.Fatalf("segment masses sum to %v", total)
	}
	segCDF := func(x float64) float64 {
		c := 0.0
		for _, s := range segs {
			switch {
			case s.Hi <= x:
				c += s.Mass
			case s.Lo < x:
				c += s.Mass * ((x - s.Lo) / (s.Hi - s.Lo))
			}
		}
		return c
	}
	lo, hi := segs[0].Lo, segs[len(segs)-1].Hi
	pts := ksPointsN(grid, lo-1, hi+1, p)
	if k := ks(p.CDF, segCDF, pts); k > exactTol {
		t.Errorf("CDF differs from the integral of Segments by %v", k)
	}
	if p.Max() != hi {
		t.Errorf("Max = %v, last segment ends at %v", p.Max(), hi)
	}
	m := 0.0
	for _, s := range segs {
		m += s.Mass * (s.Lo/2 + s.Hi/2)
	}
	if relErr(p.Mean(), m) > exactTol {
		t.Errorf("Mean = %v, segments' mean = %v", p.Mean(), m)
	}
}

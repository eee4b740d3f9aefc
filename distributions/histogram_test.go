package distributions

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// bimodal is the test mixture: 60% short jobs, lognormal around 2 min, and
// 40% long jobs, normal around 1 hour.
type bimodal struct{}

var (
	bimodalShort = LogNormal{Mu: math.Log(120), Sigma: 0.4}
	bimodalLong  = Normal{Mu: 3600, Sigma: 400}
)

func (bimodal) CDF(t float64) float64 { return 0.6*bimodalShort.CDF(t) + 0.4*bimodalLong.CDF(t) }
func (bimodal) Rand(r *rand.Rand) float64 {
	if r.Float64() < 0.6 {
		return bimodalShort.Rand(r)
	}
	return bimodalLong.Rand(r)
}

// histogramOf returns an 80-bin histogram of n draws from draw.
func histogramOf(t testing.TB, n int, seed uint64, draw func(*rand.Rand) float64) *Histogram {
	t.Helper()
	r := newRand(seed)
	h := NewHistogram(DefaultMaxBins)
	for range n {
		if err := h.Update(draw(r)); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// TestHistogramKS checks the brief's accuracy bar: 1e5 samples into an
// 80-bin histogram are within KS 0.02 of the true CDF, measured on a fine
// grid plus every segment edge.
func TestHistogramKS(t *testing.T) {
	ln := LogNormal{Mu: 7, Sigma: 1.2}
	tests := []struct {
		name   string
		draw   func(*rand.Rand) float64
		cdf    func(float64) float64
		lo, hi float64
	}{
		{"lognormal", ln.Rand, ln.CDF, 0, ln.Quantile(0.9999)},
		{"bimodal", bimodal{}.Rand, bimodal{}.CDF, 0, 6000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := histogramOf(t, 100000, 11, tc.draw)
			if h.Len() != DefaultMaxBins || h.Count() != 100000 {
				t.Fatalf("bins %d count %v", h.Len(), h.Count())
			}
			k := ks(h.CDF, tc.cdf, ksPoints(tc.lo, tc.hi, h))
			t.Logf("KS(histogram, truth) = %.5f", k)
			if k > histKSMax {
				t.Errorf("KS = %v > %v", k, histKSMax)
			}
			checkSegments(t, h)
		})
	}
}

// TestHistogramSmall checks the density model by hand on tiny inputs.
func TestHistogramSmall(t *testing.T) {
	t.Run("single value is a point mass", func(t *testing.T) {
		h := NewHistogram(4)
		_ = h.Update(5)
		segs := h.Segments()
		if len(segs) != 1 || segs[0] != (Segment{5, 5, 1}) {
			t.Fatalf("segments %v, want one point mass at 5", segs)
		}
		if h.CDF(4.9) != 0 || h.CDF(5) != 1 || h.Quantile(0.3) != 5 || h.Mean() != 5 || h.Max() != 5 || h.Min() != 5 {
			t.Errorf("point mass queries wrong: CDF(4.9)=%v CDF(5)=%v Q=%v", h.CDF(4.9), h.CDF(5), h.Quantile(0.3))
		}
	})
	t.Run("three exact bins", func(t *testing.T) {
		// Values 0, 10, 10, 30: bins (0,1) (10,2) (30,1); midpoints 5, 20.
		h := NewHistogram(4)
		for _, v := range []float64{10, 0, 30, 10} {
			_ = h.Update(v)
		}
		want := []Segment{
			{0, 0, 0.125}, {0, 5, 0.125},
			{5, 10, 0.25}, {10, 20, 0.25},
			{20, 30, 0.125}, {30, 30, 0.125},
		}
		got := h.Segments()
		if len(got) != len(want) {
			t.Fatalf("segments %v, want %v", got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("segment %d = %v, want %v", i, got[i], want[i])
			}
		}
		cases := []struct {
			name      string
			got, want float64
		}{
			{"CDF(0) includes the atom", h.CDF(0), 0.125},
			{"CDF(10) = sum at centroid", h.CDF(10), 0.5},
			{"Sum(10) paper", h.Sum(10), 2},
			{"CDF(15)", h.CDF(15), 0.625},
			{"Survival(15)", h.Survival(15), 0.375},
			{"Sum(15) trapezoid", h.Sum(15), 2 + (2+1.75)/2*0.25}, // m_b = 2 + (1−2)·¼
			{"Quantile(0.625)", h.Quantile(0.625), 15},
			{"Quantile(0.1) in atom", h.Quantile(0.1), 0},
			{"Quantile(1)", h.Quantile(1), 30},
			{"Mean", h.Mean(), 0.125*0 + 0.125*2.5 + 0.25*7.5 + 0.25*15 + 0.125*25 + 0.125*30},
			{"SampleMean exact", h.SampleMean(), 12.5},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				if math.Abs(tc.got-tc.want) > exactTol {
					t.Errorf("got %v, want %v", tc.got, tc.want)
				}
			})
		}
	})
	t.Run("algorithm 1 merges the closest pair", func(t *testing.T) {
		h := NewHistogram(3)
		for _, v := range []float64{1, 2, 10, 2.5} { // 2 and 2.5 are closest
			_ = h.Update(v)
		}
		bins := h.Bins()
		want := []Bin{{1, 1}, {2.25, 2}, {10, 1}}
		for i := range want {
			if bins[i] != want[i] {
				t.Errorf("bins %v, want %v", bins, want)
				break
			}
		}
	})
	t.Run("repeated value adds to its bin", func(t *testing.T) {
		h := NewHistogram(2)
		for range 1000 {
			_ = h.Update(7)
		}
		_ = h.UpdateWeighted(9, 2.5)
		if h.Len() != 2 || h.Count() != 1002.5 {
			t.Errorf("bins %v count %v", h.Bins(), h.Count())
		}
	})
}

func TestHistogramEmpty(t *testing.T) {
	var h Histogram // the zero value is usable
	if h.MaxBins() != DefaultMaxBins {
		t.Errorf("zero value MaxBins = %d", h.MaxBins())
	}
	if h.CDF(3) != 0 || h.Survival(3) != 1 || h.Count() != 0 || h.Sum(3) != 0 {
		t.Errorf("empty: CDF %v Survival %v", h.CDF(3), h.Survival(3))
	}
	for name, v := range map[string]float64{
		"Quantile": h.Quantile(0.5), "Mean": h.Mean(), "SampleMean": h.SampleMean(),
		"Min": h.Min(), "Max": h.Max(), "Rand": h.Rand(newRand(1)),
	} {
		if !math.IsNaN(v) {
			t.Errorf("empty %s = %v, want NaN", name, v)
		}
	}
	if h.Segments() != nil || h.UniformSplits(4) != nil {
		t.Error("empty Segments/UniformSplits not nil")
	}
	if _, err := h.Snapshot(); !errors.Is(err, ErrEmpty) {
		t.Errorf("Snapshot err = %v, want ErrEmpty", err)
	}
	if err := h.Update(1); err != nil || h.Count() != 1 {
		t.Errorf("zero value Update: %v", err)
	}
}

func TestHistogramRejects(t *testing.T) {
	h := NewHistogram(8)
	_ = h.Update(3)
	tests := []struct {
		name string
		err  error
	}{
		{"NaN", h.Update(math.NaN())},
		{"+Inf", h.Update(math.Inf(1))},
		{"negative", h.Update(-1)},
		{"-Inf", h.Update(math.Inf(-1))},
		{"zero weight", h.UpdateWeighted(1, 0)},
		{"tiny weight", h.UpdateWeighted(1, MinWeight/2)},
		{"NaN weight", h.UpdateWeighted(1, math.NaN())},
		{"count overflow", h.UpdateWeighted(1, MaxCount)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !errors.Is(tc.err, ErrInvalid) {
				t.Errorf("err = %v, want ErrInvalid", tc.err)
			}
		})
	}
	if h.Count() != 1 || h.Len() != 1 {
		t.Errorf("rejected updates changed the histogram: %v", h.Bins())
	}
	if err := h.Update(math.Copysign(0, -1)); err != nil || math.Signbit(h.Min()) {
		t.Errorf("-0 should be accepted as +0: err %v min %v", err, h.Min())
	}
}

// TestHistogramMergeConservesCounts: counts, min and max combine exactly,
// and A+B equals B+A bit for bit (the union is symmetric and the greedy
// reduction sees the same bins).
func TestHistogramMergeConservesCounts(t *testing.T) {
	ln := LogNormal{Mu: 6, Sigma: 1}
	a := histogramOf(t, 7000, 1, ln.Rand)
	b := histogramOf(t, 3001, 2, bimodal{}.Rand)
	ab, ba := a.Clone(), b.Clone()
	if err := ab.Merge(b); err != nil {
		t.Fatal(err)
	}
	if err := ba.Merge(a); err != nil {
		t.Fatal(err)
	}
	for _, h := range []*Histogram{ab, ba} {
		if h.Count() != 10001 || h.Len() > DefaultMaxBins {
			t.Errorf("count %v bins %d", h.Count(), h.Len())
		}
		sum := 0.0
		for _, bin := range h.Bins() {
			sum += bin.Count
		}
		if sum != 10001 {
			t.Errorf("bin counts sum to %v", sum)
		}
		if h.Min() != math.Min(a.Min(), b.Min()) || h.Max() != math.Max(a.Max(), b.Max()) {
			t.Errorf("min/max %v %v", h.Min(), h.Max())
		}
	}
	abBins, baBins := ab.Bins(), ba.Bins()
	for i := range abBins {
		if abBins[i] != baBins[i] {
			t.Fatalf("A+B and B+A differ at bin %d: %v vs %v", i, abBins[i], baBins[i])
		}
	}
	// SampleMean is preserved by merging up to rounding.
	want := (a.SampleMean()*a.Count() + b.SampleMean()*b.Count()) / 10001
	if relErr(ab.SampleMean(), want) > exactTol {
		t.Errorf("SampleMean after merge %v, want %v", ab.SampleMean(), want)
	}
	// Merging an empty or nil histogram, and itself.
	c := a.Clone()
	if err := c.Merge(NewHistogram(5)); err != nil || c.Count() != a.Count() {
		t.Errorf("merge empty: %v", err)
	}
	if err := c.Merge(nil); err != nil {
		t.Errorf("merge nil: %v", err)
	}
	if err := c.Merge(c); err != nil || c.Count() != 2*a.Count() {
		t.Errorf("self merge: %v count %v", err, c.Count())
	}
	e := NewHistogram(0)
	if err := e.Merge(a); err != nil || e.Count() != a.Count() || e.Min() != a.Min() {
		t.Errorf("merge into empty: %v", err)
	}
}

// TestHistogramMergeOrder merges 10 shards in several orders (sequential,
// reversed, shuffled, pairwise tree) and checks that the results are within
// mergeOrderKSMax of each other and histKSMax of the truth.
func TestHistogramMergeOrder(t *testing.T) {
	shards := make([]*Histogram, 10)
	for i := range shards {
		shards[i] = histogramOf(t, 10000, uint64(100+i), bimodal{}.Rand)
	}
	seq := func(order []int) *Histogram {
		h := NewHistogram(DefaultMaxBins)
		for _, i := range order {
			if err := h.Merge(shards[i]); err != nil {
				t.Fatal(err)
			}
		}
		return h
	}
	tree := func() *Histogram {
		level := make([]*Histogram, len(shards))
		for i, s := range shards {
			level[i] = s.Clone()
		}
		for len(level) > 1 {
			var next []*Histogram
			for i := 0; i < len(level); i += 2 {
				if i+1 < len(level) {
					_ = level[i].Merge(level[i+1])
				}
				next = append(next, level[i])
			}
			level = next
		}
		return level[0]
	}
	r := newRand(9)
	shuffled := r.Perm(10)
	ref := seq([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	results := []struct {
		name string
		h    *Histogram
	}{
		{"sequential", ref},
		{"reversed", seq([]int{9, 8, 7, 6, 5, 4, 3, 2, 1, 0})},
		{"shuffled", seq(shuffled)},
		{"tree", tree()},
	}
	for _, res := range results {
		name, h := res.name, res.h
		if h.Count() != 100000 {
			t.Errorf("%s: count %v", name, h.Count())
		}
		pts := ksPoints(0, 6000, h, ref)
		if k := ks(h.CDF, ref.CDF, pts); k > mergeOrderKSMax {
			t.Errorf("%s vs sequential: KS %v > %v", name, k, mergeOrderKSMax)
		} else {
			t.Logf("%s vs sequential: KS %.5f", name, k)
		}
		if k := ks(h.CDF, bimodal{}.CDF, pts); k > histKSMax {
			t.Errorf("%s vs truth: KS %v > %v", name, k, histKSMax)
		} else {
			t.Logf("%s vs truth: KS %.5f", name, k)
		}
	}
}

// TestHistogramSumAndUniform checks the paper's sum and uniform procedures:
// Sum meets N·CDF at every centroid, is monotone, and the uniform split
// points cut Sum into equal parts.
func TestHistogramSumAndUniform(t *testing.T) {
	h := histogramOf(t, 20000, 5, bimodal{}.Rand)
	for _, b := range h.Bins() {
		if d := math.Abs(h.Sum(b.Centroid) - h.Count()*h.CDF(b.Centroid)); d > 1e-9 {
			t.Errorf("Sum(%v) differs from N·CDF by %v", b.Centroid, d)
		}
	}
	prev := -1.0
	for _, x := range ksPoints(0, 6000, h) {
		s := h.Sum(x)
		if s < prev-1e-9 {
			t.Fatalf("Sum not monotone at %v", x)
		}
		prev = s
		// The split model differs from the trapezoid by ≤ |Δm|/8 ≤ max m/8.
		if d := math.Abs(s - h.Count()*h.CDF(x)); d > maxBinCount(h)/8+1e-9 {
			t.Errorf("Sum(%v) = %v, N·CDF = %v: differ by more than max m/8", x, s, h.Count()*h.CDF(x))
		}
	}
	const k = 10
	u := h.UniformSplits(k)
	if len(u) != k-1 {
		t.Fatalf("UniformSplits(%d) gave %d points", k, len(u))
	}
	for j, x := range u {
		if want := float64(j+1) * h.Count() / k; math.Abs(h.Sum(x)-want) > 1e-6*h.Count() {
			t.Errorf("Sum(u_%d = %v) = %v, want %v", j+1, x, h.Sum(x), want)
		}
	}
}

func maxBinCount(h *Histogram) float64 {
	m := 0.0
	for _, b := range h.Bins() {
		m = math.Max(m, b.Count)
	}
	return m
}

// TestHistogramSnapshotAgrees: the frozen copy answers like the histogram.
func TestHistogramSnapshotAgrees(t *testing.T) {
	h := histogramOf(t, 5000, 8, LogNormal{Mu: 4, Sigma: 1.5}.Rand)
	p, err := h.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	pts := ksPoints(0, h.Max()*1.1, h)
	if k := ks(h.CDF, p.CDF, pts); k > exactTol {
		t.Errorf("Snapshot CDF differs by %v", k)
	}
	if k := ks(h.Survival, p.Survival, pts); k > exactTol {
		t.Errorf("Snapshot Survival differs by %v", k)
	}
	for i := 0; i <= 1000; i++ {
		q := float64(i) / 1000
		if a, b := h.Quantile(q), p.Quantile(q); relErr(a, b) > 1e-9 {
			t.Errorf("Quantile(%v): %v vs %v", q, a, b)
		}
	}
	if relErr(h.Mean(), p.Mean()) > exactTol || h.Max() != p.Max() {
		t.Errorf("Mean %v vs %v, Max %v vs %v", h.Mean(), p.Mean(), h.Max(), p.Max())
	}
}

// referenceUpdate is a deliberately naive Algorithm 1, written straight from
// the paper for comparison: add (v, w) as a bin, sort, and while there are
// too many bins merge the cheapest adjacent pair (leftmost on ties).
func referenceUpdate(bins []Bin, v, w float64, maxBins int, rule MergeRule) []Bin {
	for i := range bins {
		if bins[i].Centroid == v {
			bins[i].Count += w
			return bins
		}
	}
	bins = append(bins, Bin{Centroid: v, Count: w})
	slices.SortFunc(bins, func(a, b Bin) int { return cmp.Compare(a.Centroid, b.Centroid) })
	return referenceShrink(bins, maxBins, rule)
}

// referenceMerge is a naive Algorithm 2: the union of two bin lists (equal
// centroids add their counts), then the cheapest pairs merged down to
// maxBins.
func referenceMerge(a, b []Bin, maxBins int, rule MergeRule) []Bin {
	u := slices.Clone(a)
	for _, x := range b {
		if i := slices.IndexFunc(u, func(y Bin) bool { return y.Centroid == x.Centroid }); i >= 0 {
			u[i].Count += x.Count
		} else {
			u = append(u, x)
		}
	}
	slices.SortFunc(u, func(a, b Bin) int { return cmp.Compare(a.Centroid, b.Centroid) })
	return referenceShrink(u, maxBins, rule)
}

// referenceShrink merges the cheapest adjacent pair of sorted bins (leftmost
// on ties) until at most maxBins are left.
func referenceShrink(bins []Bin, maxBins int, rule MergeRule) []Bin {
	for len(bins) > maxBins {
		q, best := -1, math.Inf(1)
		for i := 0; i+1 < len(bins); i++ {
			cost := bins[i+1].Centroid - bins[i].Centroid
			if rule == WeightedGap {
				m := bins[i].Count + bins[i+1].Count
				cost *= m * m
			}
			if cost < best || q < 0 {
				q, best = i, cost
			}
		}
		bins[q] = combine(bins[q], bins[q+1])
		bins = slices.Delete(bins, q+1, q+2)
	}
	return bins
}

// TestHistogramMatchesReference checks the optimised Update (including its
// one-pass insert-and-merge when the histogram is full) against the naive
// reference bin for bin and bit for bit, for both merge rules, for budgets
// from 2 bins to the default, with repeated values (whole seconds), weighted
// updates (some heavy enough that the merge lands away from the new value),
// and values so large that pair costs overflow to +Inf (ties among infinite
// costs go to the leftmost pair too).
func TestHistogramMatchesReference(t *testing.T) {
	wholeSeconds := func(r *rand.Rand) (float64, float64) { return math.Round(bimodal{}.Rand(r)), 1 }
	weighted := func(r *rand.Rand) (float64, float64) {
		return LogNormal{Mu: 7, Sigma: 1.2}.Rand(r), float64(1 + r.IntN(5))
	}
	huge := func(r *rand.Rand) (float64, float64) {
		if r.IntN(3) == 0 {
			return math.Ldexp(1+r.Float64(), 900+r.IntN(100)), 1e6
		}
		return r.Float64() * 100, 1
	}
	// Weights far apart: the new value's pairs are sometimes dearer than
	// old ones, so the merge lands away from it.
	heavy := func(r *rand.Rand) (float64, float64) { return r.Float64() * 100, math.Exp(r.Float64() * 10) }
	for _, tc := range []struct {
		name    string
		maxBins int
		next    func(*rand.Rand) (v, w float64)
	}{
		{"2 bins, whole seconds", 2, wholeSeconds},
		{"3 bins, whole seconds", 3, wholeSeconds},
		{"20 bins, whole seconds", 20, wholeSeconds},
		{"80 bins, whole seconds", DefaultMaxBins, wholeSeconds},
		{"20 bins, weighted", 20, weighted},
		{"80 bins, weighted", DefaultMaxBins, weighted},
		{"8 bins, infinite costs", 8, huge},
		{"4 bins, heavy weights", 4, heavy},
		{"80 bins, heavy weights", DefaultMaxBins, heavy},
	} {
		for _, rule := range []MergeRule{WeightedGap, PaperGap} {
			t.Run(tc.name+"/"+rule.String(), func(t *testing.T) {
				h, err := NewHistogramRule(tc.maxBins, rule)
				if err != nil {
					t.Fatal(err)
				}
				var ref []Bin
				r := newRand(21)
				for i := range 5000 {
					v, w := tc.next(r)
					ref = referenceUpdate(ref, v, w, tc.maxBins, rule)
					if err := h.UpdateWeighted(v, w); err != nil {
						t.Fatal(err)
					}
					checkAgainstReference(t, h, ref, fmt.Sprintf("after %d updates", i+1))
				}
				checkHistogramInvariants(t, h)
			})
		}
	}
}

// checkAgainstReference fails unless h's bins are ref's bit for bit and
// its cached cheapest pair, when it has one, is the one a scan finds.
func checkAgainstReference(t *testing.T, h *Histogram, ref []Bin, when string) {
	t.Helper()
	got := h.Bins()
	same := len(got) == len(ref)
	for i := 0; same && i < len(got); i++ {
		same = math.Float64bits(got[i].Centroid) == math.Float64bits(ref[i].Centroid) &&
			math.Float64bits(got[i].Count) == math.Float64bits(ref[i].Count)
	}
	if !same {
		t.Fatalf("%s:\n got %v\nwant %v", when, got, ref)
	}
	if h.minKnown && h.minAt != argminFirst(h.cost) {
		t.Fatalf("%s: cached cheapest pair %d, scan says %d", when, h.minAt, argminFirst(h.cost))
	}
}

// TestHistogramCacheAcrossRebuilds interleaves updates with the other ways
// a histogram's bins change — a clone, a decode into a histogram that held
// other data, a merge — and checks every update after them against the
// reference: a cached cheapest pair that outlived its bins would merge the
// wrong pair.
func TestHistogramCacheAcrossRebuilds(t *testing.T) {
	const budget = 8
	for _, rule := range []MergeRule{WeightedGap, PaperGap} {
		t.Run(rule.String(), func(t *testing.T) {
			r := newRand(31)
			next := func() (float64, float64) { return math.Round(r.Float64() * 200), float64(1 + r.IntN(3)) }
			filled := func(n int) *Histogram {
				g, err := NewHistogramRule(budget, rule)
				if err != nil {
					t.Fatal(err)
				}
				for range n {
					v, w := next()
					_ = g.UpdateWeighted(v, w)
				}
				return g
			}
			h, other := filled(0), filled(300)
			var ref []Bin
			for step := range 3000 {
				switch step % 100 {
				case 25:
					h = h.Clone()
				case 50:
					data, err := h.MarshalBinary()
					if err != nil {
						t.Fatal(err)
					}
					g := other.Clone()
					if err := g.UnmarshalBinary(data); err != nil {
						t.Fatal(err)
					}
					h = g
				case 75:
					o := filled(20)
					if err := h.Merge(o); err != nil {
						t.Fatal(err)
					}
					ref = referenceMerge(ref, o.Bins(), budget, rule)
					checkAgainstReference(t, h, ref, fmt.Sprintf("after the merge at step %d", step))
				}
				v, w := next()
				if err := h.UpdateWeighted(v, w); err != nil {
					t.Fatal(err)
				}
				ref = referenceUpdate(ref, v, w, budget, rule)
				checkAgainstReference(t, h, ref, fmt.Sprintf("after step %d", step))
			}
		})
	}
}

// TestHistogramPaperRuleKS records how the paper's closest-gap rule does on
// the same heavy-tailed input as TestHistogramKS (the reason WeightedGap is
// the default). It asserts only that the paper rule is worse.
func TestHistogramPaperRuleKS(t *testing.T) {
	ln := LogNormal{Mu: 7, Sigma: 1.2}
	paper, _ := NewHistogramRule(DefaultMaxBins, PaperGap)
	weighted := NewHistogram(DefaultMaxBins)
	r := newRand(11)
	for range 100000 {
		v := ln.Rand(r)
		_ = paper.Update(v)
		_ = weighted.Update(v)
	}
	pts := ksPoints(0, ln.Quantile(0.9999), paper, weighted)
	kp, kw := ks(paper.CDF, ln.CDF, pts), ks(weighted.CDF, ln.CDF, pts)
	t.Logf("lognormal(7, 1.2), 1e5 samples, 80 bins: KS paper gap %.4f, weighted gap %.4f", kp, kw)
	if !(kw < kp) {
		t.Errorf("weighted gap (%v) should beat the paper's gap rule (%v) on heavy tails", kw, kp)
	}
}

// TestHistogramConcurrentReaders runs the read-only methods from several
// goroutines at once; under -race this checks that reads do not write.
func TestHistogramConcurrentReaders(t *testing.T) {
	h := histogramOf(t, 10000, 4, bimodal{}.Rand)
	want := h.CDF(1000)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := newRand(uint64(g))
			for range 1000 {
				if h.CDF(1000) != want {
					t.Error("CDF changed under concurrent reads")
					return
				}
				_ = h.Quantile(r.Float64())
				_ = h.Segments()
				_ = h.Mean()
				_ = h.Rand(r)
				_, _ = h.MarshalBinary()
			}
		}()
	}
	wg.Wait()
}

// TestArgminFirst checks the four-lane scan against a plain loop on short
// and long slices full of ties.
func TestArgminFirst(t *testing.T) {
	r := newRand(5)
	for n := 1; n <= 100; n++ {
		for range 50 {
			c := make([]float64, n)
			for i := range c {
				c[i] = float64(r.IntN(4)) // few distinct values: many ties
				if r.IntN(20) == 0 {
					c[i] = math.Inf(1)
				}
			}
			want := 0
			for i, v := range c {
				if v < c[want] {
					want = i
				}
			}
			if got := argminFirst(c); got != want {
				t.Fatalf("argminFirst(%v) = %d, want %d", c, got, want)
			}
		}
	}
}

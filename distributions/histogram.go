package distributions

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// DefaultMaxBins is the bin budget 3σPredict uses for every feature value's
// runtime histogram (Park et al., 3Sigma, EuroSys 2018, §4.1).
const DefaultMaxBins = 80

// maxBinsLimit bounds the bin budget so that a corrupt serialised histogram
// cannot ask for an absurd allocation; real histograms use tens of bins.
const maxBinsLimit = 1 << 20

// MinWeight and MaxCount bound the weights a Histogram accepts. Up to 2^53
// every integer count is exact in a float64, so Merge conserves counts
// exactly; no runtime history comes near it. A weight below 1e-6 carries no
// information a scheduler could use, and the floor keeps every bin's half
// mass and normalised mass far from underflow.
const (
	MinWeight = 1e-6
	MaxCount  = 1 << 53
)

// ErrEmpty is returned (wrapped) when a distribution is requested from a
// histogram that has seen no values.
var ErrEmpty = errors.New("distributions: empty histogram")

// Bin is one bin of a Histogram: Count values (a weight, in general) whose
// mean is Centroid seconds.
type Bin struct {
	Centroid float64 `json:"c"`
	Count    float64 `json:"n"`
}

// Histogram is the streaming histogram of Ben-Haim & Tom-Tov ("A Streaming
// Parallel Decision Tree Algorithm", JMLR 11, 2010): at most MaxBins bins
// (centroid p_i, count m_i) with p_1 < … < p_B, plus the exact minimum,
// maximum and total count N of the values added, in seconds.
//
// Update is the paper's Algorithm 1 (insert the value as a bin of count 1,
// then, if there are more than MaxBins bins, merge one adjacent pair into a
// bin at their count-weighted mean). Merge is Algorithm 2 (union the bins,
// then merge pairs down to MaxBins). Sum is the paper's "sum" procedure and
// UniformSplits its "uniform" procedure.
//
// # Which pair is merged
//
// The paper merges the pair with the closest centroids (PaperGap). That
// makes the bins roughly equal in width, which fails on heavy-tailed
// runtimes: with 10^5 lognormal(7, 1.2) samples the first of 80 bins holds
// 62% of the mass and the KS distance to the true CDF is 0.062 (0.29 for
// lognormal(3, 2), 0.032 for a two-mode mixture). The default rule,
// WeightedGap, merges the pair minimising (p_{i+1} − p_i)·(m_i + m_{i+1})²,
// so light bins far apart go before heavy bins close together; at steady
// state bin widths scale like f^{−2/3} and masses like f^{1/3} for a
// density f. On the same inputs the KS distance is 0.0027, 0.0024 and
// 0.0033, and merging shards in different orders changes the result by a
// KS distance of 0.002 instead of 0.045. Everything else (bins, centroids,
// sum, uniform, Algorithm 2's union) is the paper's. Ties go to the
// leftmost pair.
//
// # Density model
//
// The paper's density is a trapezoid between adjacent centroids, with mass
// (m_i + m_{i+1})/2 between p_i and p_{i+1}. Package utility needs a
// piecewise-uniform density, so Histogram uses the split that keeps the
// paper's mass on each side of every centroid: bin i puts m_i/2 uniformly on
// [L_i, p_i] and m_i/2 uniformly on [p_i, R_i], where
//
//	L_1 = min,  L_i = (p_{i−1} + p_i)/2,  R_i = L_{i+1},  R_B = max.
//
// Hence F(p_i)·N = Σ_{j<i} m_j + m_i/2 exactly as in the paper's sum, the
// support is exactly [min, max], and a half whose ends coincide (a single
// value, a centroid equal to min or max) is a point mass. CDF, Survival,
// Quantile, Mean, Rand and Segments all follow this one model, so CDF is the
// integral of Segments. Between centroids the model differs from the paper's
// trapezoid by at most |m_{i+1} − m_i|/8 counts (Sum returns the
// trapezoid). SampleMean is the exact mean of the values added; Mean is the
// model's mean, consistent with Segments.
//
// # Empty histogram
//
// With no values CDF is 0 and Survival 1 everywhere; Quantile, Mean,
// SampleMean, Min, Max and Rand return NaN; Segments returns nil; Snapshot
// returns ErrEmpty.
//
// # Cost and concurrency
//
// Update and Merge mutate; every other method only reads, so concurrent
// readers are safe once writers are done (the usual map-like rule). Update is
// allocation-free once the bins slice has grown. On a full histogram it is
// a binary search and, in most updates (the new value merged into a
// neighbour), a few pair costs; when an older pair is merged, a short copy
// and, on the next update, a scan for the cheapest pair: O(MaxBins) at
// worst. CDF and Survival are a binary search plus a sum of bin counts,
// Quantile a running sum; none allocates. Take a Snapshot for O(log B)
// queries on a frozen copy.
//
// The zero value is an empty histogram with DefaultMaxBins bins.
type Histogram struct {
	maxBins  int
	rule     MergeRule
	bins     []Bin // strictly increasing centroids, counts > 0
	count    float64
	min, max float64
	// inexact is set once a bin count may be fractional; then count (the
	// running total) and Σ m_i can differ by rounding, and the model
	// normalises by a fresh Σ m_i. With whole weights both are exact
	// integers below 2^53 and equal, so count is used directly.
	inexact bool
	// cost[i] caches pairCost(bins[i], bins[i+1]), so an Update rescans
	// len(bins)−1 floats instead of recomputing every pair.
	cost []float64
	// minAt is argminFirst(cost) when minKnown. Most updates of a full
	// histogram merge the new value into a neighbour, which leaves the
	// cheapest old pair in place, so its position carries over and the
	// next update need not scan (insertMerging).
	minAt    int
	minKnown bool
}

// mass returns the model's normaliser N = Σ m_i.
func (h *Histogram) mass() float64 {
	if !h.inexact {
		return h.count
	}
	return sumCounts(h.bins)
}

var _ Piecewise = (*Histogram)(nil)

// NewHistogram returns an empty histogram with at most maxBins bins and the
// WeightedGap merge rule. maxBins < 1 selects DefaultMaxBins; values above
// 2^20 are capped there.
func NewHistogram(maxBins int) *Histogram {
	switch {
	case maxBins < 1:
		maxBins = DefaultMaxBins
	case maxBins > maxBinsLimit:
		maxBins = maxBinsLimit
	}
	return &Histogram{maxBins: maxBins}
}

// NewHistogramRule is NewHistogram with an explicit merge rule; it returns
// an error wrapping ErrInvalid for an unknown rule.
func NewHistogramRule(maxBins int, rule MergeRule) (*Histogram, error) {
	if !rule.valid() {
		return nil, fmt.Errorf("%w: unknown merge rule %d", ErrInvalid, rule)
	}
	h := NewHistogram(maxBins)
	h.rule = rule
	return h, nil
}

// Rule returns the merge rule.
func (h *Histogram) Rule() MergeRule { return h.rule }

// MaxBins returns the bin budget.
func (h *Histogram) MaxBins() int {
	if h.maxBins < 1 {
		return DefaultMaxBins
	}
	return h.maxBins
}

// Count returns the total count (sum of weights) of the values added. With
// whole weights it equals the sum of the bin counts exactly; after
// fractional weights the two can differ by rounding, and the model (CDF,
// Segments, …) normalises by the sum of the bin counts.
func (h *Histogram) Count() float64 { return h.count }

// Len returns the number of bins in use.
func (h *Histogram) Len() int { return len(h.bins) }

// Bins returns a copy of the bins, sorted by centroid.
func (h *Histogram) Bins() []Bin { return slices.Clone(h.bins) }

// Min returns the smallest value added (NaN if empty).
func (h *Histogram) Min() float64 {
	if h.count == 0 {
		return math.NaN()
	}
	return h.min
}

// Max returns the largest value added (NaN if empty): the upper end of the
// support, as Dist requires.
func (h *Histogram) Max() float64 {
	if h.count == 0 {
		return math.NaN()
	}
	return h.max
}

// Clone returns an independent copy.
func (h *Histogram) Clone() *Histogram {
	c := *h
	c.bins = make([]Bin, len(h.bins), len(h.bins)+1)
	copy(c.bins, h.bins)
	c.cost = make([]float64, len(h.cost), len(h.bins)+1)
	copy(c.cost, h.cost)
	return &c
}

// Reset empties the histogram, keeping its bin budget and storage.
func (h *Histogram) Reset() {
	h.bins = h.bins[:0]
	h.cost = h.cost[:0]
	h.minKnown = false
	h.count, h.min, h.max = 0, 0, 0
	h.inexact = false
}

// Update adds one runtime v (seconds). v must be finite and ≥ 0 and the
// count below MaxCount; otherwise the histogram is unchanged and the error
// wraps ErrInvalid.
func (h *Histogram) Update(v float64) error {
	if !(v >= 0 && v <= math.MaxFloat64) {
		return fmt.Errorf("%w: histogram value %v must be a finite runtime ≥ 0", ErrInvalid, v)
	}
	if h.count > MaxCount-1 {
		return fmt.Errorf("%w: histogram count would exceed %v", ErrInvalid, float64(MaxCount))
	}
	h.add(v, 1)
	return nil
}

// UpdateWeighted adds runtime v (seconds) with weight w, as if v had been
// added w times (w need not be an integer, e.g. for decayed histories). v
// must be finite and ≥ 0, w in [MinWeight, MaxCount], and the total count
// must stay ≤ MaxCount; otherwise the histogram is unchanged and the error
// wraps ErrInvalid.
func (h *Histogram) UpdateWeighted(v, w float64) error {
	if !(v >= 0 && v <= math.MaxFloat64) {
		return fmt.Errorf("%w: histogram value %v must be a finite runtime ≥ 0", ErrInvalid, v)
	}
	if !(w >= MinWeight && w <= MaxCount) {
		return fmt.Errorf("%w: histogram weight %v must be in [%v, %v]", ErrInvalid, w, MinWeight, float64(MaxCount))
	}
	if w > MaxCount-h.count {
		return fmt.Errorf("%w: histogram count would exceed %v adding weight %v", ErrInvalid, float64(MaxCount), w)
	}
	if w != math.Trunc(w) {
		h.inexact = true
	}
	h.add(v, w)
	return nil
}

// add is Algorithm 1 for a validated value.
func (h *Histogram) add(v, w float64) {
	if v == 0 {
		v = 0 // fold −0 into +0 so serialisation is canonical
	}
	if h.count == 0 {
		h.min, h.max = v, v
	} else if v < h.min {
		h.min = v
	} else if v > h.max {
		h.max = v
	}
	h.count += w

	bins := h.bins
	lo, hi := 0, len(bins)
	for lo < hi { // first bin with centroid ≥ v
		m := int(uint(lo+hi) >> 1)
		if bins[m].Centroid < v {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(bins) && bins[lo].Centroid == v {
		bins[lo].Count += w
		h.refreshCosts(lo)
		return
	}
	if len(bins) >= 2 && len(bins) == h.MaxBins() {
		h.insertMerging(lo, Bin{Centroid: v, Count: w})
		return
	}
	if cap(bins) == 0 {
		n := min(h.MaxBins()+1, 2*DefaultMaxBins+1)
		bins = make([]Bin, 0, n)
		h.cost = make([]float64, 0, n)
	}
	bins = append(bins, Bin{})
	copy(bins[lo+1:], bins[lo:len(bins)-1])
	bins[lo] = Bin{Centroid: v, Count: w}
	h.bins = bins
	if len(bins) > 1 { // one more pair: open a cost slot at lo
		h.cost = append(h.cost, 0)
		if lo < len(h.cost) {
			copy(h.cost[lo+1:], h.cost[lo:len(h.cost)-1])
		}
		h.refreshCosts(lo)
	}
	if len(bins) > h.MaxBins() {
		h.mergeCheapest()
	}
}

// insertMerging is the insert-then-merge of add for a full histogram
// (len(bins) = MaxBins ≥ 2), new bin b going to position lo, done in one
// pass: the cheapest pair after the insertion is found among the old pair
// costs (less the pair b splits) and b's two new pairs, and the bins
// between b's place and the merged pair move by one slot once, instead of
// the whole tail moving right for the insertion and left for the merge.
// The result — bins, costs, tie-breaking to the leftmost pair — is exactly
// that of inserting and then calling mergeCheapest.
func (h *Histogram) insertMerging(lo int, b Bin) {
	bins, cost := h.bins, h.cost
	n := len(bins)
	// The pairs after the insertion, in order: cost[:lo−1], (lo−1, b),
	// (b, lo), cost[lo:]. The first smallest wins.
	const (
		mergePrefix = iota
		mergeLeft
		mergeRight
		mergeSuffix
	)
	which, q, best := -1, 0, 0.0
	take := func(kind, at int, c float64) {
		if which < 0 || c < best {
			which, q, best = kind, at, c
		}
	}
	// old is the first cheapest old pair other than the split one, lo−1:
	// the cached cheapest pair when that is not lo−1 (leaving lo−1 out
	// then changes nothing), else the cheaper of the scans of both sides
	// (the left one on a tie). Only old can win for its side: the other
	// side's cheapest is no cheaper and, on the right, comes later.
	old := -1
	if h.minKnown && h.minAt != lo-1 {
		old = h.minAt
	} else {
		if lo >= 2 {
			old = argminFirst(cost[:lo-1])
		}
		if lo < n-1 {
			if at := lo + argminFirst(cost[lo:]); old < 0 || cost[at] < cost[old] {
				old = at
			}
		}
	}
	if old >= 0 && old < lo-1 {
		take(mergePrefix, old, cost[old])
	}
	var cL, cR float64
	if lo >= 1 {
		cL = pairCost(bins[lo-1], b, h.rule)
		take(mergeLeft, lo-1, cL)
	}
	if lo < n {
		cR = pairCost(b, bins[lo], h.rule)
		take(mergeRight, lo, cR)
	}
	if old >= lo {
		take(mergeSuffix, old, cost[old])
	}
	switch which {
	case mergeLeft: // b joins bin lo−1: pairs lo−2 and lo−1 change
		bins[lo-1] = combine(bins[lo-1], b)
		h.refreshCosts(lo - 1)
		h.keepMin(old, lo-2, lo-1)
	case mergeRight: // b joins bin lo: pairs lo−1 and lo change
		bins[lo] = combine(b, bins[lo])
		h.refreshCosts(lo)
		h.keepMin(old, lo-1, lo)
	case mergePrefix: // bins q and q+1 merge (q < lo−1); q+2…lo−1 move left
		bins[q] = combine(bins[q], bins[q+1])
		copy(bins[q+1:lo-1], bins[q+2:lo])
		bins[lo-1] = b
		copy(cost[q:lo-2], cost[q+1:lo-1])
		cost[lo-2] = cL // when q = lo−2, refreshCosts(q) recomputes it
		if lo < n {
			cost[lo-1] = cR
		}
		h.refreshCosts(q)
	case mergeSuffix: // bins q and q+1 merge (q ≥ lo); lo…q−1 move right
		merged := combine(bins[q], bins[q+1])
		copy(bins[lo+1:q+1], bins[lo:q])
		bins[lo] = b
		bins[q+1] = merged
		copy(cost[lo+1:q+1], cost[lo:q])
		if lo >= 1 {
			cost[lo-1] = cL
		}
		cost[lo] = cR // when q = lo, refreshCosts(q+1) recomputes it
		h.refreshCosts(q + 1)
	}
}

// keepMin sets the cached cheapest pair after an update that changed only
// pairs a and a+1 = b (either may be out of range), given old, the first
// cheapest of the other pairs before it (−1: none). When old is one of the
// changed pairs the cache stays unknown.
func (h *Histogram) keepMin(old, a, b int) {
	if old < 0 || old == a || old == b {
		return
	}
	at := old
	for _, p := range [2]int{a, b} {
		if p >= 0 && p < len(h.cost) && (h.cost[p] < h.cost[at] || (h.cost[p] == h.cost[at] && p < at)) {
			at = p
		}
	}
	h.minAt, h.minKnown = at, true
}

// pairCost is the merge cost of adjacent bins a < b under rule: the gap
// p_b − p_a, times (m_a + m_b)² for WeightedGap. The product is not
// normalised (so it can be cached across updates); it stays finite for any
// centroid below ~1e276 s, and beyond that the tie at +Inf goes to the
// leftmost pair — still a valid histogram, never NaN.
func pairCost(a, b Bin, rule MergeRule) float64 {
	d := b.Centroid - a.Centroid
	if rule == PaperGap {
		return d
	}
	m := a.Count + b.Count
	return d * (m * m)
}

// refreshCosts recomputes the cached costs of the (up to) two pairs that
// include bin i.
func (h *Histogram) refreshCosts(i int) {
	h.minKnown = false
	if i > 0 {
		h.cost[i-1] = pairCost(h.bins[i-1], h.bins[i], h.rule)
	}
	if i+1 < len(h.bins) {
		h.cost[i] = pairCost(h.bins[i], h.bins[i+1], h.rule)
	}
}

// rebuildCosts recomputes every cached pair cost.
func (h *Histogram) rebuildCosts() {
	h.minKnown = false
	n := max(len(h.bins)-1, 0)
	if cap(h.cost) < n {
		h.cost = make([]float64, n, cap(h.bins))
	}
	h.cost = h.cost[:n]
	for i := range h.cost {
		h.cost[i] = pairCost(h.bins[i], h.bins[i+1], h.rule)
	}
}

// mergeCheapest merges the adjacent pair with the smallest cached cost (the
// leftmost on ties) and keeps the cost cache in step.
func (h *Histogram) mergeCheapest() {
	cost := h.cost
	q := argminFirst(cost)
	bins := h.bins
	bins[q] = combine(bins[q], bins[q+1])
	copy(bins[q+1:], bins[q+2:])
	h.bins = bins[:len(bins)-1]
	copy(cost[q:], cost[q+1:])
	h.cost = cost[:len(cost)-1]
	h.refreshCosts(q)
}

// argminFirst returns the index of the first smallest element of c
// (non-empty, no NaN). It runs four independent lanes (element i in lane
// i mod 4), each keeping its smallest value and where that first occurred
// — a single chain of compare-and-branch is about twice as slow at 80
// elements — and returns the first position among the lanes holding the
// overall minimum.
func argminFirst(c []float64) int {
	m0, m1, m2, m3 := c[0], c[0], c[0], c[0]
	i0, i1, i2, i3 := 0, 0, 0, 0
	i := 0
	for ; i+4 <= len(c); i += 4 {
		if c[i] < m0 {
			m0, i0 = c[i], i
		}
		if c[i+1] < m1 {
			m1, i1 = c[i+1], i+1
		}
		if c[i+2] < m2 {
			m2, i2 = c[i+2], i+2
		}
		if c[i+3] < m3 {
			m3, i3 = c[i+3], i+3
		}
	}
	for ; i < len(c); i++ { // the tail comes after every lane's elements
		if c[i] < m0 {
			m0, i0 = c[i], i
		}
	}
	// Lanes start at c[0] with position 0, so a lane whose own elements
	// never beat c[0] reports position 0, where that value first occurs.
	m, at := m0, i0
	for _, l := range [...]struct {
		m float64
		i int
	}{{m1, i1}, {m2, i2}, {m3, i3}} {
		if l.m < m || (l.m == m && l.i < at) {
			m, at = l.m, l.i
		}
	}
	return at
}

// mergeCheapestOnce is mergeCheapest without a cache, for Merge's union:
// it merges the cheapest adjacent pair of bins and returns the shortened
// slice. len(bins) ≥ 2.
func mergeCheapestOnce(bins []Bin, rule MergeRule) []Bin {
	q, best := 0, pairCost(bins[0], bins[1], rule)
	for i := 1; i+1 < len(bins); i++ {
		if c := pairCost(bins[i], bins[i+1], rule); c < best {
			q, best = i, c
		}
	}
	bins[q] = combine(bins[q], bins[q+1])
	copy(bins[q+1:], bins[q+2:])
	return bins[:len(bins)-1]
}

// combine returns the bin at the count-weighted mean of a and b
// (a.Centroid < b.Centroid), written so that rounding keeps the centroid in
// [a.Centroid, b.Centroid] and centroids stay strictly increasing.
func combine(a, b Bin) Bin {
	m := a.Count + b.Count
	c := a.Centroid + (b.Centroid-a.Centroid)*(b.Count/m)
	c = math.Min(math.Max(c, a.Centroid), b.Centroid)
	return Bin{Centroid: c, Count: m}
}

// Merge adds every value summarised by o into h (the paper's Algorithm 2:
// union the bins, then merge pairs down to h's bin budget with h's rule). Min, max
// and count combine exactly. The result does not depend on which histogram
// is the receiver when both have the same budget and rule. o is unchanged; o == h is
// allowed. The error (wrapping ErrInvalid) reports a count overflow, in
// which case h is unchanged.
func (h *Histogram) Merge(o *Histogram) error {
	if o == nil || o.count == 0 {
		return nil
	}
	if o.count > MaxCount-h.count {
		return fmt.Errorf("%w: merged histogram count %v would exceed %v", ErrInvalid, h.count+o.count, float64(MaxCount))
	}
	if h.count == 0 {
		h.min, h.max = o.min, o.max
	} else {
		h.min = math.Min(h.min, o.min)
		h.max = math.Max(h.max, o.max)
	}
	h.count += o.count
	h.inexact = h.inexact || o.inexact

	a, b := h.bins, o.bins
	u := make([]Bin, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i].Centroid < b[j].Centroid:
			u = append(u, a[i])
			i++
		case a[i].Centroid > b[j].Centroid:
			u = append(u, b[j])
			j++
		default:
			u = append(u, Bin{Centroid: a[i].Centroid, Count: a[i].Count + b[j].Count})
			i++
			j++
		}
	}
	u = append(u, a[i:]...)
	u = append(u, b[j:]...)
	for len(u) > h.MaxBins() {
		u = mergeCheapestOnce(u, h.rule)
	}
	if cap(h.bins) < len(u) {
		h.bins = make([]Bin, 0, min(h.MaxBins()+1, max(len(u), 2*DefaultMaxBins)+1))
	}
	h.bins = append(h.bins[:0], u...)
	h.rebuildCosts()
	return nil
}

// edges returns the left and right ends [L_i, R_i] of bin i's support under
// the density model (see the type's doc).
func (h *Histogram) edges(i int) (lo, hi float64) {
	b := h.bins
	if i == 0 {
		lo = h.min
	} else {
		lo = midpoint(b[i-1].Centroid, b[i].Centroid)
	}
	if i == len(b)-1 {
		hi = h.max
	} else {
		hi = midpoint(b[i].Centroid, b[i+1].Centroid)
	}
	return lo, hi
}

// midpoint returns (a + b)/2 for 0 ≤ a ≤ b without overflow, in [a, b].
func midpoint(a, b float64) float64 { return a + (b-a)/2 }

// below returns the model's count of values ≤ t (N·F(t)), for
// min ≤ t < max and a non-empty histogram. With k the first bin whose
// centroid is above t, t lies between p_{k−1} and p_k: in the right half of
// bin k−1 or the left half of bin k (whose shared edge is their midpoint).
func (h *Histogram) below(t float64) float64 {
	b := h.bins
	k := h.firstCentroidAbove(t)
	n := len(b)
	switch {
	case k == 0: // left half of bin 0, [min, p_0], with p_0 > t ≥ min
		return b[0].Count / 2 * ((t - h.min) / (b[0].Centroid - h.min))
	case k == n: // right half of the last bin, [p_{n−1}, max], max > t
		c := b[n-1].Centroid
		return sumCounts(b[:n-1]) + b[n-1].Count/2 + b[n-1].Count/2*((t-c)/(h.max-c))
	}
	l, r := b[k-1], b[k]
	mid := midpoint(l.Centroid, r.Centroid)
	acc := sumCounts(b[:k-1]) + l.Count/2
	if t < mid { // mid > t ≥ p_{k−1}
		return acc + l.Count/2*((t-l.Centroid)/(mid-l.Centroid))
	}
	return acc + l.Count/2 + r.Count/2*((t-mid)/(r.Centroid-mid)) // p_k > t ≥ mid
}

// above returns the model's count of values > t (N·S(t)), for
// min ≤ t < max and a non-empty histogram, summed from the top so that
// small tail probabilities keep their precision.
func (h *Histogram) above(t float64) float64 {
	b := h.bins
	k := h.firstCentroidAbove(t)
	n := len(b)
	switch {
	case k == 0:
		c := b[0].Centroid
		return sumCounts(b[1:]) + b[0].Count/2 + b[0].Count/2*((c-t)/(c-h.min))
	case k == n:
		c := b[n-1].Centroid
		return b[n-1].Count / 2 * ((h.max - t) / (h.max - c))
	}
	l, r := b[k-1], b[k]
	mid := midpoint(l.Centroid, r.Centroid)
	acc := sumCounts(b[k+1:]) + r.Count/2
	if t < mid {
		return acc + r.Count/2 + l.Count/2*((mid-t)/(mid-l.Centroid))
	}
	return acc + r.Count/2*((r.Centroid-t)/(r.Centroid-mid))
}

// firstCentroidAbove returns the index of the first bin whose centroid is
// greater than t (len(bins) if none).
func (h *Histogram) firstCentroidAbove(t float64) int {
	b := h.bins
	lo, hi := 0, len(b)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if b[m].Centroid > t {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// sumCounts returns Σ Count over bins with four independent accumulators,
// so the loop is not one long chain of dependent additions.
func sumCounts(bins []Bin) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(bins); i += 4 {
		s0 += bins[i].Count
		s1 += bins[i+1].Count
		s2 += bins[i+2].Count
		s3 += bins[i+3].Count
	}
	for ; i < len(bins); i++ {
		s0 += bins[i].Count
	}
	return (s0 + s1) + (s2 + s3)
}

// CDF returns the model's P(T ≤ t) (0 for an empty histogram).
func (h *Histogram) CDF(t float64) float64 {
	switch {
	case t != t:
		return math.NaN()
	case h.count == 0 || t < h.min:
		return 0
	case t >= h.max:
		return 1
	}
	return math.Min(h.below(t)/h.mass(), 1)
}

// Survival returns the model's P(T > t), summed from the upper tail (1 for
// an empty histogram).
func (h *Histogram) Survival(t float64) float64 {
	switch {
	case t != t:
		return math.NaN()
	case h.count == 0 || t < h.min:
		return 1
	case t >= h.max:
		return 0
	}
	return math.Min(h.above(t)/h.mass(), 1)
}

// Sum is the paper's sum procedure: the estimated number of values ≤ b.
// Between the first and last centroid it is the trapezoid rule,
//
//	Σ_{j<i} m_j + m_i/2 + (m_i + m_b)/2 · (b − p_i)/(p_{i+1} − p_i),
//	m_b = m_i + (m_{i+1} − m_i)·(b − p_i)/(p_{i+1} − p_i),
//
// for p_i ≤ b < p_{i+1}. Outside [p_1, p_B], where the paper leaves it
// undefined, it is N·CDF(b), which meets the trapezoid continuously at p_1
// and p_B. It agrees with N·CDF(b) at every centroid.
func (h *Histogram) Sum(b float64) float64 {
	bins := h.bins
	n := len(bins)
	switch {
	case b != b:
		return math.NaN()
	case n == 0:
		return 0
	case b < bins[0].Centroid || b >= bins[n-1].Centroid:
		return h.mass() * h.CDF(b)
	}
	acc := 0.0
	i := 0
	for ; bins[i+1].Centroid <= b; i++ {
		acc += bins[i].Count
	}
	pi, pj := bins[i].Centroid, bins[i+1].Centroid
	mi, mj := bins[i].Count, bins[i+1].Count
	f := (b - pi) / (pj - pi)
	mb := mi + (mj-mi)*f
	return acc + mi/2 + (mi+mb)/2*f
}

// UniformSplits is the paper's uniform procedure: k−1 points
// u_1 < … < u_{k−1} with Sum(u_j) = j·N/k, found by solving the trapezoid
// quadratic between the centroids that bracket j·N/k. Targets below Sum(p_1)
// or above Sum(p_B) use Quantile. It returns nil if k < 2 or the histogram
// is empty.
func (h *Histogram) UniformSplits(k int) []float64 {
	bins := h.bins
	n := len(bins)
	if k < 2 || n == 0 {
		return nil
	}
	total := h.mass()
	out := make([]float64, 0, k-1)
	i, acc := 0, 0.0 // acc = Σ_{j<i} m_j
	for j := 1; j < k; j++ {
		s := float64(j) * total / float64(k)
		if s < bins[0].Count/2 || s >= total-bins[n-1].Count/2 || n == 1 {
			out = append(out, h.Quantile(float64(j)/float64(k)))
			continue
		}
		// Advance to the i with Sum(p_i) ≤ s < Sum(p_{i+1}).
		for i+1 < n-1 && acc+bins[i].Count+bins[i+1].Count/2 <= s {
			acc += bins[i].Count
			i++
		}
		d := s - (acc + bins[i].Count/2)
		// Solve d = m_i·z + (m_{i+1} − m_i)·z²/2 for z in [0, 1] in the
		// cancellation-free form z = 2d / (m_i + √(m_i² + 2(m_{i+1} − m_i)d)).
		mi, mj := bins[i].Count, bins[i+1].Count
		z := 2 * d / (mi + math.Sqrt(math.Max(0, mi*mi+2*(mj-mi)*d)))
		z = math.Min(math.Max(z, 0), 1)
		out = append(out, bins[i].Centroid+(bins[i+1].Centroid-bins[i].Centroid)*z)
	}
	return out
}

// Quantile returns the model's smallest t with CDF(t) ≥ q: min for q ≤ 0,
// max for q ≥ 1, NaN for an empty histogram or NaN q.
func (h *Histogram) Quantile(q float64) float64 {
	switch {
	case q != q || h.count == 0:
		return math.NaN()
	case q <= 0:
		return h.min
	case q >= 1:
		return h.max
	}
	target := q * h.mass()
	acc := 0.0
	b := h.bins
	for i := range b {
		half := b[i].Count / 2
		if acc+b[i].Count < target {
			acc += b[i].Count
			continue
		}
		lo, hi := h.edges(i)
		c := b[i].Centroid
		if acc+half >= target {
			return invertUniform(lo, c, (target-acc)/half)
		}
		acc += half
		return invertUniform(c, hi, (target-acc)/half)
	}
	return h.max
}

// Mean returns the model's mean, Σ_i (m_i/2)·((L_i + p_i)/2 + (p_i + R_i)/2) / N
// seconds; it is the mean of Segments. NaN if empty.
func (h *Histogram) Mean() float64 {
	if h.count == 0 {
		return math.NaN()
	}
	s, total := 0.0, h.mass()
	for i, b := range h.bins {
		lo, hi := h.edges(i)
		w := b.Count / total / 2 // each half's probability; keeps every term ≤ max
		s += w*midpoint(lo, b.Centroid) + w*midpoint(b.Centroid, hi)
	}
	return math.Min(math.Max(s, h.min), h.max) // the clamp only removes rounding
}

// SampleMean returns Σ p_i·m_i / N, the exact mean of the values added up to
// rounding (merging bins preserves Σ p_i·m_i). NaN if empty.
func (h *Histogram) SampleMean() float64 {
	if h.count == 0 {
		return math.NaN()
	}
	s, total := 0.0, h.mass()
	for _, b := range h.bins {
		s += b.Centroid * (b.Count / total)
	}
	return math.Min(math.Max(s, h.min), h.max)
}

// Rand draws from the model by inversion, Quantile(U) with U from r (NaN if
// empty).
func (h *Histogram) Rand(r *rand.Rand) float64 { return h.Quantile(r.Float64()) }

// Segments returns the model as sorted segments whose masses sum to 1: two
// per bin, [L_i, p_i] and [p_i, R_i] with mass m_i/(2N) each, zero-width
// halves being point masses (adjacent point masses at one place are
// combined). nil if empty.
func (h *Histogram) Segments() []Segment {
	if h.count == 0 {
		return nil
	}
	total := h.mass()
	out := make([]Segment, 0, 2*len(h.bins))
	push := func(lo, hi, m float64) {
		if n := len(out); n > 0 && lo == hi && out[n-1].Lo == lo && out[n-1].Hi == hi {
			out[n-1].Mass += m
			return
		}
		out = append(out, Segment{Lo: lo, Hi: hi, Mass: m})
	}
	for i, b := range h.bins {
		lo, hi := h.edges(i)
		half := b.Count / 2 / total
		push(lo, b.Centroid, half)
		push(b.Centroid, hi, half)
	}
	return out
}

// Snapshot returns an immutable copy of the model as a *PiecewiseUniform
// with O(log B) queries, or ErrEmpty if no values were added.
func (h *Histogram) Snapshot() (*PiecewiseUniform, error) {
	if h.count == 0 {
		return nil, ErrEmpty
	}
	return newPiecewiseTrusted(h.Segments()), nil
}

package distributions

import (
	"fmt"
	"math"
	"slices"
)

// Estimator is one of 3σPredict's four point-estimation techniques
// (3sigma §4.1). Together with a feature value it forms an expert.
type Estimator uint8

const (
	// EstMean is the mean of every runtime seen for the feature value.
	EstMean Estimator = iota
	// EstMedian is the median of the last MedianWindow runtimes (the mean
	// of the two middle ones for an even count), the paper's streaming
	// proxy for the median.
	EstMedian
	// EstEWMA is the exponentially weighted moving average
	// e ← α·x + (1 − α)·e with α = Alpha (0.6), started at the first runtime.
	EstEWMA
	// EstRecentMean is the mean of the last RecentWindow runtimes.
	EstRecentMean

	numEstimators = 4
)

// String returns "mean", "median", "ewma" or "recent-mean".
func (e Estimator) String() string {
	switch e {
	case EstMean:
		return "mean"
	case EstMedian:
		return "median"
	case EstEWMA:
		return "ewma"
	case EstRecentMean:
		return "recent-mean"
	}
	return fmt.Sprintf("Estimator(%d)", uint8(e))
}

// ParseEstimator parses the String form of an Estimator.
func ParseEstimator(s string) (Estimator, error) {
	for e := range Estimator(numEstimators) {
		if e.String() == s {
			return e, nil
		}
	}
	return 0, fmt.Errorf("%w: unknown estimator %q (want mean, median, ewma or recent-mean)", ErrInvalid, s)
}

// Expert is a (feature value, estimator) pair. The zero Feature denotes the
// global history (all jobs), used as the fallback.
type Expert struct {
	Feature   Feature
	Estimator Estimator
}

// String returns "kind=value/estimator", or "global/estimator".
func (x Expert) String() string {
	if x.Feature.Kind == "" {
		return "global/" + x.Estimator.String()
	}
	return x.Feature.String() + "/" + x.Estimator.String()
}

// featureState is the constant-size state of one feature value (or of the
// global history): the runtime histogram, the estimators' state and their
// running absolute errors. Memory is O(MaxBins + MedianWindow) whatever the
// number of runtimes.
type featureState struct {
	hist *Histogram
	n    uint64  // runtimes observed
	sum  float64 // Σ x, for EstMean
	ewma float64 // EstEWMA's current value (valid when n ≥ 1)
	// ring holds the last min(n, window) runtimes. It grows to window
	// slots and then wraps: head is the next slot written, which is the
	// oldest runtime once the ring is full and len(ring) before that.
	ring   []float64
	head   int
	window int // MedianWindow
	// sorted holds the ring's runtimes in increasing order, so that scoring
	// EstMedian on every runtime costs O(window) moves instead of a sort.
	sorted []float64
	// scored is Σ x over the runtimes that arrived when an estimate existed
	// (all but the first), the NMAE denominator shared by every estimator;
	// absErr[e] is Σ |estimate_e − x| over the same runtimes.
	scored float64
	absErr [numEstimators]float64
	// snap caches the histogram's immutable snapshot; nil when stale.
	snap *PiecewiseUniform
}

func newFeatureState(cfg *PredictorConfig) *featureState {
	return &featureState{
		hist:   NewHistogram(cfg.MaxBins),
		window: cfg.MedianWindow,
	}
}

// filled returns how many ring slots hold runtimes.
func (s *featureState) filled() int { return len(s.ring) }

// recentSum returns the sum of the last k runtimes (k ≤ filled()).
func (s *featureState) recentSum(k int) float64 {
	sum := 0.0
	i := s.head
	for range k {
		i--
		if i < 0 {
			i = len(s.ring) - 1
		}
		sum += s.ring[i]
	}
	return sum
}

// estimate returns estimator e's point estimate in seconds (n ≥ 1).
func (s *featureState) estimate(e Estimator, cfg *PredictorConfig) float64 {
	switch e {
	case EstMean:
		return s.sum / float64(s.n)
	case EstMedian:
		return s.median()
	case EstEWMA:
		return s.ewma
	default: // EstRecentMean
		k := min(s.filled(), cfg.RecentWindow)
		return s.recentSum(k) / float64(k)
	}
}

// median returns the median of the ring's runtimes, read from the sorted
// copy in O(1).
func (s *featureState) median() float64 {
	k := len(s.sorted)
	if k%2 == 1 {
		return s.sorted[k/2]
	}
	return midpoint(s.sorted[k/2-1], s.sorted[k/2])
}

// observe scores every estimator against x (when there is an estimate),
// then adds x. x is a validated runtime.
func (s *featureState) observe(x float64, cfg *PredictorConfig) {
	if x == 0 {
		x = 0 // fold −0
	}
	if s.n > 0 {
		for e := range Estimator(numEstimators) {
			s.absErr[e] += math.Abs(s.estimate(e, cfg) - x)
		}
		s.scored += x
	}
	_ = s.hist.Update(x) // cannot fail: x is validated and n < MaxCount
	s.sum += x
	if s.n == 0 {
		s.ewma = x
	} else {
		s.ewma = cfg.Alpha*x + (1-cfg.Alpha)*s.ewma
	}
	s.push(x)
	s.n++
	s.snap = nil
}

// push adds x to the ring and its sorted copy, growing both geometrically
// up to window slots (most feature values see few runtimes) and then
// replacing the oldest runtime.
func (s *featureState) push(x float64) {
	if len(s.ring) < s.window {
		if len(s.ring) == cap(s.ring) {
			c := min(max(4, 2*cap(s.ring)), s.window)
			s.ring = append(make([]float64, 0, c), s.ring...)
			s.sorted = append(make([]float64, 0, c), s.sorted...)
		}
		s.ring = append(s.ring, x)
		s.sorted = sortedInsert(s.sorted, x)
	} else {
		s.sorted = sortedRemove(s.sorted, s.ring[s.head])
		s.sorted = sortedInsert(s.sorted, x)
		s.ring[s.head] = x
	}
	s.head++
	if s.head == s.window {
		s.head = 0
	}
}

// sortedInsert inserts x into the increasing slice xs, which has spare
// capacity.
func sortedInsert(xs []float64, x float64) []float64 {
	i, _ := slices.BinarySearch(xs, x)
	return slices.Insert(xs, i, x)
}

// sortedRemove removes one copy of x, which is present, from the increasing
// slice xs.
func sortedRemove(xs []float64, x float64) []float64 {
	i, _ := slices.BinarySearch(xs, x)
	return slices.Delete(xs, i, i+1)
}

// nmae returns estimator e's normalised mean absolute error
// Σ|estimate − actual| / Σ actual over the scored runtimes: NaN when nothing
// was scored (n ≤ 1), 0 when every scored runtime and error was 0, +Inf when
// the runtimes were all 0 but some estimate was not.
func (s *featureState) nmae(e Estimator) float64 {
	switch {
	case s.n <= 1:
		return math.NaN()
	case s.scored > 0:
		return s.absErr[e] / s.scored
	case s.absErr[e] == 0:
		return 0
	}
	return math.Inf(1)
}

// snapshot returns the cached immutable snapshot of the histogram, building
// it if stale (n ≥ 1).
func (s *featureState) snapshot() *PiecewiseUniform {
	if s.snap == nil {
		s.snap, _ = s.hist.Snapshot() // non-empty, so no error
	}
	return s.snap
}

// bestEstimator returns the estimator with the lowest NMAE, the first in
// Estimator order on ties; NaN NMAEs (nothing scored) lose to any number.
func (s *featureState) bestEstimator() (Estimator, float64) {
	best, bestErr := EstMean, s.nmae(EstMean)
	for e := EstMedian; e < numEstimators; e++ {
		if v := s.nmae(e); v < bestErr || (math.IsNaN(bestErr) && !math.IsNaN(v)) {
			best, bestErr = e, v
		}
	}
	return best, bestErr
}

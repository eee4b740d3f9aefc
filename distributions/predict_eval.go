package distributions

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
)

// Estimate-error profile of Fig. 2(d) of 3sigma (§2.1): for each job the
// percent error
//
//	err = (estimate − actual) / actual × 100
//
// is counted in the bucket of its nearest decile, d − 5 ≤ err < d + 5 for
// d = −90, −80, …, +90, or in a tail: err < −95 or err ≥ +95. Bucket bounds
// are half-open, so an error of exactly +95% is in the upper tail and
// exactly −95% in the −90% bucket; errors near a bound may fall either side
// by floating-point rounding. The summary shares are
//
//	factor of two: estimate ≥ 2·actual or 2·estimate ≤ actual (err ≥ 100 or err ≤ −50)
//	within ±5%:    |estimate − actual| ≤ 0.05·actual
//	within ±25%:   |estimate − actual| ≤ 0.25·actual
//	above +95%:    err ≥ +95 (the upper tail bucket)
//	below −55%:    err < −55 (the lower tail and the −90 … −60 buckets)
const (
	numErrorBuckets = 21 // lower tail, 19 deciles, upper tail
	errorTailPct    = 95.0
	errorLowPct     = 55.0
)

// ErrorBucket is one row of an ErrorProfile: jobs whose percent error is in
// [LoPct, HiPct) (−Inf and +Inf for the tails).
type ErrorBucket struct {
	Label        string  // "< -95%", "-90%", …, "+0%", …, "+90%", "≥ +95%"
	LoPct, HiPct float64 // percent error bounds
	Count        int
	Share        float64 // Count / N (0 when N = 0)
}

// MarshalJSON writes the bucket with its infinite tail bounds as null (JSON
// has no infinities).
func (b ErrorBucket) MarshalJSON() ([]byte, error) {
	bound := func(v float64) *float64 {
		if math.IsInf(v, 0) {
			return nil
		}
		return &v
	}
	return json.Marshal(struct {
		Label string   `json:"label"`
		LoPct *float64 `json:"lo_pct"`
		HiPct *float64 `json:"hi_pct"`
		Count int      `json:"count"`
		Share float64  `json:"share"`
	}{b.Label, bound(b.LoPct), bound(b.HiPct), b.Count, b.Share})
}

// ErrorProfile is the estimate-error histogram of Fig. 2(d) over N jobs
// plus the summary shares of §2.1; see EstimateErrors. Shares are fractions
// in [0, 1].
type ErrorProfile struct {
	N int // jobs counted
	// Skipped counts pairs whose actual runtime is 0, for which the
	// percent error is undefined; they are in no bucket or share.
	Skipped     int
	Buckets     []ErrorBucket // lower tail, deciles −90 … +90, upper tail
	FactorOfTwo float64       // share off by a factor of two or more
	Within5     float64       // share within ±5%
	Within25    float64       // share within ±25%
	Above95     float64       // share with error ≥ +95% (over-estimates)
	Below55     float64       // share with error < −55% (under-estimates)
}

// EstimateErrors accumulates (estimate, actual) pairs for an ErrorProfile.
// The zero value is empty and ready to use.
type EstimateErrors struct {
	counts                         [numErrorBuckets]int
	n, skipped                     int
	factorOfTwo, within5, within25 int
	above95, below55               int
}

// Add counts one job with a runtime estimate and its actual runtime, both in
// seconds. Both must be finite and ≥ 0, else the error wraps ErrInvalid and
// nothing is counted. An actual runtime of 0 is counted as skipped.
func (e *EstimateErrors) Add(estimate, actual float64) error {
	if !finiteNonNeg(estimate) || !finiteNonNeg(actual) {
		return fmt.Errorf("%w: estimate %v s and actual %v s must be finite and ≥ 0", ErrInvalid, estimate, actual)
	}
	if actual == 0 {
		e.skipped++
		return nil
	}
	e.n++
	pct := (estimate - actual) / actual * 100
	e.counts[errorBucket(pct)]++
	if pct >= errorTailPct {
		e.above95++
	}
	if pct < -errorLowPct {
		e.below55++
	}
	if estimate >= 2*actual || 2*estimate <= actual {
		e.factorOfTwo++
	}
	diff := math.Abs(estimate - actual)
	if diff <= 0.05*actual {
		e.within5++
	}
	if diff <= 0.25*actual {
		e.within25++
	}
	return nil
}

// errorBucket returns the bucket index of a percent error: 0 for the lower
// tail, 1 + k for decile −90 + 10k, numErrorBuckets − 1 for the upper tail.
func errorBucket(pct float64) int {
	switch {
	case pct < -errorTailPct:
		return 0
	case pct >= errorTailPct:
		return numErrorBuckets - 1
	}
	k := int(math.Floor((pct + errorTailPct) / 10))
	return 1 + min(max(k, 0), numErrorBuckets-3)
}

// Profile returns the profile of the pairs added so far.
func (e *EstimateErrors) Profile() ErrorProfile {
	p := ErrorProfile{N: e.n, Skipped: e.skipped, Buckets: make([]ErrorBucket, numErrorBuckets)}
	share := func(c int) float64 {
		if e.n == 0 {
			return 0
		}
		return float64(c) / float64(e.n)
	}
	for i := range p.Buckets {
		b := ErrorBucket{Count: e.counts[i], Share: share(e.counts[i])}
		switch i {
		case 0:
			b.Label, b.LoPct, b.HiPct = fmt.Sprintf("< -%g%%", errorTailPct), math.Inf(-1), -errorTailPct
		case numErrorBuckets - 1:
			b.Label, b.LoPct, b.HiPct = fmt.Sprintf("≥ +%g%%", errorTailPct), errorTailPct, math.Inf(1)
		default:
			d := float64(-90 + 10*(i-1))
			b.Label, b.LoPct, b.HiPct = fmt.Sprintf("%+g%%", d), d-5, d+5
		}
		p.Buckets[i] = b
	}
	p.FactorOfTwo = share(e.factorOfTwo)
	p.Within5 = share(e.within5)
	p.Within25 = share(e.within25)
	p.Above95 = share(e.above95)
	p.Below55 = share(e.below55)
	return p
}

// ProfileEstimateErrors returns the profile of estimates[i] against
// actuals[i]. The slices must have equal length; a pair rejected by
// EstimateErrors.Add is an error naming its index.
func ProfileEstimateErrors(estimates, actuals []float64) (ErrorProfile, error) {
	if len(estimates) != len(actuals) {
		return ErrorProfile{}, fmt.Errorf("%w: %d estimates for %d actual runtimes", ErrInvalid, len(estimates), len(actuals))
	}
	var e EstimateErrors
	for i := range estimates {
		if err := e.Add(estimates[i], actuals[i]); err != nil {
			return ErrorProfile{}, fmt.Errorf("pair %d: %w", i, err)
		}
	}
	return e.Profile(), nil
}

// WriteTable writes the profile as an aligned text table: one row per
// bucket (label, jobs, percent of jobs), then the summary shares.
func (p ErrorProfile) WriteTable(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%-8s %6s %6s\n", "error", "jobs", "share")
	for _, r := range p.Buckets {
		fmt.Fprintf(&b, "%-8s %6d %5.1f%%\n", r.Label, r.Count, 100*r.Share)
	}
	fmt.Fprintf(&b, "jobs %d", p.N)
	if p.Skipped > 0 {
		fmt.Fprintf(&b, " (%d skipped: actual runtime 0)", p.Skipped)
	}
	fmt.Fprintf(&b, "\nwithin ±5%%: %.1f%%, within ±25%%: %.1f%%, off by 2× or more: %.1f%%\n",
		100*p.Within5, 100*p.Within25, 100*p.FactorOfTwo)
	fmt.Fprintf(&b, "above +%g%%: %.1f%%, below -%g%%: %.1f%%\n",
		errorTailPct, 100*p.Above95, errorLowPct, 100*p.Below55)
	_, err := io.WriteString(w, b.String())
	return err
}

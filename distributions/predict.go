package distributions

import (
	"fmt"
	"math"
	"sync"
)

// Defaults of PredictorConfig. MaxBins and Alpha are the paper's
// (3sigma §4.1); the paper does not give the window sizes, so MedianWindow
// and RecentWindow are our choices: 20 recent runtimes give a median that
// follows a change of regime within ten jobs, and 5 make the recent mean
// react faster than the median but average out single outliers.
// DefaultMinHistory is the number of runtimes a feature value needs before
// its experts compete: with 3 runtimes each expert has been scored on 2
// estimates, so one lucky estimate cannot win.
const (
	DefaultMedianWindow = 20
	DefaultRecentWindow = 5
	DefaultAlpha        = 0.6
	DefaultMinHistory   = 3
)

// MaxPredictRuntime is the largest runtime Observe accepts, 10^12 s (about
// 31,700 years). The bound keeps every running sum of the predictor finite
// (10^12 s × 2^53 runtimes < 10^28), so no NMAE is Inf/Inf.
const MaxPredictRuntime = 1e12

// maxWindow bounds MedianWindow so that a corrupt encoding cannot ask for a
// huge ring per feature value.
const maxWindow = 1 << 16

// PredictorConfig tunes a Predictor. A zero field selects its default.
type PredictorConfig struct {
	// MaxBins is each feature value's histogram bin budget (default 80),
	// in [1, 2^20].
	MaxBins int
	// MedianWindow is R, the number of recent runtimes EstMedian takes the
	// median of (default 20), in [1, 2^16].
	MedianWindow int
	// RecentWindow is X, the number of recent runtimes EstRecentMean
	// averages (default 5), in [1, MedianWindow]: both read one ring.
	RecentWindow int
	// Alpha is EstEWMA's weight on the newest runtime (default 0.6), in (0, 1].
	Alpha float64
	// MinHistory is the number of runtimes a feature value needs before its
	// experts compete (default 3), at least 2 so that every competing
	// expert has scored estimates.
	MinHistory int
}

// withDefaults fills zero fields and validates the result.
func (c PredictorConfig) withDefaults() (PredictorConfig, error) {
	if c.MaxBins == 0 {
		c.MaxBins = DefaultMaxBins
	}
	if c.MedianWindow == 0 {
		c.MedianWindow = DefaultMedianWindow
	}
	if c.RecentWindow == 0 {
		c.RecentWindow = min(DefaultRecentWindow, c.MedianWindow)
	}
	if c.Alpha == 0 {
		c.Alpha = DefaultAlpha
	}
	if c.MinHistory == 0 {
		c.MinHistory = DefaultMinHistory
	}
	switch {
	case c.MaxBins < 1 || c.MaxBins > maxBinsLimit:
		return c, fmt.Errorf("%w: predictor MaxBins %d outside [1, %d]", ErrInvalid, c.MaxBins, maxBinsLimit)
	case c.MedianWindow < 1 || c.MedianWindow > maxWindow:
		return c, fmt.Errorf("%w: predictor MedianWindow %d outside [1, %d]", ErrInvalid, c.MedianWindow, maxWindow)
	case c.RecentWindow < 1 || c.RecentWindow > c.MedianWindow:
		return c, fmt.Errorf("%w: predictor RecentWindow %d outside [1, MedianWindow %d]", ErrInvalid, c.RecentWindow, c.MedianWindow)
	case !(c.Alpha > 0 && c.Alpha <= 1):
		return c, fmt.Errorf("%w: predictor Alpha %v outside (0, 1]", ErrInvalid, c.Alpha)
	case c.MinHistory < 2:
		return c, fmt.Errorf("%w: predictor MinHistory %d must be ≥ 2", ErrInvalid, c.MinHistory)
	}
	return c, nil
}

// Source says where a Prediction came from.
type Source uint8

const (
	// SourceNone: nothing has been observed; the Prediction is empty.
	SourceNone Source = iota
	// SourceExpert: the best expert among the job's feature values.
	SourceExpert
	// SourceGlobal: no feature value of the job has MinHistory runtimes, so
	// the prediction uses the history of all jobs.
	SourceGlobal
)

// String returns "none", "expert" or "global".
func (s Source) String() string {
	switch s {
	case SourceNone:
		return "none"
	case SourceExpert:
		return "expert"
	case SourceGlobal:
		return "global"
	}
	return fmt.Sprintf("Source(%d)", uint8(s))
}

// ParseSource parses the String form of a Source.
func ParseSource(s string) (Source, error) {
	for v := range Source(3) {
		if v.String() == s {
			return v, nil
		}
	}
	return 0, fmt.Errorf("%w: unknown prediction source %q (want none, expert or global)", ErrInvalid, s)
}

// Prediction is 3σPredict's answer for one job.
type Prediction struct {
	Source Source
	// Dist is the runtime distribution (seconds) of the chosen expert's
	// feature value: an immutable snapshot of its histogram that later
	// observations do not change. nil for SourceNone.
	Dist Piecewise
	// Estimate is the chosen expert's point estimate in seconds, the
	// runtime the pointrealest scheduler uses. NaN for SourceNone.
	Estimate float64
	// Expert is the chosen (feature value, estimator); its Feature is the
	// zero Feature for SourceGlobal.
	Expert Expert
	// NMAE is the expert's normalised mean absolute error so far, NaN when
	// it has not been scored yet (a global history of one runtime, or none).
	NMAE float64
	// History is the number of runtimes behind Dist.
	History uint64
}

// Predictor is 3σPredict (3sigma §4.1). For every feature value it keeps a
// streaming histogram of the runtimes of completed jobs with that value, and
// four estimators (Estimator) whose past point estimates are scored by NMAE.
// An expert is a (feature value, estimator) pair; a job gets the histogram
// and point estimate of the expert with the lowest NMAE among its feature
// values that have at least MinHistory runtimes.
//
// NMAE of expert (v, e) after runtimes x_1 … x_n of feature value v:
//
//	NMAE = Σ_{i=2..n} |ê_e(x_1 … x_{i−1}) − x_i| / Σ_{i=2..n} x_i
//
// where ê_e is estimator e's estimate from the runtimes before x_i: each
// runtime scores the estimate the expert would have given for it, before
// the runtime is added.
//
// Ties are broken by a fixed order, so the choice never depends on map
// order or on the order of the job's features: lowest NMAE, then more
// history, then Feature order (Kind, then Value), then Estimator order
// (mean, median, ewma, recent-mean).
//
// When no feature value of the job has MinHistory runtimes, the prediction
// falls back to the global history of all observed jobs (any number of
// runtimes ≥ 1), with its best estimator (SourceGlobal); with no history at
// all it is empty (SourceNone).
//
// Memory is constant per feature value: a histogram of at most MaxBins bins,
// a ring of MedianWindow runtimes and a few sums. Predict costs a map
// lookup and four divisions per feature plus, the first time a feature
// value is chosen after it changed, one histogram snapshot (O(MaxBins)).
//
// A Predictor is safe for concurrent use. The zero value is an empty
// predictor with the default configuration.
type Predictor struct {
	mu     sync.Mutex
	cfg    PredictorConfig
	global *featureState
	states map[Feature]*featureState
}

// NewPredictor returns an empty predictor. nil cfg means every default;
// an out-of-range field is an error wrapping ErrInvalid.
func NewPredictor(cfg *PredictorConfig) (*Predictor, error) {
	var c PredictorConfig
	if cfg != nil {
		c = *cfg
	}
	c, err := c.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Predictor{cfg: c, global: newFeatureState(&c), states: make(map[Feature]*featureState)}, nil
}

// init makes the zero value an empty default predictor; p.mu is held.
func (p *Predictor) init() {
	if p.global == nil {
		p.cfg, _ = PredictorConfig{}.withDefaults() // the defaults are valid
		p.global = newFeatureState(&p.cfg)
		p.states = make(map[Feature]*featureState)
	}
}

// Config returns the configuration with defaults filled in.
func (p *Predictor) Config() PredictorConfig {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.init()
	return p.cfg
}

// Count returns the number of runtimes observed.
func (p *Predictor) Count() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.init()
	return p.global.n
}

// Len returns the number of feature values with history.
func (p *Predictor) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.init()
	return len(p.states)
}

// Observe records the runtime (seconds) of a completed job with features fs.
// Each distinct feature's experts are scored against runtime and then
// updated, as is the global history; a feature repeated in fs counts once.
// It returns an error wrapping ErrInvalid, and changes nothing, if runtime
// is not in [0, MaxPredictRuntime], a feature has an empty Kind, or the
// count would exceed MaxCount.
func (p *Predictor) Observe(fs []Feature, runtime float64) error {
	if !(runtime >= 0 && runtime <= MaxPredictRuntime) {
		return fmt.Errorf("%w: runtime %v s outside [0, %v]", ErrInvalid, runtime, MaxPredictRuntime)
	}
	for i, f := range fs {
		if f.Kind == "" {
			return fmt.Errorf("%w: feature %d (value %q) has an empty kind", ErrInvalid, i, f.Value)
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.init()
	if p.global.n >= MaxCount {
		return fmt.Errorf("%w: predictor already holds %v runtimes", ErrInvalid, float64(MaxCount))
	}
	p.global.observe(runtime, &p.cfg)
	for i, f := range fs {
		if containsFeature(fs[:i], f) {
			continue
		}
		s := p.states[f]
		if s == nil {
			s = newFeatureState(&p.cfg)
			p.states[f] = s
		}
		s.observe(runtime, &p.cfg)
	}
	return nil
}

// containsFeature reports whether f occurs in fs. Feature sets are short
// (about ten), so a scan beats a set.
func containsFeature(fs []Feature, f Feature) bool {
	for _, g := range fs {
		if g == f {
			return true
		}
	}
	return false
}

// Predict returns the runtime prediction for a job with features fs (see
// Predictor for the rule). Unknown features are ignored.
func (p *Predictor) Predict(fs []Feature) Prediction {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.init()
	var (
		best    *featureState
		bestF   Feature
		bestE   Estimator
		bestErr float64
	)
	for _, f := range fs {
		s := p.states[f]
		if s == nil || s.n < uint64(p.cfg.MinHistory) {
			continue
		}
		for e := range Estimator(numEstimators) {
			v := s.nmae(e)
			if best != nil && !expertBefore(v, s.n, f, e, bestErr, best.n, bestF, bestE) {
				continue
			}
			best, bestF, bestE, bestErr = s, f, e, v
		}
	}
	src := SourceExpert
	if best == nil {
		if p.global.n == 0 {
			return Prediction{Source: SourceNone, Estimate: math.NaN(), NMAE: math.NaN()}
		}
		src, best, bestF = SourceGlobal, p.global, Feature{}
		bestE, bestErr = best.bestEstimator()
	}
	return Prediction{
		Source:   src,
		Dist:     best.snapshot(),
		Estimate: best.estimate(bestE, &p.cfg),
		Expert:   Expert{Feature: bestF, Estimator: bestE},
		NMAE:     bestErr,
		History:  best.n,
	}
}

// expertBefore reports whether expert a (NMAE ea, history na) is preferred
// to expert b: lower NMAE, then more history, then Feature order, then
// Estimator order. NMAEs here are never NaN (history ≥ MinHistory ≥ 2).
func expertBefore(ea float64, na uint64, fa Feature, a Estimator, eb float64, nb uint64, fb Feature, b Estimator) bool {
	if ea != eb {
		return ea < eb
	}
	if na != nb {
		return na > nb
	}
	if c := fa.compare(fb); c != 0 {
		return c < 0
	}
	return a < b
}

package estimate

import (
	"fmt"
	"math"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/workloads"
)

// Sigma adapts 3σPredict (distributions.Predictor) to the
// RuntimePredictor the cycle consumes: a job's workloads.Features become the
// predictor's standard feature set (distributions.JobAttrs.Features).
type Sigma struct {
	P *distributions.Predictor
}

var _ RuntimePredictor = Sigma{}

// NewSigma returns an adapter over a fresh 3σPredict with its
// default configuration.
func NewSigma() (Sigma, error) {
	p, err := distributions.NewPredictor(nil)
	return Sigma{P: p}, err
}

// featuresOf is the predictor's feature set of a job.
func featuresOf(f workloads.Features) []distributions.Feature {
	return distributions.JobAttrs{
		User: f.User, Name: f.Name, App: f.App,
		SubmitHour: f.SubmitHour, SubmitDay: f.SubmitDay, Resources: f.Resources,
	}.Features()
}

// Observe records a completed runtime (seconds); invalid runtimes are
// skipped.
func (s Sigma) Observe(f workloads.Features, runtime float64) {
	_ = s.P.Observe(featuresOf(f), runtime)
}

// Predict returns the chosen expert's distribution and point estimate; ok is
// false with no history at all.
func (s Sigma) Predict(f workloads.Features) (distributions.Piecewise, float64, bool) {
	pr := s.P.Predict(featuresOf(f))
	if pr.Source == distributions.SourceNone || pr.Dist == nil || math.IsNaN(pr.Estimate) {
		return nil, 0, false
	}
	return pr.Dist, pr.Estimate, true
}

// Prediction is 3σPredict's whole answer for f: the distribution and point
// estimate Predict returns, and where they come from (source, expert,
// history), for reports.
func (s Sigma) Prediction(f workloads.Features) distributions.Prediction {
	return s.P.Predict(featuresOf(f))
}

// SampleLimited is 3σPredict restricted to at most Limit runtimes per
// feature value, the "samples per feature value" of 3Sigma §6.4 (Fig. 10):
// each feature value (user, job name, …) learns from its first Limit
// observed runtimes — history first, then the run's completions — and
// ignores the rest, so every expert's distribution is built from at most
// Limit samples. A completion none of whose feature values has room left is
// not observed at all (not even by the global fallback history).
type SampleLimited struct {
	P     Sigma
	Limit int
	seen  map[distributions.Feature]int
}

var _ RuntimePredictor = (*SampleLimited)(nil)

// NewSampleLimited returns a fresh 3σPredict (default configuration) that
// keeps at most limit runtimes per feature value; limit must be ≥ 1.
func NewSampleLimited(limit int) (*SampleLimited, error) {
	if limit < 1 {
		return nil, fmt.Errorf("estimate: samples per feature value must be ≥ 1, got %d", limit)
	}
	p, err := NewSigma()
	if err != nil {
		return nil, err
	}
	return &SampleLimited{P: p, Limit: limit, seen: map[distributions.Feature]int{}}, nil
}

// Observe records the runtime for the feature values that have fewer than
// Limit runtimes.
func (s *SampleLimited) Observe(f workloads.Features, runtime float64) {
	var keep []distributions.Feature
	for _, ft := range featuresOf(f) {
		if s.seen[ft] < s.Limit {
			keep = append(keep, ft)
		}
	}
	if len(keep) == 0 {
		return
	}
	if s.P.P.Observe(keep, runtime) == nil {
		for _, ft := range keep {
			s.seen[ft]++
		}
	}
}

// Predict is 3σPredict's answer from the limited history.
func (s *SampleLimited) Predict(f workloads.Features) (distributions.Piecewise, float64, bool) {
	return s.P.Predict(f)
}

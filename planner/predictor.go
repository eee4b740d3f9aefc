package planner

import (
	"math"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/workloads"
)

// SigmaPredictor adapts 3σPredict (distributions.Predictor) to the
// RuntimePredictor the cycle consumes: a job's workloads.Features become the
// predictor's standard feature set (distributions.JobAttrs.Features).
type SigmaPredictor struct {
	P *distributions.Predictor
}

var _ RuntimePredictor = SigmaPredictor{}

// NewSigmaPredictor returns an adapter over a fresh 3σPredict with its
// default configuration.
func NewSigmaPredictor() (SigmaPredictor, error) {
	p, err := distributions.NewPredictor(nil)
	return SigmaPredictor{P: p}, err
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
func (s SigmaPredictor) Observe(f workloads.Features, runtime float64) {
	_ = s.P.Observe(featuresOf(f), runtime)
}

// Predict returns the chosen expert's distribution and point estimate; ok is
// false with no history at all.
func (s SigmaPredictor) Predict(f workloads.Features) (distributions.Piecewise, float64, bool) {
	pr := s.P.Predict(featuresOf(f))
	if pr.Source == distributions.SourceNone || pr.Dist == nil || math.IsNaN(pr.Estimate) {
		return nil, 0, false
	}
	return pr.Dist, pr.Estimate, true
}

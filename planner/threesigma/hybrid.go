package threesigma

import (
	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/estimate"
	"github.com/plannerhq/planner/planner/gs"
	"github.com/plannerhq/planner/planner/slearn"
	"github.com/plannerhq/planner/utility"
)

// Name3SigmaHybrid is the registry name of 3sigma with the hybrid
// predictor (NewHybrid).
const Name3SigmaHybrid = "3sigma-hybrid"

// NewHybrid is 3sigma (3σPredict's distributions, adaptive over-estimate
// handling) planning task-level jobs with the hybrid predictor of SLearn
// §7 (estimate.Hybrid): a job of at least gs.DefaultThinLimit tasks
// first runs slearn.DecideShare percent of them (at least one, chosen at
// random from o.Seed) as pilots, started ahead of the plan wherever a
// node is free, and is planned once they have completed, by the
// posterior of 3σPredict's distribution given their durations; thinner
// jobs and gang jobs are planned by 3σPredict's distribution as in
// 3sigma. The predictor is o.Predictor, else a fresh 3σPredict.
func NewHybrid(o planner.Options) (*ThreeSigma, error) {
	cfg, err := ConfigFor(o)
	if err != nil {
		return nil, err
	}
	p := o.Predictor
	if o.SamplesPerFeature > 0 {
		if p, err = estimate.NewSampleLimited(o.SamplesPerFeature); err != nil {
			return nil, err
		}
	}
	if p == nil {
		if p, err = estimate.NewSigma(); err != nil {
			return nil, err
		}
	}
	h := &estimate.Hybrid{Prior: &estimate.FromPredictor{P: p}}
	cfg.Overestimate = utility.OverestimateAdaptive
	s, err := NewCustom(Name3SigmaHybrid, cfg, h)
	if err != nil {
		return nil, err
	}
	s.hybrid = h
	s.pilots = pilotConfig{thinLimit: gs.DefaultThinLimit, share: slearn.DecideShare}
	return s, nil
}

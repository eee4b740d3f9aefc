package planner

import (
	"fmt"
	"strings"

	"github.com/plannerhq/planner/utility"
)

// Registry names of the 3Sigma variants (3Sigma Table 1 and §6.2;
// DESIGN.md). Under-estimate handling (exp-inc) is in all of them.
const (
	// Name3Sigma: 3σPredict distributions, adaptive over-estimate handling.
	Name3Sigma = "3sigma"
	// Name3SigmaNoDist: the predictor's point estimate as a point
	// distribution, adaptive over-estimate handling.
	Name3SigmaNoDist = "3sigma-nodist"
	// Name3SigmaNoOE: distributions, no over-estimate handling.
	Name3SigmaNoOE = "3sigma-nooe"
	// Name3SigmaNoAdapt: distributions, over-estimate handling for every SLO job.
	Name3SigmaNoAdapt = "3sigma-noadapt"
	// NamePointPerfEst: the true runtime as a point, no over-estimate handling.
	NamePointPerfEst = "pointperfest"
	// NamePointRealEst: the predictor's point estimate, no over-estimate handling.
	NamePointRealEst = "pointrealest"
)

// Variants lists the variant names New3Sigma accepts, in Table 1 order.
func Variants() []string {
	return []string{Name3Sigma, Name3SigmaNoDist, Name3SigmaNoOE, Name3SigmaNoAdapt, NamePointPerfEst, NamePointRealEst}
}

// New3Sigma builds the named variant from cfg (zero fields take defaults;
// cfg.Overestimate is set by the variant) with a fresh runtime predictor
// for the variants that use one. It is the one constructor a registry map
// in cmd/ calls for every variant name.
func New3Sigma(cfg Config, variant string) (Scheduler, error) {
	return NewVariant(cfg, variant, nil)
}

// NewVariant is New3Sigma with the runtime predictor given (nil: a fresh
// 3σPredict with its defaults). Each scheduler needs its own predictor: it
// learns from that scheduler's completions.
func NewVariant(cfg Config, variant string, p RuntimePredictor) (*ThreeSigma, error) {
	if p == nil {
		sp, err := NewSigmaPredictor()
		if err != nil {
			return nil, err
		}
		p = sp
	}
	return newVariant(cfg, variant, func(pointOnly bool) Estimator {
		return &PredictorEstimator{P: p, PointOnly: pointOnly}
	})
}

// NewSyntheticVariant is the named variant given the synthetic estimates
// of 3Sigma §6.3 in place of 3σPredict's (see Synthetic): the distribution
// variants get the synthetic normal, 3sigma-nodist and pointrealest its
// shifted mean as a point; pointperfest still knows the true runtime.
func NewSyntheticVariant(cfg Config, variant string, syn Synthetic) (*ThreeSigma, error) {
	if err := syn.Validate(); err != nil {
		return nil, err
	}
	return newVariant(cfg, variant, func(pointOnly bool) Estimator {
		return SyntheticEstimator{S: syn, PointOnly: pointOnly}
	})
}

// newVariant sets the variant's over-estimate handling and builds it with
// the estimator est returns (pointOnly for the point-estimate variants);
// pointperfest ignores est.
func newVariant(cfg Config, variant string, est func(pointOnly bool) Estimator) (*ThreeSigma, error) {
	var e Estimator
	switch variant {
	case Name3Sigma:
		e, cfg.Overestimate = est(false), utility.OverestimateAdaptive
	case Name3SigmaNoDist:
		e, cfg.Overestimate = est(true), utility.OverestimateAdaptive
	case Name3SigmaNoOE:
		e, cfg.Overestimate = est(false), utility.OverestimateOff
	case Name3SigmaNoAdapt:
		e, cfg.Overestimate = est(false), utility.OverestimateAlways
	case NamePointPerfEst:
		e, cfg.Overestimate = PerfectEstimator{}, utility.OverestimateOff
	case NamePointRealEst:
		e, cfg.Overestimate = est(true), utility.OverestimateOff
	default:
		return nil, fmt.Errorf("planner: unknown 3sigma variant %q (want one of %s)", variant, strings.Join(Variants(), ", "))
	}
	return NewThreeSigma(variant, cfg, e)
}

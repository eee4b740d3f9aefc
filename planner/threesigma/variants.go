package threesigma

import (
	"fmt"
	"strings"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/estimate"
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

// Variants lists the variant names New accepts, in Table 1 order.
func Variants() []string {
	return []string{Name3Sigma, Name3SigmaNoDist, Name3SigmaNoOE, Name3SigmaNoAdapt, NamePointPerfEst, NamePointRealEst}
}

// New builds the named variant for one run from the run's options
// (planner.Options): ConfigFor(o), and the estimates the options ask for —
// o.Synthetic's, 3σPredict limited to o.SamplesPerFeature runtimes per
// feature value, o.Predictor, or a fresh 3σPredict with its defaults. It is the
// constructor of the variants' rows in the registry.
func New(variant string, o planner.Options) (*ThreeSigma, error) {
	cfg, err := ConfigFor(o)
	if err != nil {
		return nil, err
	}
	switch {
	case o.Synthetic != nil:
		syn := *o.Synthetic
		syn.Seed = o.Seed
		return NewSyntheticVariant(cfg, variant, syn)
	case o.SamplesPerFeature > 0:
		p, err := estimate.NewSampleLimited(o.SamplesPerFeature)
		if err != nil {
			return nil, err
		}
		return NewVariant(cfg, variant, p)
	}
	return NewVariant(cfg, variant, o.Predictor)
}

// ConfigFor maps a run's options onto the planning cycle's Config: the
// solver, its time limit (a work limit in deterministic mode), the
// horizon, the bound on planned pending jobs, the fallback, the share of
// solves failed on purpose and the seed; every other field keeps its
// default. An unknown fallback name is an error.
func ConfigFor(o planner.Options) (Config, error) {
	fb, err := ParseFallback(o.Fallback)
	if err != nil {
		return Config{}, err
	}
	cfg := Config{Solver: o.Solver, SolveTimeout: o.SolverTimeout, Horizon: o.Horizon.Seconds(), MaxPending: o.MaxPending,
		Fallback: fb, FailRate: o.SolverFailRate, Seed: o.Seed}
	if o.Deterministic {
		cfg.Mode = SolveDeterministic
	}
	return cfg, nil
}

// Reads is what the variant reads of planner.Options: every variant plans
// with a solver and falls back by a rule, and all but pointperfest (which
// knows the true runtimes) plan with 3σPredict's estimates.
func Reads(variant string) planner.Reads {
	if variant == NamePointPerfEst {
		return planner.ReadsSolver | planner.ReadsFallback
	}
	return planner.ReadsSolver | planner.ReadsEstimates | planner.ReadsFallback
}

// NewVariant builds the named variant from cfg (zero fields take
// defaults; cfg.Overestimate is set by the variant) with the runtime
// predictor given (nil: a fresh
// 3σPredict with its defaults). Each scheduler needs its own predictor: it
// learns from that scheduler's completions.
func NewVariant(cfg Config, variant string, p estimate.RuntimePredictor) (*ThreeSigma, error) {
	if p == nil {
		sp, err := estimate.NewSigma()
		if err != nil {
			return nil, err
		}
		p = sp
	}
	return newVariant(cfg, variant, func(pointOnly bool) estimate.Estimator {
		return &estimate.FromPredictor{P: p, PointOnly: pointOnly}
	})
}

// NewSyntheticVariant is the named variant given the synthetic estimates
// of 3Sigma §6.3 in place of 3σPredict's (see estimate.Synthetic): the distribution
// variants get the synthetic normal, 3sigma-nodist and pointrealest its
// shifted mean as a point; pointperfest still knows the true runtime.
func NewSyntheticVariant(cfg Config, variant string, syn estimate.Synthetic) (*ThreeSigma, error) {
	if err := syn.Validate(); err != nil {
		return nil, err
	}
	return newVariant(cfg, variant, func(pointOnly bool) estimate.Estimator {
		return estimate.SyntheticEstimator{S: syn, PointOnly: pointOnly}
	})
}

// newVariant sets the variant's over-estimate handling and builds it with
// the estimator est returns (pointOnly for the point-estimate variants);
// pointperfest ignores est.
func newVariant(cfg Config, variant string, est func(pointOnly bool) estimate.Estimator) (*ThreeSigma, error) {
	var e estimate.Estimator
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
		e, cfg.Overestimate = estimate.Perfect{}, utility.OverestimateOff
	case NamePointRealEst:
		e, cfg.Overestimate = est(true), utility.OverestimateOff
	default:
		return nil, fmt.Errorf("threesigma: unknown variant %q (want one of %s)", variant, strings.Join(Variants(), ", "))
	}
	return NewCustom(variant, cfg, e)
}

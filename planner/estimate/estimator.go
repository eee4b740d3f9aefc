package estimate

import (
	"fmt"
	"math"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/workloads"
)

// DefaultRuntime is the runtime (seconds) assumed for a job an estimator
// knows nothing about.
const DefaultRuntime = 600.0

// MinRuntime (seconds) is the least runtime an estimate may claim: a zero
// runtime would give a job no consumption even in its start slice.
const MinRuntime = 1.0

// Estimate is what the planning cycle knows about a job's runtime on its
// preferred nodes: a distribution (seconds) and a point estimate.
type Estimate struct {
	Dist  distributions.Piecewise
	Point float64
	// NMAE is the normalised mean absolute error the estimator has
	// recorded for estimates like this one (3σPredict's chosen expert's,
	// distributions.Prediction); 0 when it records none, +Inf for a
	// default given without any history. The hybrid predictor reads it as
	// the prior's reliability (Posterior).
	NMAE float64
}

// Estimator is the runtime-knowledge seam of the planning cycle. Estimate is
// called once per job, when the cycle first sees it; the answer is kept for
// the job's lifetime (3σPredict answers at submission, 3Sigma §4.1).
type Estimator interface {
	// Train feeds completed jobs observed before the run.
	Train(history []workloads.Job)
	// Estimate returns the job's runtime estimate.
	Estimate(job *workloads.Job) (Estimate, error)
	// Observe is told a job's runtime on preferred nodes after it completes.
	Observe(job *workloads.Job, runtime float64)
}

// RuntimePredictor is the history-based predictor (3σPredict) as the cycle
// needs it: learn from completions, answer with a distribution snapshot and a
// point estimate. ok is false when it has no history for the features.
type RuntimePredictor interface {
	Observe(f workloads.Features, runtime float64)
	Predict(f workloads.Features) (dist distributions.Piecewise, point float64, ok bool)
}

// Perfect knows every job's true runtime (pointperfest): a point
// distribution at job.Runtime.
type Perfect struct{}

var _ Estimator = Perfect{}

// Train does nothing: there is nothing to learn.
func (Perfect) Train([]workloads.Job) {}

// Observe does nothing.
func (Perfect) Observe(*workloads.Job, float64) {}

// Estimate returns a point mass at the job's true runtime.
func (Perfect) Estimate(job *workloads.Job) (Estimate, error) {
	return Point(job.Runtime)
}

// FromPredictor estimates from a RuntimePredictor: its distribution,
// or with PointOnly a point mass at its point estimate (3sigma-nodist,
// pointrealest). Jobs the predictor knows nothing about get a point mass at
// Default seconds (DefaultRuntime when zero).
type FromPredictor struct {
	P         RuntimePredictor
	PointOnly bool
	Default   float64
}

var _ Estimator = (*FromPredictor)(nil)

// Train observes every history job's runtime.
func (e *FromPredictor) Train(history []workloads.Job) {
	for i := range history {
		if r := history[i].Runtime; r >= 0 && !math.IsInf(r, 0) && !math.IsNaN(r) {
			e.P.Observe(history[i].Features, r)
		}
	}
}

// Observe passes the completion to the predictor.
func (e *FromPredictor) Observe(job *workloads.Job, runtime float64) {
	if runtime >= 0 && !math.IsInf(runtime, 0) && !math.IsNaN(runtime) {
		e.P.Observe(job.Features, runtime)
	}
}

// Estimate asks the predictor; with a predictor that reports its
// errors (Sigma), NMAE is the chosen expert's.
func (e *FromPredictor) Estimate(job *workloads.Job) (Estimate, error) {
	var d distributions.Piecewise
	var point, nmae float64
	var ok bool
	if r, reports := e.P.(errorReporter); reports {
		pr := r.Prediction(job.Features)
		d, point, ok = pr.Dist, pr.Estimate, pr.Source != distributions.SourceNone && pr.Dist != nil && !math.IsNaN(pr.Estimate)
		if !math.IsNaN(pr.NMAE) {
			nmae = pr.NMAE
		}
	} else {
		d, point, ok = e.P.Predict(job.Features)
	}
	if !ok || d == nil || !(point >= 0) || math.IsInf(point, 0) {
		def := e.Default
		if def <= 0 {
			def = DefaultRuntime
		}
		est, err := Point(def)
		est.NMAE = math.Inf(1)
		return est, err
	}
	var est Estimate
	var err error
	switch {
	case e.PointOnly:
		est, err = Point(point)
	case d.Max() < MinRuntime:
		est, err = Point(math.Max(point, MinRuntime))
	default:
		est = Estimate{Dist: d, Point: point}
	}
	est.NMAE = nmae
	return est, err
}

// errorReporter is a RuntimePredictor that also reports where its answer
// comes from and the chosen expert's error (Sigma).
type errorReporter interface {
	Prediction(f workloads.Features) distributions.Prediction
}

// Point is the estimate of a point mass at v seconds, at least MinRuntime.
func Point(v float64) (Estimate, error) {
	p, err := distributions.NewPoint(math.Max(v, MinRuntime))
	if err != nil {
		return Estimate{}, fmt.Errorf("estimate: runtime estimate %v: %w", v, err)
	}
	return Estimate{Dist: p, Point: p.V}, nil
}

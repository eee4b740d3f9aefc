package planner

import (
	"fmt"
	"math"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/workloads"
)

// Estimate is what the planning cycle knows about a job's runtime on its
// preferred nodes: a distribution (seconds) and a point estimate.
type Estimate struct {
	Dist  distributions.Piecewise
	Point float64
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

// PerfectEstimator knows every job's true runtime (pointperfest): a point
// distribution at job.Runtime.
type PerfectEstimator struct{}

var _ Estimator = PerfectEstimator{}

// Train does nothing: there is nothing to learn.
func (PerfectEstimator) Train([]workloads.Job) {}

// Observe does nothing.
func (PerfectEstimator) Observe(*workloads.Job, float64) {}

// Estimate returns a point mass at the job's true runtime.
func (PerfectEstimator) Estimate(job *workloads.Job) (Estimate, error) {
	return pointEstimate(job.Runtime)
}

// PredictorEstimator estimates from a RuntimePredictor: its distribution,
// or with PointOnly a point mass at its point estimate (3sigma-nodist,
// pointrealest). Jobs the predictor knows nothing about get a point mass at
// Default seconds (DefaultRuntime when zero).
type PredictorEstimator struct {
	P         RuntimePredictor
	PointOnly bool
	Default   float64
}

var _ Estimator = (*PredictorEstimator)(nil)

// Train observes every history job's runtime.
func (e *PredictorEstimator) Train(history []workloads.Job) {
	for i := range history {
		if r := history[i].Runtime; r >= 0 && !math.IsInf(r, 0) && !math.IsNaN(r) {
			e.P.Observe(history[i].Features, r)
		}
	}
}

// Observe passes the completion to the predictor.
func (e *PredictorEstimator) Observe(job *workloads.Job, runtime float64) {
	if runtime >= 0 && !math.IsInf(runtime, 0) && !math.IsNaN(runtime) {
		e.P.Observe(job.Features, runtime)
	}
}

// Estimate asks the predictor.
func (e *PredictorEstimator) Estimate(job *workloads.Job) (Estimate, error) {
	d, point, ok := e.P.Predict(job.Features)
	if !ok || d == nil || !(point >= 0) || math.IsInf(point, 0) {
		def := e.Default
		if def <= 0 {
			def = DefaultRuntime
		}
		return pointEstimate(def)
	}
	if e.PointOnly {
		return pointEstimate(point)
	}
	if d.Max() < minRuntime {
		return pointEstimate(math.Max(point, minRuntime))
	}
	return Estimate{Dist: d, Point: point}, nil
}

// pointEstimate is a point mass at v seconds, at least minRuntime.
func pointEstimate(v float64) (Estimate, error) {
	p, err := distributions.NewPoint(math.Max(v, minRuntime))
	if err != nil {
		return Estimate{}, fmt.Errorf("planner: runtime estimate %v: %w", v, err)
	}
	return Estimate{Dist: p, Point: p.V}, nil
}

package threesigma

import (
	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/planner/estimate"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/workloads"
)

// newJob is the shared job fixture builder.
func newJob(id int) *plannertest.JobBuilder { return plannertest.NewJob(id) }

// fixedEstimator gives chosen jobs a chosen distribution and every other
// job a point mass at its true runtime.
type fixedEstimator map[int]distributions.Piecewise

func (f fixedEstimator) Train([]workloads.Job)           {}
func (f fixedEstimator) Observe(*workloads.Job, float64) {}
func (f fixedEstimator) Estimate(j *workloads.Job) (estimate.Estimate, error) {
	if d, ok := f[j.ID]; ok {
		return estimate.Estimate{Dist: d, Point: d.Mean()}, nil
	}
	return estimate.Point(j.Runtime)
}

package estimate

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/workloads"
)

// Synthetic describes the artificial runtime estimates of 3Sigma §6.3
// (Fig. 8): instead of 3σPredict's answer, the scheduler is given, for a job
// of true runtime r (seconds, on preferred nodes),
//
//	N(μ = r·(1 + s), σ = r·CoV)   with the job's shift s ~ N(Shift, ShiftSD²),
//
// truncated at 0 (distributions.Normal) and discretised into
// SyntheticSegments equal-mass segments. With CoV = 0 it is a point mass
// at r·(1 + s). Shift, ShiftSD and CoV are fractions (0.2 is 20%).
type Synthetic struct {
	Shift, ShiftSD, CoV float64
	// Seed of the per-job shifts: job j's s is drawn from a PCG source
	// seeded by Seed and j.ID, so a job gets the same estimate in every
	// scheduler and whatever order jobs are estimated in.
	Seed uint64
}

// syntheticStream salts the per-job sources, so that they are not the
// streams a generator seeded with the same seed draws from.
const syntheticStream = 0x73796e7468000000

// SyntheticShiftSD is the paper's σ of the per-job shift (§6.3: 0.1).
const SyntheticShiftSD = 0.1

// SyntheticSegments is the number of equal-mass segments a synthetic normal
// is discretised into: Discretize's KS distance is ≤ 1/32 and its mean
// error below 1e-5 for a normal of CoV 0.2.
const SyntheticSegments = 32

// minSyntheticFactor bounds 1 + s from below: a shift draw at or below −100%
// would put the mean at or under zero. The estimate is then 5% of the true
// runtime, as wrong as an estimate can usefully be.
const minSyntheticFactor = 0.05

// Validate reports a Synthetic whose fields are not finite or whose CoV or
// ShiftSD is negative.
func (s Synthetic) Validate() error {
	for _, v := range []float64{s.Shift, s.ShiftSD, s.CoV} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("estimate: synthetic estimates need finite shift, shift σ and CoV, got %+v", s)
		}
	}
	if s.CoV < 0 || s.ShiftSD < 0 {
		return fmt.Errorf("estimate: synthetic CoV and shift σ must be ≥ 0, got %v and %v", s.CoV, s.ShiftSD)
	}
	return nil
}

// SyntheticEstimator is the Estimator of a planning scheduler given
// Synthetic estimates; PointOnly gives the point mass at the shifted mean
// r·(1 + s) instead (the paper's "point" line, and what pointrealest and
// 3sigma-nodist get).
type SyntheticEstimator struct {
	S         Synthetic
	PointOnly bool
}

var _ Estimator = SyntheticEstimator{}

// Train does nothing: the estimates do not come from history.
func (SyntheticEstimator) Train([]workloads.Job) {}

// Observe does nothing.
func (SyntheticEstimator) Observe(*workloads.Job, float64) {}

// Estimate returns the job's synthetic distribution (see Synthetic).
func (e SyntheticEstimator) Estimate(job *workloads.Job) (Estimate, error) {
	rng := rand.New(rand.NewPCG(e.S.Seed, syntheticStream^uint64(job.ID)))
	shift := e.S.Shift + e.S.ShiftSD*rng.NormFloat64()
	mu := job.Runtime * math.Max(1+shift, minSyntheticFactor)
	sigma := job.Runtime * e.S.CoV
	if e.PointOnly || !(sigma > 0) || mu < MinRuntime {
		return Point(mu)
	}
	n, err := distributions.NewNormal(mu, sigma)
	if err != nil {
		return Point(mu) // only a σ far above μ; μ still says something
	}
	d, err := distributions.Discretize(n, SyntheticSegments)
	if err != nil {
		return Estimate{}, fmt.Errorf("estimate: synthetic estimate of job %d: %w", job.ID, err)
	}
	if d.Max() < MinRuntime {
		return Point(mu)
	}
	return Estimate{Dist: d, Point: d.Mean()}, nil
}

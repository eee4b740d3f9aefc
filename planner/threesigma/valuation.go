package threesigma

import (
	"fmt"
	"math"
	"slices"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/utility"
	"github.com/plannerhq/planner/workloads"
)

// valuation is stage 3: the exact expected utility of every option
// (3Sigma §3.1; DESIGN.md step 2),
//
//	U[j,o] = E[U_j(now + s·q + T)] = ∫ U_j(now + s·q + t) pdf(t) dt,
//
// over the piecewise-uniform runtime of the option's set, with the SLO
// curve chosen by the over-estimate mode (§4.2) or the best-effort decay.
// Each is scaled by 1 − EarlyBias·s/H to prefer earlier starts among
// equals, and an all-partitions option of a job that prefers some of them
// by 1 − SlowPenalty; options below UtilTol·Value are dropped. It also tabulates each set's
// expected consumption per node P(T > m·q) for the capacity rows, cut at
// CoefTol.
func (c *cycle) valuation() error {
	startT := make([]float64, len(c.starts))
	for i, s := range c.starts {
		startT[i] = c.st.Now + float64(s)*c.q
	}
	offs := make([]float64, c.H)
	for m := range offs {
		offs[m] = float64(m) * c.q
	}
	surv := make([]float64, c.H)
	for ji, pj := range c.jobs {
		job := pj.p.Job
		var err error
		if job.Class == workloads.SLO {
			pj.curve, err = c.sloCurve(job, pj.info.pref, pj.info.first)
		} else {
			pj.curve, err = c.beCurve(job)
		}
		if err != nil {
			return fmt.Errorf("job %d: %w", job.ID, err)
		}
		tol := UtilTol * math.Max(job.Value, 0)
		// The penalty of the sets off the preferred partitions applies
		// when the job has a preferred set to choose instead.
		hasPreferred := slices.ContainsFunc(pj.sets, func(a allowedSet) bool { return !a.all })
		for si := range pj.sets {
			set := &pj.sets[si]
			set.util = set.rt.ExpectedUtility(pj.curve, startT, make([]float64, len(startT)))
			slow := 1.0
			if set.all && hasPreferred {
				slow = 1 - c.s.cfg.SlowPenalty
			}
			any := false
			for i, u := range set.util {
				u *= slow * (1 - c.s.cfg.EarlyBias*float64(c.starts[i])/float64(c.H))
				if pj.info.hasPlan && c.abs+int64(c.starts[i]) > pj.info.planned {
					u *= 1 - c.s.cfg.CommitPenalty
				}
				if u > tol && u > 0 {
					c.opts = append(c.opts, option{job: ji, set: si, start: c.starts[i], util: u, x: -1})
					any = true
				}
			}
			if !any {
				continue
			}
			if _, err := utility.Consumption(set.rt, offs, surv); err != nil {
				return fmt.Errorf("job %d: %w", job.ID, err)
			}
			surv[0] = 1 // a job holds its nodes in its start slice
			n := 1
			for n < len(surv) && surv[n] >= CoefTol {
				n++
			}
			set.surv = slices.Clone(surv[:n])
		}
	}
	return nil
}

// oeWindowFactor: the over-estimate extension decays to zero over
// max(deadline − submit, oeWindowFactor × the largest runtime the job's
// distribution allows) after the deadline.
const oeWindowFactor = 2

// sloCurve is an SLO job's utility under the configured over-estimate mode
// (utility.SLOCurve with the default post-deadline value); adaptivity is
// judged on the runtime on preferred nodes.
//
// The adaptive switch asks whether the job could meet its deadline "even if
// started immediately upon submission" (3Sigma §4.2). The earliest the job
// can start is first, the first cycle that saw it, not its submit time: with
// a cycle interval of a minute, a short job with 20% slack may have lost
// most of its slack before any cycle could start it. Judged from submit,
// such a job looks feasible (no extension) yet is worth nothing from the
// first cycle on, and an over-estimated one is never tried.
func (c *cycle) sloCurve(job *workloads.Job, d distributions.Dist, first float64) (utility.Curve, error) {
	v := math.Max(job.Value, 0)
	if !(job.Deadline > job.Submit) {
		return utility.SLOStep(v, job.Deadline)
	}
	if v == 0 {
		return utility.Curve{}, nil
	}
	// The post-deadline window must reach past the longest runtime the
	// distribution allows, or an over-estimated job (the very case the
	// extension is for) would still be worth nothing.
	window := math.Max(job.Deadline-job.Submit, oeWindowFactor*d.Max())
	earliest := math.Min(math.Max(job.Submit, first), math.Nextafter(job.Deadline, math.Inf(-1)))
	spec := utility.SLOSpec{Value: v, Submit: earliest, Deadline: job.Deadline, Window: window, Threshold: c.s.cfg.OverestimateThreshold}
	curve, _, err := utility.SLOCurve(c.s.cfg.Overestimate, spec, d)
	return curve, err
}

// beCurve is a best-effort job's utility of its completion time x:
//
//	U(x) = V                                     x ≤ submit
//	U(x) = V · (1 − (1 − f)·(x − submit)/W)      submit < x ≤ submit + W
//	U(x) = f·V                                   x > submit + W
//
// with W = Config.BEDecay and f = Config.BEFloor: latency-sensitive value
// decaying linearly (3Sigma §3.1) that never reaches zero, so a job that has
// waited long is still worth running on idle nodes.
func (c *cycle) beCurve(job *workloads.Job) (utility.Curve, error) {
	v := math.Max(job.Value, 0)
	if v == 0 {
		return utility.Curve{}, nil
	}
	f, w := c.s.cfg.BEFloor, c.s.cfg.BEDecay
	return utility.NewCurve(
		utility.Knot{X: job.Submit, Left: v, Right: v},
		utility.Knot{X: job.Submit + w, Left: f * v, Right: f * v},
	)
}

// pointDist is a point mass at v seconds.
func pointDist(v float64) distributions.Piecewise { return distributions.Point{V: v} }

package estimate

import (
	"fmt"
	"math"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/workloads"
)

// The hybrid predictor (SLearn §7, "history as the prior, sampling as the
// evidence") estimates a task-level job's mean task runtime μ (seconds,
// on preferred nodes of speed 1) from two sources:
//
//   - the prior: 3σPredict's distribution of μ for the job's features
//     (what history says of jobs like it), brought to a lognormal by its
//     moments in log space, m₀ = E[ln μ] and v₀ = Var[ln μ], exact over
//     the histogram's uniform segments; v₀ is at least the predictor's own
//     track record of error, ln²(1 + NMAE) (a histogram can be narrow while
//     history has gone stale, and NMAE says how wrong this expert has
//     been; +Inf without history), and at least MinPriorLogVar;
//   - the evidence: the durations x₁ … xₙ of the job's completed tasks
//     (pilots), each lognormal with mean μ and log-variance s², ln xᵢ ~
//     N(ln μ − s²/2, s²), s² the within-job spread (Spread: the pilots'
//     own log variance pooled with the spread learned from history).
//
// The normal prior on ln μ is conjugate to this likelihood, so the
// posterior is normal, ln μ | x ~ N(m₁, v₁) with
//
//	1/v₁ = 1/v₀ + n/s²
//	m₁   = v₁ · (m₀/v₀ + n·(ȳ + s²/2)/s²),   ȳ = (1/n) Σ ln xᵢ,
//
// and μ's posterior is lognormal(m₁, v₁), of mean exp(m₁ + v₁/2). Few
// pilots of a wide spread leave the estimate near history; many, or a
// stale prior (large NMAE), move it to the pilots' mean.

// MinPriorLogVar is the least log-variance of the prior (log-σ 0.1, ±10%):
// a prior from one history runtime, or from identical ones, still leaves
// room for the pilots.
const MinPriorLogVar = 0.01

// DefaultTaskLogVar is the within-job log-variance of task durations when
// no history has taught one (log-σ 0.3, a CoV of about 31%).
const DefaultTaskLogVar = 0.09

// SpreadWeight is how many pilots' worth of weight the learned spread has
// against a job's own pilots in the within-job log-variance (Spread.For).
const SpreadWeight = 4

// PosteriorSegments is the number of equal-mass segments a posterior is
// discretised into (distributions.Discretize: KS distance ≤ 1/32).
const PosteriorSegments = 32

// Spread is the within-job log-variance of task durations, pooled over
// the jobs it has seen with at least two tasks: Σⱼ (nⱼ − 1)·vⱼ / Σⱼ (nⱼ − 1),
// vⱼ the sample log variance of job j's task durations. The zero value
// has seen none.
type Spread struct {
	num, den float64
}

// Add pools one job's task durations.
func (s *Spread) Add(tasks Sample) {
	if tasks.N < 2 {
		return
	}
	s.num += float64(tasks.N-1) * tasks.LogVar()
	s.den += float64(tasks.N - 1)
}

// Learn pools the task durations of every task-level job of jobs.
func (s *Spread) Learn(jobs []workloads.Job) {
	for i := range jobs {
		if !jobs[i].TaskLevel() {
			continue
		}
		var smp Sample
		for _, d := range jobs[i].TaskDurations {
			smp.Add(d)
		}
		s.Add(smp)
	}
}

// LogVar is the pooled log-variance, DefaultTaskLogVar before any job.
func (s Spread) LogVar() float64 {
	if s.den == 0 {
		return DefaultTaskLogVar
	}
	return s.num / s.den
}

// For is the within-job log-variance of a job whose completed tasks are
// tasks: the pooled one with SpreadWeight pilots' weight and the tasks'
// own, (SpreadWeight·S² + (n − 1)·v) / (SpreadWeight + n − 1), at least
// 1e-4 (a log-σ of 1%).
func (s Spread) For(tasks Sample) float64 {
	w := float64(max(tasks.N-1, 0))
	return math.Max(1e-4, (SpreadWeight*s.LogVar()+w*tasks.LogVar())/(SpreadWeight+w))
}

// logMoments are E[ln T] and Var[ln T] of a piecewise-uniform
// distribution, exact: over a segment [a, b] of mass m, uniform,
// E[ln T] gains m·[t ln t − t]ₐᵇ/(b − a) and E[ln² T] gains
// m·[t(ln² t − 2 ln t + 2)]ₐᵇ/(b − a); a point mass at a gains m·ln a and
// m·ln² a. Runtimes below MinRuntime count as MinRuntime.
func logMoments(d distributions.Piecewise) (mean, variance float64) {
	e1, e2 := 0.0, 0.0
	for _, seg := range d.Segments() {
		a, b := math.Max(seg.Lo, MinRuntime), math.Max(seg.Hi, MinRuntime)
		if b-a < 1e-9*b {
			l := math.Log(a)
			e1 += seg.Mass * l
			e2 += seg.Mass * l * l
			continue
		}
		f1 := func(t float64) float64 { return t*math.Log(t) - t }
		f2 := func(t float64) float64 { l := math.Log(t); return t * (l*l - 2*l + 2) }
		e1 += seg.Mass * (f1(b) - f1(a)) / (b - a)
		e2 += seg.Mass * (f2(b) - f2(a)) / (b - a)
	}
	return e1, math.Max(0, e2-e1*e1)
}

// Posterior is the hybrid predictor's estimate of a job's mean task
// runtime: prior (its Dist and NMAE) refined by the durations tasks of the
// job's completed tasks, with within-job log-variance taskLogVar (Spread.For),
// as the package comment derives: Dist the posterior lognormal
// discretised into PosteriorSegments, Point its mean. With no tasks it
// is prior unchanged.
func Posterior(prior Estimate, tasks Sample, taskLogVar float64) (Estimate, error) {
	if tasks.N == 0 {
		return prior, nil
	}
	m1, v1 := posteriorLog(prior, tasks, taskLogVar)
	if !(v1 > 0) || math.IsNaN(m1) || math.IsInf(m1, 0) {
		return Estimate{}, fmt.Errorf("estimate: posterior of %d tasks (log mean %v, log variance %v) is degenerate", tasks.N, m1, v1)
	}
	ln, err := distributions.NewLogNormal(m1, math.Sqrt(v1))
	if err != nil {
		return Estimate{}, fmt.Errorf("estimate: posterior: %w", err)
	}
	d, err := distributions.Discretize(ln, PosteriorSegments)
	if err != nil {
		return Estimate{}, fmt.Errorf("estimate: posterior: %w", err)
	}
	if d.Max() < MinRuntime {
		return Point(ln.Mean())
	}
	return Estimate{Dist: d, Point: math.Max(ln.Mean(), MinRuntime)}, nil
}

// posteriorLog is the posterior (m₁, v₁) of ln μ (package comment).
func posteriorLog(prior Estimate, tasks Sample, s2 float64) (m1, v1 float64) {
	n := float64(tasks.N)
	data := tasks.LogMean() + s2/2 // the pilots' estimate of ln μ
	m0, v0 := math.Log(math.Max(prior.Point, MinRuntime)), math.Inf(1)
	if prior.Dist != nil && !math.IsInf(prior.NMAE, 1) {
		m0, v0 = logMoments(prior.Dist)
		e := math.Log1p(math.Max(prior.NMAE, 0))
		v0 = math.Max(v0, math.Max(e*e, MinPriorLogVar))
	}
	if math.IsInf(v0, 1) {
		return data, s2 / n
	}
	v1 = 1 / (1/v0 + n/s2)
	return v1 * (m0/v0 + n*data/s2), v1
}

// Hybrid is the hybrid predictor as an Estimator: Estimate is the prior
// (Prior's estimate, e.g. 3σPredict's through FromPredictor), Refine the
// posterior given a job's completed tasks; Train teaches the prior the
// history and the within-job spread the history's task durations.
type Hybrid struct {
	Prior  Estimator
	Spread Spread
}

var _ Estimator = (*Hybrid)(nil)

// Train feeds the history to the prior and its task durations to the
// spread.
func (h *Hybrid) Train(history []workloads.Job) {
	h.Prior.Train(history)
	h.Spread.Learn(history)
}

// Estimate is the prior's estimate.
func (h *Hybrid) Estimate(job *workloads.Job) (Estimate, error) { return h.Prior.Estimate(job) }

// Observe teaches the prior a completed job's runtime (of a task-level
// job, its mean task runtime).
func (h *Hybrid) Observe(job *workloads.Job, runtime float64) { h.Prior.Observe(job, runtime) }

// Refine is the posterior of prior (the job's Estimate) given the
// durations of its completed tasks.
func (h *Hybrid) Refine(prior Estimate, tasks Sample) (Estimate, error) {
	return Posterior(prior, tasks, h.Spread.For(tasks))
}

package workloads

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Generators of task-level workloads (SLearn §4.3): jobs are sets of
// one-node tasks on a 150-node cluster of one partition, best-effort,
// about 1,250 of them at an offered load of 1 in the default window.
const (
	GeneratorTwoSigma        = "2sigma"
	GeneratorGoogle2011Tasks = "google2011-tasks"
	GeneratorGoogle2019Tasks = "google2019-tasks"
)

// taskModel is what makes an environment's jobs task-level: how many
// tasks a job name has and how much the durations of one job's tasks vary
// (SLearn's "variation across space").
type taskModel struct {
	// widths are the bands a name's typical number of tasks is drawn
	// from, by weight.
	widths []widthBand
	// maxTasks caps a job's tasks (§4.3: at most 150).
	maxTasks int
	// covMedian and covSigma shape the CoV of one job's task durations:
	// lognormal with that median and log-σ, at most covMax.
	covMedian, covSigma, covMax float64
}

// widthBand is a share of names whose typical task count is drawn from
// a bounded Pareto on [lo, hi+1) with tail index alpha, floored (lo = hi:
// exactly lo).
type widthBand struct {
	weight float64
	lo, hi int
	alpha  float64
}

// minTaskRuntime is the shortest generated task (seconds).
const minTaskRuntime = 1.0

// drawWidth draws a name's typical task count: a band of bands (the
// class's, else the model's) by weight, then its bounded Pareto.
func (t *taskModel) drawWidth(rng *rand.Rand, bands []widthBand) int {
	if len(bands) == 0 {
		bands = t.widths
	}
	cum := make([]float64, len(bands))
	acc := 0.0
	for i, b := range bands {
		acc += b.weight
		cum[i] = acc
	}
	b := bands[weighted(rng, cum)]
	if b.lo == b.hi {
		return b.lo
	}
	return min(b.hi, int(boundedPareto(rng, b.alpha, float64(b.lo), float64(b.hi+1))))
}

// split turns a drawn job of j.Nodes tasks and mean task runtime
// j.Runtime into a task-level job: one-node tasks whose durations are
// lognormal around j.Runtime, d = j.Runtime · exp(s·Z − s²/2) with
// s = √ln(1 + c²), so that c is their CoV and j.Runtime their expected
// mean, c drawn per job; Runtime becomes their actual mean.
func (t *taskModel) split(rng *rand.Rand, j *Job) {
	c := min(t.covMax, t.covMedian*math.Exp(t.covSigma*rng.NormFloat64()))
	s := math.Sqrt(math.Log1p(c * c))
	d := make([]float64, j.Nodes)
	for i := range d {
		d[i] = min(maxRuntime, max(minTaskRuntime, RoundMS(j.Runtime*math.Exp(s*rng.NormFloat64()-s*s/2))))
	}
	j.TaskNodes = 1
	j.TaskDurations = d
	j.Runtime = RoundMS(MeanTaskDuration(d))
	j.Features.Resources = fmt.Sprintf("tasks=%d", j.Nodes)
}

// taskDefaults are the §4.3 defaults every task environment shares: 150
// nodes in one partition, offered load 1, best-effort jobs only.
func taskDefaults(p *Params, hours float64) {
	p.Nodes, p.Racks, p.Hours, p.Load, p.SLOShare = 150, 1, hours, 1, 0
}

// applyTrend scales a job's runtime (and its tasks' durations) by f, the
// drift of its name's runtime at its submit time (envModel.trend), within
// the generated bounds.
func applyTrend(j *Job, f float64) {
	if j.TaskLevel() {
		for i, d := range j.TaskDurations {
			j.TaskDurations[i] = min(maxRuntime, max(minTaskRuntime, RoundMS(d*f)))
		}
		j.Runtime = RoundMS(MeanTaskDuration(j.TaskDurations))
		return
	}
	j.Runtime = min(maxRuntime, max(minRuntime, RoundMS(j.Runtime*f)))
}

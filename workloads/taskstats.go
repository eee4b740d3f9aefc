package workloads

import (
	"math"
	"slices"
	"strconv"
)

// PilotShare is the sampling ratio SLearn §4.2 assumes when it measures
// the variation across space (3%).
const PilotShare = 0.03

// TaskVariability is how much the runtimes of a task-level workload's
// jobs vary across time and across space, as SLearn §4.2 measures them
// (Table 4); the P50 and P90 are over the window's task-level jobs.
//
//   - Across time: for each job and each of its six features (user, job
//     name, application, submit hour, submit day, resources), the CoV
//     (population σ/μ) of the mean task runtimes (Job.Runtime) of the
//     history jobs with the same feature value — those with at least
//     MinCoVJobs of them; the job's CoV over time is the least over its
//     features (the best a history-based predictor can hope for). Jobs
//     with no such feature are left out.
//   - Across space: for each job of at least two tasks, σ₁ / (μ · √(m)),
//     the CoV of the mean of m = PilotShare × tasks sampled tasks (σ₁ and
//     μ the population σ and mean of its task durations): the error of a
//     sampled estimate. Single-task jobs are left out.
type TaskVariability struct {
	TimeP50  float64 `json:"time_cov_p50"`
	TimeP90  float64 `json:"time_cov_p90"`
	TimeJobs int     `json:"time_jobs"`

	SpaceP50  float64 `json:"space_cov_p50"`
	SpaceP90  float64 `json:"space_cov_p90"`
	SpaceJobs int     `json:"space_jobs"`
}

// TaskVariabilityOf measures w (TaskVariability); ok is false when its
// window has no task-level job.
func TaskVariabilityOf(w *Workload) (v TaskVariability, ok bool) {
	type moments struct{ n, sum, sq float64 }
	history := map[[2]string]*moments{}
	for i := range w.History {
		j := &w.History[i]
		for _, f := range featureValues(j) {
			m := history[f]
			if m == nil {
				m = &moments{}
				history[f] = m
			}
			m.n++
			m.sum += j.Runtime
			m.sq += j.Runtime * j.Runtime
		}
	}
	var timeCoV, spaceCoV []float64
	for i := range w.Jobs {
		j := &w.Jobs[i]
		if !j.TaskLevel() {
			continue
		}
		ok = true
		best := math.Inf(1)
		for _, f := range featureValues(j) {
			m := history[f]
			if m == nil || m.n < MinCoVJobs {
				continue
			}
			mu := m.sum / m.n
			sd := math.Sqrt(max(0, m.sq/m.n-mu*mu))
			best = min(best, sd/mu)
		}
		if !math.IsInf(best, 1) {
			timeCoV = append(timeCoV, best)
		}
		if n := len(j.TaskDurations); n >= 2 {
			spaceCoV = append(spaceCoV, math.Sqrt(scv(j.TaskDurations)/(PilotShare*float64(n))))
		}
	}
	v.TimeJobs, v.SpaceJobs = len(timeCoV), len(spaceCoV)
	v.TimeP50, v.TimeP90 = quantileOf(timeCoV, 0.5), quantileOf(timeCoV, 0.9)
	v.SpaceP50, v.SpaceP90 = quantileOf(spaceCoV, 0.5), quantileOf(spaceCoV, 0.9)
	return v, ok
}

// featureValues are j's six feature values, each keyed by its feature;
// unknown (empty) user, name, application and resources are left out.
func featureValues(j *Job) [][2]string {
	f := j.Features
	out := make([][2]string, 0, 6)
	for _, kv := range [][2]string{{"user", f.User}, {"name", f.Name}, {"app", f.App}, {"resources", f.Resources}} {
		if kv[1] != "" {
			out = append(out, kv)
		}
	}
	return append(out, [2]string{"hour", strconv.Itoa(f.SubmitHour)}, [2]string{"day", strconv.Itoa(f.SubmitDay)})
}

// quantileOf is the p-quantile of x (stats' quantile: linear between
// order statistics); 0 for no x, as Summary's quantiles. x is not
// modified.
func quantileOf(x []float64, p float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := slices.Clone(x)
	slices.Sort(s)
	return quantile(s, p)
}

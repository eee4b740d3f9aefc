package wing

import (
	"slices"
	"sort"

	"github.com/plannerhq/planner/workloads/datalake"
)

// IterationValue is the value Algorithm 1 had found after an iteration
// (Fig. 6): MeanShare is the mean over valued jobs with aggregate value
// of the share of it found so far; TotalShare the share of all their
// aggregate value.
type IterationValue struct {
	Iteration  int     `json:"iteration"`
	MeanShare  float64 `json:"mean_share"`
	TotalShare float64 `json:"total_share"`
}

// aggregate runs Algorithm 1 with Owl's functions over every edge of the
// log, keeping a pair (job, depOn) when job started at most ω after
// depOn ended (§4.5.1's fair multi-hop window), then ds_op for value and
// for compute-hours.
//
// The paper windows on the dependent's submission; this windows on its
// start, its read time, which only grows along a path (a job starts
// after its input's writer ends), so pruning pairs while iterating is
// the same as windowing the result. The two differ only for a dependent
// submitted within ω that waited past it.
func (p *Profile) aggregate() {
	g := p.log
	keep := func(job, depOn int) bool { return g.Jobs[job].Start-g.Jobs[depOn].End <= p.opts.ValueWindow }
	var snaps [][]float64
	rows, iters := MultiHop(p.Edges, Owl, keep, func(_ int, base ...[]Row) {
		snaps = append(snaps, Downstream(p.Local, base...))
	})
	p.Iterations = iters
	p.AggValue = Downstream(p.Local, rows)
	p.AggCompute = Downstream(p.Compute, rows)
	levels := append([][]float64{p.Local}, snaps...)
	for it, v := range levels {
		iv := IterationValue{Iteration: it}
		n, found, total := 0, 0.0, 0.0
		for i := range g.Jobs {
			if !p.valued(i) || p.AggValue[i] == 0 {
				continue
			}
			n++
			iv.MeanShare += v[i] / p.AggValue[i]
			found += v[i]
			total += p.AggValue[i]
		}
		if n > 0 {
			iv.MeanShare /= float64(n)
			iv.TotalShare = found / total
		}
		p.Convergence = append(p.Convergence, iv)
	}
}

// TemplateStats are a recurring template's value statistics over its
// valued jobs (§5, §6.3): medians of job-local value, aggregate value,
// compute-hours and aggregate compute-hours, and the value efficiencies
// Wing-Agg and Wing-Direct prioritise by.
type TemplateStats struct {
	Template   string  `json:"template"`
	Jobs       int     `json:"jobs"`
	LocalValue float64 `json:"local_value"`
	AggValue   float64 `json:"agg_value"`
	Compute    float64 `json:"compute_hours"`
	AggCompute float64 `json:"agg_compute_hours"`
	// Efficiency is the aggregate value efficiency: median aggregate
	// value / median aggregate compute-hours (downloads per token-hour).
	Efficiency float64 `json:"efficiency"`
	// DirectEfficiency is the job-local one: median job-local value /
	// median compute-hours.
	DirectEfficiency float64 `json:"direct_efficiency"`
	// localMean is the mean job-local value, the job's own share in its
	// value function.
	localMean float64
}

// UserStats are a user's ad-hoc value efficiencies: the medians over
// their valued ad-hoc jobs of aggregate and job-local value efficiency
// (value / compute-hours per job), and of aggregate value.
type UserStats struct {
	Jobs             int     `json:"jobs"`
	Efficiency       float64 `json:"efficiency"`
	DirectEfficiency float64 `json:"direct_efficiency"`
	AggValue         float64 `json:"agg_value"`
}

// templateStats computes every recurring template's statistics and every
// user's ad-hoc ones.
func (p *Profile) templateStats() {
	g := p.log
	p.Stats = make([]TemplateStats, len(p.Templates))
	type perUser struct{ eff, direct, agg []float64 }
	users := map[string]*perUser{}
	var all perUser
	for t := range p.Templates {
		c := &p.Templates[t]
		var k, a, cpu, acpu []float64
		for _, i := range c.Jobs {
			if !p.valued(i) {
				continue
			}
			if !c.Recurring {
				u := users[g.Jobs[i].User]
				if u == nil {
					u = &perUser{}
					users[g.Jobs[i].User] = u
				}
				e, d := ratio(p.AggValue[i], p.AggCompute[i]), ratio(p.Local[i], p.Compute[i])
				u.eff, u.direct, u.agg = append(u.eff, e), append(u.direct, d), append(u.agg, p.AggValue[i])
				all.eff, all.direct, all.agg = append(all.eff, e), append(all.direct, d), append(all.agg, p.AggValue[i])
				continue
			}
			k, a = append(k, p.Local[i]), append(a, p.AggValue[i])
			cpu, acpu = append(cpu, p.Compute[i]), append(acpu, p.AggCompute[i])
		}
		if len(k) == 0 {
			continue
		}
		s := TemplateStats{
			Template: c.Name, Jobs: len(k),
			LocalValue: median(k), AggValue: median(a), Compute: median(cpu), AggCompute: median(acpu),
			localMean: mean(k),
		}
		s.Efficiency = ratio(s.AggValue, s.AggCompute)
		s.DirectEfficiency = ratio(s.LocalValue, s.Compute)
		p.Stats[t] = s
	}
	p.Users = map[string]UserStats{}
	names := make([]string, 0, len(users))
	for n := range users {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		u := users[n]
		p.Users[n] = UserStats{Jobs: len(u.eff), Efficiency: median(u.eff), DirectEfficiency: median(u.direct), AggValue: median(u.agg)}
	}
	p.AdHoc = UserStats{Jobs: len(all.eff), Efficiency: median(all.eff), DirectEfficiency: median(all.direct), AggValue: median(all.agg)}
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// Estimate is what the profile predicts for a new job from its
// submission record alone.
type Estimate struct {
	// Recurring: the job's template is a recurring template of the log
	// with valued jobs; else the estimate is its user's ad-hoc median.
	Recurring bool `json:"recurring"`
	// Efficiency is Wing-Agg's priority: aggregate value efficiency
	// (downloads per token-hour); DirectEfficiency Wing-Direct's.
	Efficiency       float64 `json:"efficiency"`
	DirectEfficiency float64 `json:"direct_efficiency"`
	// Value is the predicted aggregate value; VF its decay (Fig. 5).
	Value float64       `json:"value"`
	VF    ValueFunction `json:"value_function"`
}

// Estimate predicts a job of template submitted by user at submit: a
// recurring template's medians and value function, or for any other
// job its user's ad-hoc medians (the median over all ad-hoc jobs for a
// user the log has none of) with a flat value function (§5, §7.1).
func (p *Profile) Estimate(template, user string, submit float64) Estimate {
	if t, ok := p.byName[template]; ok && p.Templates[t].Recurring && p.Stats[t].Jobs > 0 {
		s := &p.Stats[t]
		return Estimate{Recurring: true, Efficiency: s.Efficiency, DirectEfficiency: s.DirectEfficiency, Value: s.AggValue, VF: p.valueFunction(t, submit)}
	}
	u, ok := p.Users[user]
	if !ok {
		u = p.AdHoc
	}
	return Estimate{Efficiency: u.Efficiency, DirectEfficiency: u.DirectEfficiency, Value: u.AggValue, VF: ValueFunction{Start: submit, Height: u.AggValue}}
}

// ValueFunction is a job's value against its completion time (Fig. 5,
// Wing-MIL's VF): Height if it completes by the first step, then lower
// by each step's Drop once the step's time has passed.
type ValueFunction struct {
	// Start is the job's submission; Height its predicted aggregate value.
	Start  float64 `json:"start_s"`
	Height float64 `json:"height"`
	// Steps are in time order.
	Steps []Step `json:"steps,omitempty"`
}

// Step is the value lost when a hard dependent arrives before the job
// completes: at time At (its predicted arrival, §3.1's T2) the dependent
// template's share of the job's value is lost.
type Step struct {
	At       float64 `json:"at_s"`
	Drop     float64 `json:"drop"`
	Template string  `json:"template"`
}

// At is the value of completing at t: Height less every step with At <
// t (a dependent submitted at At reads the output only if it was written
// by then).
func (v ValueFunction) At(t float64) float64 {
	x := v.Height
	for _, s := range v.Steps {
		if s.At < t {
			x -= s.Drop
		}
	}
	return x
}

// Final is the value left after every step: what a late completion
// still attains (the job's own share and its polling and soft
// dependents').
func (v ValueFunction) Final() float64 {
	x := v.Height
	for _, s := range v.Steps {
		x -= s.Drop
	}
	return x
}

// valueFunction is the value function of a job of recurring template t
// submitted at submit: height the template's median aggregate value,
// split in proportion to the mean job-local value and the mean value
// each downstream template contributes (Arrival.Contribution); each
// hard dependent template predicted to come (T1) takes its share away
// at its predicted arrival (T2). Polling and soft dependents take none:
// a polling dependent waits, a soft one runs without the output. The
// paper's Fig. 5 decays the full aggregate value this way; the split
// keeps the function's height equal to the median Wing-Agg ranks by.
func (p *Profile) valueFunction(t int, submit float64) ValueFunction {
	s := &p.Stats[t]
	vf := ValueFunction{Start: submit, Height: s.AggValue}
	total := s.localMean
	for _, a := range p.arrivalsOf[t] {
		total += p.Arrivals[a].Contribution
	}
	if total == 0 {
		return vf
	}
	for _, a := range p.arrivalsOf[t] {
		ar := &p.Arrivals[a]
		if ar.Kind != datalake.Hard || !ar.Predicted || ar.Contribution == 0 {
			continue
		}
		vf.Steps = append(vf.Steps, Step{At: submit + ar.TTD, Drop: s.AggValue * ar.Contribution / total, Template: p.Templates[ar.Down].Name})
	}
	slices.SortStableFunc(vf.Steps, func(a, b Step) int {
		switch {
		case a.At < b.At:
			return -1
		case a.At > b.At:
			return 1
		}
		return 0
	})
	return vf
}

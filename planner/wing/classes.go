package wing

import (
	"math"
	"slices"

	"github.com/plannerhq/planner/workloads/datalake"
)

// TemplateClass is what the heuristics of Table 1 make of a template from
// its jobs in the log.
type TemplateClass struct {
	Name string `json:"name"`
	Org  string `json:"org"`
	// Recurring: at least MinRecurring submissions in the observed
	// period, at least one in each of its weeks (the paper's "three times
	// over three months, once each month", on two weeks of history).
	Recurring bool `json:"recurring"`
	// Periodic: recurring with inter-arrival times of coefficient of
	// variation below Options.PeriodicCV (on the clock).
	Periodic bool `json:"periodic"`
	// Polling: recurring, not periodic, never failed for a missing input,
	// and submitted within Options.PollWindow of its latest-completing
	// upstream job (for at least Options.RuleShare of its jobs with one).
	Polling bool `json:"polling"`
	// CV is the coefficient of variation of its inter-arrival times.
	CV float64 `json:"cv"`
	// Priority is the median priority of its analysed jobs.
	Priority float64 `json:"priority"`
	// Jobs are its log jobs (indices), in submission order.
	Jobs []int `json:"-"`
}

// Class names the template's class by Table 1: "periodic",
// "aperiodic", "polling" or "adhoc".
func (c *TemplateClass) Class() string {
	switch {
	case !c.Recurring:
		return "adhoc"
	case c.Polling:
		return "polling"
	case c.Periodic:
		return "periodic"
	}
	return "aperiodic"
}

// classify runs Table 1's job heuristics over the log's templates.
func (p *Profile) classify() {
	g := p.log
	byName := map[string]int{}
	for i := range g.Jobs {
		j := &g.Jobs[i]
		t, ok := byName[j.Template]
		if !ok {
			t = len(p.Templates)
			byName[j.Template] = t
			p.Templates = append(p.Templates, TemplateClass{Name: j.Template, Org: j.Org})
		}
		p.Templates[t].Jobs = append(p.Templates[t].Jobs, i)
		p.tmpl = append(p.tmpl, t)
	}
	p.byName = byName
	split := p.periodStart + (g.End-p.periodStart)/2
	for t := range p.Templates {
		c := &p.Templates[t]
		var subs, prios []float64
		first, second := false, false
		for _, i := range c.Jobs {
			j := &g.Jobs[i]
			subs = append(subs, j.Submit)
			if j.Submit >= p.periodStart {
				prios = append(prios, float64(j.Priority))
				if j.Submit < split {
					first = true
				} else {
					second = true
				}
			}
		}
		c.Priority = median(prios)
		c.Recurring = len(prios) >= p.opts.MinRecurring && first && second
		c.CV = interArrivalCV(subs)
		c.Periodic = c.Recurring && c.CV < p.opts.PeriodicCV
	}
	// Polling needs the edges: a job's latest-completing upstream job.
	for t := range p.Templates {
		c := &p.Templates[t]
		if !c.Recurring || c.Periodic {
			continue
		}
		failed, with, within := false, 0, 0
		for _, i := range c.Jobs {
			j := &g.Jobs[i]
			if j.Status != datalake.Completed {
				failed = true
				break
			}
			last := math.Inf(-1)
			for _, u := range p.ups[i] {
				if p.Templates[p.tmpl[u]].Recurring {
					last = max(last, g.Jobs[u].End)
				}
			}
			if math.IsInf(last, -1) {
				continue
			}
			with++
			if d := j.Submit - last; d >= 0 && d <= p.opts.PollWindow {
				within++
			}
		}
		c.Polling = !failed && with > 0 && float64(within) >= p.opts.RuleShare*float64(with)
	}
}

// interArrivalCV is the coefficient of variation of the gaps between
// sorted submission times (0 with fewer than three).
func interArrivalCV(subs []float64) float64 {
	if len(subs) < 3 {
		return 0
	}
	s := slices.Clone(subs)
	slices.Sort(s)
	var m, m2 float64
	n := float64(len(s) - 1)
	for k := 1; k < len(s); k++ {
		d := s[k] - s[k-1]
		m += d
		m2 += d * d
	}
	m /= n
	v := max(0, m2/n-m*m)
	if m == 0 {
		return math.Inf(1)
	}
	return math.Sqrt(v) / m
}

// Dependency is a template dependency: jobs of template Down read jobs of
// template Up (indices into Profile.Templates), with its kind by Table 1.
type Dependency struct {
	Up   int              `json:"up"`
	Down int              `json:"down"`
	Kind datalake.DepKind `json:"kind"`
	// Recurring: both templates are recurring.
	Recurring bool `json:"recurring"`
}

// classifyDeps gives every template pair with an edge its kind (Table
// 1): an ad-hoc dependency is hard; an input of a polling template is
// polling; a recurring one is hard when more than RuleShare of the
// downstream template's consuming jobs read exactly one upstream job,
// or all of them read the same number; else soft.
func (p *Profile) classifyDeps() {
	type pair struct{ up, down int }
	counts := map[pair][]int{}
	for i := range p.log.Jobs {
		if !p.analysed(i) {
			continue
		}
		n := map[int]int{}
		for _, u := range p.ups[i] {
			n[p.tmpl[u]]++
		}
		for u, c := range n {
			k := pair{u, p.tmpl[i]}
			counts[k] = append(counts[k], c)
		}
	}
	seen := map[pair]bool{}
	for _, e := range p.Edges {
		k := pair{p.tmpl[e.Up], p.tmpl[e.Down]}
		if seen[k] {
			continue
		}
		seen[k] = true
		up, down := &p.Templates[k.up], &p.Templates[k.down]
		d := Dependency{Up: k.up, Down: k.down, Recurring: up.Recurring && down.Recurring}
		switch c := counts[k]; {
		case !d.Recurring:
			d.Kind = datalake.Hard
		case down.Polling:
			d.Kind = datalake.PollingDep
		case len(c) > 0 && (float64(countOf(c, 1)) > p.opts.RuleShare*float64(len(c)) || countOf(c, c[0]) == len(c)):
			d.Kind = datalake.Hard
		default:
			d.Kind = datalake.Soft
		}
		p.Deps = append(p.Deps, d)
	}
	slices.SortFunc(p.Deps, func(a, b Dependency) int {
		if a.Down != b.Down {
			return a.Down - b.Down
		}
		return a.Up - b.Up
	})
	p.depIndex = map[[2]int]int{}
	for i, d := range p.Deps {
		p.depIndex[[2]int{d.Up, d.Down}] = i
	}
}

func countOf(xs []int, v int) int {
	n := 0
	for _, x := range xs {
		if x == v {
			n++
		}
	}
	return n
}

// EdgeKind is the kind of edge e: its template dependency's.
func (p *Profile) EdgeKind(e Edge) datalake.DepKind {
	return p.Deps[p.depIndex[[2]int{p.tmpl[e.Up], p.tmpl[e.Down]}]].Kind
}

// median of xs (0 for none).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

package wing

import (
	"errors"
	"fmt"
	"math"

	"github.com/plannerhq/planner/workloads/datalake"
)

// Options are the profiler's parameters.
type Options struct {
	// Window is T, the single-hop window (§4.2): a read depends on a
	// write at most this old (s).
	Window float64 `json:"window_s"`
	// ValueWindow is ω (§4.5.1): downloads and dependent jobs count
	// within this long after a job completes (s).
	ValueWindow float64 `json:"value_window_s"`
	// Threshold is tr of the arrival predictor (§3.1): a downstream
	// template is predicted to come when at least this share of the
	// upstream template's jobs were read by one of its jobs.
	Threshold float64 `json:"threshold"`
	// History is the observed period: the log's last History seconds
	// (two weeks), whose jobs are analysed; older ones only supply
	// writes.
	History float64 `json:"history_s"`
	// MinRecurring is the fewest submissions of a recurring template.
	MinRecurring int `json:"min_recurring"`
	// PeriodicCV bounds the inter-arrival coefficient of variation of a
	// periodic template: on the clock within seconds.
	PeriodicCV float64 `json:"periodic_cv"`
	// PollWindow is how soon after its latest-completing upstream job a
	// polling job is submitted (Table 1: 15 minutes).
	PollWindow float64 `json:"poll_window_s"`
	// RuleShare is the share of a template's jobs a rule of Table 1 must
	// hold for ("> 95 % of jobs").
	RuleShare float64 `json:"rule_share"`
}

// DefaultOptions are the paper's: T = 30 days, ω = one week, tr = 20 %,
// two weeks of history, three submissions, 15 minutes, 95 %.
func DefaultOptions() Options {
	return Options{
		Window:       30 * datalake.Day,
		ValueWindow:  datalake.Week,
		Threshold:    0.2,
		History:      2 * datalake.Week,
		MinRecurring: 3,
		PeriodicCV:   1e-3,
		PollWindow:   15 * 60,
		RuleShare:    0.95,
	}
}

// Validate reports the first option out of range.
func (o Options) Validate() error {
	pos := func(name string, v float64) error {
		if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
			return fmt.Errorf("wing: %s must be a positive number, got %v", name, v)
		}
		return nil
	}
	if err := errors.Join(pos("window", o.Window), pos("value window", o.ValueWindow), pos("history", o.History),
		pos("periodic cv", o.PeriodicCV), pos("poll window", o.PollWindow)); err != nil {
		return err
	}
	switch {
	case math.IsNaN(o.Threshold) || o.Threshold < 0 || o.Threshold > 1:
		return fmt.Errorf("wing: threshold must be in [0, 1], got %v", o.Threshold)
	case math.IsNaN(o.RuleShare) || o.RuleShare <= 0 || o.RuleShare > 1:
		return fmt.Errorf("wing: rule share must be in (0, 1], got %v", o.RuleShare)
	case o.MinRecurring < 1:
		return fmt.Errorf("wing: min recurring must be ≥ 1, got %d", o.MinRecurring)
	}
	return nil
}

// Profile is what Wing learns from a provenance log (§4): the inferred
// dependencies and their classes, every job's aggregate value, the
// templates' and users' value efficiencies, the arrival predictor and the
// §2.3 statistics. It reads the log alone.
type Profile struct {
	opts        Options
	log         *datalake.Log
	periodStart float64

	// Templates are the log's templates in order of first submission.
	Templates []TemplateClass
	byName    map[string]int
	tmpl      []int // per log job, its template
	// Edges are the single-hop dependencies, by Down then Up.
	Edges []Edge
	ups   [][]int // per log job, its upstream jobs
	downs [][]int // per log job, its downstream jobs
	// Deps are the template dependencies with their kinds.
	Deps     []Dependency
	depIndex map[[2]int]int

	// Local and Compute are each log job's job-local value (downloads)
	// and compute-hours; AggValue and AggCompute their aggregates over
	// the dependents within ValueWindow (Algorithm 1 with Owl).
	Local, Compute, AggValue, AggCompute []float64
	// Iterations is how many Algorithm 1 ran; Convergence the value it
	// had found after each (Fig. 6), from iteration 0 (job-local).
	Iterations  int
	Convergence []IterationValue

	// Stats are the recurring templates' value statistics (by template
	// index; empty for a template without valued jobs).
	Stats []TemplateStats
	// Users are the users' ad-hoc value efficiencies, by name.
	Users map[string]UserStats
	// AdHoc is the median over all valued ad-hoc jobs, for a user
	// without any.
	AdHoc UserStats
	// Arrivals are the arrival predictor's pairs (§3.1), one per
	// recurring template dependency, in Deps' order of those.
	Arrivals   []Arrival
	arrivalsOf map[int][]int // per upstream template, its Arrivals

	// Shares are the §2.3 statistics as inferred.
	Shares datalake.Shares
}

// Build profiles the log g with options o: single-hop edges (§4.2), the
// classes of Table 1, the downloads each job attained, Algorithm 1 over
// the edges within ω, the templates' and users' value efficiencies, the
// arrival predictor and the §2.3 statistics.
func Build(g *datalake.Log, o Options) (*Profile, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if g == nil || len(g.Jobs) == 0 {
		return nil, errors.New("wing: the log has no jobs")
	}
	p := &Profile{opts: o, log: g, periodStart: g.End - o.History}
	p.Edges = InferEdges(g, o.Window)
	p.ups = make([][]int, len(g.Jobs))
	p.downs = make([][]int, len(g.Jobs))
	for _, e := range p.Edges {
		p.ups[e.Down] = append(p.ups[e.Down], e.Up)
		p.downs[e.Up] = append(p.downs[e.Up], e.Down)
	}
	p.classify()
	p.classifyDeps()
	p.Local = LocalValues(g, o.ValueWindow)
	p.Compute = make([]float64, len(g.Jobs))
	for i := range g.Jobs {
		p.Compute[i] = g.Jobs[i].ComputeHours
	}
	p.aggregate()
	p.templateStats()
	p.arrivals()
	p.shares()
	return p, nil
}

// Options are the options the profile was built with.
func (p *Profile) Options() Options { return p.opts }

// Log is the log the profile was built from.
func (p *Profile) Log() *datalake.Log { return p.log }

// analysed reports whether log job i was submitted in the observed
// period.
func (p *Profile) analysed(i int) bool { return p.log.Jobs[i].Submit >= p.periodStart }

// valued reports whether log job i is analysed, completed and ended at
// least ω before the log's end, so the log holds all its value.
func (p *Profile) valued(i int) bool {
	j := &p.log.Jobs[i]
	return p.analysed(i) && j.Status == datalake.Completed && j.End <= p.log.End-p.opts.ValueWindow
}

// Template is the index of the template of that name, ok false when the
// log has none.
func (p *Profile) Template(name string) (int, bool) {
	t, ok := p.byName[name]
	return t, ok
}

// TemplateOf is the template index of log job i.
func (p *Profile) TemplateOf(i int) int { return p.tmpl[i] }

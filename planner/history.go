package planner

import (
	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/workloads"
)

// historyPredictor is a small stand-in RuntimePredictor used until a caller
// supplies 3σPredict (Config-independent: see NewVariant's predictor
// argument). It keeps one streaming histogram per job name, per user and
// for all jobs, and answers from the most specific one with at least
// historyMinSamples runtimes; the point estimate is that history's mean.
// It has none of 3σPredict's expert selection.
type historyPredictor struct {
	byName map[string]*distributions.Histogram
	byUser map[string]*distributions.Histogram
	all    *distributions.Histogram
}

// historyMinSamples is the least history a feature value needs to be used.
const historyMinSamples = 3

func newHistoryPredictor() *historyPredictor {
	return &historyPredictor{
		byName: map[string]*distributions.Histogram{},
		byUser: map[string]*distributions.Histogram{},
		all:    distributions.NewHistogram(distributions.DefaultMaxBins),
	}
}

var _ RuntimePredictor = (*historyPredictor)(nil)

func (p *historyPredictor) Observe(f workloads.Features, runtime float64) {
	add := func(m map[string]*distributions.Histogram, k string) {
		if k == "" {
			return
		}
		h := m[k]
		if h == nil {
			h = distributions.NewHistogram(distributions.DefaultMaxBins)
			m[k] = h
		}
		_ = h.Update(runtime) // invalid runtimes are skipped
	}
	add(p.byName, f.Name)
	add(p.byUser, f.User)
	_ = p.all.Update(runtime)
}

func (p *historyPredictor) Predict(f workloads.Features) (distributions.Piecewise, float64, bool) {
	for _, h := range []*distributions.Histogram{p.byName[f.Name], p.byUser[f.User], p.all} {
		if h == nil || h.Count() < historyMinSamples {
			continue
		}
		d, err := h.Snapshot()
		if err != nil {
			continue
		}
		return d, h.SampleMean(), true
	}
	return nil, 0, false
}

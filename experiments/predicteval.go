package experiments

import (
	"fmt"
	"sort"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/planner/estimate"
	"github.com/plannerhq/planner/workloads"
)

// EvaluatePredictor replays w through a fresh 3σPredict the way a scheduler
// sees it and profiles its point estimates (3sigma Fig. 2(d)): the predictor
// is trained on w's history, each window job is predicted at its submit time,
// and its actual runtime (on preferred nodes) is observed at submit + runtime,
// so a job never learns from itself or from jobs that had not finished.
// Jobs predicted with no history at all are counted in the profile's Skipped.
func EvaluatePredictor(w *workloads.Workload) (distributions.ErrorProfile, error) {
	pred, err := estimate.NewSigma()
	if err != nil {
		return distributions.ErrorProfile{}, err
	}
	for i := range w.History {
		pred.Observe(w.History[i].Features, w.History[i].Runtime)
	}
	// Events in time order: a completion at time t is seen before a
	// submission at the same t; ties by job order in the file.
	type event struct {
		t      float64
		finish bool
		job    *workloads.Job
	}
	events := make([]event, 0, 2*len(w.Jobs))
	for i := range w.Jobs {
		j := &w.Jobs[i]
		events = append(events, event{j.Submit, false, j}, event{j.Submit + j.Runtime, true, j})
	}
	sort.SliceStable(events, func(a, b int) bool {
		if events[a].t != events[b].t {
			return events[a].t < events[b].t
		}
		return events[a].finish && !events[b].finish
	})
	var errs distributions.EstimateErrors
	skipped := 0
	for _, ev := range events {
		if ev.finish {
			pred.Observe(ev.job.Features, ev.job.Runtime)
			continue
		}
		_, est, ok := pred.Predict(ev.job.Features)
		if !ok {
			skipped++
			continue
		}
		if err := errs.Add(est, ev.job.Runtime); err != nil {
			return distributions.ErrorProfile{}, fmt.Errorf("job %d: %w", ev.job.ID, err)
		}
	}
	p := errs.Profile()
	p.Skipped += skipped
	return p, nil
}

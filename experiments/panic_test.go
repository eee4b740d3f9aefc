package experiments

import (
	"context"
	"testing"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/planner/registry"
)

// panicAt are the cycles (counts of Schedule calls) in which the panic
// tests inject a panic into Schedule.
func panicAt(cycle int) bool { return cycle == 2 || cycle == 5 }

// TestSimulatePanicInSchedule: for every row of the registry, a panic in
// Schedule is a failed stage of its cycle, not the end of the run. That
// cycle is decided by the policy's fallback (the planners,
// planner.FallbackScheduler) or is empty (the others); it counts in
// stage_failures; and the run goes on to start and complete jobs after
// it.
func TestSimulatePanicInSchedule(t *testing.T) {
	in := randomInput(3, 40, 3600)
	base := registry.Default()
	reg := make(planner.Registry, len(base))
	for i, p := range base {
		reg[i] = p
		reg[i].New = func(o planner.Options) (planner.Scheduler, error) {
			s, err := p.New(o)
			if err != nil {
				return nil, err
			}
			if _, ok := s.(planner.FallbackScheduler); ok != (p.Reads&planner.ReadsFallback != 0) {
				t.Errorf("%s: a fallback rule %v, reads the fallback setting %v", p.Name, ok, !ok)
			}
			return plannertest.Panicking(s, panicAt), nil
		}
	}
	res, err := Run(context.Background(), in, reg, RunConfig{Schedulers: base.Names(),
		Options: planner.Options{Deterministic: true, Seed: 1}, Sim: SimConfig{Interval: 60}, Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		p, _ := base.Lookup(r.Scheduler)
		planners := p.Reads&planner.ReadsFallback != 0
		panicked, startedAfter, fallbackStarts := 0, 0, 0
		for _, c := range r.Sim.Cycles {
			st := c.Stats
			if st.FailedStage != planner.StageSchedule {
				if panicked == 2 {
					startedAfter += c.Started
				}
				continue
			}
			panicked++
			switch {
			case !st.Panicked || st.Failure == "":
				t.Errorf("%s at %g s: stats %+v do not say it panicked", r.Scheduler, c.Now, st)
			case planners && !st.Fallback:
				t.Errorf("%s at %g s: not decided by the fallback: %+v", r.Scheduler, c.Now, st)
			case !planners && (st.Fallback || c.Started+c.Preempt > 0):
				t.Errorf("%s at %g s: %d starts and %d preemptions, want none", r.Scheduler, c.Now, c.Started, c.Preempt)
			}
			fallbackStarts += c.Started
		}
		if panicked != 2 || r.Metrics.StageFailures < 2 {
			t.Errorf("%s: %d cycles panicked, %d stage failures; want 2 and ≥ 2", r.Scheduler, panicked, r.Metrics.StageFailures)
		}
		if planners && (fallbackStarts == 0 || r.Metrics.Fallbacks < 2) {
			t.Errorf("%s: the fallback started %d jobs in the panicked cycles, %d fallbacks", r.Scheduler, fallbackStarts, r.Metrics.Fallbacks)
		}
		completed := 0
		for _, j := range r.Sim.Jobs {
			if j.Completed {
				completed++
			}
		}
		t.Logf("%s: %d panics, %d stage failures, %d fallbacks, %d starts by them, %d after, %d jobs completed",
			r.Scheduler, panicked, r.Metrics.StageFailures, r.Metrics.Fallbacks, fallbackStarts, startedAfter, completed)
		if startedAfter == 0 || completed < len(in.Jobs)/2 {
			t.Errorf("%s: %d starts after the panics, %d of %d jobs completed: the run did not go on", r.Scheduler, startedAfter, completed, len(in.Jobs))
		}
	}
}

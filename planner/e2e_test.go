package planner_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/plannerhq/planner/experiments"
	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/workloads"
)

// TestEndToEndGoogle plays a Google-like workload (RC256 defaults) through
// prio and the six 3sigma variants in deterministic mode, two at a time,
// and logs their metrics and the wall time. It is an experiment, not an
// assertion, so it runs only when asked: PLANNER_E2E_HOURS=5 for the paper's
// 5-hour, 256-node comparison.
func TestEndToEndGoogle(t *testing.T) {
	v := os.Getenv("PLANNER_E2E_HOURS")
	if v == "" {
		t.Skip("set PLANNER_E2E_HOURS to run the end-to-end simulation")
	}
	var hours float64
	if _, err := fmt.Sscan(v, &hours); err != nil {
		t.Fatal(err)
	}
	p := workloads.DefaultGoogleParams()
	p.Hours = hours
	w, err := workloads.GenerateGoogle(p)
	if err != nil {
		t.Fatal(err)
	}
	in := experiments.Input{Name: "google", Cluster: p.Cluster(), Jobs: w.Jobs, History: w.History}
	reg := experiments.Registry{
		planner.PrioName: func(experiments.SchedulerOptions) (planner.Scheduler, error) {
			return planner.NewPrio(planner.PrioOptions{}), nil
		},
	}
	for _, v := range planner.Variants() {
		reg[v] = func(o experiments.SchedulerOptions) (planner.Scheduler, error) {
			cfg := planner.Config{Solver: o.Solver, SolveTimeout: o.SolverTimeout, Horizon: o.Horizon.Seconds()}
			if o.Deterministic {
				cfg.Mode = planner.SolveDeterministic
			}
			return planner.New3Sigma(cfg, v)
		}
	}
	names := append([]string{planner.PrioName}, planner.Variants()...)
	t0 := time.Now()
	res, err := experiments.Run(context.Background(), in, reg, experiments.RunConfig{
		Schedulers: names,
		Options:    experiments.SchedulerOptions{Deterministic: true},
		Sim:        experiments.SimConfig{Interval: 60},
		Parallel:   2,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d jobs, %.1f h: wall %v", len(w.Jobs), hours, time.Since(t0))
	for _, r := range res {
		t.Logf("%-15s %+v", r.Scheduler, r.Metrics)
	}
}

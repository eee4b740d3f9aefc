package main

import (
	"github.com/plannerhq/planner/experiments"
	"github.com/plannerhq/planner/planner"
)

// schedulerRegistry is every scheduler `planner simulate` can run: one
// factory per registry name. Each call of a factory builds a fresh instance
// (one per run) from the run's options; add a policy here, not in an init
// function.
func schedulerRegistry() experiments.Registry {
	return experiments.Registry{
		planner.PrioName: func(experiments.SchedulerOptions) (planner.Scheduler, error) {
			return planner.NewPrio(planner.PrioOptions{}), nil
		},
		// prio as the 3Sigma paper describes its runs (§6.1: it preempts
		// best-effort jobs for SLO jobs).
		prioPreemptName: func(experiments.SchedulerOptions) (planner.Scheduler, error) {
			return planner.NewPrio(planner.PrioOptions{PreemptBE: true}), nil
		},
	}
}

const prioPreemptName = "prio-preempt"

// schedulerOrder is the default --schedulers: the paper's comparison
// (Table 1, §6.2 variants), then the baselines; names not registered in
// this build are left out.
var schedulerOrder = []string{
	"3sigma", "pointperfest", "pointrealest", "3sigma-nodist", "3sigma-nooe", "3sigma-noadapt",
	planner.PrioName,
}

// defaultSchedulers is schedulerOrder restricted to reg.
func defaultSchedulers(reg experiments.Registry) []string {
	var out []string
	for _, n := range schedulerOrder {
		if _, ok := reg[n]; ok {
			out = append(out, n)
		}
	}
	return out
}

package main

import "github.com/plannerhq/planner/planner"

// readFlags are the simulate flags of each group of planner.Reads, with
// the reason a flag of the group has no effect when no chosen scheduler
// reads it (the registry's rows say which schedulers read which group;
// every scheduler reads the workload, --interval and --seed).
var readFlags = []struct {
	group  planner.Reads
	unread string
	flags  []string
}{
	{planner.ReadsSolver, "no scheduler in --schedulers plans with a solver", []string{"solver", "solver-timeout", "horizon", "solver-fail-rate"}},
	{planner.ReadsFallback, "no scheduler in --schedulers falls back from a solve", []string{"fallback"}},
	// backfill-pred uses 3σPredict too, but its own, with its defaults.
	{planner.ReadsEstimates, "no 3sigma variant in --schedulers plans with 3σPredict's estimates", []string{"samples-per-feature", "synthetic", "synthetic-shift", "synthetic-cov"}},
}

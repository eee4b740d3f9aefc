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
	reg := experiments.Registry{
		// prio as the 3Sigma paper runs it (§6.1): SLO jobs strictly
		// before best-effort jobs, preempting best-effort jobs for them.
		planner.PrioName: func(experiments.SchedulerOptions) (planner.Scheduler, error) {
			return planner.NewPrio(planner.PrioOptions{PreemptBE: true}), nil
		},
		prioNoPreemptName: func(experiments.SchedulerOptions) (planner.Scheduler, error) {
			return planner.NewPrio(planner.PrioOptions{}), nil
		},
		// The HPC baselines (FCFS + EASY backfilling); not in the default
		// comparison.
		planner.BackfillName: func(experiments.SchedulerOptions) (planner.Scheduler, error) {
			return planner.NewBackfill(planner.BackfillOptions{}), nil
		},
		planner.BackfillPredName: func(experiments.SchedulerOptions) (planner.Scheduler, error) {
			return planner.NewBackfillPred(planner.BackfillOptions{}, nil)
		},
	}
	for _, v := range planner.Variants() {
		reg[v] = func(o experiments.SchedulerOptions) (planner.Scheduler, error) {
			return planner.New3Sigma(sigmaConfig(o), v)
		}
	}
	return reg
}

// reads is a set of the groups of simulate flags that only some
// schedulers read (readFlags); every scheduler reads the workload, the
// --interval and --seed.
type reads uint8

const (
	// readsSolver: plans with a MILP, whose backend, time limit and
	// horizon the solver flags set (sigmaConfig).
	readsSolver reads = 1 << iota
	// readsEstimates: plans with 3σPredict's runtime estimates, which
	// --samples-per-feature restricts and --synthetic replaces
	// (simulateFlags.registry).
	readsEstimates
)

// readFlags are the flags of each group of reads, with the reason a flag
// of the group has no effect when no chosen scheduler reads it.
var readFlags = []struct {
	group  reads
	unread string
	flags  []string
}{
	{readsSolver, "no scheduler in --schedulers plans with a solver", []string{"solver", "solver-timeout", "horizon"}},
	// backfill-pred uses 3σPredict too, but its own (below).
	{readsEstimates, "no 3sigma variant in --schedulers plans with 3σPredict's estimates", []string{"samples-per-feature", "synthetic", "synthetic-shift", "synthetic-cov"}},
}

// schedulerReads is what each scheduler of schedulerRegistry reads of
// readFlags (TestSchedulerReads keeps the two in step).
var schedulerReads = map[string]reads{
	planner.PrioName:     0,
	prioNoPreemptName:    0,
	planner.BackfillName: 0,
	// backfill-pred predicts with its own 3σPredict, with its defaults:
	// the estimate flags reach only the 3sigma variants that estimate.
	planner.BackfillPredName:  0,
	planner.Name3Sigma:        readsSolver | readsEstimates,
	planner.Name3SigmaNoDist:  readsSolver | readsEstimates,
	planner.Name3SigmaNoOE:    readsSolver | readsEstimates,
	planner.Name3SigmaNoAdapt: readsSolver | readsEstimates,
	planner.NamePointRealEst:  readsSolver | readsEstimates,
	// pointperfest plans with the true runtimes.
	planner.NamePointPerfEst: readsSolver,
}

// sigmaConfig maps a run's options onto the planning cycle's Config.
func sigmaConfig(o experiments.SchedulerOptions) planner.Config {
	cfg := planner.Config{Solver: o.Solver, SolveTimeout: o.SolverTimeout, Horizon: o.Horizon.Seconds()}
	if o.Deterministic {
		cfg.Mode = planner.SolveDeterministic
	}
	return cfg
}

// prioNoPreemptName is prio without preemption (SLO jobs wait for free nodes).
const prioNoPreemptName = "prio-nopreempt"

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

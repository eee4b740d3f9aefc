// Package registry holds the one table of scheduling policies that cmd/
// and the service run: a row per policy, each built by its own package
// (CONVENTIONS 5 and 22). Adding a policy means adding its package and
// its row here.
package registry

import (
	"time"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/backfill"
	"github.com/plannerhq/planner/planner/gs"
	"github.com/plannerhq/planner/planner/prio"
	"github.com/plannerhq/planner/planner/slearn"
	"github.com/plannerhq/planner/planner/threesigma"
	"github.com/plannerhq/planner/workloads"
)

// Default is the table, in report order: the 3Sigma paper's comparison
// (Table 1 and the §6.2 variants, then prio) is the default set; the other
// baselines follow. The planners (the 3sigma variants) decide at their
// cycle, as the paper's do, unless a run gives neither the timing nor the
// interval: then they decide on events when the workload's SLO jobs have
// less slack than the cycle (threesigma.TimingFor). Every other policy
// decides at each arrival and completion too (planner.OnEvents), as EASY
// and Slurm's main scheduler do. Every call returns a fresh table.
func Default() planner.Registry {
	return planner.Registry{
		sigma(threesigma.Name3Sigma, "3σSched: 3σPredict's runtime distributions, adaptive over-estimate handling"),
		sigma(threesigma.NamePointPerfEst, "3σSched with the true runtime as a point estimate"),
		sigma(threesigma.NamePointRealEst, "3σSched with 3σPredict's point estimate"),
		sigma(threesigma.Name3SigmaNoDist, "3σSched with 3σPredict's point estimate, adaptive over-estimate handling"),
		sigma(threesigma.Name3SigmaNoOE, "3σSched without over-estimate handling"),
		sigma(threesigma.Name3SigmaNoAdapt, "3σSched with over-estimate handling for every SLO job"),
		{
			Name:    threesigma.Name3SigmaHybrid,
			Summary: "3sigma with the hybrid predictor on task-level jobs: a wide job's pilots first, then planned by 3σPredict's distribution refined by their durations (SLearn §7)",
			New: func(o planner.Options) (planner.Scheduler, error) {
				return threesigma.NewHybrid(o)
			},
			Reads:     threesigma.Reads(threesigma.Name3Sigma),
			Tasks:     true,
			TimingFor: plannerTiming,
		},
		{
			Name:    prio.Name,
			Summary: "strict priority: SLO jobs by deadline before best-effort jobs, preempting best-effort jobs (3Sigma §6.1)",
			New: func(planner.Options) (planner.Scheduler, error) {
				return prio.New(prio.Options{PreemptBE: true}), nil
			},
			Default:   true,
			Decisions: planner.OnEvents,
		},
		{
			Name:    prio.NameNoPreempt,
			Summary: "strict priority without preemption",
			New: func(planner.Options) (planner.Scheduler, error) {
				return prio.New(prio.Options{}), nil
			},
			Decisions: planner.OnEvents,
		},
		{
			Name:    backfill.Name,
			Summary: "FCFS with EASY backfilling on the users' requested times",
			New: func(planner.Options) (planner.Scheduler, error) {
				return backfill.New(backfill.Options{}), nil
			},
			Decisions: planner.OnEvents,
		},
		{
			Name:    backfill.NamePred,
			Summary: "FCFS with EASY backfilling on 3σPredict's point estimates (its own predictor, with its defaults)",
			New: func(o planner.Options) (planner.Scheduler, error) {
				return backfill.NewPred(backfill.Options{}, o.Predictor)
			},
			Decisions: planner.OnEvents,
		},
		sampling(slearn.Name, "SLearn: GS with runtimes learned from a few pilot tasks of each wide job, adaptive 1-5% sampling (SLearn §5.1.2)", func(seed uint64) (planner.Scheduler, error) {
			return slearn.NewDefault(seed)
		}),
		sampling(slearn.NameHybrid, "SLearn with history as the prior: thin jobs by 3σPredict's estimate, wide jobs by the posterior given their pilots (SLearn §7)", func(seed uint64) (planner.Scheduler, error) {
			return slearn.NewHybrid(gs.DefaultConfig(), gs.DefaultThinLimit, seed, nil)
		}),
		sampling(slearn.NameDAG, "SLearn for DAG jobs: the first stage sampled, later stages by 3σPredict's estimate × the first stage's sampled/predicted ratio (SLearn §6)", func(seed uint64) (planner.Scheduler, error) {
			return slearn.NewDAG(gs.DefaultConfig(), gs.DefaultThinLimit, seed, nil)
		}),
		generic(gs.Name3SigmaDAG, "GS by 3σPredict's estimate of every DAG stage as it is released (SLearn §6's 3Sigma-DAG)"),
		generic(gs.Name, "GS: priority queues by 3σPredict's point estimate of the job's size (SLearn §5.1.1)"),
		generic(gs.Name3Sigma, "GS by 3σPredict's distribution under utility 1/t² (SLearn's 3Sigma baseline)"),
		generic(gs.Name3SigmaTL, "3sigma-gs with thin jobs (< 3 tasks) in the highest queue"),
		generic(gs.NamePointEst, "GS by the median of 3σPredict's distribution"),
		generic(gs.NameLAS, "GS by least attained service (task time so far)"),
		generic(gs.NameFIFO, "FIFO: jobs by arrival, one queue"),
		generic(gs.NameOracle, "GS by the true runtime"),
	}
}

// sampling is the row of an SLearn policy (pilot tasks sampled with the
// run's seed): task-level jobs, on events, outside the default comparison.
func sampling(name, summary string, build func(seed uint64) (planner.Scheduler, error)) planner.Policy {
	return planner.Policy{
		Name:    name,
		Summary: summary,
		New: func(o planner.Options) (planner.Scheduler, error) {
			return build(o.Seed)
		},
		Tasks:     true,
		Decisions: planner.OnEvents,
	}
}

// generic is the row of a policy run in GS: it schedules task-level jobs
// (and gang jobs), outside the default comparison, on events.
func generic(name, summary string) planner.Policy {
	return planner.Policy{
		Name:    name,
		Summary: summary,
		New: func(planner.Options) (planner.Scheduler, error) {
			return gs.NewVariant(name)
		},
		Tasks:     true,
		Decisions: planner.OnEvents,
	}
}

// sigma is the row of a 3sigma variant, part of the default comparison.
func sigma(variant, summary string) planner.Policy {
	return planner.Policy{
		Name:    variant,
		Summary: summary,
		New: func(o planner.Options) (planner.Scheduler, error) {
			return threesigma.New(variant, o)
		},
		Reads:     threesigma.Reads(variant),
		Default:   true,
		Tasks:     true,
		TimingFor: plannerTiming,
	}
}

// plannerTiming is the planners' timing when a run gives neither the
// timing nor the interval: on events when the wait for the cycle alone
// would make SLO jobs of the workload miss (threesigma.TimingFor).
func plannerTiming(history []workloads.Job, interval time.Duration) (planner.Timing, string) {
	t := threesigma.TimingFor(history, interval)
	return t.Decisions, t.Reason()
}

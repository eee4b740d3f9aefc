package experiments

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/workloads"
)

// RunConfig is one comparison: every listed scheduler on one input.
type RunConfig struct {
	Schedulers []string
	Options    planner.Options // Cluster is taken from the input
	// Sim are the simulator's settings; the runner sets Progress, and
	// Decisions per run: Decisions below, or the policy's own
	// (planner.Policy.Decisions).
	Sim SimConfig
	// Decisions, when set, is the decision timing of every run (a comparison
	// of timings); nil: each policy decides as its registry row says.
	Decisions *planner.Timing
	// DeriveTiming: without Decisions, a policy whose row derives its timing
	// (planner.Policy.TimingFor) decides as the rule says for in.History at
	// Sim.Interval, and its run reports why. A caller sets it when it was
	// given neither the timing nor the interval.
	DeriveTiming bool
	// SharedTiming, with DeriveTiming, is the derived timing of every
	// deriving policy instead of its own rule on in.History: a sweep
	// derives one for all its points (SweepTiming), so that they compare
	// like with like.
	SharedTiming *SharedTiming
	// Seed of the workload, reported with every run.
	Seed uint64
	// Params are reported with every run.
	Params Params
	// Parallel runs at most this many simulations at once (≤ 0:
	// runtime.NumCPU()). Results do not depend on it.
	Parallel int
	// Slots, when set, is a semaphore shared with other Run calls (a sweep
	// runs several points at once): a run holds one slot while it
	// simulates, and Parallel is ignored.
	Slots chan struct{}
	// Progress, when set, is told of every run of the comparison; the
	// caller says how many to expect (Progress.Expect).
	Progress *Progress
	// Log receives a line per run at info (and per cycle at debug).
	Log zerolog.Logger
}

// Params are the settings of a run, reported with it (the "params" object).
type Params struct {
	Nodes      int       `json:"nodes"`
	Partitions int       `json:"partitions"`
	Hours      float64   `json:"hours"`
	Load       float64   `json:"load"`
	Slack      []float64 `json:"slack"`
	IntervalS  float64   `json:"interval_s"`
	// Decisions is the run's decision timing (planner.Timing): "cycle",
	// at the cycles of IntervalS, or "events", at every arrival and
	// completion too.
	Decisions string `json:"decisions"`
	// DecisionsReason, when the timing was derived from the workload
	// (RunConfig.DeriveTiming), says why, in one line.
	DecisionsReason string  `json:"decisions_reason,omitempty"`
	HorizonS        float64 `json:"horizon_s"`
	Solver          string  `json:"solver"`
	SolverTimeoutS  float64 `json:"solver_timeout_s"`
	Deterministic   bool    `json:"deterministic"`
	// Fallback and SolverFailRate are the planners' fallback rule and the
	// share of their solves failed on purpose, when given.
	Fallback       string  `json:"fallback,omitempty"`
	SolverFailRate float64 `json:"solver_fail_rate,omitempty"`
	// SamplesPerFeature limits 3σPredict to that many runtimes per feature
	// value (0: no limit).
	SamplesPerFeature int `json:"samples_per_feature,omitempty"`
	// Synthetic, when set, replaced 3σPredict's estimates.
	Synthetic *SyntheticParams `json:"synthetic,omitempty"`
	Jobs      int              `json:"jobs"`
	// Sweep is the varied setting of a sweep point (nil outside sweeps).
	Sweep *SweepParam `json:"sweep,omitempty"`
}

// SyntheticParams are the synthetic estimates of 3Sigma §6.3 in percent:
// N(μ = runtime·(1 + s), σ = runtime·CoV) with s ~ N(Shift, ShiftSD²).
type SyntheticParams struct {
	ShiftPct   float64 `json:"shift_pct"`
	ShiftSDPct float64 `json:"shift_sd_pct"`
	CoVPct     float64 `json:"cov_pct"`
}

// SweepParam is the setting a sweep varied: the flag, its value as given,
// and the value on the plots' x axis (X, in Unit; nil for a value that is
// not a number, e.g. a workload file).
type SweepParam struct {
	Flag  string   `json:"flag"`
	Value string   `json:"value"`
	X     *float64 `json:"x,omitempty"`
	Unit  string   `json:"unit,omitempty"`
}

// RunResult is one scheduler's run.
type RunResult struct {
	Scheduler string
	Workload  string
	// WorkloadMeta is the workload's extension object (Input.Meta).
	WorkloadMeta []byte
	Seed         uint64
	Params       Params
	Metrics      Metrics
	Sim          *SimResult
}

// Run plays in through every scheduler of cfg, up to cfg.Parallel at a
// time, each with a fresh instance from reg trained on in.History. Results
// are in the order of cfg.Schedulers. The first error (an invalid
// decision, a scheduler error, ctx cancelled) cancels the other runs and
// is returned, naming the scheduler, with the runs that had finished
// before it (in order; the others left out).
func Run(ctx context.Context, in Input, reg planner.Registry, cfg RunConfig) ([]RunResult, error) {
	if err := reg.Check(cfg.Schedulers); err != nil {
		return nil, err
	}
	if _, err := NewSim(in, cfg.Sim, nil); err != nil {
		return nil, err
	}
	if HasTasks(in.Jobs) {
		if err := reg.CheckTasks(cfg.Schedulers, in.Name); err != nil {
			return nil, err
		}
	}
	par := cfg.Parallel
	if par <= 0 {
		par = runtime.NumCPU()
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	results := make([]RunResult, len(cfg.Schedulers))
	finished := make([]bool, len(cfg.Schedulers))
	sem := cfg.Slots
	if sem == nil {
		sem = make(chan struct{}, par)
	}
	var wg sync.WaitGroup
	// Runs start in the order of cfg.Schedulers: the slot is taken before
	// the run's goroutine starts.
	for i, name := range cfg.Schedulers {
		select {
		case sem <- struct{}{}:
			if ctx.Err() != nil {
				<-sem
			}
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			res, err := runOne(ctx, in, reg, cfg, name)
			if err != nil {
				cancel(err)
				return
			}
			results[i], finished[i] = *res, true
		}()
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		var done []RunResult
		for i := range results {
			if finished[i] {
				done = append(done, results[i])
			}
		}
		return done, err
	}
	return results, nil
}

// HasTasks reports whether a job of jobs is task-level.
func HasTasks(jobs []workloads.Job) bool {
	return slices.ContainsFunc(jobs, func(j workloads.Job) bool { return j.TaskLevel() })
}

func runOne(ctx context.Context, in Input, reg planner.Registry, cfg RunConfig, name string) (*RunResult, error) {
	opts := cfg.Options
	opts.Cluster = in.Cluster
	pol, ok := reg.Lookup(name)
	if !ok {
		return nil, reg.Check([]string{name})
	}
	s, err := pol.New(opts)
	if err != nil {
		return nil, fmt.Errorf("scheduler %s: %w", name, err)
	}
	s.Train(slices.Clone(in.History))
	log := cfg.Log.With().Str("scheduler", name).Str("workload", in.Name).Uint64("seed", cfg.Seed).Logger()
	sc := cfg.Sim
	sc.Log = log
	sc.Decisions = pol.Decisions
	reason := ""
	switch {
	case cfg.Decisions != nil:
		sc.Decisions = *cfg.Decisions
	case cfg.DeriveTiming && pol.TimingFor != nil && cfg.SharedTiming != nil:
		sc.Decisions, reason = cfg.SharedTiming.Decisions, cfg.SharedTiming.Reason
	case cfg.DeriveTiming && pol.TimingFor != nil:
		sc.Decisions, reason = pol.TimingFor(in.History, time.Duration(sc.Interval*float64(time.Second)))
	}
	var rp *RunProgress
	sc.Progress = func(_, now float64) { rp.At(now) }
	sim, err := NewSim(in, sc, s)
	if err != nil {
		return nil, err
	}
	rp = cfg.Progress.Begin(sim.Limit())
	defer rp.End()
	log.Info().Int("jobs", len(in.Jobs)).Int("nodes", in.Cluster.TotalNodes()).Float64("limit_s", sim.Limit()).Msg("run started")
	wall := time.Now() // for the log only
	res, err := sim.Run(ctx)
	if err != nil {
		return nil, err
	}
	m := res.Metrics()
	if HasTasks(in.Jobs) {
		var est []planner.EstimateRecord
		if e, ok := s.(planner.Estimating); ok {
			est = e.Estimates()
		}
		m.Task = ComputeTaskMetrics(res.Jobs, est)
	}
	log.Info().Float64("slo_miss_rate", m.SLOMissRate).Float64("goodput_machine_hours", m.Goodput).
		Float64("utilization", m.Utilization).Int("cycles", m.Cycles).Dur("wall", time.Since(wall)).Msg("run finished")
	if m.Fallbacks > 0 || m.SolverTimeLimited > 0 {
		log.Warn().Int("fallbacks", m.Fallbacks).Int("time_limited", m.SolverTimeLimited).Int("stage_failures", m.StageFailures).
			Int("cycles", m.Cycles).Msg("some cycles were decided by the fallback or hit the solve time limit")
	}
	p := cfg.Params
	p.Decisions, p.DecisionsReason = sc.Decisions.String(), reason
	p.Slack = slices.Clone(p.Slack)
	if p.Synthetic != nil {
		syn := *p.Synthetic
		p.Synthetic = &syn
	}
	if p.Sweep != nil {
		sw := *p.Sweep
		p.Sweep = &sw
	}
	return &RunResult{Scheduler: name, Workload: in.Name, WorkloadMeta: in.Meta, Seed: cfg.Seed, Params: p,
		Metrics: m, Sim: res}, nil
}

// SharedTiming is one derived decision timing for the deriving policies
// of several comparisons (RunConfig.SharedTiming), and why.
type SharedTiming struct {
	Decisions planner.Timing
	Reason    string
}

// SweepTiming derives one timing for the deriving policies among
// schedulers over the inputs of a sweep's points (labels name them in the
// reason): events when the rule asks for events at any point, since a
// timing that changes from one point to the next would confound what the
// sweep varies (the planners decide on events below 100% deadline slack
// on the Google-like workload and at the cycle above); the cycle when no
// point needs events. It is nil when no scheduler derives its timing.
func SweepTiming(reg planner.Registry, schedulers []string, inputs []Input, intervals []time.Duration, labels []string) *SharedTiming {
	var derive func([]workloads.Job, time.Duration) (planner.Timing, string)
	for _, name := range schedulers {
		if pol, ok := reg.Lookup(name); ok && pol.TimingFor != nil {
			derive = pol.TimingFor
			break
		}
	}
	if derive == nil || len(inputs) == 0 {
		return nil
	}
	var first *SharedTiming
	for i, in := range inputs {
		t, why := derive(in.History, intervals[i])
		st := &SharedTiming{Decisions: t, Reason: fmt.Sprintf("%s (at %s; one timing for every point of the sweep)", why, labels[i])}
		if t == planner.OnEvents {
			return st
		}
		if first == nil {
			first = st
		}
	}
	return first
}

package experiments

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"

	"github.com/plannerhq/planner/planner"
)

// RunConfig is one comparison: every listed scheduler on one input.
type RunConfig struct {
	Schedulers []string
	Options    planner.Options // Cluster is taken from the input
	Sim        SimConfig       // Progress is set by the runner
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
	// Progress receives one line per tenth of simulated time per
	// scheduler, when set. Lines of parallel runs interleave.
	Progress io.Writer
}

// Params are the settings of a run, reported with it (the "params" object).
type Params struct {
	Nodes          int       `json:"nodes"`
	Partitions     int       `json:"partitions"`
	Hours          float64   `json:"hours"`
	Load           float64   `json:"load"`
	Slack          []float64 `json:"slack"`
	IntervalS      float64   `json:"interval_s"`
	HorizonS       float64   `json:"horizon_s"`
	Solver         string    `json:"solver"`
	SolverTimeoutS float64   `json:"solver_timeout_s"`
	Deterministic  bool      `json:"deterministic"`
	// WorkLimit is the work budget (moves) of a deterministic solve of the
	// planning schedulers (threesigma.Config.WorkLimit); 0 outside
	// deterministic mode.
	WorkLimit int64 `json:"work_limit,omitempty"`
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
	Seed      uint64
	Params    Params
	Metrics   Metrics
	Sim       *SimResult
}

// Run plays in through every scheduler of cfg, up to cfg.Parallel at a
// time, each with a fresh instance from reg trained on in.History. Results
// are in the order of cfg.Schedulers. The first error (an invalid decision,
// a scheduler error) cancels the other runs and is returned, naming the
// scheduler.
func Run(ctx context.Context, in Input, reg planner.Registry, cfg RunConfig) ([]RunResult, error) {
	if err := reg.Check(cfg.Schedulers); err != nil {
		return nil, err
	}
	if _, err := NewSim(in, cfg.Sim, nil); err != nil {
		return nil, err
	}
	par := cfg.Parallel
	if par <= 0 {
		par = runtime.NumCPU()
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	results := make([]RunResult, len(cfg.Schedulers))
	sem := cfg.Slots
	if sem == nil {
		sem = make(chan struct{}, par)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex // serialises progress lines
	for i, name := range cfg.Schedulers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			defer func() { <-sem }()
			if ctx.Err() != nil {
				return
			}
			res, err := runOne(ctx, in, reg, cfg, name, &mu)
			if err != nil {
				cancel(err)
				return
			}
			results[i] = *res
		}()
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	return results, nil
}

func runOne(ctx context.Context, in Input, reg planner.Registry, cfg RunConfig, name string, mu *sync.Mutex) (*RunResult, error) {
	opts := cfg.Options
	opts.Cluster = in.Cluster
	s, err := reg.New(name, opts)
	if err != nil {
		return nil, fmt.Errorf("scheduler %s: %w", name, err)
	}
	s.Train(slices.Clone(in.History))
	sc := cfg.Sim
	if cfg.Progress != nil {
		sc.Progress = func(frac, now float64) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(cfg.Progress, "simulate: %s %3.0f%% (t=%.0f s)\n", name, frac*100, now)
		}
	}
	sim, err := NewSim(in, sc, s)
	if err != nil {
		return nil, err
	}
	res, err := sim.Run(ctx)
	if err != nil {
		return nil, err
	}
	p := cfg.Params
	p.Slack = slices.Clone(p.Slack)
	if p.Synthetic != nil {
		syn := *p.Synthetic
		p.Synthetic = &syn
	}
	if p.Sweep != nil {
		sw := *p.Sweep
		p.Sweep = &sw
	}
	return &RunResult{Scheduler: name, Workload: in.Name, Seed: cfg.Seed, Params: p,
		Metrics: res.Metrics(), Sim: res}, nil
}

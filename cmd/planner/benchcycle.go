package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/plannerhq/planner/experiments"
	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/registry"
	"github.com/plannerhq/planner/planner/threesigma"
	"github.com/plannerhq/planner/solver"
	"github.com/spf13/pflag"
)

// cycleScaleChart is the chart file of 'bench cycle --out'.
const cycleScaleChart = "cycle-scale.png"

// cycleScaleOutput is the JSON output of 'bench cycle'.
type cycleScaleOutput struct {
	Scheduler     string                        `json:"scheduler"`
	Interval      string                        `json:"interval"`
	Deterministic bool                          `json:"deterministic"`
	Points        []experiments.CycleScalePoint `json:"points"`
	WallFit       experiments.PowerFit          `json:"wall_fit"`
	CPUFit        *experiments.PowerFit         `json:"cpu_fit,omitempty"`
}

func runBenchCycle(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	fs := pflag.NewFlagSet("bench cycle", pflag.ContinueOnError)
	defer func() { err = inConfig(fs, err) }()
	fs.SetOutput(stdout)
	reg := registry.Default()
	var (
		cfg       experiments.CycleScaleConfig
		scheduler string
		solverN   string
		timeout   time.Duration
		det       bool
		format    string
		out       string
		quiet     bool
		config    string
	)
	fs.IntSliceVar(&cfg.Pending, "pending", []int{250, 500, 1000, 2000, 4000}, "backlog sizes: pending jobs waiting at the cycle")
	decimalVar(fs, &cfg.Cycles, "cycles", 3, "timed cycles per size (after one untimed)")
	decimalVar(fs, &cfg.Seed, "seed", 1, "workload seed")
	fs.DurationVar(&cfg.Interval, "interval", time.Minute, "time between cycles (the planners' slice; the horizon is derived from it)")
	fs.StringVar(&scheduler, "scheduler", threesigma.Name3Sigma, "the scheduler measured")
	fs.StringVar(&solverN, "solver", "", "MILP backend of a planning scheduler (default "+solver.DefaultName+")")
	fs.DurationVar(&timeout, "solver-timeout", 0, "time limit of one solve with --deterministic=false (0: 75% of --interval)")
	fs.BoolVar(&det, "deterministic", true, "work-limited solves (every step of the backend, whatever the clock); false: wall-clock limits")
	fs.StringVar(&format, "format", "table", "output: table or json")
	fs.StringVarP(&out, "out", "o", "", "also write "+cycleScaleChart+" (cycle time against pending jobs, log–log, with the fitted slopes) into this directory")
	fs.BoolVarP(&quiet, "quiet", "q", false, "no progress on stderr")
	fs.StringVar(&config, "config", "", configUsage)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), `Usage: planner bench cycle [flags]

Times a scheduler's cycle at Google scale against the backlog: the GOOGLE
cluster (12,583 nodes), 85% of it running SCALABILITY-4000 jobs, and each
--pending size of jobs waiting. A fresh scheduler, trained on the
workload's history, runs one untimed cycle, then --cycles timed ones on
the same backlog. Prints per size the wall time (median, max), the
processor time per cycle with the solver's workers, the solve's median
and the model's size, then t = c·n^slope fitted on log–log axes (slope ≤ 1
is linear or better). Wall times depend on the machine's load.

Flags:`)
		fs.PrintDefaults()
	}
	if err := parseNoArgs(fs, args, "bench cycle"); err != nil {
		return err
	}
	if config != "" {
		if err := applyConfigFile(fs, config); err != nil {
			return usageError{err}
		}
	}
	if len(cfg.Pending) < 2 {
		return usageError{fmt.Errorf("--pending: give at least two sizes to fit a slope, got %d", len(cfg.Pending))}
	}
	for _, n := range cfg.Pending {
		if n < 1 {
			return usageError{fmt.Errorf("--pending: must be ≥ 1, got %d", n)}
		}
	}
	if n, ok := firstDuplicate(cfg.Pending); ok {
		return usageError{fmt.Errorf("--pending: %d is given twice", n)}
	}
	slices.Sort(cfg.Pending)
	if cfg.Cycles < 1 {
		return usageError{fmt.Errorf("--cycles: must be ≥ 1, got %d", cfg.Cycles)}
	}
	if cfg.Interval <= 0 {
		return usageError{fmt.Errorf("--interval: must be > 0, got %s", cfg.Interval)}
	}
	if timeout < 0 || timeout > maxSolveLimit {
		return usageError{fmt.Errorf("--solver-timeout: must be in [0, %s], got %s", maxSolveLimit, timeout)}
	}
	if format != "table" && format != "json" {
		return usageError{fmt.Errorf("--format: want table or json, got %q", format)}
	}
	if err := reg.Check([]string{scheduler}); err != nil {
		return usageError{fmt.Errorf("--scheduler: %w", err)}
	}
	if solverN != "" {
		if _, err := solver.New(solverN); err != nil {
			return usageError{fmt.Errorf("--solver: %w", err)}
		}
	}
	if !det && timeout == 0 {
		timeout = time.Duration(defaultSolveFraction * float64(cfg.Interval))
	}
	if out != "" {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return fmt.Errorf("--out %s: %w", out, err)
		}
	}
	cfg.Options = planner.Options{Solver: solverN, SolverTimeout: timeout, Deterministic: det, Seed: cfg.Seed}
	cfg.New = func(o planner.Options) (planner.Scheduler, error) { return reg.New(scheduler, o) }
	cfg.Horizon = threesigma.HorizonFor
	pts, err := experiments.RunCycleScale(ctx, cfg, func(p experiments.CycleScalePoint) {
		if !quiet {
			fmt.Fprintf(stderr, "bench: %s pending=%d wall median %.0f ms, processor %.0f ms\n", scheduler, p.Pending, p.MedianWallMS(), p.CPUMS)
		}
	})
	if err != nil {
		return err
	}
	wallFit, cpuFit, cpuOK, err := experiments.FitCycleScale(pts)
	if err != nil {
		return err
	}
	res := cycleScaleOutput{Scheduler: scheduler, Interval: cfg.Interval.String(), Deterministic: det, Points: pts, WallFit: wallFit}
	if cpuOK {
		res.CPUFit = &cpuFit
	}
	if format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(res)
	} else {
		err = writeCycleScaleTable(stdout, res)
	}
	if err != nil {
		return err
	}
	if out != "" {
		path := filepath.Join(out, cycleScaleChart)
		f, err := os.Create(path)
		if err != nil {
			return fmt.Errorf("--out: %w", err)
		}
		if err := experiments.WriteCycleScaleChart(f, pts); err != nil {
			f.Close()
			return fmt.Errorf("%s: %w", path, err)
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

// writeCycleScaleTable prints a row per backlog size and the fits.
func writeCycleScaleTable(w io.Writer, res cycleScaleOutput) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "pending\twall ms, median\tmax\tprocessor ms\tsolve ms, median\toptions\tvars\trows\tfallbacks\t")
	for _, p := range res.Points {
		fmt.Fprintf(tw, "%d\t%.0f\t%.0f\t%.0f\t%.0f\t%d\t%d\t%d\t%d\t\n", p.Pending, p.MedianWallMS(), slices.Max(p.WallMS),
			p.CPUMS, p.SolveMS, p.Options, p.Vars, p.Rows, p.Fallbacks)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "fit: wall ms = %.3g·n^%.2f (R² %.3f)\n", res.WallFit.Coef, res.WallFit.Slope, res.WallFit.R2)
	if err == nil && res.CPUFit != nil {
		_, err = fmt.Fprintf(w, "fit: processor ms = %.3g·n^%.2f (R² %.3f)\n", res.CPUFit.Coef, res.CPUFit.Slope, res.CPUFit.R2)
	}
	return err
}

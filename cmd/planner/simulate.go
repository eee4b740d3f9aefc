package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/plannerhq/planner/experiments"
	"github.com/plannerhq/planner/solver"
	"github.com/plannerhq/planner/workloads"
	"github.com/spf13/pflag"
)

// Defaults of `planner simulate`.
//
// The interval is 60 s. A simulated cycle costs real compute (building the
// model and solving it), and a run has Window/Interval cycles plus the
// drain: 5 h at 60 s is 300 cycles (~400 with the drain) per scheduler. The
// six MILP schedulers of the paper's comparison then share 2 cores for
// ~2,400 solves, which keeps the seven-scheduler 256-node 5-hour run within
// about five minutes when a cycle averages ≤ 250 ms (deterministic solves
// are work-limited: LP + rounding + a bounded local search). A 60 s cycle
// delays a job's start by 30 s on average — small against the Google-like
// runtimes (minutes to hours) and the same for every scheduler. Shorter
// intervals (--interval 10s) are closer to a live cluster and cost
// proportionally more.
const (
	defaultInterval = 60 * time.Second
	// defaultSolveFraction: --solver-timeout 0 means this fraction of the
	// interval (3Sigma §4.3). In deterministic mode the limit only guards
	// against a runaway solve.
	defaultSolveFraction = 0.75
)

// simulateFlags are the settings of `planner simulate` (DESIGN.md, CLI
// contract). The JSON names are the flag names of --config files.
type simulateFlags struct {
	workloadFlags
	schedulers    []string
	solver        string
	solverTimeout time.Duration
	interval      time.Duration
	horizon       time.Duration
	parallel      int
	format        string
	out           string
	config        string
	deterministic bool
	quiet         bool
}

// simulateConfig is the "config" object of the JSON report: every setting
// that affects results (not --parallel, --format, --out, --quiet), in a
// fixed order.
type simulateConfig struct {
	Workload      string    `json:"workload"`
	Schedulers    []string  `json:"schedulers"`
	Nodes         int       `json:"nodes"`
	Hours         float64   `json:"hours"`
	Load          float64   `json:"load"`
	Slack         []float64 `json:"slack"`
	Seed          uint64    `json:"seed"`
	Solver        string    `json:"solver"`
	SolverTimeout string    `json:"solver_timeout"`
	Interval      string    `json:"interval"`
	Horizon       string    `json:"horizon"`
	Deterministic bool      `json:"deterministic"`
}

func runSimulate(args []string, stdout, stderr io.Writer) error {
	return runSimulateWith(args, stdout, stderr, schedulerRegistry())
}

// runSimulateWith is runSimulate with the registry given (for tests).
func runSimulateWith(args []string, stdout, stderr io.Writer, reg experiments.Registry) error {
	fs := pflag.NewFlagSet("simulate", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var f simulateFlags
	f.workloadFlags.register(fs, "workload seed (and scheduler seed)")
	fs.StringSliceVar(&f.schedulers, "schedulers", defaultSchedulers(reg), "schedulers to compare, in report order (registered: "+strings.Join(reg.Names(), ", ")+")")
	fs.StringVar(&f.solver, "solver", "", "MILP backend of the planning schedulers (default "+solver.DefaultName+"; this build has "+strings.Join(solver.Backends(), ", ")+")")
	fs.DurationVar(&f.solverTimeout, "solver-timeout", 0, "wall-clock limit of one solve (0: 75% of --interval; in deterministic mode only a guard)")
	fs.DurationVar(&f.interval, "interval", defaultInterval, "simulated time between scheduling cycles")
	fs.DurationVar(&f.horizon, "horizon", 0, "plan-ahead horizon (0: the scheduler's default)")
	fs.IntVar(&f.parallel, "parallel", runtime.NumCPU(), "simulations run at once (results do not depend on it)")
	fs.StringVar(&f.format, "format", "table", "output: table, json or csv")
	fs.StringVar(&f.out, "out", "", "also write results.json, jobs.csv and chart.png into this directory")
	fs.StringVar(&f.config, "config", "", "read settings from a JSON file whose keys are flag names; flags given on the command line win")
	fs.BoolVar(&f.deterministic, "deterministic", true, "work-limited solves: the same flags give the same results; false: wall-clock limits, timing metrics reported")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress lines on stderr")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: planner simulate [flags]\n\nPlays one workload through each scheduler in the discrete-event cluster\nsimulator and reports SLO miss rate, goodput, best-effort latency, JCT and\nutilisation per scheduler.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("simulate: unexpected argument %q", fs.Arg(0))}
	}
	if f.config != "" {
		if err := applyConfigFile(fs, f.config); err != nil {
			return usageError{err}
		}
	}
	if err := f.validate(reg); err != nil {
		return usageError{err}
	}
	in, params, err := loadInput(&f)
	if err != nil {
		return err
	}
	timeout := f.solverTimeout
	if timeout == 0 {
		timeout = time.Duration(defaultSolveFraction * float64(f.interval))
	}
	solverName := f.solver
	if solverName == "" {
		solverName = solver.DefaultName
	}
	params.IntervalS = f.interval.Seconds()
	params.HorizonS = f.horizon.Seconds()
	params.Solver = solverName
	params.SolverTimeoutS = timeout.Seconds()
	params.Deterministic = f.deterministic
	cfg := experiments.RunConfig{
		Schedulers: f.schedulers,
		Options: experiments.SchedulerOptions{Interval: f.interval, Horizon: f.horizon, Solver: f.solver,
			SolverTimeout: timeout, Deterministic: f.deterministic, Seed: f.seed},
		Sim:      experiments.SimConfig{Interval: f.interval.Seconds()},
		Seed:     f.seed,
		Params:   params,
		Parallel: f.parallel,
	}
	if !f.quiet {
		cfg.Progress = stderr
	}
	runs, err := experiments.Run(context.Background(), in, reg, cfg)
	if err != nil {
		return err
	}
	rep := &experiments.Report{Runs: runs, Deterministic: f.deterministic, Config: simulateConfig{
		Workload: f.workload, Schedulers: f.schedulers, Nodes: f.nodes, Hours: f.hours, Load: f.load,
		Slack: f.slack, Seed: f.seed, Solver: solverName, SolverTimeout: timeout.String(),
		Interval: f.interval.String(), Horizon: f.horizon.String(), Deterministic: f.deterministic}}
	if f.out != "" {
		if err := rep.WriteDir(f.out); err != nil {
			return fmt.Errorf("--out: %w", err)
		}
	}
	switch f.format {
	case "json":
		return rep.WriteJSON(stdout)
	case "csv":
		return rep.WriteCSV(stdout)
	default:
		fmt.Fprintf(stdout, "workload %s: %d jobs on %d nodes, seed %d, interval %s\n",
			in.Name, len(in.Jobs), in.Cluster.TotalNodes(), f.seed, f.interval)
		return rep.WriteTable(stdout)
	}
}

func (f *simulateFlags) validate(reg experiments.Registry) error {
	if err := reg.Check(f.schedulers); err != nil {
		return fmt.Errorf("--schedulers: %w", err)
	}
	if err := f.workloadFlags.validate(); err != nil {
		return err
	}
	switch {
	case f.format != "table" && f.format != "json" && f.format != "csv":
		return fmt.Errorf("--format: want table, json or csv, got %q", f.format)
	case f.interval <= 0:
		return fmt.Errorf("--interval: must be positive, got %s", f.interval)
	case f.solverTimeout < 0:
		return fmt.Errorf("--solver-timeout: must be ≥ 0, got %s", f.solverTimeout)
	case f.horizon < 0:
		return fmt.Errorf("--horizon: must be ≥ 0, got %s", f.horizon)
	case f.parallel < 1:
		return fmt.Errorf("--parallel: must be ≥ 1, got %d", f.parallel)
	}
	if f.solver != "" {
		if _, err := solver.New(f.solver); err != nil {
			return fmt.Errorf("--solver: %w", err)
		}
	}
	return nil
}

// loadInput generates or reads the workload.
func loadInput(f *simulateFlags) (experiments.Input, experiments.Params, error) {
	w, name, err := f.workloadFlags.open()
	if err != nil {
		return experiments.Input{}, experiments.Params{}, err
	}
	params := experiments.Params{Hours: w.Header.WindowS / 3600, Load: offeredLoad(w)}
	if f.workloadFlags.generated() {
		params.Hours, params.Load, params.Slack = f.hours, f.load, f.slack
	}
	in := experiments.Input{Name: name, Cluster: w.Header.Cluster, Jobs: w.Jobs, History: w.History, Window: w.Header.WindowS}
	params.Nodes = in.Cluster.TotalNodes()
	params.Partitions = len(in.Cluster.PartitionNodes)
	params.Jobs = len(in.Jobs)
	return in, params, nil
}

// offeredLoad is Σ nodes × runtime of the window's jobs / (nodes × window).
func offeredLoad(w *workloads.Workload) float64 {
	capacity := float64(w.Header.Cluster.TotalNodes()) * w.Header.WindowS
	if capacity <= 0 {
		return 0
	}
	work := 0.0
	for _, j := range w.Jobs {
		work += float64(j.Nodes) * j.Runtime
	}
	return work / capacity
}

// applyConfigFile sets every flag named by a key of the JSON object in path
// that was not given on the command line. Values may be strings, numbers,
// booleans or arrays (joined with commas, as a list flag takes them).
func applyConfigFile(fs *pflag.FlagSet, path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("--config: %w", err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("--config %s: not a JSON object: %w", path, err)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	// Sorted, so the first bad key reported is always the same one.
	slices.Sort(keys)
	for _, k := range keys {
		fl := fs.Lookup(k)
		if fl == nil || k == "config" {
			return fmt.Errorf("--config %s: unknown setting %q", path, k)
		}
		if fl.Changed {
			continue // the command line wins
		}
		v, err := configValue(m[k])
		if err != nil {
			return fmt.Errorf("--config %s: %s: %w", path, k, err)
		}
		if sv, ok := fl.Value.(pflag.SliceValue); ok {
			if err := sv.Replace(splitList(v)); err != nil {
				return fmt.Errorf("--config %s: %s: %w", path, k, err)
			}
			continue
		}
		if err := fl.Value.Set(v); err != nil {
			return fmt.Errorf("--config %s: %s: %w", path, k, err)
		}
	}
	return nil
}

func splitList(v string) []string {
	if v == "" {
		return nil
	}
	return strings.Split(v, ",")
}

// configValue renders a JSON value as a flag would take it.
func configValue(raw json.RawMessage) (string, error) {
	var v any
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	scalar := func(x any) (string, error) {
		switch t := x.(type) {
		case string:
			return t, nil
		case json.Number:
			return t.String(), nil
		case bool:
			return strconv.FormatBool(t), nil
		}
		return "", fmt.Errorf("want a string, number, boolean or list, got %s", raw)
	}
	if list, ok := v.([]any); ok {
		parts := make([]string, len(list))
		for i, x := range list {
			s, err := scalar(x)
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return strings.Join(parts, ","), nil
	}
	return scalar(v)
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/plannerhq/planner/experiments"
	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/estimate"
	"github.com/plannerhq/planner/planner/registry"
	"github.com/plannerhq/planner/planner/slearn"
	"github.com/plannerhq/planner/planner/threesigma"
	"github.com/plannerhq/planner/solver"
	"github.com/plannerhq/planner/workloads"
)

// Defaults of `planner simulate`.
//
// The interval is 60 s. A simulated cycle costs real compute (building the
// model and solving it), and a run has Window/Interval cycles plus the
// drain: 5 h at 60 s is 300 cycles (~400 with the drain) per scheduler. The
// six MILP schedulers of the paper's comparison then share 2 cores for
// ~2,400 solves, which keeps the seven-scheduler 256-node 5-hour run within
// about five minutes when a cycle averages ≤ 250 ms (a solve is greedy
// constructions, the LP and the constructions it guides). A 60 s cycle
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
	// minInterval: a run has at least Window/Interval cycles while work is
	// pending, so a tiny interval (1 ns) makes a run that never ends; one
	// cycle per simulated second is already 18,000 cycles for 5 hours.
	minInterval = time.Second
	// taskInterval is the default interval of a workload of task-level
	// jobs: their schedulers (GS and its estimators, SLearn §5.1) hand
	// each node to a task as soon as it frees, and tasks of seconds would
	// wait most of a 60 s cycle for it; a cycle costs them little.
	taskInterval = time.Second
)

// simulateFlags are the settings of `planner simulate` (DESIGN.md, CLI
// contract). The JSON names are the flag names of --config files.
type simulateFlags struct {
	workloadFlags
	schedulers    []string
	solver        string
	solverTimeout time.Duration
	// fallback and solverFailRate: the rule that decides a cycle without
	// an answer, and the share of solves failed on purpose.
	fallback       string
	solverFailRate float64
	interval       time.Duration
	decisions      string
	horizon        time.Duration
	parallel       int
	format         string
	out            string
	config         string
	deterministic  bool
	quiet          bool
	log            logFlags
	prof           profileFlags
	estimateFlags
	// reg is the registry the schedulers come from.
	reg planner.Registry
	// intervalGiven: --interval was given (on the command line, in
	// --config, or as a sweep's value), so that an interval longer than a
	// generator's window is blamed on it rather than on --hours.
	intervalGiven bool
}

// estimateFlags replace or restrict the runtime knowledge of the planning
// schedulers (the 3sigma variants) for the sensitivity studies of 3Sigma
// §6.3–6.4.
type estimateFlags struct {
	samplesPerFeature int
	synthetic         bool
	syntheticShift    float64 // percent
	syntheticCoV      float64 // percent
}

// simulateConfig is the "config" object of the JSON report: every setting
// that affects results (not --parallel, --format, --out, --quiet), in a
// fixed order.
type simulateConfig struct {
	Workload   string   `json:"workload"`
	Schedulers []string `json:"schedulers"`
	// The generator's settings: left out for a workload file, which has
	// its own.
	Nodes         int       `json:"nodes,omitempty"`
	Hours         float64   `json:"hours,omitempty"`
	Load          float64   `json:"load,omitempty"`
	Slack         []float64 `json:"slack,omitempty"`
	Seed          uint64    `json:"seed"`
	Solver        string    `json:"solver"`
	SolverTimeout string    `json:"solver_timeout"`
	// Set only when given, so that a plain run's JSON does not change.
	Fallback       string  `json:"fallback,omitempty"`
	SolverFailRate float64 `json:"solver_fail_rate,omitempty"`
	Interval       string  `json:"interval"`
	Horizon        string  `json:"horizon"`
	Deterministic  bool    `json:"deterministic"`
	// Set only when used, so that a plain run's JSON does not change.
	// Decisions is --decisions when it overrides the policies' own timing (each
	// run's params say how it decided).
	Decisions         string                       `json:"decisions,omitempty"`
	SamplesPerFeature int                          `json:"samples_per_feature,omitempty"`
	Synthetic         *experiments.SyntheticParams `json:"synthetic,omitempty"`

	// Cluster is the cluster of --cluster, resolved (Nodes is its total):
	// set only with --cluster, so that other runs' JSON does not change.
	Cluster *workloads.ClusterSpec `json:"cluster,omitempty"`
}

func runSimulate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runSimulateWith(ctx, args, stdout, stderr, registry.Default())
}

// simulateUsage heads `planner simulate --help`.
const simulateUsage = `Usage: planner simulate [flags]

Plays one workload through each scheduler in the discrete-event cluster
simulator and reports SLO miss rate, goodput, best-effort latency, JCT and
utilisation per scheduler.
` + solverTimeoutHelp + `
Flags:`

// maxSolveLimit bounds the time limit of one solve (--solver-timeout, and
// bench solver's --timeout and --reference): longer limits are mistakes —
// in deterministic mode one would mean a work limit of days — and near
// the largest duration the deadline arithmetic overflows.
const maxSolveLimit = time.Hour

// solverTimeoutHelp explains --solver-timeout in both solve modes.
const solverTimeoutHelp = `
Solver time limit: with --deterministic=false a solve gets --solver-timeout
of wall-clock time (default 75% of --interval), ends when its steps are
done (the clp backend: greedy constructions, the LP relaxation, the
constructions it guides) or at the limit, and results depend on the
machine. With --deterministic (the default) every step runs to its end,
whatever the clock, and --solver-timeout only sets the guard against a
runaway solve (10 × D, at least 10 s).
`

// newSimulateFlags registers the flags of one simulation on a new flag set:
// simulate's own and, with extra flags, sweep's. The flag set is bound to
// the returned struct; its usage (--help) is printed to out.
func newSimulateFlags(name string, out io.Writer, reg planner.Registry) (*pflag.FlagSet, *simulateFlags) {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(out)
	f := &simulateFlags{reg: reg}
	f.workloadFlags.register(fs, "workload seed (and scheduler seed)")
	fs.StringSliceVar(&f.schedulers, "schedulers", reg.Defaults(), "schedulers to compare, in report order (registered: "+strings.Join(reg.Names(), ", ")+")")
	fs.StringVar(&f.solver, "solver", "", "MILP backend of the planning schedulers (default "+solver.DefaultName+"; this build has "+strings.Join(solver.Backends(), ", ")+"; "+planner.SolverNone+": every solve fails, the fallback decides every cycle)")
	fs.Float64Var(&f.solverFailRate, "solver-fail-rate", 0, "share of the planning schedulers' solves failed on purpose, in [0, 1], each cycle's draw from --seed (the fallback decides those cycles)")
	fs.StringVar(&f.fallback, "fallback", "", "rule deciding a planning scheduler's cycle whose solve gives no answer: "+strings.Join(threesigma.Fallbacks(), ", ")+" (default "+threesigma.DefaultFallback.String()+"); SLO jobs that can still meet their deadline come first in each")
	fs.DurationVar(&f.solverTimeout, "solver-timeout", 0, "time limit of one solve, at most 1h (0: 75% of --interval; in deterministic mode only a guard, see above)")
	fs.DurationVar(&f.interval, "interval", defaultInterval, "simulated time between scheduling cycles; when not given, 1s for a workload of task-level jobs (given, the 3sigma planners decide at this cycle unless --decisions events; not given, they derive their timing, see --decisions)")
	fs.StringVar(&f.decisions, "decisions", decisionsPolicy, "when the schedulers decide: "+decisionsPolicy+" (each its own: the heuristics at every arrival and completion and every --interval; the 3sigma planners every --interval when it is given, else on events too if the wait for the cycle alone would miss over 1% of the history's SLO jobs), cycle (every --interval only) or events (every arrival and completion too)")
	fs.DurationVar(&f.horizon, "horizon", 0, "plan-ahead horizon (0: from the workload's history, at least 60 intervals)")
	decimalVar(fs, &f.parallel, "parallel", runtime.NumCPU(), "simulations run at once (results do not depend on it)")
	fs.StringVar(&f.format, "format", "table", "output: table, json or csv")
	fs.StringVarP(&f.out, "out", "o", "", "also write results.json, jobs.csv, chart.png, timeseries.png and per scheduler timeseries-NAME.csv, gantt-NAME.png, jobs-NAME.batsim.csv (Batsim/evalys) and schedule-NAME.swf into this `directory`")
	fs.StringVar(&f.config, "config", "", configUsage)
	fs.BoolVar(&f.deterministic, "deterministic", true, "work-limited solves: the same flags give the same results; false: wall-clock limits, timing metrics reported")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "no progress lines on stderr")
	f.log.register(fs)
	f.prof.register(fs)
	decimalVar(fs, &f.samplesPerFeature, "samples-per-feature", 0, "3σPredict learns from at most this many runtimes per feature value, history first (0: all; 3Sigma Fig. 10)")
	fs.BoolVar(&f.synthetic, "synthetic", false, "give the 3sigma variants synthetic estimates N(μ = runtime·(1+s), σ = runtime·CoV), s ~ N(--synthetic-shift, 10%) per job, instead of 3σPredict's (3Sigma Fig. 8)")
	fs.Float64Var(&f.syntheticShift, "synthetic-shift", 0, "mean shift of the synthetic estimates, percent of the runtime (with --synthetic)")
	fs.Float64Var(&f.syntheticCoV, "synthetic-cov", 20, "width of the synthetic estimates: σ in percent of the runtime (0: a point estimate; with --synthetic)")
	return fs, f
}

// runSimulateWith is runSimulate with the registry given (for tests).
func runSimulateWith(ctx context.Context, args []string, stdout, stderr io.Writer, reg planner.Registry) (err error) {
	fs, f := newSimulateFlags("simulate", stdout, reg)
	defer func() { err = inConfig(fs, err) }()
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), simulateUsage)
		fs.PrintDefaults()
	}
	if err := parseSimulateArgs(fs, "simulate", args, f); err != nil {
		return err
	}
	if err := f.validate(reg); err != nil {
		return usageError{err}
	}
	warnSolverFallback(stderr, f.solver)
	if err := checkUsed(givenFlags(fs), schedulerFlagNames(), f.unusedReason); err != nil {
		return usageError{err}
	}
	in, cfg, err := f.prepare()
	if err != nil {
		return err
	}
	// Checked once the workload is read, so that a missing or malformed
	// file is reported as such first.
	if err := checkUsed(givenFlags(fs), generatorFlagNames(), f.unusedReason); err != nil {
		return usageError{err}
	}
	if experiments.HasTasks(in.Jobs) {
		if err := reg.CheckTasks(f.schedulers, in.Name); err != nil {
			return usageError{fmt.Errorf("--schedulers: %w", err)}
		}
	}
	// The results directory and the log file are checked before the run,
	// so that a bad --out or --log-file fails at once rather than after it.
	if err := checkOutDir(f.out); err != nil {
		return err
	}
	log, closeLog, err := f.log.open(stderr)
	if err != nil {
		return err
	}
	defer closeLog()
	stopProfiles, err := f.prof.start()
	if err != nil {
		return err
	}
	defer func() {
		if perr := stopProfiles(); err == nil {
			err = perr
		}
	}()
	start := time.Now() // provenance only
	prov := experiments.NewProvenance(buildVersion(), commandLine("simulate", args), start)
	cfg.Log = log
	cfg.Progress = newProgress(stderr, "simulate", f.quiet)
	cfg.Progress.Expect(len(f.schedulers))
	runs, err := experiments.Run(ctx, in, reg, cfg)
	cfg.Progress.Close()
	interrupted := wasInterrupted(ctx, err)
	if err != nil && !interrupted {
		return err
	}
	prov.Finish(time.Now())
	rep := &experiments.Report{Runs: runs, Deterministic: f.deterministic, Config: f.effectiveConfig(), Provenance: prov,
		SpeedupReference: slearn.Name}
	if f.format == "table" {
		fmt.Fprintf(stdout, "workload %s: %d jobs on %d nodes, seed %d, interval %s\n",
			in.Name, len(in.Jobs), in.Cluster.TotalNodes(), f.seed, f.interval)
		if c := in.Cluster; f.layout != nil || c.Name != "" || !c.Uniform() {
			fmt.Fprintln(stdout, describeCluster(&c))
		}
	}
	if interrupted {
		// What has finished is written; the rest is lost.
		if len(runs) > 0 {
			if err := writeResults(stdout, f.format, rep, f.out); err != nil {
				return err
			}
		}
		return fmt.Errorf("%w: %d of %d runs had finished; their results are written", errInterrupted, len(runs), len(f.schedulers))
	}
	return writeResults(stdout, f.format, rep, f.out)
}

// results is a report of simulate or sweep: written to standard output in
// one of the formats, and as a results directory.
type results interface {
	WriteJSON(io.Writer) error
	WriteCSV(io.Writer) error
	WriteTable(io.Writer) error
	WriteDir(dir string) error
}

// writeResults writes rep to stdout in format (json, csv, or else a
// table), then, when out is not empty, as the directory out. Standard
// output comes first: a failure writing out then loses nothing.
func writeResults(stdout io.Writer, format string, rep results, out string) error {
	var err error
	switch format {
	case "json":
		err = rep.WriteJSON(stdout)
	case "csv":
		err = rep.WriteCSV(stdout)
	default:
		err = rep.WriteTable(stdout)
	}
	if err != nil {
		return err
	}
	if out != "" {
		if err := rep.WriteDir(out); err != nil {
			return fmt.Errorf("--out: %w", err)
		}
	}
	return nil
}

// timeout is the reported solve limit: --solver-timeout, or 75% of the
// interval.
func (f *simulateFlags) timeout() time.Duration {
	if f.solverTimeout == 0 {
		return time.Duration(defaultSolveFraction * float64(f.interval))
	}
	return f.solverTimeout
}

// solverName is --solver or the default backend.
func (f *simulateFlags) solverName() string {
	if f.solver == "" {
		return solver.Default()
	}
	return f.solver
}

// syntheticParams are the synthetic estimates in percent; nil when off.
func (f *simulateFlags) syntheticParams() *experiments.SyntheticParams {
	if !f.synthetic {
		return nil
	}
	return &experiments.SyntheticParams{ShiftPct: f.syntheticShift, ShiftSDPct: 100 * estimate.SyntheticShiftSD, CoVPct: f.syntheticCoV}
}

// syntheticEstimates are the synthetic estimates of --synthetic as the
// planner takes them (fractions); nil when off.
func (f *simulateFlags) syntheticEstimates() *estimate.Synthetic {
	if !f.synthetic {
		return nil
	}
	return &estimate.Synthetic{Shift: f.syntheticShift / 100, ShiftSD: estimate.SyntheticShiftSD, CoV: f.syntheticCoV / 100}
}

// effectiveConfig is the "config" object of the report: every setting that
// affects results.
func (f *simulateFlags) effectiveConfig() simulateConfig {
	c := simulateConfig{
		Workload: f.workload, Schedulers: f.schedulers, Seed: f.seed, Solver: f.solverName(),
		SolverTimeout: f.timeout().String(), Fallback: f.fallback, SolverFailRate: f.solverFailRate,
		Interval: f.interval.String(), Horizon: f.horizon.String(), Deterministic: f.deterministic,
		SamplesPerFeature: f.samplesPerFeature, Synthetic: f.syntheticParams()}
	if f.decisions != decisionsPolicy {
		c.Decisions = f.decisions
	}
	if f.generated() {
		c.Nodes, c.Hours, c.Load, c.Slack = f.clusterNodes(), f.hours, f.load, f.slack
		c.Cluster = f.clusterSpec()
	}
	return c
}

// prepare loads the workload and builds the run configuration of valid
// flags.
func (f *simulateFlags) prepare() (experiments.Input, experiments.RunConfig, error) {
	in, params, err := loadInput(f)
	if err != nil {
		return experiments.Input{}, experiments.RunConfig{}, err
	}
	if !f.intervalGiven && experiments.HasTasks(in.Jobs) {
		f.interval = taskInterval
	}
	// A generator's window was checked with the flags; a file's is known
	// now.
	if err := f.checkFileWindow(in.Name, in.Window); err != nil {
		return experiments.Input{}, experiments.RunConfig{}, err
	}
	// Without --horizon the planners plan as far ahead as the workload's
	// history asks (threesigma.HorizonFor); the run reports the horizon
	// it resolved.
	horizon := f.horizon
	if horizon == 0 {
		horizon = threesigma.HorizonFor(in.History, f.interval)
	}
	params.IntervalS = f.interval.Seconds()
	params.HorizonS = horizon.Seconds()
	params.Solver = f.solverName()
	params.SolverTimeoutS = f.timeout().Seconds()
	params.Fallback, params.SolverFailRate = f.fallback, f.solverFailRate
	params.Deterministic = f.deterministic
	params.SamplesPerFeature = f.samplesPerFeature
	params.Synthetic = f.syntheticParams()
	// In deterministic mode the timeout is only the guard of a solve: the
	// planner gets it only when one was given.
	optTimeout := f.timeout()
	if f.deterministic {
		optTimeout = f.solverTimeout
	}
	cfg := experiments.RunConfig{
		Schedulers: f.schedulers,
		Options: planner.Options{Interval: f.interval, Horizon: horizon, Solver: f.solver,
			SolverTimeout: optTimeout, Deterministic: f.deterministic, Seed: f.seed,
			Fallback: f.fallback, SolverFailRate: f.solverFailRate,
			SamplesPerFeature: f.samplesPerFeature, Synthetic: f.syntheticEstimates()},
		Sim:      experiments.SimConfig{Interval: f.interval.Seconds()},
		Seed:     f.seed,
		Params:   params,
		Parallel: f.parallel,
	}
	if f.decisions != decisionsPolicy {
		tm, err := planner.ParseTiming(f.decisions) // checked by validate
		if err != nil {
			return experiments.Input{}, experiments.RunConfig{}, usageError{fmt.Errorf("--decisions: %w", err)}
		}
		cfg.Decisions = &tm
	}
	// Given neither --decisions nor --interval, the planners derive their
	// timing from the workload's history (threesigma.TimingFor); an
	// --interval given is the planners' cycle, as in 3Sigma.
	cfg.DeriveTiming = f.decisions == decisionsPolicy && !f.intervalGiven
	return in, cfg, nil
}

// decisionsPolicy is the value of --decisions that lets each scheduler decide
// as its registry row says (planner.Policy.Decisions).
const decisionsPolicy = "policy"

func (f *simulateFlags) validate(reg planner.Registry) error {
	if err := reg.Check(f.schedulers); err != nil {
		return fmt.Errorf("--schedulers: %w", err)
	}
	if name, ok := firstDuplicate(f.schedulers); ok {
		return fmt.Errorf("--schedulers: %s is given twice", name)
	}
	if err := f.workloadFlags.validate(); err != nil {
		return err
	}
	if err := f.log.validate(); err != nil {
		return err
	}
	switch {
	case f.format != "table" && f.format != "json" && f.format != "csv":
		return fmt.Errorf("--format: want table, json or csv, got %q", f.format)
	case f.interval < minInterval:
		return fmt.Errorf("--interval: must be ≥ %s, got %s", minInterval, f.interval)
	case f.decisions != decisionsPolicy && f.decisions != planner.OnCycle.String() && f.decisions != planner.OnEvents.String():
		return fmt.Errorf("--decisions: want %s, %s or %s, got %q", decisionsPolicy, planner.OnCycle, planner.OnEvents, f.decisions)
	case f.generated() && f.interval.Seconds() > f.hours*3600 && f.intervalGiven:
		return intervalTooLong(f.interval, fmt.Sprintf("the simulated window (--hours %v: %s)", f.hours, seconds(f.hours*3600)))
	case f.generated() && f.interval.Seconds() > f.hours*3600:
		return fmt.Errorf("--hours: %v (%s) is shorter than the scheduling interval (--interval, default %s)", f.hours, seconds(f.hours*3600), f.interval)
	case f.solverTimeout < 0 || f.solverTimeout > maxSolveLimit:
		return fmt.Errorf("--solver-timeout: must be in [0, %s], got %s", maxSolveLimit, f.solverTimeout)
	case f.horizon < 0:
		return fmt.Errorf("--horizon: must be ≥ 0, got %s", f.horizon)
	case f.parallel < 1:
		return fmt.Errorf("--parallel: must be ≥ 1, got %d", f.parallel)
	}
	if f.solver != "" && f.solver != planner.SolverNone {
		if _, err := solver.New(f.solver); err != nil {
			return fmt.Errorf("--solver: %w (or %s: every solve fails)", err, planner.SolverNone)
		}
	}
	if _, err := threesigma.ParseFallback(f.fallback); err != nil {
		return fmt.Errorf("--fallback: want one of %s, got %q", strings.Join(threesigma.Fallbacks(), ", "), f.fallback)
	}
	if !(f.solverFailRate >= 0 && f.solverFailRate <= 1) {
		return fmt.Errorf("--solver-fail-rate: must be in [0, 1], got %v", f.solverFailRate)
	}
	return f.estimateFlags.validate()
}

// intervalTooLong is the error of an --interval longer than the window
// of the workload: no cycle would run while jobs arrive, and the run would
// report every SLO missed.
func intervalTooLong(interval time.Duration, window string) error {
	return fmt.Errorf("--interval: %s is longer than %s", interval, window)
}

// checkFileWindow is the usage error of an --interval longer than
// windowS, the window of the workload file name, or nil.
func (f *simulateFlags) checkFileWindow(name string, windowS float64) error {
	if f.interval.Seconds() > windowS {
		return usageError{intervalTooLong(f.interval, fmt.Sprintf("the window of the workload file %s (%s)", name, seconds(windowS)))}
	}
	return nil
}

// seconds is a duration of s seconds (s within a duration's range).
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

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
	in := experiments.Input{Name: name, Cluster: w.Header.Cluster, Jobs: w.Jobs, History: w.History, Window: w.Header.WindowS,
		Meta: w.Header.Meta}
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
	return workloads.Work(w.Jobs) / capacity
}

// parseSimulateArgs parses the command line of cmd (simulate or sweep),
// which takes no arguments, into f (bound to fs), then applies f.config,
// the --config file, if given; every failure is a usage error.
func parseSimulateArgs(fs *pflag.FlagSet, cmd string, args []string, f *simulateFlags) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("%s: unexpected argument %q", cmd, fs.Arg(0))}
	}
	if f.config != "" {
		if err := applyConfigFile(fs, f.config); err != nil {
			return usageError{err}
		}
	}
	f.intervalGiven = fs.Changed("interval")
	f.workloadFlags.noteGiven(fs)
	return nil
}

// configUsage is the help of every command's --config.
const configUsage = "read settings from a JSON `file` whose keys are flag names; flags given on the command line win"

// applyConfigFile sets every flag named by a key of the JSON object in path
// that was not given on the command line. Values may be strings, numbers,
// booleans or arrays (joined with commas, as a list flag takes them).
func applyConfigFile(fs *pflag.FlagSet, path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("--config: %w", err)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return fmt.Errorf("--config %s: empty file (want a JSON object whose keys are flag names)", path)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("--config %s: not a JSON object whose keys are flag names: %s", path, configJSONProblem(err))
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
		// A setting of the file counts as given, like a command-line flag
		// (sweep's studies and conflict checks ask fs.Changed), and errors
		// about it name the file (inConfig, by this annotation).
		fl.Changed = true
		if err := fs.SetAnnotation(k, configAnnotation, []string{path}); err != nil {
			return err
		}
		v, err := configValue(m[k])
		if err != nil {
			return fmt.Errorf("--%s: %w", k, err)
		}
		if sv, ok := fl.Value.(pflag.SliceValue); ok {
			err = sv.Replace(splitList(v))
		} else {
			err = fl.Value.Set(v)
		}
		if err != nil {
			return valueError("--"+k, fl, v, err)
		}
	}
	return nil
}

// configAnnotation marks a flag set by a --config file; its value is the
// file's path.
const configAnnotation = "config"

// inConfig names the --config file in err when err is told under a flag
// ("--hours: must be > 0, got 0", "--workload /tmp: is a directory") that
// the file set and the command line did not: "--config c.json: hours: must
// be > 0, got 0". Every flag error of the commands starts with the flag's
// name, so the range checks, which know only the value, need not know
// where it came from. The exit status is kept.
func inConfig(fs *pflag.FlagSet, err error) error {
	if err == nil {
		return nil
	}
	msg, isFlag := strings.CutPrefix(err.Error(), "--")
	end := strings.IndexAny(msg, " :")
	if !isFlag || end < 0 {
		return err
	}
	fl := fs.Lookup(msg[:end])
	if fl == nil || fl.Annotations[configAnnotation] == nil {
		return err
	}
	named := renamedError{"--config " + fl.Annotations[configAnnotation][0] + ": " + msg, err}
	if errors.As(err, new(usageError)) {
		return usageError{named}
	}
	return named
}

// renamedError is err told in other words.
type renamedError struct {
	msg string
	err error
}

func (e renamedError) Error() string { return e.msg }

func (e renamedError) Unwrap() error { return e.err }

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

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/plannerhq/planner/experiments"
	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/threesigma"
	"github.com/plannerhq/planner/service"
)

// replayFlags are the settings of `planner replay`.
type replayFlags struct {
	workloadFlags
	url, tokenFile, format, out string
	quiet                       bool
	log                         logFlags
}

const replayUsage = `Usage: planner replay --workload W --service URL [flags]

Plays a workload against a running service started with --clock virtual
(and, to compare with planner simulate, --deterministic) on a fresh
--data directory and the workload's cluster: the simulator plays the
cluster, and the service plans. It submits each job at its submit time,
reports each completion with its runtime, moves the service's clock to
each cycle and enacts the decisions the service publishes. It prints the
report planner simulate prints; with the same workload and --seed as the
service's, the decisions and the report are those of planner simulate
--schedulers S --interval I, S the service's --scheduler and I its
--interval (the service plans at its cycle).

Flags:`

// replayConfig is the "config" object of replay's JSON report.
type replayConfig struct {
	Workload      string `json:"workload"`
	Service       string `json:"service"`
	Scheduler     string `json:"scheduler"`
	Seed          uint64 `json:"seed"`
	Interval      string `json:"interval"`
	Deterministic bool   `json:"deterministic"`
}

func runReplay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("replay", pflag.ContinueOnError)
	fs.SetOutput(stdout)
	f := &replayFlags{}
	f.workloadFlags.register(fs, "workload seed, and the seed the service must run with")
	fs.StringVar(&f.url, "service", "", "the service's `URL`, e.g. http://127.0.0.1:7070 (required)")
	fs.StringVar(&f.tokenFile, "token-file", "", "`file` holding the service's bearer token")
	fs.StringVar(&f.format, "format", "table", "output: table, json or csv")
	fs.StringVarP(&f.out, "out", "o", "", "also write the results `directory` planner simulate --out writes")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "no progress lines on stderr")
	f.log.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), replayUsage)
		fs.PrintDefaults()
	}
	if err := parseNoArgs(fs, args, "replay"); err != nil {
		return err
	}
	f.workloadFlags.noteGiven(fs)
	if err := f.validate(); err != nil {
		return usageError{err}
	}
	token, err := clientToken(f.tokenFile)
	if err != nil {
		return err
	}
	w, name, err := f.workloadFlags.open()
	if err != nil {
		return err
	}
	if err := checkOutDir(f.out); err != nil {
		return err
	}
	log, closeLog, err := f.log.open(stderr)
	if err != nil {
		return err
	}
	defer closeLog()

	client := service.NewClient(f.url, token)
	remote, err := service.NewRemote(ctx, client, w.Header.Cluster)
	if err != nil {
		return fmt.Errorf("--service %s: %w", f.url, err)
	}
	info := remote.Info()
	if info.Seed != f.seed {
		return usageError{fmt.Errorf("--seed: the service runs with seed %d, not %d; give --seed %d (or start the service with --seed %d)", info.Seed, f.seed, info.Seed, f.seed)}
	}
	interval := time.Duration(info.IntervalS * float64(time.Second))
	in := experiments.Input{Name: name, Cluster: w.Header.Cluster, Jobs: w.Jobs, History: w.History, Window: w.Header.WindowS}
	params := experiments.Params{Hours: w.Header.WindowS / 3600, Load: offeredLoad(w), Nodes: in.Cluster.TotalNodes(),
		Partitions: len(in.Cluster.PartitionNodes), Jobs: len(in.Jobs), IntervalS: info.IntervalS,
		HorizonS: info.HorizonS, Solver: info.Solver, SolverTimeoutS: info.SolverTimeoutS, Deterministic: info.Deterministic}
	if f.generated() {
		params.Hours, params.Load, params.Slack = f.hours, f.load, f.slack
	}
	reg := planner.Registry{{Name: info.Scheduler, Summary: "the service at " + f.url,
		New: func(planner.Options) (planner.Scheduler, error) { return remote, nil }}}
	cfg := experiments.RunConfig{Schedulers: []string{info.Scheduler}, Sim: experiments.SimConfig{Interval: info.IntervalS},
		Seed: f.seed, Params: params, Parallel: 1, Log: log, Progress: newProgress(stderr, "replay", f.quiet)}
	cfg.Progress.Expect(1)
	runs, err := experiments.Run(ctx, in, reg, cfg)
	cfg.Progress.Close()
	if err != nil {
		if wasInterrupted(ctx, err) {
			return fmt.Errorf("%w: the replay stopped; the service keeps what it was told", errInterrupted)
		}
		return err
	}
	if err := remote.Finish(ctx); err != nil {
		return err
	}
	// planner simulate derives the horizon from the workload's history
	// when --horizon is not given; a service plans with its own.
	horizon := time.Duration(info.HorizonS * float64(time.Second))
	if horizon == 0 {
		horizon = time.Duration(threesigma.DefaultSlices) * interval
	}
	if want := threesigma.HorizonFor(w.History, interval); want != horizon {
		fmt.Fprintf(stderr, "planner replay: warning: the service plans %s ahead, planner simulate would plan %s for this workload (start the service with --horizon %s); their decisions may differ\n", horizon, want, want)
	}
	if n := remote.FeatureMismatches; n > 0 {
		fmt.Fprintf(stderr, "planner replay: warning: %d jobs have a submit hour, weekday or resources the service derives otherwise; its predictions, and so its decisions, may differ from planner simulate's\n", n)
	}
	rep := &experiments.Report{Runs: runs, Deterministic: info.Deterministic,
		Config: replayConfig{Workload: f.workload, Service: f.url, Scheduler: info.Scheduler, Seed: f.seed,
			Interval: interval.String(), Deterministic: info.Deterministic}}
	if f.format == "table" {
		fmt.Fprintf(stdout, "workload %s: %d jobs on %d nodes, replayed against %s (%s), interval %s\n",
			name, len(in.Jobs), in.Cluster.TotalNodes(), f.url, info.Scheduler, interval)
	}
	return writeResults(stdout, f.format, rep, f.out)
}

func (f *replayFlags) validate() error {
	if err := f.workloadFlags.validate(); err != nil {
		return err
	}
	if err := f.log.validate(); err != nil {
		return err
	}
	switch {
	case strings.TrimSpace(f.url) == "":
		return errors.New("--service: required: the URL of a service started with --clock virtual")
	case !strings.HasPrefix(f.url, "http://") && !strings.HasPrefix(f.url, "https://"):
		return fmt.Errorf("--service: %q: want an http:// or https:// URL", f.url)
	case f.format != "table" && f.format != "json" && f.format != "csv":
		return fmt.Errorf("--format: want table, json or csv, got %q", f.format)
	}
	return nil
}

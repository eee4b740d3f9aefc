package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/plannerhq/planner/service"
)

func init() {
	examples["bench service"] = "planner bench service --service http://127.0.0.1:7070 --rate 500 --duration 60s"
}

const benchServiceUsage = `Usage: planner bench service --service URL [flags]

Load test of a running planner serve: submits jobs at --rate per second
for --duration (open loop: a request's latency counts from when it was
due), half SLO with a deadline 1-4 h ahead and one preferred partition,
half best effort, 1-8 nodes; acknowledges every start the service
decides and completes each job after its runtime. Prints the requests,
errors, API latency (p50, p99, max) and, from the service's /metrics,
the cycles, overruns of the interval, fallbacks and time-limited solves.

Flags:`

func runBenchService(ctx context.Context, args []string, stdout io.Writer) error {
	fs := pflag.NewFlagSet("bench service", pflag.ContinueOnError)
	fs.SetOutput(stdout)
	var (
		url, tokenFile string
		cfg            service.LoadConfig
	)
	fs.StringVar(&url, "service", "", "the service's `URL` (required)")
	fs.StringVar(&tokenFile, "token-file", "", "`file` holding the service's bearer token")
	fs.Float64Var(&cfg.Rate, "rate", 500, "submissions per second")
	fs.DurationVar(&cfg.Duration, "duration", time.Minute, "how long to submit")
	decimalVar(fs, &cfg.Workers, "workers", 64, "concurrent requests at most")
	fs.DurationVar(&cfg.Runtime, "runtime", 2*time.Minute, "largest job runtime (uniform in [runtime/10, runtime])")
	decimalVar(fs, &cfg.Seed, "seed", 1, "seed of the jobs (and of their ids: use another seed against the same service)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), benchServiceUsage)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return usageError{fmt.Errorf("bench service: unexpected argument %q", fs.Arg(0))}
	case strings.TrimSpace(url) == "":
		return usageError{errors.New("--service: required: the URL of a running planner serve")}
	case !(cfg.Rate > 0) || cfg.Rate > 1e6:
		return usageError{fmt.Errorf("--rate: must be in (0, 1e6], got %v", cfg.Rate)}
	case cfg.Duration <= 0 || cfg.Duration > 24*time.Hour:
		return usageError{fmt.Errorf("--duration: must be in (0, 24h], got %s", cfg.Duration)}
	case cfg.Workers < 1:
		return usageError{fmt.Errorf("--workers: must be ≥ 1, got %d", cfg.Workers)}
	}
	token, err := clientToken(tokenFile)
	if err != nil {
		return err
	}
	res, err := service.Load(ctx, service.NewClient(url, token), cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "| what | measured |\n| --- | --- |\n")
	fmt.Fprintf(stdout, "| jobs submitted | %d (%.0f/s for %s) |\n", res.Submitted, cfg.Rate, cfg.Duration)
	fmt.Fprintf(stdout, "| events (started, completed) | %d |\n", res.Events)
	fmt.Fprintf(stdout, "| errors | %d |\n", res.Errors)
	fmt.Fprintf(stdout, "| API latency p50 / p99 / max | %.1f / %.1f / %.1f ms |\n", ms(res.P50), ms(res.P99), ms(res.Max))
	fmt.Fprintf(stdout, "| cycles that planned | %.0f, %.0f starts decided |\n", res.Cycles, res.Decisions)
	fmt.Fprintf(stdout, "| cycle mean / slowest | %.0f ms / %s |\n", ms(res.CycleMean), res.CycleMax)
	fmt.Fprintf(stdout, "| cycles over the interval | %.0f |\n", res.Overruns)
	fmt.Fprintf(stdout, "| fallbacks, time-limited solves | %.0f, %.0f |\n", res.Fallbacks, res.TimeLimited)
	if res.Errors > 0 {
		return fmt.Errorf("%d requests failed; the first: %s", res.Errors, res.FirstError)
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// Command planner is the CLI of the planner cluster scheduler: experiments
// (simulate, sweep), workloads, predictions, the service, and solver tools.
// It is thin: it parses flags and calls the packages.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/plannerhq/planner/solver"
)

func main() {
	// The same executable is the solver worker process (solver/worker.go).
	solver.RunWorkerIfRequested()
	ctx, stop := interruptible(os.Stderr)
	err := runContext(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, pflag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "planner:", err)
		}
		os.Exit(exitCode(err))
	}
}

// usageError marks a mistake in the command line (exit status 2).
type usageError struct{ error }

func (u usageError) Unwrap() error { return u.error }

// exitCode is 0 for a request for help (the usage is printed), 2 for a
// usage error, 130 for an interrupted command and 1 for any other.
func exitCode(err error) int {
	if errors.Is(err, pflag.ErrHelp) {
		return 0
	}
	if errors.Is(err, errInterrupted) {
		return exitInterrupted
	}
	var u usageError
	if errors.As(err, &u) {
		return 2
	}
	return 1
}

const usage = `planner — a cluster scheduler that plans under runtime uncertainty.

Usage:
  planner version               the version and the solver backends compiled in
  planner bench solver [flags]  compare the MILP backends on 3Sigma-shaped instances
  planner bench cycle [flags]   a scheduler's cycle time against the backlog at Google scale
  planner bench service --service URL
                                load test of a running planner serve
  planner simulate [flags]      play a workload through schedulers in the cluster simulator
  planner sweep --vary FLAG=v1,v2,... | --study NAME [flags]
                                simulate at every value of one flag (and seed); plots, report
  planner workload generate     write a generated workload file
  planner workload import --format swf|google2011|alibaba2018|mustang FILE_OR_DIR -o W.jsonl
                                turn a real trace into a workload file (window, fit, load, classes)
  planner workload stats [FILE] summarise a workload: load, runtimes, runtime CoV per user
  planner predict eval [FILE]   the estimate-error profile of 3σPredict on a workload
  planner serve --data DIR [flags]
                                run the planner as a service in front of a cluster manager
  planner replay --workload W --service URL
                                play a workload against a service on its virtual clock
  planner slurm-bridge --planner URL
                                put a planner serve in front of a Slurm cluster

Run 'planner help COMMAND' or 'planner COMMAND --help' (or -h) for a
command's flags; 'planner help' prints this text. After a command, 'help'
is read as an argument, not as a request for help.
`

// groupUsage is the usage of each command group (and of version), printed
// by 'planner GROUP --help'; each command's own flags are in its --help.
var groupUsage = map[string]string{
	"bench": `Usage: planner bench solver|cycle|service [flags]

  solver    compare the MILP backends on random 3Sigma-shaped instances
  cycle     a scheduler's cycle time against the backlog at Google scale, with its fitted slope
  service   load test of a running planner serve

Run 'planner bench solver --help' (or cycle, or service) for the flags.
`,
	"workload": `Usage: planner workload COMMAND [flags]

  generate  write a generated workload file (JSON Lines)
  import    turn a real trace (SWF, Google 2011, Alibaba 2018, Mustang) into a workload file
  stats     summarise a workload: load, runtimes, runtime CoV per user

Run 'planner workload COMMAND --help' for a command's flags.
`,
	"predict": `Usage: planner predict eval [FILE] [flags]

  eval      the estimate-error profile of 3σPredict on a workload

Run 'planner predict eval --help' for its flags.
`,
	"version": `Usage: planner version

Prints the version and every solver backend compiled in, with its C library.
` + exampleText(versionExample),
}

// isHelp reports whether arg, after a command, asks for help. "help"
// does not: no command takes it as a request for help, and to workload
// stats it is a file name.
func isHelp(arg string) bool { return arg == "-h" || arg == "--help" }

// runHelp prints the help of the command args names ('planner help
// workload import' is 'planner workload import --help'): a command that
// is not one, or arguments after it, are a usage error.
func runHelp(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			return usageError{fmt.Errorf("help: unexpected flag %q (planner help COMMAND [SUBCOMMAND])", a)}
		}
	}
	if _, ok := groupUsage[args[0]]; !ok && !slices.Contains(commandNames, args[0]) {
		fmt.Fprint(stderr, usage)
		return usageError{fmt.Errorf("help: unknown command %q", args[0])}
	}
	return runContext(ctx, append(slices.Clone(args), "--help"), stdout, stderr)
}

// commandNames are the commands that are not groups.
var commandNames = []string{"simulate", "sweep", "serve", "replay", "slurm-bridge", "wing"}

// run executes one command line that nothing interrupts.
func run(args []string, stdout, stderr io.Writer) error {
	return runContext(context.Background(), args, stdout, stderr)
}

// runContext executes one command line; main is only its exit-status
// wrapper. ctx is cancelled when the user interrupts the command.
func runContext(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return usageError{errors.New("no command given")}
	}
	cmd, rest := args[0], args[1:]
	// --help on a command group, or on version, prints its usage.
	if g, ok := groupUsage[cmd]; ok && len(rest) > 0 && isHelp(rest[0]) {
		fmt.Fprint(stdout, g)
		return nil
	}
	switch cmd {
	case "version", "--version":
		if len(rest) > 0 {
			return usageError{fmt.Errorf("version: unexpected argument %q", rest[0])}
		}
		return runVersion(stdout)
	case "bench":
		switch {
		case len(rest) > 0 && rest[0] == "solver":
			return runBenchSolver(rest[1:], stdout, stderr)
		case len(rest) > 0 && rest[0] == "cycle":
			return runBenchCycle(ctx, rest[1:], stdout, stderr)
		case len(rest) > 0 && rest[0] == "service":
			return runBenchService(ctx, rest[1:], stdout)
		}
		return usageError{errors.New("bench: the benchmarks are 'planner bench solver', 'planner bench cycle' and 'planner bench service'")}
	case "simulate":
		return runSimulate(ctx, rest, stdout, stderr)
	case "sweep":
		return runSweep(ctx, rest, stdout, stderr)
	case "workload":
		return runWorkload(ctx, rest, stdout, stderr)
	case "predict":
		return runPredict(rest, stdout, stderr)
	case "serve":
		return runServe(ctx, rest, stdout, stderr)
	case "replay":
		return runReplay(ctx, rest, stdout, stderr)
	case "slurm-bridge":
		return runSlurmBridge(ctx, rest, stdout, stderr)
	case "wing":
		return runWing(rest, stdout, stderr)
	case "help", "-h", "--help":
		if cmd == "help" && len(rest) > 0 {
			return runHelp(ctx, rest, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return nil
	default:
		fmt.Fprint(stderr, usage)
		return usageError{fmt.Errorf("unknown command %q", cmd)}
	}
}

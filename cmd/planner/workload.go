package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/plannerhq/planner/experiments"
	"github.com/plannerhq/planner/workloads"
	"github.com/spf13/pflag"
)

// runWorkload dispatches `planner workload generate|import|stats`.
func runWorkload(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageError{errors.New("workload: want 'generate', 'import' or 'stats'")}
	}
	switch args[0] {
	case "generate":
		return runWorkloadGenerate(ctx, args[1:], stdout, stderr)
	case "import":
		return runWorkloadImport(ctx, args[1:], stdout, stderr)
	case "stats":
		return runWorkloadStats(args[1:], stdout, stderr)
	}
	return usageError{fmt.Errorf("workload: unknown subcommand %q (want generate, import or stats)", args[0])}
}

func runWorkloadGenerate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("workload generate", pflag.ContinueOnError)
	fs.SetOutput(stdout) // --help prints the usage there
	var wf workloadFlags
	var out string
	wf.register(fs, "generator seed")
	fs.Lookup("workload").Usage = "the generator: google, hedgefund or mustang (the Google-, HedgeFund- and Mustang-like environments), 2sigma, google2011-tasks or google2019-tasks (task-level jobs, SLearn §4.3), drift (task-level jobs whose runtimes drift), 2sigma-dag (2sigma jobs chained into DAGs of 2–5 stages, SLearn §6), or scalability-N (N jobs an hour on the GOOGLE cluster, 3Sigma §6.5)"
	fs.StringVarP(&out, "out", "o", "", "write the workload file here (default or -: standard output)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: planner workload generate [flags]\n\nWrites a generated workload (JSON Lines: a header line, then history and\nwindow jobs) that `planner simulate --workload FILE` reads.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	wf.noteGiven(fs)
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("workload generate: unexpected argument %q", fs.Arg(0))}
	}
	if !wf.generated() {
		return usageError{fmt.Errorf("--workload: want a generator (%s), got %q", workloads.GeneratorsHelp(), wf.workload)}
	}
	if err := wf.validate(); err != nil {
		return usageError{err}
	}
	if err := checkOut(out); err != nil {
		return usageError{err}
	}
	w, _, err := wf.open()
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%w: nothing written", errInterrupted)
	}
	return writeWorkload(w, out, stdout)
}

func runWorkloadStats(args []string, stdout, stderr io.Writer) (err error) {
	fs := pflag.NewFlagSet("workload stats", pflag.ContinueOnError)
	fs.SetOutput(stdout) // --help prints the usage there
	defer func() { err = inConfig(fs, err) }()
	var wf workloadFlags
	var format, config string
	wf.register(fs, "generator seed")
	fs.StringVar(&format, "format", "table", "output: table or json")
	fs.StringVar(&config, "config", "", configUsage)
	// --nodes of a file is the cluster the offered load is computed for.
	nodesFlag := fs.Lookup("nodes")
	nodesFlag.Usage = "cluster nodes of a generator; for a FILE, the cluster size its offered load is computed for (when not given: the FILE's own cluster)"
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: planner workload stats [FILE] [flags]\n\nSummarises a workload: jobs, span and offered load by class, runtime and\ngang-size quantiles, inter-arrival variability, and the distribution of\nthe runtime coefficient of variation per user and per requested\nresources (3Sigma Fig. 2(b), 2(c)). The workload is FILE or --workload\n(a generator or a file).\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := parseWorkloadArgs(fs, "workload stats", args, &wf, &config); err != nil {
		return err
	}
	if format != "table" && format != "json" {
		return usageError{fmt.Errorf("--format: want table or json, got %q", format)}
	}
	if err := wf.validate(); err != nil {
		return usageError{err}
	}
	w, _, err := wf.open()
	if err != nil {
		return err
	}
	// --nodes is used with a file too (the load's cluster).
	unused := slices.DeleteFunc(append(generatorFlagNames(), "seed"), func(n string) bool { return n == "nodes" })
	if err := checkUsed(givenFlags(fs), unused, wf.unusedReason); err != nil {
		return usageError{err}
	}
	loadNodes := 0 // the workload's cluster
	if fs.Changed("nodes") {
		loadNodes = wf.nodes
	}
	sum := workloads.StatsAt(w, loadNodes)
	if format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(sum)
	}
	return sum.WriteText(stdout)
}

// parseWorkloadArgs parses the command line of cmd, a command that reads
// one workload (workload stats, predict eval), into wf (bound to fs): the
// flags, then its argument, the workload FILE if given (takeArgument),
// then the --config file whose name the flags set in *config.
func parseWorkloadArgs(fs *pflag.FlagSet, cmd string, args []string, wf *workloadFlags, config *string) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := wf.takeArgument(fs, cmd); err != nil {
		return usageError{err}
	}
	if *config != "" {
		if err := applyConfigFile(fs, *config); err != nil {
			return usageError{err}
		}
	}
	wf.noteGiven(fs)
	return nil
}

// runPredict dispatches `planner predict eval`.
func runPredict(args []string, stdout, stderr io.Writer) (err error) {
	if len(args) == 0 || args[0] != "eval" {
		return usageError{errors.New("predict: the only subcommand is 'eval'")}
	}
	fs := pflag.NewFlagSet("predict eval", pflag.ContinueOnError)
	fs.SetOutput(stdout) // --help prints the usage there
	defer func() { err = inConfig(fs, err) }()
	var wf workloadFlags
	var format, config string
	wf.register(fs, "generator seed")
	fs.StringVar(&format, "format", "table", "output: table or json")
	fs.StringVar(&config, "config", "", configUsage)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: planner predict eval [FILE] [flags]\n\nReplays a workload through 3σPredict (trained on its history; each job\npredicted at submission, learned from at completion) and prints the\nestimate-error profile of Fig. 2(d) of the 3Sigma paper: (estimate − actual)/\nactual × 100 by decile, the tails beyond ±95%, and the shares of jobs\nwithin ±5% and ±25%, off by a factor of two or more, above +95% and below\n−55%. The workload is FILE or --workload (a generator or a file).\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := parseWorkloadArgs(fs, "predict eval", args[1:], &wf, &config); err != nil {
		return err
	}
	if format != "table" && format != "json" {
		return usageError{fmt.Errorf("--format: want table or json, got %q", format)}
	}
	if err := wf.validate(); err != nil {
		return usageError{err}
	}
	w, name, err := wf.open()
	if err != nil {
		return err
	}
	if err := checkUsed(givenFlags(fs), append(generatorFlagNames(), "seed"), wf.unusedReason); err != nil {
		return usageError{err}
	}
	prof, err := experiments.EvaluatePredictor(w)
	if err != nil {
		return fmt.Errorf("predict eval %s: %w", name, err)
	}
	if format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(prof)
	}
	fmt.Fprintf(stdout, "workload %s: %d jobs predicted, %d without history\n", name, prof.N, prof.Skipped)
	return prof.WriteTable(stdout)
}

// writeWorkload writes w to the file out (atomically: a failed write leaves
// an existing file alone) or, when out is empty or "-", to stdout.
func writeWorkload(w *workloads.Workload, out string, stdout io.Writer) error {
	if out == "" || out == "-" {
		bw := bufio.NewWriter(stdout)
		if err := workloads.Write(bw, w); err != nil {
			return err
		}
		return bw.Flush()
	}
	if err := experiments.WriteFileAtomic(out, func(f io.Writer) error { return workloads.Write(f, w) }); err != nil {
		return flagPathError("--out", out, err)
	}
	return nil
}

// flagPathError is err about the file path given to flag: "flag path:
// err", or "flag: err" when err names path already (an *os.PathError
// does), so that the path is not named twice.
func flagPathError(flag, path string, err error) error {
	if experiments.NamesPath(err, path) {
		return fmt.Errorf("%s: %w", flag, err)
	}
	return fmt.Errorf("%s %s: %w", flag, path, err)
}

// checkOut checks, before any work, that the workload file out (empty or
// "-": stdout) can be written: its directory exists, it is not a
// directory, and it is none of the inputs, nor inside an input directory
// when it exists already (it would replace a file of the trace).
func checkOut(out string, inputs ...string) error {
	if out == "" || out == "-" {
		return nil
	}
	if fi, err := os.Stat(filepath.Dir(out)); err != nil {
		return fmt.Errorf("--out %s: directory %s does not exist", out, filepath.Dir(out))
	} else if !fi.IsDir() {
		return fmt.Errorf("--out %s: %s is not a directory", out, filepath.Dir(out))
	}
	fo, err := os.Stat(out)
	exists := err == nil
	if exists && fo.IsDir() {
		return fmt.Errorf("--out %s: is a directory", out)
	}
	for _, in := range inputs {
		if experiments.SameFile(in, out) {
			return fmt.Errorf("--out %s: is the input %s (it would be overwritten)", out, in)
		}
		if fi, err := os.Stat(in); exists && err == nil && fi.IsDir() && insideDir(out, in) {
			return fmt.Errorf("--out %s: would replace a file in the input directory %s", out, in)
		}
	}
	return nil
}

// insideDir reports whether path lies inside directory dir (after links).
func insideDir(path, dir string) bool {
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	p, err := filepath.EvalSymlinks(filepath.Dir(path))
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(d, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

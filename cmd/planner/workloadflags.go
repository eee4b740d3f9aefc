package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/plannerhq/planner/experiments"
	"github.com/plannerhq/planner/workloads"
	"github.com/plannerhq/planner/workloads/traces"
	"github.com/spf13/pflag"
)

// workloadFlags choose a workload: a generator with its parameters, or a
// workload file. simulate, workload generate|stats and predict eval share
// them.
type workloadFlags struct {
	workload string
	nodes    int
	racks    int
	cluster  string
	hours    float64
	load     float64
	slack    []float64
	seed     uint64
	// argument: the file was the command's argument, not --workload, so
	// errors name it by its path alone.
	argument bool
	// nodesGiven, racksGiven, clusterGiven: --nodes, --racks, --cluster
	// were given (noteGiven), so that a size given with --cluster, or an
	// empty --cluster, is an error.
	nodesGiven, racksGiven, clusterGiven bool
	// hoursGiven, loadGiven: --hours, --load were given; a generator's own
	// defaults (generatorDefaults) fill the cluster, window and load flags
	// that were not.
	hoursGiven, loadGiven bool
	// layout is the cluster of --cluster, read by validate for a
	// generator; nil without --cluster.
	layout *workloads.Cluster
}

func (w *workloadFlags) register(fs *pflag.FlagSet, seedUsage string) {
	fs.StringVar(&w.workload, "workload", "google", "a generator — google, hedgefund or mustang (the Google-, HedgeFund- and Mustang-like environments), 2sigma, google2011-tasks or google2019-tasks (task-level jobs, SLearn §4.3), drift (task-level jobs whose runtimes drift), 2sigma-dag (2sigma jobs chained into DAGs of 2–5 stages, SLearn §6), or scalability-N (N jobs an hour, Google-like, on the 12,583-node GOOGLE cluster at load 0.95 unless --nodes, --racks, --cluster or --load say otherwise) — or a workload FILE")
	decimalVar(fs, &w.nodes, "nodes", 256, "cluster nodes, in --racks equal racks (generators only; the task-level ones default to 150 in 1 rack)")
	decimalVar(fs, &w.racks, "racks", workloads.DefaultRacks, "racks of the --nodes; --nodes must be a multiple (generators only)")
	fs.StringVar(&w.cluster, "cluster", "", "a cluster FILE (JSON or YAML: partitions, node speeds, slowdown) instead of --nodes and --racks (generators only)")
	fs.Float64Var(&w.hours, "hours", 5, "workload window in hours (generators only; each task-level one has its own default, about 1,250 jobs)")
	fs.Float64Var(&w.load, "load", 1.4, "offered load: node-hours submitted / capacity (generators only; SLO and BE half each; task-level ones: 1, all best-effort)")
	fs.Float64SliceVar(&w.slack, "slack", []float64{20, 40, 60, 80}, "`list` of deadline slacks in percent (generators only)")
	decimalVar(fs, &w.seed, "seed", 1, seedUsage)
}

func (w *workloadFlags) validate() error {
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	w.generatorDefaults()
	switch {
	case strings.TrimSpace(w.workload) == "":
		return fmt.Errorf("--workload: empty; give a generator (%s) or a workload file", workloads.GeneratorsHelp())
	case w.nodes < 1:
		return fmt.Errorf("--nodes: must be ≥ 1, got %d", w.nodes)
	case !finite(w.hours) || w.hours <= 0:
		return fmt.Errorf("--hours: must be > 0, got %v", w.hours)
	case w.hours*3600 > workloads.MaxSeconds:
		return fmt.Errorf("--hours: must be ≤ %.7g (a window of at most %g s), got %v", workloads.MaxSeconds/3600, float64(workloads.MaxSeconds), w.hours)
	case !finite(w.load) || w.load <= 0:
		return fmt.Errorf("--load: must be > 0, got %v", w.load)
	case len(w.slack) == 0:
		return errors.New("--slack: give at least one slack")
	case !w.generated():
		// Checked here, before the flags a file leaves unused are: a
		// misspelt generator is told as such, not as a file that sets the
		// window.
		if _, err := os.Stat(w.workload); errors.Is(err, os.ErrNotExist) {
			return w.notFound()
		}
	}
	for _, s := range w.slack {
		if !finite(s) || s < 0 || s > workloads.MaxSlackPct {
			return fmt.Errorf("--slack: must be in [0, %g] percent, got %v", float64(workloads.MaxSlackPct), s)
		}
	}
	w.layout = nil
	if !w.generated() {
		return nil // a file sets the cluster (the flags are checked as unused)
	}
	// A generator's own defaults of what the flags did not set.
	def, err := workloads.DefaultParams(w.workload)
	if err != nil {
		return fmt.Errorf("--workload %s: %w", w.workload, err)
	}
	if def.Layout != nil && w.cluster == "" && !w.clusterGiven && !w.nodesGiven && !w.racksGiven {
		w.layout = def.Layout
		return nil
	}
	if w.cluster != "" || w.clusterGiven {
		switch {
		case w.nodesGiven:
			return errNodesAndCluster("--nodes")
		case w.racksGiven:
			return errNodesAndCluster("--racks")
		}
		c, err := readCluster(w.cluster)
		if err != nil {
			return err
		}
		w.layout = c
		return nil
	}
	if err := checkEqualRacks(w.nodes, w.racks); err != nil {
		return err
	}
	if err := workloads.CheckNodesRacks(w.nodes, w.racks); err != nil {
		if ferr := fieldFlagError(err, map[string]string{"Nodes": "--nodes", "Racks": "--racks"}); ferr != nil {
			return ferr
		}
		return fmt.Errorf("--nodes: %w", err)
	}
	return nil
}

// noteGiven records which of the cluster's flags fs was given.
func (w *workloadFlags) noteGiven(fs *pflag.FlagSet) {
	w.nodesGiven, w.racksGiven, w.clusterGiven = fs.Changed("nodes"), fs.Changed("racks"), fs.Changed("cluster")
	w.hoursGiven, w.loadGiven = fs.Changed("hours"), fs.Changed("load")
}

// generatorDefaults sets --nodes, --racks, --hours and --load, where
// they were not given, to the defaults of the generator --workload names
// (workloads.DefaultParams): the task-level generators have a cluster,
// window and load of their own (150 nodes in one rack, load 1); the
// others' are the flags' defaults.
func (w *workloadFlags) generatorDefaults() {
	p, err := workloads.DefaultParams(w.workload)
	if err != nil {
		return // not a generator
	}
	if !w.clusterGiven && p.Layout == nil {
		if !w.nodesGiven {
			w.nodes = p.Nodes
		}
		if !w.racksGiven {
			w.racks = p.Racks
		}
	}
	if !w.hoursGiven {
		w.hours = p.Hours
	}
	if !w.loadGiven {
		w.load = p.Load
	}
}

// clusterSpec is the cluster of --cluster as the report's config shows
// it, or nil without --cluster (a generator's cluster is then its
// --nodes).
func (w *workloadFlags) clusterSpec() *workloads.ClusterSpec {
	if w.layout == nil || !w.generated() {
		return nil
	}
	s := w.layout.Spec()
	return &s
}

// clusterNodes is the nodes of a generator's cluster.
func (w *workloadFlags) clusterNodes() int {
	if w.layout != nil {
		return w.layout.TotalNodes()
	}
	return w.nodes
}

// generated reports whether --workload names a generator rather than a file.
func (w *workloadFlags) generated() bool {
	return workloads.IsGenerator(w.workload)
}

// open generates or reads the workload; name is the generator's name or the
// file's base name.
func (w *workloadFlags) open() (*workloads.Workload, string, error) {
	if w.generated() {
		p, err := workloads.DefaultParams(w.workload)
		if err != nil {
			return nil, "", fmt.Errorf("--workload %s: %w", w.workload, err)
		}
		p.Nodes, p.Racks, p.Hours, p.Load, p.Seed = w.nodes, w.racks, w.hours, w.load, w.seed
		p.SlackPct = append([]float64(nil), w.slack...)
		p.Layout = nil // the generator's own cluster, when the flags kept it, is w.layout
		if w.layout != nil {
			p.SetLayout(*w.layout)
		}
		wl, err := workloads.Generate(w.workload, p)
		if err != nil {
			// Every parameter of a generator is a flag: a refusal is a
			// usage error (exit status 2), e.g. --hours 1e9.
			return nil, "", usageError{fmt.Errorf("--workload %s: %w", w.workload, err)}
		}
		return wl, w.workload, nil
	}
	file, err := w.openFile()
	if err != nil {
		return nil, "", err
	}
	defer file.Close()
	wl, err := workloads.Read(file)
	if err != nil {
		return nil, "", w.fileError(rawTraceOr(w.workload, err))
	}
	return wl, filepath.Base(w.workload), nil
}

// header reads the header of the workload file --workload names (not a
// generator), with the errors of open.
func (w *workloadFlags) header() (*workloads.Header, error) {
	file, err := w.openFile()
	if err != nil {
		return nil, err
	}
	defer file.Close()
	h, err := workloads.ReadHeader(file)
	if err != nil {
		return nil, w.fileError(rawTraceOr(w.workload, err))
	}
	return h, nil
}

// takeArgument makes the argument of cmd, when one is given, its workload:
// a command that reads one workload takes it as its argument or as
// --workload. Both on the command line are an error unless they name the
// same workload; the argument replaces a workload of a --config file (the
// command line wins), so it is taken before the file is read.
func (w *workloadFlags) takeArgument(fs *pflag.FlagSet, cmd string) error {
	switch {
	case fs.NArg() > 1:
		return fmt.Errorf("%s: unexpected argument %q (give one workload)", cmd, fs.Arg(1))
	case fs.NArg() == 0:
		return nil
	}
	arg := fs.Arg(0)
	if fs.Changed("workload") {
		if filepath.Clean(arg) != filepath.Clean(w.workload) {
			return fmt.Errorf("%s: two workloads given, %q as the argument and %q as --workload; give one", cmd, arg, w.workload)
		}
		return nil
	}
	if err := fs.Set("workload", arg); err != nil {
		return err
	}
	w.argument = true
	return nil
}

// openFile opens the workload file --workload names. A name that is
// neither a generator nor a file (a typo of a generator's name) is a
// usage error that lists the generators.
func (w *workloadFlags) openFile() (*os.File, error) {
	file, err := os.Open(w.workload)
	if errors.Is(err, os.ErrNotExist) {
		return nil, usageError{w.notFound()}
	}
	if err != nil {
		return nil, w.fileError(err)
	}
	if st, err := file.Stat(); err == nil && st.IsDir() {
		file.Close()
		return nil, w.fileError(rawTraceOr(w.workload,
			fmt.Errorf("is a directory, want a workload file or a generator (%s)", workloads.GeneratorsHelp())))
	}
	return file, nil
}

// rawTraceOr is err about the workload file path, or, when path is a raw
// trace (traces.Sniff), an error that names the import that turns it
// into a workload file.
func rawTraceOr(path string, err error) error {
	format := traces.Sniff(path)
	if format == "" {
		return err
	}
	return fmt.Errorf("is a raw %s trace, not a workload file; import it first: planner workload import --format %s %s -o W.jsonl",
		format, format, path)
}

// notFound is the error of a workload that is neither a generator nor an
// existing file (a typo of a generator's name, or of a file's): it lists
// the generators.
func (w *workloadFlags) notFound() error {
	return w.fileError(fmt.Errorf("neither a generator (%s) nor an existing file", workloads.GeneratorsHelp()))
}

// fileError is err about the workload file, named once: under --workload
// and its path, or by the path alone when it was the command's argument.
func (w *workloadFlags) fileError(err error) error {
	if w.argument {
		return experiments.WithPath(w.workload, err)
	}
	return flagPathError("--workload", w.workload, err)
}

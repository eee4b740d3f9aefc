package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/plannerhq/planner/workloads/traces"
	"github.com/spf13/pflag"
)

// runWorkloadImport is `planner workload import --format F PATH -o W.jsonl`.
func runWorkloadImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("workload import", pflag.ContinueOnError)
	fs.SetOutput(stdout) // --help prints the usage there
	o := traces.DefaultOptions()
	var format, out string
	var skipBad, quiet bool
	fs.StringVar(&format, "format", "", "trace format: "+strings.Join(traces.Formats, ", ")+" (required)")
	fs.StringVarP(&out, "out", "o", "", "write the workload file here (default or -: standard output)")
	// A negative Options.StartHours means the middle of the trace: --start
	// itself must be ≥ 0, and only a given --start replaces the default.
	var start float64
	fs.Float64Var(&start, "start", 0, "window start in hours after the trace's first submit (default: the middle of the trace; everything before the window is predictor history)")
	fs.Float64Var(&o.Hours, "hours", o.Hours, "window length in hours (0: to the end of the trace)")
	decimalVar(fs, &o.Nodes, "nodes", o.Nodes, "target cluster nodes, in --racks equal racks")
	decimalVar(fs, &o.Racks, "racks", o.Racks, "racks of the --nodes; --nodes must be a multiple")
	var clusterFile string
	fs.StringVar(&clusterFile, "cluster", "", "a target cluster FILE (JSON or YAML: partitions, node speeds, slowdown) instead of --nodes and --racks")
	fs.StringVar(&o.Fit, "fit", o.Fit, "fit jobs to the cluster: scale (widths × nodes / the trace's MaxProcs, ≥ 1) or drop (drop wider jobs)")
	decimalVar(fs, &o.MaxProcs, "max-procs", 0, "the trace width --fit scale divides by (default: the SWF header's MaxProcs, else the widest job)")
	fs.Float64Var(&o.Load, "load", 0, "offered load of the window: as many consecutive jobs as give this load over --hours, their arrivals compressed (or stretched) into the window (default: the trace's own arrivals)")
	fs.Float64SliceVar(&o.Classes.SlackPct, "slack", o.Classes.SlackPct, "SLO deadline slacks in percent, drawn uniformly per job (a comma-separated `list`)")
	fs.Float64Var(&o.Classes.SLOShare, "slo-share", o.Classes.SLOShare, "share of the offered work carried by SLO jobs")
	decimalVar(fs, &o.Classes.Seed, "seed", o.Classes.Seed, "seed of the slack and preferred-rack draws")
	fs.BoolVar(&o.Tasks, "tasks", false, "import jobs as task-level: each task ("+strings.Join(traces.TaskFormats, ", ")+") becomes a one-node task, --fit acting on task counts (drop: jobs of more tasks than --nodes; scale: an evenly spaced share of the tasks)")
	fs.BoolVar(&skipBad, "skip-bad", false, "skip malformed lines (counted) instead of failing on the first")
	fs.BoolVarP(&quiet, "quiet", "q", false, "no progress or import report on standard error (warnings still)")
	// optionFlags are the flags of the option fields an o.Validate error
	// can name (workloads.FieldError.Field: a field of traces.Options or of
	// its workloads.ClassRules); the other fields (Slowdown, the class
	// values and preferred fraction) have no flag.
	optionFlags := map[string]string{
		"Nodes": "--nodes", "Racks": "--racks", "Layout": "--cluster", "StartHours": "--start", "Hours": "--hours", "Fit": "--fit",
		"MaxProcs": "--max-procs", "Load": "--load", "SlackPct": "--slack", "SLOShare": "--slo-share",
	}
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: planner workload import --format FORMAT FILE_OR_DIR [-o W.jsonl] [flags]\n\n"+
			"Imports a real trace as a workload: SWF (plain or gzip), the Google\n"+
			"cluster-data 2011 directory (job_events/, task_events/), Alibaba\n"+
			"cluster-trace-v2018 batch_task.csv, the LANL Mustang CSV, a Batsim\n"+
			"workload (JSON, delay profiles), or Slurm's history: the output of\n"+
			"  "+traces.SacctCommand+"\n"+
			"or of sacct --json. Trace job ids are kept as source_id. Failed,\n"+
			"cancelled, zero-size and zero-runtime jobs are filtered out; the window\n"+
			"is cut, jobs are fitted to the cluster, arrivals optionally rescaled,\n"+
			"and SLO/BE classes and deadlines assigned as the generators do. What\n"+
			"was kept and filtered is reported on standard error.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() == 0:
		return usageError{fmt.Errorf("workload import: give the trace FILE or DIR")}
	case fs.NArg() > 1:
		return usageError{fmt.Errorf("workload import: unexpected argument %q", fs.Arg(1))}
	case !slices.Contains(traces.Formats, format):
		return usageError{fmt.Errorf("--format: want one of %s, got %q", strings.Join(traces.Formats, ", "), format)}
	case o.Tasks && !slices.Contains(traces.TaskFormats, format):
		return usageError{fmt.Errorf("--tasks: the %s format has no per-task durations (%s do)", format, strings.Join(traces.TaskFormats, " and "))}
	}
	if fs.Changed("start") {
		if !(start >= 0) {
			return usageError{fmt.Errorf("--start: must be ≥ 0 hours after the trace's first submit (leave it out for the middle of the trace), got %v", start)}
		}
		o.StartHours = start
	}
	if fs.Changed("cluster") {
		for _, size := range []string{"nodes", "racks"} {
			if fs.Changed(size) {
				return usageError{errNodesAndCluster("--" + size)}
			}
		}
		c, err := readCluster(clusterFile)
		if err != nil {
			return usageError{err}
		}
		o.SetLayout(*c)
	} else if o.Nodes >= 1 {
		if err := checkEqualRacks(o.Nodes, o.Racks); err != nil {
			return usageError{err}
		}
	}
	if err := o.Validate(); err != nil {
		if ferr := fieldFlagError(err, optionFlags); ferr != nil {
			return usageError{ferr}
		}
		return usageError{fmt.Errorf("workload import: %w", err)}
	}
	path := fs.Arg(0)
	if err := checkOut(out, path); err != nil {
		return usageError{err}
	}
	popts := traces.ParseOptions{SkipBad: skipBad}
	if !quiet {
		popts.Progress = newImportProgress(stderr, path).update
	}
	t, err := traces.Read(format, path, popts)
	if err != nil {
		var pe *traces.ParseError
		if !skipBad && errors.As(err, &pe) && pe.Skippable() {
			return fmt.Errorf("workload import: %w (--skip-bad skips and counts such lines)", err)
		}
		return fmt.Errorf("workload import: %w", err)
	}
	w, rep, err := traces.Build(t, o)
	if err != nil {
		// The window the options cut from this trace holds no jobs, or
		// lasts too long or too short: told under the flag to change.
		if ferr := fieldFlagError(err, optionFlags); ferr != nil {
			return usageError{ferr}
		}
		return err
	}
	if !quiet {
		if err := rep.WriteText(stderr); err != nil {
			return err
		}
	}
	if rep.Jobs < traces.FewJobs {
		// What gives more jobs: with the trace's arrivals a longer window
		// or a load that fills it; with a load, a longer window or a
		// higher load; to the trace's end, an earlier start.
		more := "a longer --hours, or --load (fills --hours with the jobs that carry it),"
		switch {
		case o.Hours == 0:
			more = "an earlier --start"
		case o.Load > 0:
			more = "a longer --hours or a higher --load"
		}
		fmt.Fprintf(stderr, "import: warning: the window holds %d jobs, fewer than %d: a thin sample of the trace; %s gives more\n",
			rep.Jobs, traces.FewJobs, more)
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%w: nothing written", errInterrupted)
	}
	return writeWorkload(w, out, stdout)
}

// progressMinBytes: inputs smaller than this (bytes as stored) are read
// without progress lines; they take a moment.
const progressMinBytes = 1 << 20

// importProgress prints how far the read of a trace has got: a line at
// each quarter of its input bytes reached, then one when it is read.
type importProgress struct {
	w       io.Writer
	path    string // the trace's file or directory
	begin   time.Time
	quarter int64 // the last quarter printed
}

func newImportProgress(w io.Writer, path string) *importProgress {
	return &importProgress{w: w, path: path, begin: time.Now()}
}

func (p *importProgress) update(pr traces.Progress) {
	if pr.TotalBytes < progressMinBytes {
		return
	}
	elapsed := time.Since(p.begin).Seconds()
	if pr.Done {
		fmt.Fprintf(p.w, "import: read %d lines, %.1f MB, in %.1f s\n", pr.Lines, float64(pr.TotalBytes)/1e6, elapsed)
		return
	}
	q := min(4*pr.Bytes/pr.TotalBytes, 3)
	if q <= p.quarter {
		return
	}
	p.quarter = q
	now := "" // the part being read, of a trace in several files
	if rel, err := filepath.Rel(p.path, pr.File); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		now = ", now " + rel
	}
	fmt.Fprintf(p.w, "import: %d%% of %.1f MB read (%d lines%s), %.1f s\n",
		25*q, float64(pr.TotalBytes)/1e6, pr.Lines, now, elapsed)
}

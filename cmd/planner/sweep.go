package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/plannerhq/planner/experiments"
	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/registry"
)

// study is a named sweep: the flag it varies with its default values, the
// flags it fixes (unless given on the command line) and the x axis label.
type study struct {
	name, doc string
	flag      string
	values    []string
	fixed     [][2]string
	label     string
}

// paperSchedulers are the four systems of the 3Sigma paper's sensitivity
// figures (Table 1).
const paperSchedulers = "3sigma,pointperfest,pointrealest,prio"

// studies are the named sweeps of `planner sweep --study`, after the
// sensitivity analyses of 3Sigma §6.3–6.4 and the solver time limit study.
var studies = []study{
	{name: "slack", doc: "deadline slack 20…180% (3Sigma Fig. 7)", flag: "slack",
		values: []string{"20", "40", "60", "80", "100", "120", "140", "160", "180"},
		fixed:  [][2]string{{"schedulers", paperSchedulers}}, label: "deadline slack (%)"},
	{name: "load", doc: "offered load 1.0…1.6 (Fig. 9)", flag: "load",
		values: []string{"1.0", "1.2", "1.4", "1.6"},
		fixed:  [][2]string{{"schedulers", paperSchedulers}}, label: "offered load (node-hours submitted / capacity)"},
	{name: "samples", doc: "runtimes per feature value 5…100 (Fig. 10)", flag: "samples-per-feature",
		values: []string{"5", "10", "25", "50", "75", "100"},
		fixed:  [][2]string{{"schedulers", paperSchedulers}}, label: "runtimes per feature value"},
	{name: "shift", doc: "synthetic estimates, shift −60…+60% at CoV 20%, 2 h (Fig. 8)", flag: "synthetic-shift",
		values: []string{"-60", "-40", "-20", "0", "20", "40", "60"},
		fixed:  [][2]string{{"synthetic", "true"}, {"synthetic-cov", "20"}, {"hours", "2"}, {"schedulers", "3sigma,pointrealest,pointperfest,prio"}},
		label:  "distribution shift (% of runtime)"},
	{name: "width", doc: "synthetic estimates, CoV 0…80% at shift 0, 2 h (Fig. 8)", flag: "synthetic-cov",
		values: []string{"0", "10", "20", "40", "60", "80"},
		fixed:  [][2]string{{"synthetic", "true"}, {"hours", "2"}, {"schedulers", "3sigma,pointrealest,pointperfest,prio"}},
		label:  "distribution width: σ (% of runtime)"},
	{name: "solver-timeout", doc: "solver time limit 10 ms…5 s on the wall clock, 2 h (see above)", flag: "solver-timeout",
		values: []string{"10ms", "30ms", "100ms", "300ms", "1s", "3s", "5s"},
		fixed:  [][2]string{{"deterministic", "false"}, {"hours", "2"}, {"schedulers", "3sigma,pointrealest,prio"}},
		label:  "solver time limit (s)"},
	{name: "nodes", doc: "cluster size 64…512 nodes at constant load", flag: "nodes",
		values: []string{"64", "128", "256", "512"},
		fixed:  [][2]string{{"schedulers", paperSchedulers}}, label: "cluster size (nodes)"},
}

func findStudy(name string) (study, error) {
	names := make([]string, len(studies))
	for i, s := range studies {
		if s.name == name {
			return s, nil
		}
		names[i] = s.name
	}
	return study{}, fmt.Errorf("--study: unknown study %q (want one of %s)", name, strings.Join(names, ", "))
}

// notVaried are simulate flags a sweep cannot vary, and why.
var notVaried = map[string]string{
	"schedulers":    "the schedulers are the lines of every plot",
	"seed":          "use --seeds",
	"format":        "it does not change results",
	"out":           "it does not change results",
	"config":        "it does not change results",
	"parallel":      "it does not change results",
	"quiet":         "it does not change results",
	"cpuprofile":    "it does not change results",
	"memprofile":    "it does not change results",
	"deterministic": "a sweep reports timing metrics for all of its points or none; run it once with each setting",
}

// flagUnits are the units of the x axis of a varied flag (durations are in
// seconds).
var flagUnits = map[string]string{
	"slack": "%", "nodes": "nodes", "racks": "racks", "load": "node-hours / capacity", "hours": "h", "synthetic-shift": "%", "synthetic-cov": "%",
	"samples-per-feature": "runtimes",
}

const sweepUsage = `Usage: planner sweep (--vary FLAG=v1,v2,... | --study NAME) [--seeds 1-3] [simulate flags]

Runs 'planner simulate' at every value of one simulate flag and every seed,
and reports each metric against the value: one run per (value, seed,
scheduler) in the JSON ("params.sweep" names the flag and value; with
several seeds "means" holds the mean over seeds per value and scheduler),
the means in the table, every run in the CSV. With --out DIR it writes
results.json, a line plot per metric (PNG and SVG: x = the value, a line per
scheduler through the means, a bar from the lowest to the highest seed) and
report.md with the plots and this command; each finished run is stored in
DIR/points, named by a hash of its full configuration, so running the same
command again computes only what is missing (after changing the code,
delete DIR/points).

A value of a list flag (--slack) is one element; join elements with '/'
(--vary slack=20/40,60/80). Durations are plotted in seconds.

With --executor slurm (and --out, on a file system the cluster's nodes
share, like this planner binary) the (value, seed) points not stored yet
are computed on a Slurm cluster: one sbatch job array whose every element
runs this binary on one point and stores its runs in DIR/points (the
elements' output in DIR/slurm), with --cpus-per-task from --parallel, at
most --array-throttle at once, and one array per MaxArraySize points
(scontrol show config). The executor looks every 30 s whether the arrays
have ended; then the sweep reports from the stored runs as the local
executor does, with the same results; an interrupted sweep cancels the
arrays and resumes as the local one. Slurm's commands read SLURM_CONF, or
Slurm's default configuration.

An element reads its index in --array-points from SLURM_ARRAY_TASK_ID,
JOB_COMPLETION_INDEX (a Kubernetes Indexed Job), PBS_ARRAY_INDEX (PBS Pro,
qsub -J 0-N) or LSB_JOBINDEX (LSF, bsub -J 'sweep[1-N]', counted from 1),
so the same sweep runs on those systems: run, for every index k, the
sweep's command line with --array-points 0,1,…,N-1 (the point numbers)
and the index variable set to k, then the sweep without it to report.
` + solverTimeoutHelp

// runSweep is `planner sweep`.
func runSweep(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runSweepWith(ctx, args, stdout, stderr, registry.Default())
}

// sweepFlags are sweep's own flags.
type sweepFlags struct {
	vary, study, seeds string
	executor           string
	sbatchArgs         []string
	// arrayPoints, set by the slurm executor only, makes this process an
	// element of its job array: it computes the point of this list at
	// index SLURM_ARRAY_TASK_ID.
	arrayPoints string
	// arrayThrottle is --array-throttle.
	arrayThrottle int
}

// sweepOwnFlags are the flags of sweep that are not simulate's.
var sweepOwnFlags = []string{"vary", "study", "seeds", "executor", "sbatch-arg", "array-points", "array-throttle"}

// Sweep executors.
const (
	executorLocal = "local"
	executorSlurm = "slurm"
)

// runSweepWith is runSweep with the registry given (for tests).
func runSweepWith(ctx context.Context, args []string, stdout, stderr io.Writer, reg planner.Registry) (err error) {
	fs, base := newSimulateFlags("sweep", stdout, reg)
	defer func() { err = inConfig(fs, err) }()
	var sf sweepFlags
	fs.Var(&onceString{v: &sf.vary}, "vary", "the simulate flag to vary and its values: FLAG=v1,v2,...")
	fs.Var(&onceString{v: &sf.study}, "study", "a named sweep (below); --vary with its flag replaces its values")
	fs.Var(&onceString{v: &sf.seeds}, "seeds", "seeds of every point: a list and ranges, e.g. 1-3 (default: --seed)")
	fs.StringVar(&sf.executor, "executor", executorLocal, "where the points run: local (this process), or slurm (a Slurm job array; needs --out)")
	fs.StringArrayVar(&sf.sbatchArgs, "sbatch-arg", nil, "an sbatch `option` of the slurm executor's job array, e.g. --sbatch-arg=--partition=batch (repeatable)")
	fs.StringVar(&sf.arrayPoints, "array-points", "", "the points of the slurm executor's job array (set by it; an element reads its index from SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX, PBS_ARRAY_INDEX or LSB_JOBINDEX)")
	fs.IntVar(&sf.arrayThrottle, "array-throttle", 0, "run at most `N` of the slurm executor's array elements at once (sbatch --array=…%N; 0: no limit)")
	_ = fs.MarkHidden("array-points")
	fs.Lookup("out").Usage = "write results.json, plots, report.md and the finished runs (resumable) into this `directory`"
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprint(w, sweepUsage+"\n")
		fmt.Fprintln(w, "Studies (each fixes its schedulers and the flags shown unless given):")
		for _, s := range studies {
			fixed := make([]string, len(s.fixed))
			for i, kv := range s.fixed {
				fixed[i] = "--" + kv[0] + "=" + kv[1]
			}
			fmt.Fprintf(w, "  %-15s %s\n  %-15s --vary %s=%s; %s\n", s.name, s.doc, "", s.flag, strings.Join(s.values, ","), strings.Join(fixed, " "))
		}
		fmt.Fprintln(w, "\nFlags:")
		fs.PrintDefaults()
	}
	if err := parseSimulateArgs(fs, "sweep", args, base); err != nil {
		return err
	}
	sw, err := planSweep(fs, base, sf, reg)
	if err != nil {
		return usageError{err}
	}
	stopProfiles, err := base.prof.start()
	if err != nil {
		return err
	}
	defer func() {
		if perr := stopProfiles(); err == nil {
			err = perr
		}
	}()
	sw.Command = "planner sweep " + shellJoin(args)
	sw.prov = experiments.NewProvenance(buildVersion(), commandLine("sweep", args), time.Now())
	sw.Progress = newProgress(stderr, "sweep", base.quiet)
	sw.stderr = stderr
	sw.args = args
	warnSolverFallback(stderr, base.solver)
	return sw.run(ctx, stdout)
}

// sweepPlan is a validated sweep.
type sweepPlan struct {
	study    string
	flag     string
	label    string
	unit     string
	values   []string
	x        []float64 // nil: a nominal axis
	seeds    []uint64
	base     *simulateFlags
	points   []*simulateFlags // per (value, seed), value-major
	reg      planner.Registry
	Command  string
	Progress *experiments.Progress
	prov     *experiments.Provenance
	stderr   io.Writer
	// executor, sbatchArgs and arrayPoints are sweepFlags'; args the
	// command line, which the slurm executor's elements run again.
	executor      string
	sbatchArgs    []string
	arrayPoints   []int
	arrayThrottle int
	args          []string
	// slurmArray is the job array the slurm executor submitted (0: none),
	// slurmPoints its element count.
	slurmArray  int64
	slurmPoints int
}

// planSweep checks the sweep's flags and builds the flags of every point.
func planSweep(fs *pflag.FlagSet, base *simulateFlags, sf sweepFlags, reg planner.Registry) (*sweepPlan, error) {
	p := &sweepPlan{base: base, reg: reg, study: sf.study, executor: sf.executor, sbatchArgs: sf.sbatchArgs, arrayThrottle: sf.arrayThrottle}
	switch sf.executor {
	case executorLocal, "": // "": a plan built without the flag set
		if len(sf.sbatchArgs) > 0 {
			return nil, errors.New("--sbatch-arg: only the slurm executor submits jobs (give --executor slurm)")
		}
	case executorSlurm:
		if base.out == "" {
			return nil, errors.New("--executor slurm: give --out DIR, on a file system the cluster's nodes share: the job array's elements store their runs there")
		}
	default:
		return nil, fmt.Errorf("--executor: want local or slurm, got %q", sf.executor)
	}
	if sf.arrayThrottle < 0 {
		return nil, fmt.Errorf("--array-throttle: must be ≥ 0 (0: no limit), got %d", sf.arrayThrottle)
	}
	if sf.arrayPoints != "" {
		if base.out == "" {
			return nil, errors.New("--array-points: give --out DIR, where the runs are stored")
		}
		for _, f := range strings.Split(sf.arrayPoints, ",") {
			i, err := strconv.Atoi(f)
			if err != nil || i < 0 {
				return nil, fmt.Errorf("--array-points %s: want point indices ≥ 0, e.g. 0,3,4", sf.arrayPoints)
			}
			p.arrayPoints = append(p.arrayPoints, i)
		}
	}
	// The flags given on the command line or in --config, before a study
	// sets its own: only these must have an effect at some point.
	given := givenFlags(fs)
	var flag string
	var values []string
	if sf.vary != "" {
		var ok bool
		var list string
		flag, list, ok = strings.Cut(sf.vary, "=")
		flag = strings.TrimPrefix(flag, "--")
		if !ok || flag == "" {
			return nil, fmt.Errorf("--vary %s: want FLAG=v1,v2,… (e.g. load=1.0,1.4)", sf.vary)
		}
		if list == "" {
			return nil, fmt.Errorf("--vary %s: no values", sf.vary)
		}
		values = strings.Split(list, ",")
	}
	if sf.study != "" {
		st, err := findStudy(sf.study)
		if err != nil {
			return nil, err
		}
		if flag != "" && flag != st.flag {
			return nil, fmt.Errorf("--vary %s: study %s varies --%s", sf.vary, st.name, st.flag)
		}
		flag, p.label = st.flag, st.label
		if values == nil {
			values = st.values
		}
		for _, kv := range st.fixed {
			if !fs.Changed(kv[0]) {
				if err := fs.Set(kv[0], kv[1]); err != nil {
					return nil, fmt.Errorf("--study %s: --%s %s: %w", st.name, kv[0], kv[1], err)
				}
			}
		}
	}
	if flag == "" {
		return nil, errors.New("sweep: give --vary FLAG=v1,v2,... or --study NAME")
	}
	fl := fs.Lookup(flag)
	if fl == nil || slices.Contains(sweepOwnFlags, flag) {
		return nil, fmt.Errorf("--vary %s: unknown simulate flag --%s", sf.vary, flag)
	}
	if why, ok := notVaried[flag]; ok {
		return nil, fmt.Errorf("--vary: --%s cannot be varied: %s", flag, why)
	}
	if fl.Changed {
		varied := "--vary: --" + flag + " is both varied and"
		if sf.vary == "" {
			varied = fmt.Sprintf("--study %s varies --%s, which is also", sf.study, flag)
		}
		if path := fl.Annotations[configAnnotation]; path != nil {
			return nil, fmt.Errorf("%s set by --config %s", varied, path[0])
		}
		return nil, fmt.Errorf("%s given", varied)
	}
	// The flags every point shares are checked once, so that a mistake in
	// one is told without a point's prefix. That check sees the varied
	// flag at its default, so its error stands only when a point fails
	// with it too: --hours 0.01 with --vary interval=10s,20s is a sweep
	// whose every point passes, though the default --interval (1m) would
	// not.
	baseErr := base.validate(reg)
	p.flag, p.values = flag, values
	p.unit = flagUnits[flag]
	if fl.Value.Type() == "duration" {
		p.unit = "s"
	}
	if p.label == "" {
		p.label = "--" + flag
		if p.unit != "" {
			p.label += " (" + p.unit + ")"
		}
	}
	p.seeds = []uint64{base.seed}
	if fs.Changed("seeds") {
		if fs.Changed("seed") {
			if path := fs.Lookup("seed").Annotations[configAnnotation]; len(path) > 0 {
				return nil, fmt.Errorf("--seeds: give --seed or --seeds, not both (--config %s sets seed)", path[0])
			}
			return nil, errors.New("--seeds: give --seed or --seeds, not both")
		}
		var err error
		if p.seeds, err = parseSeeds(sf.seeds); err != nil {
			return nil, fmt.Errorf("--seeds: %w", err)
		}
	}
	firstAs := map[string]string{} // a value as the flag holds it → as given first
	numeric := true
	for _, v := range values {
		if v == "" {
			return nil, fmt.Errorf("--vary %s: empty item in %q", flag, strings.Join(values, ","))
		}
		for _, seed := range p.seeds {
			pf, held, err := pointFlags(base, flag, v, seed, reg)
			if err != nil {
				if baseErr != nil && errors.Unwrap(err) != nil && errors.Unwrap(err).Error() == baseErr.Error() {
					return nil, baseErr
				}
				return nil, err
			}
			p.points = append(p.points, pf)
			if seed != p.seeds[0] {
				continue // held is the same for every seed
			}
			first, ok := firstAs[held]
			switch {
			case ok && first == v:
				return nil, fmt.Errorf("--vary %s: %q is given twice", flag, v)
			case ok:
				return nil, fmt.Errorf("--vary %s: %q is given twice (as %q first)", flag, v, first)
			}
			firstAs[held] = v
		}
		x, ok := xValue(fl, v)
		numeric = numeric && ok
		p.x = append(p.x, x)
	}
	if !numeric {
		p.x = nil
	}
	// A flag given, or the varied one, must have an effect at some point
	// of the sweep; otherwise every point would ignore it.
	given[flag] = "--vary " + flag
	if sf.vary == "" {
		given[flag] = "--study " + sf.study + " (it varies --" + flag + ")"
	}
	if err := checkUsed(given, append(generatorFlagNames(), schedulerFlagNames()...), p.unusedReason); err != nil {
		return nil, err
	}
	return p, nil
}

// unusedReason says why the flag name has no effect at any point of the
// sweep (a generator flag needs a point with a generator, a synthetic flag
// one with --synthetic, a solver or estimate flag one with a scheduler
// that reads it), or "" when it has one at some point.
func (p *sweepPlan) unusedReason(name string) string {
	why := ""
	for _, pf := range p.points {
		if why = pf.unusedReason(name); why == "" {
			break
		}
	}
	return why
}

// pointFlags are base with --flag set to value and the seed; held is the
// value as the flag holds it (1.0 and 1 are both "1", 1000ms and 1s both
// "1s"; a workload file's path cleaned), exactly, so that values that
// differ only in how they are written can be told apart from different
// ones.
func pointFlags(base *simulateFlags, flag, value string, seed uint64, reg planner.Registry) (*simulateFlags, string, error) {
	fs, pf := newSimulateFlags("point", io.Discard, reg)
	*pf = *base // the flag set stays bound to pf's fields
	pf.slack = slices.Clone(base.slack)
	pf.schedulers = slices.Clone(base.schedulers)
	fl := fs.Lookup(flag)
	set := value
	if _, ok := fl.Value.(pflag.SliceValue); ok {
		set = strings.ReplaceAll(value, "/", ",")
	}
	if err := fs.Set(flag, set); err != nil {
		var ive *pflag.InvalidValueError
		if errors.As(err, &ive) {
			err = ive.Unwrap()
		}
		return nil, "", valueError(fmt.Sprintf("--vary %s=%s", flag, value), fl, value, err)
	}
	pf.seed = seed
	pf.intervalGiven = base.intervalGiven || fs.Changed("interval")
	pf.nodesGiven = base.nodesGiven || fs.Changed("nodes")
	pf.racksGiven = base.racksGiven || fs.Changed("racks")
	pf.clusterGiven = base.clusterGiven || fs.Changed("cluster")
	pf.hoursGiven = base.hoursGiven || fs.Changed("hours")
	pf.loadGiven = base.loadGiven || fs.Changed("load")
	if err := pf.validate(reg); err != nil {
		return nil, "", fmt.Errorf("--vary %s=%s: %w", flag, value, err)
	}
	held := fl.Value.String()
	switch {
	case fl.Value.Type() == "float64Slice":
		// The flag library writes a float list with 6 decimals
		// (20.0000001 and 20.0000004 both "20.000000").
		held = exactFloats(set)
	case flag == "workload" && !pf.generated(), flag == "cluster":
		held = "file " + filepath.Clean(held)
	}
	return pf, held, nil
}

// exactFloats writes the items of list, comma-separated numbers that
// parse, each as the shortest text that reads back as the same float64.
func exactFloats(list string) string {
	items := strings.Split(list, ",")
	for i, s := range items {
		v, _ := strconv.ParseFloat(s, 64)
		items[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strings.Join(items, ",")
}

// xValue is a value's position on the x axis: the number, a duration in
// seconds; ok is false for anything else (a workload file, a list).
func xValue(fl *pflag.Flag, v string) (float64, bool) {
	if fl.Value.Type() == "duration" {
		d, err := time.ParseDuration(v)
		return d.Seconds(), err == nil
	}
	x, err := strconv.ParseFloat(v, 64)
	return x, err == nil && !math.IsNaN(x) && !math.IsInf(x, 0)
}

// sweepConfig is the "config" object of a sweep's JSON.
type sweepConfig struct {
	Study  string         `json:"study,omitempty"`
	Vary   string         `json:"vary"`
	Values []string       `json:"values"`
	Seeds  []uint64       `json:"seeds"`
	Base   simulateConfig `json:"base"`
}

// pointConfig is the configuration a stored run's hash covers: every
// setting of the point that affects results (not the scheduler list: each
// scheduler's run is stored on its own) and, for a workload file, a hash
// of its content.
type pointConfig struct {
	simulateConfig
	WorkloadSHA256 string `json:"workload_sha256,omitempty"`
	// PlannerTiming is the sweep's derived timing of the planners
	// (sweepTiming), which depends on the other points too.
	PlannerTiming string `json:"planner_timing,omitempty"`
}

// sweepTiming derives one decision timing for the planners over every
// point of the sweep (experiments.SweepTiming), loading each point's
// input once more; nil when the planners' timing is given (--decisions or
// --interval) or no scheduler derives one.
func (p *sweepPlan) sweepTiming() (*experiments.SharedTiming, error) {
	derives := slices.ContainsFunc(p.base.schedulers, func(name string) bool {
		pol, ok := p.reg.Lookup(name)
		return ok && pol.TimingFor != nil
	})
	if !derives {
		return nil, nil
	}
	var (
		inputs    []experiments.Input
		intervals []time.Duration
		labels    []string
	)
	for i, pf := range p.points {
		in, rc, err := pf.prepare()
		if err != nil {
			return nil, err
		}
		if !rc.DeriveTiming {
			return nil, nil
		}
		inputs = append(inputs, in)
		intervals = append(intervals, time.Duration(rc.Sim.Interval*float64(time.Second)))
		labels = append(labels, fmt.Sprintf("--%s %s, seed %d", p.flag, p.values[i/len(p.seeds)], pf.seed))
	}
	return experiments.SweepTiming(p.reg, p.base.schedulers, inputs, intervals, labels), nil
}

func (p *sweepPlan) run(ctx context.Context, stdout io.Writer) error {
	b := p.base
	// Of each workload file: its content's hash and its window.
	type fileFacts struct {
		sha256  string
		windowS float64
	}
	files := map[string]fileFacts{}
	sw := &experiments.Sweep{Schedulers: b.schedulers, Registry: p.reg, Dir: b.out, Parallel: b.parallel,
		Deterministic: b.deterministic, Progress: p.Progress, Code: p.prov.Executable, Provenance: p.prov}
	shared, err := p.sweepTiming()
	if err != nil {
		return err
	}
	for i, pf := range p.points {
		cfg := pointConfig{simulateConfig: pf.effectiveConfig()}
		cfg.Schedulers = nil
		if shared != nil {
			cfg.PlannerTiming = shared.Decisions.String()
		}
		if !pf.generated() {
			ff, ok := files[pf.workload]
			if !ok {
				h, err := pf.header()
				if err != nil {
					return err
				}
				ff.windowS = h.WindowS
				if ff.sha256, err = hashFile(pf.workload); err != nil {
					return fmt.Errorf("--workload: %w", err)
				}
				files[pf.workload] = ff
			}
			cfg.WorkloadSHA256 = ff.sha256
			// Checked for every point before the first runs, as simulate
			// checks it.
			if err := pf.checkFileWindow(filepath.Base(pf.workload), ff.windowS); err != nil {
				return err
			}
		}
		value := p.values[i/len(p.seeds)]
		param := &experiments.SweepParam{Flag: p.flag, Value: value, Unit: p.unit}
		if p.x != nil {
			x := p.x[i/len(p.seeds)]
			param.X = &x
		}
		sw.Points = append(sw.Points, experiments.SweepPoint{Value: p.flag + "=" + value, Seed: pf.seed, Config: cfg, Param: param,
			Load: func() (experiments.Input, experiments.RunConfig, error) {
				in, rc, err := pf.prepare()
				rc.SharedTiming = shared
				return in, rc, err
			},
			Registry: p.reg})
	}
	// The results directory and the log file are checked before the runs,
	// so that a bad --out or --log-file fails at once rather than after them.
	if err := checkOutDir(b.out); err != nil {
		return err
	}
	if p.arrayPoints != nil {
		// The elements of a job array log to their output files, not
		// all into the --log-file of the sweep that submitted them.
		b.log.file = ""
	}
	log, closeLog, err := b.log.open(p.stderr)
	if err != nil {
		return err
	}
	defer closeLog()
	sw.Log = log
	if p.arrayPoints != nil {
		return p.runElement(ctx, sw)
	}
	var runs []experiments.RunResult
	var stats experiments.SweepStats
	if p.executor == executorSlurm {
		err = p.runOnSlurm(ctx, sw)
	}
	if err == nil {
		runs, stats, err = sw.Run(ctx)
	}
	p.Progress.Close()
	if wasInterrupted(ctx, err) {
		if b.out == "" {
			return fmt.Errorf("%w: %d runs had finished (give --out to keep finished runs and resume)", errInterrupted, stats.Computed+stats.Reused)
		}
		return fmt.Errorf("%w: the finished runs are stored in %s; the same command resumes the sweep", errInterrupted, filepath.Join(b.out, "points"))
	}
	if err != nil {
		return err
	}
	if p.Progress != nil {
		if p.slurmArray != 0 {
			fmt.Fprintf(p.stderr, "sweep: %d runs: %d points computed on Slurm (job array %d), %d runs read back\n", len(runs), p.slurmPoints, p.slurmArray, stats.Reused)
		} else {
			fmt.Fprintf(p.stderr, "sweep: %d runs: %d computed, %d reused\n", len(runs), stats.Computed, stats.Reused)
		}
	}
	p.prov.Finish(time.Now())
	base := b.effectiveConfig()
	rep := &experiments.SweepReport{
		Config: sweepConfig{Study: p.study, Vary: p.flag, Values: p.values, Seeds: p.seeds, Base: base},
		Flag:   p.flag, Label: p.label, Values: p.values, X: p.x, LogX: logAxis(p.x),
		Schedulers: b.schedulers, Seeds: p.seeds, Runs: runs, Deterministic: b.deterministic, Command: p.Command,
		Provenance: p.prov,
	}
	return writeResults(stdout, b.format, rep, b.out)
}

// logAxis: positive values spanning two decades or more are plotted on a
// log scale.
func logAxis(x []float64) bool {
	if len(x) < 2 {
		return false
	}
	lo, hi := slices.Min(x), slices.Max(x)
	return lo > 0 && hi/lo >= 100
}

func hashFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// shellJoin quotes args for a POSIX shell where needed.
func shellJoin(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a != "" && strings.IndexFunc(a, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_=.,/:+%@", r))
		}) < 0 {
			out[i] = a
			continue
		}
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}

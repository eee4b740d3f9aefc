package traces

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"path/filepath"
	"slices"

	"github.com/plannerhq/planner/workloads"
)

// Fit policies for jobs wider than the target cluster.
const (
	// FitScale multiplies every width by nodes / MaxProcs (rounded, at
	// least 1, at most the cluster), keeping the trace's shape of widths.
	FitScale = "scale"
	// FitDrop drops jobs wider than the cluster and keeps the others' widths.
	FitDrop = "drop"
)

// Options configure Build. Start from DefaultOptions.
type Options struct {
	// Nodes is the target cluster, split into Racks racks as the
	// generators split it (workloads.GoogleParams.Cluster); Slowdown is the
	// runtime factor off a job's preferred racks.
	Nodes    int     `json:"nodes"`
	Racks    int     `json:"racks"`
	Slowdown float64 `json:"slowdown"`
	// Layout, when set, is the target cluster (a cluster file's), and
	// Nodes, Racks and Slowdown must be its total, partition count and
	// slowdown (SetLayout); nil for the generators' layout.
	Layout *workloads.Cluster `json:"cluster,omitempty"`
	// StartHours is where the window starts, in hours after the trace's
	// first kept submit; negative means the middle of the trace's submit
	// span (SLearn §4.3: the first half is history, the window comes from
	// the second).
	StartHours float64 `json:"start_hours"`
	// Hours is the window's length (0.01–10⁶ h); 0 runs it to the trace's
	// last submit.
	Hours float64 `json:"hours"`
	// Fit is FitScale or FitDrop.
	Fit string `json:"fit"`
	// MaxProcs, when > 0, replaces the trace's width (its header's
	// MaxProcs, else the widest job) as the denominator of FitScale.
	MaxProcs int `json:"max_procs,omitempty"`
	// Load, when > 0, is the window's offered load — node-seconds of its
	// jobs on the fitted widths / (Nodes · window) — reached by compressing
	// or stretching arrivals by one factor (SLearn §4.3 adjusts arrivals to
	// a target load): with Hours, the window lasts Hours and holds as many
	// consecutive jobs from its start as give Load within ±LoadTolerance;
	// with Hours 0, it holds the rest of the trace and its length follows
	// (it must last ≥ 1 s). 0.01–100; 0 keeps the trace's arrivals.
	Load float64 `json:"load,omitempty"`
	// Classes assigns SLO/BE classes, deadlines, preferred racks, values.
	Classes workloads.ClassRules `json:"classes"`
	// Tasks imports jobs as task-level (workloads.Job.TaskNodes 1): a
	// record's per-task durations become one-node tasks and its runtime
	// their mean. Fit acts on the task count: FitDrop drops jobs of more
	// tasks than Nodes (SLearn §4.3 drops Google jobs of more than 150),
	// FitScale keeps round(tasks × scale) of them (at least 1, at most
	// Nodes), evenly spaced by task index (§4.3 compresses 2Sigma jobs so).
	// Records without task durations are filtered out.
	Tasks bool `json:"tasks,omitempty"`
}

// DefaultOptions: 256 nodes in 8 racks with a 1.5× slowdown, the window
// from the middle of the trace for 5 hours (the generators' window),
// widths scaled, arrivals kept, the generators' class rules.
func DefaultOptions() Options {
	return Options{
		Nodes:      256,
		Racks:      8,
		Slowdown:   1.5,
		StartHours: -1,
		Hours:      5,
		Fit:        FitScale,
		Classes:    workloads.DefaultClassRules(),
	}
}

// Bounds of the window and load options: a window of 36 s to a century,
// a target load of 1% to 100× the cluster.
const (
	minHours = 0.01
	maxHours = 1e6
	minLoad  = 0.01
	maxLoad  = 100
	// minWindowS is the shortest window Load may rescale to (seconds).
	minWindowS = 1
)

// Validate reports the first bad option; the nodes and racks must make a
// cluster workloads accept (workloads.CheckNodesRacks). Every error wraps
// a *workloads.FieldError naming the bad field: a field of Options, or of
// workloads.ClassRules for the class rules (Classes).
func (o *Options) Validate() error {
	if err := workloads.CheckNodesRacks(o.Nodes, o.Racks); err != nil {
		return err
	}
	if l := o.Layout; l != nil {
		if err := l.Validate(); err != nil {
			return workloads.BadField("Layout", "cluster", "%v", err)
		}
		if l.TotalNodes() != o.Nodes || len(l.PartitionNodes) != o.Racks || l.Slowdown != o.Slowdown {
			return workloads.BadField("Layout", "cluster", "has %d nodes in %d partitions with slowdown %v, the options %d, %d and %v",
				l.TotalNodes(), len(l.PartitionNodes), l.Slowdown, o.Nodes, o.Racks, o.Slowdown)
		}
	}
	bad := workloads.BadField
	switch {
	case !workloads.Finite(o.Slowdown) || o.Slowdown < 1:
		return bad("Slowdown", "slowdown", "must be ≥ 1, got %v", o.Slowdown)
	case !workloads.Finite(o.StartHours) || o.StartHours > maxHours:
		return bad("StartHours", "start", "must be finite and ≤ %g hours, got %v", float64(maxHours), o.StartHours)
	case o.Hours != 0 && !(o.Hours >= minHours && o.Hours <= maxHours):
		return bad("Hours", "hours", "must be 0 (to the end of the trace) or in [%g, %g], got %v", minHours, float64(maxHours), o.Hours)
	case o.Fit != FitScale && o.Fit != FitDrop:
		return bad("Fit", "fit", "must be %s or %s, got %q", FitScale, FitDrop, o.Fit)
	case o.MaxProcs < 0:
		return bad("MaxProcs", "max procs", "must be ≥ 0, got %d", o.MaxProcs)
	case o.Load != 0 && !(o.Load >= minLoad && o.Load <= maxLoad):
		return bad("Load", "load", "must be 0 (keep the trace's arrivals) or in [%g, %g], got %v", minLoad, float64(maxLoad), o.Load)
	}
	return o.Classes.Validate()
}

// SetLayout makes c the target cluster: Layout, and Nodes, Racks and
// Slowdown from it.
func (o *Options) SetLayout(c workloads.Cluster) {
	c = c.Clone()
	o.Layout = &c
	o.Nodes, o.Racks, o.Slowdown = c.TotalNodes(), len(c.PartitionNodes), c.Slowdown
}

// Report says what Build did with a trace, for the importer's user.
type Report struct {
	Format string `json:"format"`
	Source string `json:"source"`
	// Lines read, bad lines skipped, records the parser kept, and the
	// jobs it filtered out by reason (Trace.Filtered).
	Lines    int            `json:"lines"`
	Skipped  int            `json:"skipped_lines"`
	Records  int            `json:"records"`
	Filtered map[string]int `json:"filtered"`
	// TraceSpanS is last − first kept submit (s); the window is
	// [WindowStartS, WindowEndS) seconds after the first kept submit, on
	// the trace's own clock.
	TraceSpanS   float64 `json:"trace_span_s"`
	WindowStartS float64 `json:"window_start_s"`
	WindowEndS   float64 `json:"window_end_s"`
	// Moved is how many jobs from the asked window start went to the
	// history because no run of whole jobs from there met the load — from
	// the default start, no run of at least FewJobs jobs (Build, step 3);
	// the window then starts at the next job's submit.
	Moved int `json:"moved,omitempty"`
	// FromMiddle: the window start was the default, the middle of the
	// trace's submit span.
	FromMiddle bool `json:"from_middle,omitempty"`
	// Tasks counts the tasks of the window's jobs when they were imported
	// as task-level jobs (Options.Tasks).
	Tasks int `json:"tasks,omitempty"`
	// Jobs and HistoryJobs are the workload's; AfterWindow the records
	// submitted after the window (not used).
	Jobs        int `json:"jobs"`
	HistoryJobs int `json:"history_jobs"`
	AfterWindow int `json:"after_window"`
	// MaxProcs is the trace width the fit used and MaxProcsFrom where it
	// came from ("header", "widest job", "option").
	MaxProcs     int    `json:"max_procs"`
	MaxProcsFrom string `json:"max_procs_from"`
	Fit          string `json:"fit"`
	// Scale is nodes / MaxProcs (FitScale); Resized the jobs whose width
	// changed, Clamped those cut to the cluster's width; Dropped the jobs
	// FitDrop removed (history and window).
	Scale   float64 `json:"scale,omitempty"`
	Resized int     `json:"resized"`
	Clamped int     `json:"clamped"`
	Dropped int     `json:"dropped"`
	// TraceLoad is the window's offered load with the trace's arrivals
	// (over WindowEndS − WindowStartS), Load the workload's (over WindowS,
	// the workload's window); ArrivalFactor multiplies inter-arrival
	// times, the history's too (1 without Options.Load); TargetLoad is
	// Options.Load.
	TraceLoad     float64 `json:"trace_load"`
	Load          float64 `json:"load"`
	TargetLoad    float64 `json:"target_load,omitempty"`
	ArrivalFactor float64 `json:"arrival_factor"`
	WindowS       float64 `json:"window_s"`
}

// ErrEmptyWindow is returned when the chosen window holds no job.
var ErrEmptyWindow = errors.New("the window holds no jobs")

// ErrLoadUnmet is returned when no run of consecutive jobs from the window
// start on carries the target load within ±LoadTolerance: the trace runs
// out first, or the jobs that would cross the target are too large.
var ErrLoadUnmet = errors.New("the trace cannot fill the window to the load")

// Build turns a parsed trace into a workload for the target cluster:
//
//  1. records sorted by submit (stable); the window starts at s = first
//     submit + StartHours (default: the middle of the span); the records
//     before it become the predictor's history, the ones after it are
//     left out;
//  2. widths fitted to the cluster (Fit);
//  3. the window, by one of three rules, with trace time t going to
//     window time (t − s)·f for one arrival factor f:
//     - Hours, no Load: the trace's own arrivals over [s, s + Hours),
//     f = 1;
//     - Hours and Load: the consecutive jobs from s on whose work (node-
//     seconds on the fitted widths) is Load · Nodes · Hours within
//     the band of LoadTolerance, nearest to it (loadRun), and
//     f = Hours / (the next job's submit − s), so that the window lasts
//     Hours and ends where the next job would arrive (runSpan); when the
//     job that crosses the target from s overshoots the band, s moves to
//     the first later job from which a run meets it (Report.Moved); from
//     the default start (the middle), a run must also hold at least
//     FewJobs jobs, so that the window is a real sample of the trace,
//     unless no start on allows it;
//     - Hours = 0: [s, the last submit], with Load f = the trace's load /
//     Load (the window's length follows);
//     history submits (before s) are multiplied by the same f;
//  4. ids 0…n−1 for window jobs, then history; classes by
//     ClassRules.AssignClasses (window and history separately, in submit
//     order), terms by ClassRules.Terms.
//
// Times are rounded to milliseconds (submits down, so order is kept). The
// workload is validated before it is returned. The same trace and options
// give the same workload.
func Build(t *Trace, o Options) (*workloads.Workload, *Report, error) {
	if err := o.Validate(); err != nil {
		return nil, nil, fmt.Errorf("import: %w", err)
	}
	rep := &Report{
		Format: t.Format, Source: filepath.Base(t.Source), Lines: t.Lines, Skipped: t.Skipped,
		Records: len(t.Records), Filtered: maps.Clone(t.Filtered), Fit: o.Fit, ArrivalFactor: 1,
		TargetLoad: o.Load,
	}
	if len(t.Records) == 0 {
		return nil, rep, fmt.Errorf("import %s: no usable jobs in the trace (%d filtered, %d bad lines skipped)", rep.Source, t.FilteredTotal(), t.Skipped)
	}
	recs := slices.Clone(t.Records)
	slices.SortStableFunc(recs, func(a, b Record) int { return cmp.Compare(a.Submit, b.Submit) })
	first, last := recs[0].Submit, recs[len(recs)-1].Submit
	rep.TraceSpanS = last - first
	start := first + rep.TraceSpanS/2
	rep.FromMiddle = o.StartHours < 0
	if !rep.FromMiddle {
		start = first + o.StartHours*3600
	}

	rep.MaxProcs, rep.MaxProcsFrom = t.MaxProcs, "header"
	if o.MaxProcs > 0 {
		rep.MaxProcs, rep.MaxProcsFrom = o.MaxProcs, "option"
	} else if t.MaxProcs <= 0 {
		rep.MaxProcs, rep.MaxProcsFrom = 0, "widest job"
		for i := range recs {
			rep.MaxProcs = max(rep.MaxProcs, recs[i].Size)
		}
	}
	if o.Fit == FitScale {
		rep.Scale = float64(o.Nodes) / float64(rep.MaxProcs)
	}
	cands := make([]candidate, len(recs))
	for i := range recs {
		cands[i] = newCandidate(&recs[i], o, rep.Scale)
	}

	cut := cutByTime(recs, start, o)
	if o.Load > 0 && o.Hours > 0 {
		var err error
		if cut, err = cutForLoad(recs, cands, start, o, rep.Source); err != nil {
			return nil, rep, fmt.Errorf("import %s: %w", rep.Source, err)
		}
	}
	rep.WindowStartS, rep.WindowEndS, rep.Moved = cut.start-first, cut.end-first, cut.moved
	rep.AfterWindow = len(recs) - cut.to

	var hist, win []workloads.Job
	// The window's records left out, so that a window they empty is told
	// apart from one the trace leaves empty.
	var winTooLong, winTooWide int
	for i := range cut.to {
		c := &cands[i]
		inWindow := i >= cut.from
		switch {
		case c.long:
			rep.Filtered = countFiltered(rep.Filtered, reasonTooLong)
			if inWindow {
				winTooLong++
			}
			continue
		case c.wide:
			rep.Dropped++
			if inWindow {
				winTooWide++
			}
			continue
		case c.noTasks:
			rep.Filtered = countFiltered(rep.Filtered, reasonNoTasks)
			continue
		}
		if c.resized {
			rep.Resized++
		}
		if c.clamped {
			rep.Clamped++
		}
		j := c.job
		j.Submit = recs[i].Submit - cut.start // in trace seconds until the factor is known
		if inWindow {
			win = append(win, j)
		} else {
			hist = append(hist, j)
		}
	}
	if len(win) == 0 && winTooWide > 0 {
		long := ""
		if winTooLong > 0 {
			long = fmt.Sprintf(" and %d run longer than %g s", winTooLong, float64(workloads.MaxSeconds))
		}
		return nil, rep, fmt.Errorf("import %s: %w", rep.Source, &workloads.FieldError{
			Field: "Fit", Name: "fit", Err: ErrEmptyWindow,
			Problem: fmt.Sprintf("%s leaves none of the window's %d jobs: %d are wider than the %d-node cluster%s (scale fits them; so would more nodes)",
				o.Fit, winTooWide+winTooLong, winTooWide, o.Nodes, long),
		})
	}
	if len(win) == 0 && winTooLong > 0 {
		return nil, rep, fmt.Errorf("import %s: all %d jobs of the window [%.2f h, %.2f h) run longer than %g s: %w",
			rep.Source, winTooLong, rep.WindowStartS/3600, rep.WindowEndS/3600, float64(workloads.MaxSeconds), ErrEmptyWindow)
	}
	if len(win) == 0 {
		// Blamed on the start when it was chosen, else on the length of the
		// window (which starts at the middle of the trace).
		field, name, value := "Hours", "hours", fmt.Sprintf("%v from the middle of the trace", o.Hours)
		if o.StartHours >= 0 {
			field, name, value = "StartHours", "start", fmt.Sprint(o.StartHours)
		}
		return nil, rep, fmt.Errorf("import %s: %w", rep.Source, &workloads.FieldError{
			Field: field, Name: name, Err: ErrEmptyWindow,
			Problem: fmt.Sprintf("%s puts the window at [%.2f h, %.2f h) of the %.2f h trace: %v",
				value, rep.WindowStartS/3600, rep.WindowEndS/3600, rep.TraceSpanS/3600, ErrEmptyWindow),
		})
	}

	work := workloads.Work(win)
	window := cut.windowS
	rep.TraceLoad = work / (float64(o.Nodes) * (cut.end - cut.start))
	rep.ArrivalFactor = cut.factor
	if o.Load > 0 && o.Hours == 0 {
		rep.ArrivalFactor = rep.TraceLoad / o.Load
		window *= rep.ArrivalFactor
		if window < minWindowS {
			return nil, rep, fmt.Errorf("import %s: %w", rep.Source, workloads.BadField("Load", "load",
				"%v squeezes the window's %.3g node-seconds of jobs on %d nodes into %.3g s (under %g s); ask for a lower load",
				o.Load, work, o.Nodes, window, float64(minWindowS)))
		}
	}
	if window > workloads.MaxSeconds {
		// Blamed on the load when it stretched the window, else on its length.
		field, name, value := "Hours", "hours", fmt.Sprint(o.Hours)
		if rep.ArrivalFactor > 1 && o.Hours == 0 {
			field, name, value = "Load", "load", fmt.Sprint(o.Load)
		} else if o.Hours == 0 {
			value = "0 (to the end of the trace)"
		}
		return nil, rep, fmt.Errorf("import %s: %w", rep.Source, workloads.BadField(field, name,
			"%s makes the window last %.3g s, more than %g s; ask for a shorter window or a higher load",
			value, window, float64(workloads.MaxSeconds)))
	}
	rep.WindowS = window
	rep.Load = work / (float64(o.Nodes) * window)
	last = math.Nextafter(window, 0)
	for i := range win {
		win[i].Submit = min(max(workloads.FloorMS(win[i].Submit*rep.ArrivalFactor), 0), last)
	}
	for i := range hist {
		hist[i].Submit = min(workloads.FloorMS(hist[i].Submit*rep.ArrivalFactor), -0.001)
	}
	// After the rescaling: it stretches the history's distances too.
	hist = slices.DeleteFunc(hist, func(j workloads.Job) bool {
		if j.Submit >= -workloads.MaxSeconds {
			return false
		}
		rep.Filtered = countFiltered(rep.Filtered, reasonTooOld)
		return true
	})

	gp := workloads.DefaultGoogleParams()
	gp.Nodes, gp.Racks, gp.Slowdown = o.Nodes, o.Racks, o.Slowdown
	cl := gp.Cluster()
	if o.Layout != nil {
		cl = o.Layout.Clone()
	}
	racks := len(cl.PartitionNodes)
	o.Classes.AssignClasses(win)
	o.Classes.AssignClasses(hist)
	for i := range win {
		win[i].ID = i
		o.Classes.Terms(&win[i], racks)
	}
	for i := range hist {
		hist[i].ID = len(win) + i
		o.Classes.Terms(&hist[i], racks)
	}
	rep.Jobs, rep.HistoryJobs = len(win), len(hist)
	if o.Tasks {
		for i := range win {
			rep.Tasks += win[i].Tasks()
		}
	}

	params, err := json.Marshal(struct {
		Source string `json:"source"`
		Options
		FitMaxProcs   int     `json:"fit_max_procs"`
		ArrivalFactor float64 `json:"arrival_factor"`
	}{rep.Source, o, rep.MaxProcs, rep.ArrivalFactor})
	if err != nil {
		return nil, rep, fmt.Errorf("import: %w", err)
	}
	w := &workloads.Workload{
		Header: workloads.Header{
			Version:     workloads.FormatVersion,
			Generator:   t.Format,
			Params:      params,
			Seed:        o.Classes.Seed,
			Cluster:     cl,
			WindowS:     window,
			Jobs:        len(win),
			HistoryJobs: len(hist),
		},
		History: hist,
		Jobs:    win,
	}
	if err := w.Validate(); err != nil {
		return nil, rep, fmt.Errorf("import %s: built an invalid workload (bug): %w", rep.Source, err)
	}
	return w, rep, nil
}

// candidate is a record as a workload job, before the window is cut: its
// Submit is not set, and long or wide records are not used.
type candidate struct {
	job workloads.Job
	// long: a runtime, request or task duration beyond
	// workloads.MaxSeconds; wide: wider than the cluster under FitDrop;
	// noTasks: a record without task durations, imported as tasks.
	long, wide, noTasks bool
	// resized: the fit changed the width; clamped: FitScale cut it to the
	// cluster's width.
	resized, clamped bool
}

func (c *candidate) used() bool { return !c.long && !c.wide && !c.noTasks }

func newCandidate(r *Record, o Options, scale float64) candidate {
	c := candidate{long: tooLong(r), noTasks: o.Tasks && len(r.TaskDurations) == 0}
	if c.long || c.noTasks {
		return c
	}
	if o.Tasks {
		c.job = taskJob(r, fit(len(r.TaskDurations), o, scale, &c))
		return c
	}
	c.job = workloads.Job{
		Nodes:     fit(r.Size, o, scale, &c),
		Runtime:   max(workloads.RoundMS(r.Runtime), 0.001),
		Requested: workloads.RoundMS(r.Requested),
		Features:  r.Features,
		Kind:      r.Kind,
		SourceID:  r.SourceID,
		Meta:      r.Meta,
	}
	if len(r.TaskDurations) > 0 {
		c.job.TaskDurations = make([]float64, len(r.TaskDurations))
		for k, d := range r.TaskDurations {
			c.job.TaskDurations[k] = workloads.RoundMS(d)
		}
	}
	return c
}

// taskJob is a record as a task-level job of n of its tasks (n ≤ its
// task count): those at indices ⌊k · tasks / n⌋, k = 0…n−1, each one node
// for its duration (rounded to the millisecond, at least one).
func taskJob(r *Record, n int) workloads.Job {
	all := r.TaskDurations
	d := make([]float64, n)
	for k := range d {
		d[k] = max(workloads.RoundMS(all[k*len(all)/n]), workloads.MinSeconds)
	}
	return workloads.Job{
		Nodes:         n,
		TaskNodes:     1,
		TaskDurations: d,
		Runtime:       workloads.RoundMS(workloads.MeanTaskDuration(d)),
		Requested:     workloads.RoundMS(r.Requested),
		Features:      r.Features,
		Kind:          r.Kind,
		SourceID:      r.SourceID,
		Meta:          r.Meta,
	}
}

// fit is a trace width on the target cluster (scale: nodes / MaxProcs
// for FitScale). It marks in c a job FitDrop drops (wide) and what it
// changed (resized, clamped).
func fit(size int, o Options, scale float64, c *candidate) int {
	if o.Fit == FitDrop {
		c.wide = size > o.Nodes
		return size
	}
	n := int(math.Round(float64(size) * scale))
	if n > o.Nodes {
		n = o.Nodes
		c.clamped = true
	}
	n = max(n, 1)
	c.resized = n != size
	return n
}

// WriteText prints the report as a few lines for the importer's log.
func (r *Report) WriteText(w io.Writer) error {
	reasons := (&Trace{Filtered: r.Filtered}).FilterReasons()
	filtered := 0
	for _, k := range reasons {
		filtered += r.Filtered[k]
	}
	fmt.Fprintf(w, "import %s (%s): %d lines, %d jobs kept, %d filtered", r.Source, r.Format, r.Lines, r.Records, filtered)
	for i, k := range reasons {
		sep := ", "
		if i == 0 {
			sep = " ("
		}
		fmt.Fprintf(w, "%s%s %d", sep, k, r.Filtered[k])
	}
	if len(reasons) > 0 {
		fmt.Fprint(w, ")")
	}
	fmt.Fprintf(w, ", %d bad lines skipped\n", r.Skipped)
	fmt.Fprintf(w, "window: [%.2f h, %.2f h) of a %.2f h submit span: %d jobs, %d history jobs before it, %d jobs after it left out\n",
		r.WindowStartS/3600, r.WindowEndS/3600, r.TraceSpanS/3600, r.Jobs, r.HistoryJobs, r.AfterWindow)
	if r.Moved > 0 {
		why := "met the load"
		if r.FromMiddle {
			why = fmt.Sprintf("of at least %d jobs met the load", FewJobs)
		}
		fmt.Fprintf(w, "window start moved past %d jobs to %.2f h: no run of whole jobs from the start %s within ±%.3g\n",
			r.Moved, r.WindowStartS/3600, why, loadBand(r.TargetLoad))
	}
	if r.Tasks > 0 {
		fmt.Fprintf(w, "tasks: the window's jobs are task-level, %d one-node tasks; widths below are task counts\n", r.Tasks)
	}
	if r.Fit == FitScale {
		fmt.Fprintf(w, "fit scale: widths × %.4g (cluster / %d procs, %s): %d resized, %d cut to the cluster\n",
			r.Scale, r.MaxProcs, r.MaxProcsFrom, r.Resized, r.Clamped)
	} else {
		fmt.Fprintf(w, "fit drop: %d jobs wider than the cluster dropped\n", r.Dropped)
	}
	asked := ""
	if r.TargetLoad > 0 {
		asked = fmt.Sprintf(", asked %g", r.TargetLoad)
	}
	_, err := fmt.Fprintf(w, "load: %.3f with the trace's arrivals, %.3f imported%s (inter-arrival times × %.4g, window %.0f s = %.2f h)\n",
		r.TraceLoad, r.Load, asked, r.ArrivalFactor, r.WindowS, r.WindowS/3600)
	return err
}

// Why Build filters records beyond workloads.MaxSeconds (Report.Filtered).
var (
	reasonTooLong = fmt.Sprintf("longer than %g s", float64(workloads.MaxSeconds))
	reasonTooOld  = fmt.Sprintf("history more than %g s before the window", float64(workloads.MaxSeconds))
	reasonNoTasks = "no task durations (imported as tasks)"
)

// tooLong reports whether a record's runtime, request or a task duration
// is beyond what a workload holds (workloads.MaxSeconds).
func tooLong(r *Record) bool {
	if r.Runtime > workloads.MaxSeconds || r.Requested > workloads.MaxSeconds {
		return true
	}
	return slices.ContainsFunc(r.TaskDurations, func(d float64) bool { return d > workloads.MaxSeconds })
}

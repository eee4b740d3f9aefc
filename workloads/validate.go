package workloads

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// ErrInvalid is matched (errors.Is) by every error that reports a workload
// breaking a rule of the format or of the job model.
var ErrInvalid = errors.New("workloads: invalid workload")

// Bounds that keep a hostile header from overflowing node counts, and
// absurd magnitudes (a runtime of 1e308 s) from overflowing the sums and
// squares of statistics and simulations into Inf and NaN.
const (
	maxPartitions     = 1 << 16
	maxPartitionNodes = 1 << 24
	// MaxSeconds bounds every time and duration of a workload (about 31.7
	// years): runtimes, requests, task durations, window_s, and how long
	// before the window a history job came.
	MaxSeconds = 1e9
	// MinSeconds bounds runtimes and window_s from below: a millisecond,
	// the resolution of workload times (generators and importers round to
	// it). Shorter ones would turn loads and slack shares into +Inf.
	MinSeconds = 1e-3
	// MaxValue bounds a job's value.
	MaxValue = 1e12
	// MaxTasks bounds the tasks of a task-level job.
	MaxTasks = 1 << 20
	// MaxSlowdown bounds the cluster's slowdown factor.
	MaxSlowdown = 1e3
	// maxDeadlineSpan bounds an SLO deadline's distance from its submit:
	// the longest runtime with the largest slack (ClassRules.Terms).
	maxDeadlineSpan = MaxSeconds * (1 + MaxSlackPct/100)
)

// LineError is a problem on one line of a workload file (line 1 is the
// header). It matches ErrInvalid.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("workload line %d: %v", e.Line, e.Err) }

// Unwrap returns the problem.
func (e *LineError) Unwrap() error { return e.Err }

// Is reports target == ErrInvalid: every line error is invalid input.
func (e *LineError) Is(target error) bool { return target == ErrInvalid }

func lineErr(line int, err error) error { return &LineError{Line: line, Err: err} }

// ruleError is a broken rule; its text is the whole message.
type ruleError struct{ msg string }

func (e *ruleError) Error() string        { return e.msg }
func (e *ruleError) Is(target error) bool { return target == ErrInvalid }

func invalidf(format string, args ...any) error {
	return &ruleError{msg: fmt.Sprintf(format, args...)}
}

// FieldError is a field of a parameters struct that breaks its rule:
// Field is the field's Go name in the struct whose rule it breaks
// (ClassRules' "SLOShare", traces.Options' "Hours"), so that a front end
// can name its own flag or key for it (errors.As); Name is how the message
// calls the field and Problem says the rest: "slo share" "must be in
// [0, 1], got 2". Err, when set, is the sentinel the problem is a case of
// (errors.Is sees it); Problem already tells it.
type FieldError struct {
	Field, Name, Problem string
	Err                  error
}

func (e *FieldError) Error() string { return e.Name + " " + e.Problem }

func (e *FieldError) Unwrap() error { return e.Err }

// BadField returns a *FieldError with the problem format, args.
func BadField(field, name, format string, args ...any) error {
	return &FieldError{Field: field, Name: name, Problem: fmt.Sprintf(format, args...)}
}

// Finite reports whether x is neither NaN nor ±Inf, as every time, value
// and factor of a workload must be.
func Finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Validate checks w against the rules Read enforces and reports the first
// violation as a *LineError with the line the job has in the file Write
// would produce (header = line 1, then history, then window jobs). Rules:
//
//   - header: version = FormatVersion; the cluster's rules (Cluster.Validate:
//     ≥ 1 partition, each of 1…2²⁴ nodes; names and speeds, when given, one
//     per partition, names distinct, speeds in [MinSpeed, MaxSpeed]; slowdown
//     in [1, MaxSlowdown]); window_s in [MinSeconds, MaxSeconds];
//   - every job: id ≥ 0 and unique over history and window; class slo or
//     be; 1 ≤ nodes ≤ cluster nodes; runtime in [MinSeconds, MaxSeconds];
//     requested in [0, MaxSeconds]; value in [0, MaxValue]; preferred
//     partitions strictly ascending and in range; submit_hour 0–23,
//     submit_day 0–6; task durations in [0, MaxSeconds]; SLO jobs: submit
//     < deadline ≤ submit + MaxSeconds · (1 + MaxSlackPct/100); BE jobs:
//     deadline 0;
//   - a task-level job (task_nodes > 0): 1 to MaxTasks tasks of at least
//     MinSeconds each, each task fitting in one partition, nodes = tasks ×
//     task_nodes (which may exceed the cluster: its tasks run in waves),
//     runtime_s their mean;
//   - history jobs: −MaxSeconds ≤ submit < 0; window jobs: 0 ≤ submit <
//     window_s;
//   - each section sorted by submit (non-decreasing);
//   - a stage's predecessor (after) is a job on an earlier line of the
//     same section, so DAGs have no cycles.
//
// The header's job counts are not checked here (Write sets them).
func (w *Workload) Validate() error {
	if err := validateHeader(&w.Header); err != nil {
		return lineErr(1, err)
	}
	v := newValidator(&w.Header)
	line := 1
	for i := range w.History {
		line++
		if err := v.check(&w.History[i], true); err != nil {
			return lineErr(line, err)
		}
	}
	for i := range w.Jobs {
		line++
		if err := v.check(&w.Jobs[i], false); err != nil {
			return lineErr(line, err)
		}
	}
	return nil
}

func validateHeader(h *Header) error {
	if h.Version != FormatVersion {
		return invalidf("unsupported version %d (want %d)", h.Version, FormatVersion)
	}
	if err := h.Cluster.Validate(); err != nil {
		return err
	}
	if !Finite(h.WindowS) || h.WindowS < MinSeconds || h.WindowS > MaxSeconds {
		return invalidf("window_s must be in [%g, %g], got %v", MinSeconds, float64(MaxSeconds), h.WindowS)
	}
	if h.Jobs < 0 || h.HistoryJobs < 0 {
		return invalidf("job counts must be ≥ 0, got jobs %d, history_jobs %d", h.Jobs, h.HistoryJobs)
	}
	if err := CheckMeta(h.Meta); err != nil {
		return invalidf("header %v", err)
	}
	return nil
}

// validator carries what the job rules need across lines.
type validator struct {
	nodes, parts int
	// widest is the nodes of the largest partition: a task must fit in one.
	widest int
	window float64
	// ids are the ids seen so far, true for history jobs.
	ids         map[int]bool
	lastHistory float64
	lastWindow  float64
}

func newValidator(h *Header) *validator {
	return &validator{
		nodes:       h.Cluster.TotalNodes(),
		parts:       len(h.Cluster.PartitionNodes),
		widest:      slices.Max(append([]int{0}, h.Cluster.PartitionNodes...)),
		window:      h.WindowS,
		ids:         make(map[int]bool),
		lastHistory: math.Inf(-1),
		lastWindow:  math.Inf(-1),
	}
}

// check validates one job; history jobs must come before window jobs (the
// caller enforces the order of sections).
func (v *validator) check(j *Job, history bool) error {
	if j.ID < 0 {
		return invalidf("id must be ≥ 0, got %d", j.ID)
	}
	if _, dup := v.ids[j.ID]; dup {
		return invalidf("duplicate job id %d", j.ID)
	}
	if !Finite(j.Submit) || j.Submit < -MaxSeconds {
		return invalidf("job %d: submit_s must be finite and ≥ %g, got %v", j.ID, float64(-MaxSeconds), j.Submit)
	}
	if err := checkJob(j, v.nodes, v.parts, v.widest); err != nil {
		return invalidf("job %d: %v", j.ID, err)
	}
	if history {
		if j.Submit >= 0 {
			return invalidf("job %d: history jobs must have submit_s < 0, got %v", j.ID, j.Submit)
		}
		if j.Submit < v.lastHistory {
			return invalidf("job %d: history not sorted by submit (%v after %v)", j.ID, j.Submit, v.lastHistory)
		}
		v.lastHistory = j.Submit
	} else {
		if j.Submit < 0 || j.Submit >= v.window {
			return invalidf("job %d: submit_s must be in [0, window_s=%v), got %v", j.ID, v.window, j.Submit)
		}
		if j.Submit < v.lastWindow {
			return invalidf("job %d: jobs not sorted by submit (%v after %v)", j.ID, j.Submit, v.lastWindow)
		}
		v.lastWindow = j.Submit
	}
	if p, ok := j.Predecessor(); ok {
		hist, seen := v.ids[p]
		switch {
		case p == j.ID:
			return invalidf("job %d: after names the job itself (a stage cannot wait for itself)", j.ID)
		case !seen:
			return invalidf("job %d: after names job %d, which does not come earlier (a stage's predecessor must exist on an earlier line)", j.ID, p)
		case hist != history:
			return invalidf("job %d: after names job %d of the other section (a stage and its predecessor are both history or both window jobs)", j.ID, p)
		}
	}
	v.ids[j.ID] = history
	return nil
}

// Check reports the first rule of the job model that j breaks on cluster c
// (the rules of a workload file's jobs that do not depend on other jobs or
// on the window; see Validate), naming the field. It is the one job
// validator: workload files and the simulator both use it.
func (j *Job) Check(c Cluster) error {
	return checkJob(j, c.TotalNodes(), len(c.PartitionNodes), slices.Max(append([]int{0}, c.PartitionNodes...)))
}

// checkJob checks the rules that do not depend on the job's neighbours on
// a cluster of nodes in parts partitions, the largest of widest nodes;
// submit must be finite.
func checkJob(j *Job, nodes, parts, widest int) error {
	switch {
	case j.Class != SLO && j.Class != BestEffort:
		return fmt.Errorf("unknown class %d", int(j.Class))
	case j.Nodes < 1:
		return fmt.Errorf("nodes must be ≥ 1, got %d", j.Nodes)
	case j.Nodes > nodes && j.TaskNodes == 0:
		return fmt.Errorf("nodes must be ≤ cluster size %d, got %d", nodes, j.Nodes)
	case !Finite(j.Runtime) || j.Runtime < MinSeconds || j.Runtime > MaxSeconds:
		return fmt.Errorf("runtime_s must be in [%g, %g], got %v", MinSeconds, float64(MaxSeconds), j.Runtime)
	case !Finite(j.Requested) || j.Requested < 0 || j.Requested > MaxSeconds:
		return fmt.Errorf("requested_s must be in [0, %g], got %v", float64(MaxSeconds), j.Requested)
	case !Finite(j.Value) || j.Value < 0 || j.Value > MaxValue:
		return fmt.Errorf("value must be in [0, %g], got %v", float64(MaxValue), j.Value)
	case j.Class == BestEffort && j.Deadline != 0:
		return fmt.Errorf("best-effort jobs have no deadline, got deadline_s %v", j.Deadline)
	case j.Class == SLO && !(j.Deadline > j.Submit && j.Deadline-j.Submit <= maxDeadlineSpan):
		return fmt.Errorf("SLO deadline must be in (submit, submit + %g] with submit %v, got %v", float64(maxDeadlineSpan), j.Submit, j.Deadline)
	case j.Features.SubmitHour < 0 || j.Features.SubmitHour > 23:
		return fmt.Errorf("submit_hour must be 0–23, got %d", j.Features.SubmitHour)
	case j.Features.SubmitDay < 0 || j.Features.SubmitDay > 6:
		return fmt.Errorf("submit_day must be 0–6, got %d", j.Features.SubmitDay)
	}
	if err := CheckMeta(j.Meta); err != nil {
		return err
	}
	for i, p := range j.Preferred {
		if p < 0 || p >= parts {
			return fmt.Errorf("preferred partition %d out of range [0, %d)", p, parts)
		}
		if i > 0 && p <= j.Preferred[i-1] {
			return fmt.Errorf("preferred partitions must be strictly ascending, got %v", j.Preferred)
		}
	}
	for i, d := range j.TaskDurations {
		if !Finite(d) || d < 0 || d > MaxSeconds {
			return fmt.Errorf("task_durations_s[%d] must be in [0, %g], got %v", i, float64(MaxSeconds), d)
		}
	}
	return checkTasks(j, widest)
}

// checkTasks checks the rules of a task-level job (TaskNodes > 0): 1 to
// MaxTasks tasks, each task of at least MinSeconds and fitting in the
// largest partition (widest nodes), Nodes = tasks × TaskNodes, and
// Runtime the mean task duration (within MinSeconds, the resolution of
// workload times).
func checkTasks(j *Job, widest int) error {
	switch n := len(j.TaskDurations); {
	case j.TaskNodes < 0:
		return fmt.Errorf("task_nodes must be ≥ 0, got %d", j.TaskNodes)
	case j.TaskNodes == 0:
		return nil
	case j.TaskNodes > widest:
		return fmt.Errorf("task_nodes must be ≤ the largest partition's %d nodes (a task runs in one partition), got %d", widest, j.TaskNodes)
	case n == 0:
		return errors.New("a task-level job (task_nodes > 0) needs task_durations_s, got none")
	case n > MaxTasks:
		return fmt.Errorf("a task-level job has at most %d tasks, got %d", MaxTasks, n)
	case j.Nodes != n*j.TaskNodes:
		return fmt.Errorf("nodes must be tasks × task_nodes = %d × %d = %d for a task-level job, got %d", n, j.TaskNodes, n*j.TaskNodes, j.Nodes)
	}
	for i, d := range j.TaskDurations {
		if d < MinSeconds {
			return fmt.Errorf("task_durations_s[%d] of a task-level job must be ≥ %g, got %v", i, MinSeconds, d)
		}
	}
	if m := MeanTaskDuration(j.TaskDurations); math.Abs(j.Runtime-m) > MinSeconds {
		return fmt.Errorf("runtime_s of a task-level job must be its mean task duration %v (within %g s), got %v", m, MinSeconds, j.Runtime)
	}
	return nil
}

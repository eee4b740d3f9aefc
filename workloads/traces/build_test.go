package traces

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/plannerhq/planner/workloads"
)

// hourly is a trace of n jobs submitted one per hour from time 0, each of
// the given sizes in turn, running 600 s, with MaxProcs maxProcs.
func hourly(n, maxProcs int, sizes ...int) *Trace {
	t := &Trace{Format: "test", Source: "dir/hourly.swf", MaxProcs: maxProcs}
	for i := range n {
		t.Records = append(t.Records, Record{
			Submit: float64(i) * 3600, Runtime: 600, Size: sizes[i%len(sizes)],
			Features: workloads.Features{User: "u1", Resources: "procs=1"},
		})
	}
	return t
}

func build(t *testing.T, tr *Trace, o Options) (*workloads.Workload, *Report) {
	t.Helper()
	w, rep, err := Build(tr, o)
	if err != nil {
		t.Fatal(err)
	}
	return w, rep
}

func TestBuildWindow(t *testing.T) {
	tests := []struct {
		name                 string
		start, hours         float64
		jobs, history, after int
		windowStart, windowS float64
	}{
		// 101 submits at 0…100 h: the middle is 50 h.
		{"default: middle, 5 h", -1, 5, 5, 50, 46, 50 * 3600, 5 * 3600},
		{"start 10 h, 2.5 h", 10, 2.5, 3, 10, 88, 10 * 3600, 2.5 * 3600},
		{"to the end", 90, 0, 11, 90, 0, 90 * 3600, 10*3600 + 1},
		{"start before the trace's first hour", 0, 1, 1, 0, 100, 0, 3600},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultOptions()
			o.StartHours, o.Hours = tc.start, tc.hours
			w, rep := build(t, hourly(101, 256, 1), o)
			if len(w.Jobs) != tc.jobs || len(w.History) != tc.history || rep.AfterWindow != tc.after {
				t.Fatalf("jobs %d, history %d, after %d; want %d, %d, %d", len(w.Jobs), len(w.History), rep.AfterWindow, tc.jobs, tc.history, tc.after)
			}
			if rep.WindowStartS != tc.windowStart || w.Header.WindowS != tc.windowS {
				t.Errorf("window start %v, length %v; want %v, %v", rep.WindowStartS, w.Header.WindowS, tc.windowStart, tc.windowS)
			}
			if w.Jobs[0].Submit != 0 {
				t.Errorf("first window job at %v, want 0 (a submit on the window's start)", w.Jobs[0].Submit)
			}
			for i, j := range w.History {
				if want := -float64(len(w.History)-i) * 3600; j.Submit != want {
					t.Fatalf("history job %d submit %v, want %v", i, j.Submit, want)
				}
				if j.ID != len(w.Jobs)+i {
					t.Fatalf("history job %d has id %d, want %d", i, j.ID, len(w.Jobs)+i)
				}
			}
		})
	}
}

func TestBuildFit(t *testing.T) {
	tests := []struct {
		name     string
		fit      string
		maxProcs int // trace header
		option   int // Options.MaxProcs
		sizes    []int
		want     []int // window widths
		resized  int
		clamped  int
		dropped  int
		from     string
	}{
		// 16 nodes / 64 procs = 0.25: 4→1, 2→0.5→1, 64→16, 100→25→16.
		{"scale by header", FitScale, 64, 0, []int{4, 2, 64, 100}, []int{1, 1, 16, 16}, 4, 1, 0, "header"},
		// Widest job 32: × 0.5.
		{"scale by widest", FitScale, 0, 0, []int{4, 32, 8, 1}, []int{2, 16, 4, 1}, 3, 0, 0, "widest job"},
		{"scale by option", FitScale, 64, 16, []int{4, 32, 8, 1}, []int{4, 16, 8, 1}, 1, 1, 0, "option"},
		// × 1/3 rounds to the nearest: 4→1.33→1, 5→1.67→2, 48→16.
		{"scale rounds", FitScale, 48, 0, []int{4, 5, 48, 3}, []int{1, 2, 16, 1}, 4, 0, 0, "header"},
		{"scale up", FitScale, 8, 0, []int{1, 3, 8, 2}, []int{2, 6, 16, 4}, 4, 0, 0, "header"},
		{"drop", FitDrop, 64, 0, []int{4, 17, 16, 64}, []int{4, 16}, 0, 0, 2, "header"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultOptions()
			o.Nodes, o.Racks, o.Fit, o.MaxProcs = 16, 2, tc.fit, tc.option
			o.StartHours, o.Hours = 0, 0
			w, rep := build(t, hourly(len(tc.sizes), tc.maxProcs, tc.sizes...), o)
			var got []int
			for _, j := range w.Jobs {
				got = append(got, j.Nodes)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("widths %v, want %v", got, tc.want)
			}
			if rep.Resized != tc.resized || rep.Clamped != tc.clamped || rep.Dropped != tc.dropped || rep.MaxProcsFrom != tc.from {
				t.Errorf("resized %d clamped %d dropped %d from %q; want %d %d %d %q",
					rep.Resized, rep.Clamped, rep.Dropped, rep.MaxProcsFrom, tc.resized, tc.clamped, tc.dropped, tc.from)
			}
		})
	}
}

// TestBuildLoadToTheEnd: with Hours 0 the window runs to the trace's end
// and Load rescales its inter-arrival times (and its length with them).
func TestBuildLoadToTheEnd(t *testing.T) {
	// 16 jobs of 4 nodes × 600 s from 5 h to the last submit at 20 h (a
	// window of 15 h + 1 s) on 16 nodes: load 16·2400 / (16·54001) =
	// 0.0444…; a target of 0.5 compresses arrivals.
	tr := hourly(21, 16, 4)
	o := DefaultOptions()
	o.Nodes, o.Racks, o.StartHours, o.Hours = 16, 2, 5, 0
	w0, rep0 := build(t, tr, o)
	if want := 16 * 2400.0 / (16 * 54001); math.Abs(rep0.TraceLoad-want) > 1e-12 || rep0.Load != rep0.TraceLoad || rep0.ArrivalFactor != 1 {
		t.Fatalf("trace load %v (want %v), load %v, factor %v", rep0.TraceLoad, want, rep0.Load, rep0.ArrivalFactor)
	}
	o.Load = 0.5
	w, rep := build(t, tr, o)
	if math.Abs(rep.Load-0.5) > 1e-12 || math.Abs(workloads.Stats(w).Load-0.5) > 1e-9 {
		t.Errorf("load %v (stats %v), want 0.5", rep.Load, workloads.Stats(w).Load)
	}
	f := rep.ArrivalFactor
	if math.Abs(f-rep0.TraceLoad/0.5) > 1e-12 || math.Abs(w.Header.WindowS-54001*f) > 1e-6 {
		t.Errorf("factor %v, window %v", f, w.Header.WindowS)
	}
	for i := range w.Jobs {
		if want := math.Floor(w0.Jobs[i].Submit*f*1000) / 1000; w.Jobs[i].Submit != want {
			t.Fatalf("job %d submit %v, want %v (gaps × %v)", i, w.Jobs[i].Submit, want, f)
		}
		if w.Jobs[i].Runtime != w0.Jobs[i].Runtime || w.Jobs[i].Nodes != w0.Jobs[i].Nodes {
			t.Fatalf("job %d changed more than its submit time", i)
		}
	}
}

func TestBuildClasses(t *testing.T) {
	tr := hourly(200, 64, 1, 8, 3, 32, 2)
	o := DefaultOptions()
	o.StartHours, o.Hours = 50, 100
	o.Classes.SlackPct = []float64{20, 180}
	write := func(o Options) []byte {
		w, _ := build(t, tr, o)
		var buf bytes.Buffer
		if err := workloads.Write(&buf, w); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	a, b := write(o), write(o)
	if !bytes.Equal(a, b) {
		t.Fatal("the same trace and options gave different workload files")
	}
	o2 := o
	o2.Classes.Seed = 2
	if bytes.Equal(a, write(o2)) {
		t.Error("another seed gave the same workload file")
	}
	w, _ := build(t, tr, o)
	var work [2]float64
	slack := map[float64]int{}
	for _, j := range w.Jobs {
		work[j.Class] += float64(j.Nodes) * j.Runtime
		if j.Class == workloads.SLO {
			slack[math.Round((j.Deadline-j.Submit-j.Runtime)/j.Runtime*100)]++
			if len(j.Preferred) != 6 || j.Value != 1000 {
				t.Fatalf("SLO job %d: preferred %v, value %v", j.ID, j.Preferred, j.Value)
			}
		} else if j.Deadline != 0 || j.Value != 100 {
			t.Fatalf("BE job %d: deadline %v, value %v", j.ID, j.Deadline, j.Value)
		}
	}
	if share := work[workloads.SLO] / (work[0] + work[1]); math.Abs(share-0.5) > 0.05 {
		t.Errorf("SLO share of work %v, want ≈ 0.5", share)
	}
	if len(slack) != 2 || slack[20] == 0 || slack[180] == 0 {
		t.Errorf("slacks %v, want both 20%% and 180%%", slack)
	}
	if !strings.Contains(string(a), `"generator":"test"`) || !strings.Contains(string(a), `"source":"hourly.swf"`) {
		t.Errorf("header lacks generator or source: %.300s", a)
	}
}

func TestBuildErrors(t *testing.T) {
	tests := []struct {
		name   string
		tr     *Trace
		mutate func(o *Options)
		want   string
	}{
		{"no records", &Trace{Source: "x"}, func(*Options) {}, "no usable jobs"},
		{"empty window", hourly(10, 8, 1), func(o *Options) { o.StartHours, o.Hours = 100, 1 }, "holds no jobs"},
		{"bad fit", hourly(10, 8, 1), func(o *Options) { o.Fit = "squeeze" }, "fit must be"},
		{"racks", hourly(10, 8, 1), func(o *Options) { o.Nodes = 4 }, "racks must be"},
		{"load", hourly(10, 8, 1), func(o *Options) { o.Load = -1 }, "load must be"},
		{"hours", hourly(10, 8, 1), func(o *Options) { o.Hours = math.Inf(1) }, "hours must be"},
		{"slack", hourly(10, 8, 1), func(o *Options) { o.Classes.SlackPct = nil }, "slack set is empty"},
		{"huge slack", hourly(10, 8, 1), func(o *Options) { o.Classes.SlackPct = []float64{1e308} }, "slack must be in [0, 1e+06] percent"},
		{"nodes too many for racks", hourly(10, 8, 1), func(o *Options) { o.Nodes = 1_000_000_000 }, "nodes must be ≤ 134217728"},
		{"too many racks", hourly(10, 8, 1), func(o *Options) { o.Nodes, o.Racks = 1_000_000, 100_000 }, "racks must be in [1, 65536]"},
		{"huge load", hourly(10, 8, 1), func(o *Options) { o.Load = 1e300 }, "load must be 0 (keep the trace's arrivals) or in [0.01, 100]"},
		{"tiny load", hourly(10, 8, 1), func(o *Options) { o.StartHours, o.Hours, o.Load = 0, 0, 1e-300 }, "load must be"},
		{"nan load", hourly(10, 8, 1), func(o *Options) { o.Load = math.NaN() }, "load must be"},
		{"tiny hours", hourly(10, 8, 1), func(o *Options) { o.Hours = 1e-9 }, "hours must be 0 (to the end of the trace) or in [0.01, 1e+06]"},
		{"negative hours", hourly(10, 8, 1), func(o *Options) { o.Hours = -1 }, "hours must be"},
		{"squeezed window", hourly(10, 8, 1), func(o *Options) { o.Nodes, o.Fit, o.Load, o.Hours = 1000, FitDrop, 100, 0 }, "squeezes the window"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultOptions()
			tc.mutate(&o)
			_, _, err := Build(tc.tr, o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
	_, _, err := Build(hourly(10, 8, 1), func() Options { o := DefaultOptions(); o.StartHours = 100; return o }())
	if !errors.Is(err, ErrEmptyWindow) {
		t.Errorf("empty window error %v does not match ErrEmptyWindow", err)
	}
	long := hourly(10, 8, 1)
	for i := range long.Records {
		long.Records[i].Runtime = 2e9
	}
	_, _, err = Build(long, func() Options { o := DefaultOptions(); o.StartHours, o.Hours = 0, 3; return o }())
	if want := "import hourly.swf: all 3 jobs of the window [0.00 h, 3.00 h) run longer than 1e+09 s: the window holds no jobs"; err == nil || err.Error() != want || !errors.Is(err, ErrEmptyWindow) {
		t.Errorf("window of too-long jobs: error %v, want %q matching ErrEmptyWindow", err, want)
	}
}

// TestBuildWindowField: a window the options cut from the trace that holds
// no jobs, or lasts too long or too short, is blamed on the option to
// change (errors.As finds the field), and the empty one still matches
// ErrEmptyWindow.
func TestBuildWindowField(t *testing.T) {
	tests := []struct {
		name    string
		tr      *Trace
		mutate  func(o *Options)
		field   string
		problem string
	}{
		{"empty window from the chosen start", hourly(10, 8, 1), func(o *Options) { o.StartHours, o.Hours = 100, 1 }, "StartHours",
			"100 puts the window at [100.00 h, 101.00 h) of the 9.00 h trace: the window holds no jobs"},
		{"empty window from the middle", hourly(10, 8, 1), func(o *Options) { o.Hours = 0.5 }, "Hours",
			"0.5 from the middle of the trace puts the window at [4.50 h, 5.00 h) of the 9.00 h trace: the window holds no jobs"},
		{"squeezed by the load", hourly(10, 8, 1), func(o *Options) { o.Nodes, o.Fit, o.Load, o.Hours = 1000, FitDrop, 100, 0 }, "Load",
			"100 squeezes the window's 3e+03 node-seconds of jobs on 1000 nodes into 0.03 s (under 1 s); ask for a lower load"},
		{"too long for its length", hourly(10, 8, 1), func(o *Options) { o.StartHours, o.Hours = 0, 1e6 }, "Hours",
			"1e+06 makes the window last 3.6e+09 s, more than 1e+09 s; ask for a shorter window or a higher load"},
		{"too long to the end of the trace", func() *Trace { tr := hourly(2, 8, 1); tr.Records[1].Submit = 2e9; return tr }(), func(o *Options) { o.StartHours, o.Hours = 0, 0 }, "Hours",
			"0 (to the end of the trace) makes the window last 2e+09 s, more than 1e+09 s; ask for a shorter window or a higher load"},
		{"emptied by the fit", hourly(10, 8, 8), func(o *Options) { o.StartHours, o.Hours, o.Nodes, o.Racks, o.Fit = 0, 3, 4, 4, FitDrop }, "Fit",
			"drop leaves none of the window's 3 jobs: 3 are wider than the 4-node cluster (scale fits them; so would more nodes)"},
		{"too long, though the load shortened it", func() *Trace {
			tr := hourly(2, 1, 1)
			tr.Records[0].Runtime = 2e7
			tr.Records[1].Submit = 2e9
			return tr
		}(), func(o *Options) { o.StartHours, o.Hours, o.Load = 0, 0, 0.015 }, "Hours",
			"0 (to the end of the trace) makes the window last 1.33e+09 s, more than 1e+09 s; ask for a shorter window or a higher load"},
		{"stretched by the load", hourly(20000, 1, 1), func(o *Options) { o.StartHours, o.Hours, o.Load = 0, 0, 0.01 }, "Load",
			"0.01 makes the window last 1.2e+09 s, more than 1e+09 s; ask for a shorter window or a higher load"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultOptions()
			tc.mutate(&o)
			_, _, err := Build(tc.tr, o)
			var fe *workloads.FieldError
			if !errors.As(err, &fe) || fe.Field != tc.field || fe.Problem != tc.problem {
				t.Fatalf("Build() = %v, want field %s: %s", err, tc.field, tc.problem)
			}
			if empty := strings.Contains(tc.name, "empt"); errors.Is(err, ErrEmptyWindow) != empty {
				t.Errorf("errors.Is(%v, ErrEmptyWindow) = %v, want %v", err, !empty, empty)
			}
		})
	}
}

// TestOptionsValidateField: each refusal names the bad field, of Options
// or of its class rules, with the problem apart from the field's name.
func TestOptionsValidateField(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(o *Options)
		field   string
		problem string
	}{
		{"no nodes", func(o *Options) { o.Nodes = 0 }, "Nodes", "must be ≥ 1, got 0"},
		{"racks", func(o *Options) { o.Nodes = 4 }, "Racks", "must be in [1, 4], got 8"},
		{"slowdown", func(o *Options) { o.Slowdown = 0.5 }, "Slowdown", "must be ≥ 1, got 0.5"},
		{"start", func(o *Options) { o.StartHours = math.NaN() }, "StartHours", "must be finite and ≤ 1e+06 hours, got NaN"},
		{"hours", func(o *Options) { o.Hours = -1 }, "Hours", "must be 0 (to the end of the trace) or in [0.01, 1e+06], got -1"},
		{"fit", func(o *Options) { o.Fit = "squeeze" }, "Fit", `must be scale or drop, got "squeeze"`},
		{"max procs", func(o *Options) { o.MaxProcs = -1 }, "MaxProcs", "must be ≥ 0, got -1"},
		{"load", func(o *Options) { o.Load = -1 }, "Load", "must be 0 (keep the trace's arrivals) or in [0.01, 100], got -1"},
		{"slack", func(o *Options) { o.Classes.SlackPct = []float64{-5} }, "SlackPct", "must be in [0, 1e+06] percent, got -5"},
		{"slo share", func(o *Options) { o.Classes.SLOShare = 2 }, "SLOShare", "must be in [0, 1], got 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultOptions()
			tc.mutate(&o)
			var fe *workloads.FieldError
			if err := o.Validate(); !errors.As(err, &fe) || fe.Field != tc.field || fe.Problem != tc.problem {
				t.Fatalf("Validate() = %v (%+v), want field %s: %s", err, fe, tc.field, tc.problem)
			}
		})
	}
}

// TestOptionsValidateBounds: the bounds themselves are accepted.
func TestOptionsValidateBounds(t *testing.T) {
	for _, mutate := range []func(o *Options){
		func(o *Options) { o.Load = minLoad },
		func(o *Options) { o.Load = maxLoad },
		func(o *Options) { o.Hours = minHours },
		func(o *Options) { o.Hours = maxHours },
		func(o *Options) { o.Nodes = 8 << 24 },
		func(o *Options) { o.Nodes, o.Racks = 1<<16, 1<<16 },
		func(o *Options) { o.Classes.SlackPct = []float64{0, workloads.MaxSlackPct} },
	} {
		o := DefaultOptions()
		mutate(&o)
		if err := o.Validate(); err != nil {
			t.Errorf("Validate(nodes %d, racks %d, hours %v, load %v, slack %v): %v", o.Nodes, o.Racks, o.Hours, o.Load, o.Classes.SlackPct, err)
		}
	}
}

func TestReportText(t *testing.T) {
	tr := hourly(101, 256, 1)
	tr.Lines, tr.Filtered = 120, map[string]int{"failed": 7, "cancelled": 12}
	_, rep := build(t, tr, DefaultOptions())
	var buf bytes.Buffer
	if err := rep.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"101 jobs kept, 19 filtered (cancelled 12, failed 7)", "5 jobs, 50 history jobs", "fit scale: widths × 1", "load: "} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, buf.String())
		}
	}
}

// TestBuildFiltersAbsurdTimes: records beyond workloads.MaxSeconds (a
// runtime, or a history submit that long before the window) are filtered
// with a reason, and the trace's own counts are left alone.
func TestBuildFiltersAbsurdTimes(t *testing.T) {
	tr := hourly(101, 256, 1)
	tr.Records[60].Runtime = 2e9
	tr.Records = append(tr.Records, Record{Submit: -2e9, Runtime: 600, Size: 1})
	tr.Filtered = map[string]int{"cancelled": 3}
	o := DefaultOptions()
	o.StartHours, o.Hours = 2e9/3600+50, 20 // hours after the first submit, −2e9 s
	w, rep := build(t, tr, o)
	if len(w.Jobs) != 19 {
		t.Errorf("window jobs %d, want 19 (one of 20 too long)", len(w.Jobs))
	}
	if got := rep.Filtered["longer than 1e+09 s"]; got != 1 {
		t.Errorf("filtered as too long: %d, want 1 (%v)", got, rep.Filtered)
	}
	if got := rep.Filtered["history more than 1e+09 s before the window"]; got != 1 {
		t.Errorf("filtered as too old: %d, want 1 (%v)", got, rep.Filtered)
	}
	if len(tr.Filtered) != 1 || tr.Filtered["cancelled"] != 3 {
		t.Errorf("Build changed the trace's counts: %v", tr.Filtered)
	}
}

// TestBuildBoundsAfterRescaling: a long runtime with a large slack keeps a
// valid deadline, history the arrival rescaling pushes beyond
// workloads.MaxSeconds is filtered, and class values beyond
// workloads.MaxValue are refused before anything is built.
func TestBuildBoundsAfterRescaling(t *testing.T) {
	tr := hourly(101, 256, 1)
	tr.Records[60].Runtime = 9e8
	tr.Records = append(tr.Records, Record{Submit: -6e8, Runtime: 600, Size: 1})
	o := DefaultOptions()
	o.StartHours, o.Hours = 6e8/3600+50, 0
	o.Classes.SlackPct = []float64{workloads.MaxSlackPct}
	o.Load = 0.01 // stretches the arrivals, the history's too
	w, rep := build(t, tr, o)
	if len(w.Jobs) != 51 {
		t.Errorf("window jobs %d, want 51", len(w.Jobs))
	}
	if got := rep.Filtered["history more than 1e+09 s before the window"]; got != 1 {
		t.Errorf("filtered as too old after rescaling: %d, want 1 (arrival factor %v, %v)", got, rep.ArrivalFactor, rep.Filtered)
	}
	o.Classes.SLOValue = 1e300
	if _, _, err := Build(tr, o); err == nil || !strings.Contains(err.Error(), "slo value must be in [0, 1e+12], got 1e+300") {
		t.Errorf("SLO value 1e300: error %v", err)
	}
}

// TestBuildTasks: imported as tasks, a record's task durations become the
// one-node tasks of a task-level job whose runtime is their mean; drop
// drops jobs of more tasks than nodes, scale keeps an evenly spaced share
// of the tasks, and records without durations are filtered.
func TestBuildTasks(t *testing.T) {
	tr := &Trace{Format: "test", Source: "tasks", Records: []Record{
		{Submit: 0, Runtime: 40, Size: 4, TaskDurations: []float64{10, 20, 30, 40}},
		{Submit: 10, Runtime: 8, Size: 8, TaskDurations: []float64{1, 2, 3, 4, 5, 6, 7, 8}},
		{Submit: 20, Runtime: 5, Size: 1},                                          // no durations
		{Submit: 30, Runtime: 0.2, Size: 2, TaskDurations: []float64{0.0001, 0.2}}, // a task under 1 ms
	}}
	tests := []struct {
		name    string
		fit     string
		want    [][]float64 // task durations per window job
		dropped int
	}{
		{"drop", FitDrop, [][]float64{{10, 20, 30, 40}, {0.001, 0.2}}, 1},
		// Scale 4 nodes / 8 tasks = 0.5: 4 → 2 (tasks 0, 2), 8 → 4 (0, 2,
		// 4, 6), 2 → 1 (task 0).
		{"scale", FitScale, [][]float64{{10, 30}, {1, 3, 5, 7}, {0.001}}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultOptions()
			o.Nodes, o.Racks, o.Fit, o.Tasks = 4, 1, tc.fit, true
			o.StartHours, o.Hours, o.Classes.SLOShare = 0, 0, 0
			w, rep := build(t, tr, o)
			var got [][]float64
			tasks := 0
			for _, j := range w.Jobs {
				got = append(got, j.TaskDurations)
				tasks += j.Tasks()
				if !j.TaskLevel() || j.Nodes != j.Tasks() || j.Runtime != workloads.RoundMS(workloads.MeanTaskDuration(j.TaskDurations)) {
					t.Errorf("job %d: %+v", j.ID, j)
				}
			}
			if !slices.EqualFunc(got, tc.want, slices.Equal[[]float64]) {
				t.Errorf("tasks %v, want %v", got, tc.want)
			}
			if rep.Dropped != tc.dropped || rep.Filtered[reasonNoTasks] != 1 || rep.Tasks != tasks {
				t.Errorf("dropped %d, filtered %v, tasks %d", rep.Dropped, rep.Filtered, rep.Tasks)
			}
		})
	}
}

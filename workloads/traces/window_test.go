package traces

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/plannerhq/planner/workloads"
)

func TestLoadRun(t *testing.T) {
	tests := []struct {
		name        string
		sub, work   []float64
		target, tol float64
		minJobs     int // 0: 1
		i, k        int
		ok          bool
	}{
		{"exact", []float64{0, 1, 2, 3, 4}, []float64{1, 1, 1, 1, 1}, 3, 0.1, 0, 0, 3, true},
		// Runs of 2, 3 are within 2.9 ± 1; 3 is nearer; 4 is beyond.
		{"nearest within the band", []float64{0, 1, 2, 3, 4}, []float64{1, 1, 1, 1, 1}, 2.9, 1, 0, 0, 3, true},
		// From job 0 the only ends are 1 (1) and 3 (3): a group of equal
		// submits is not split, so the start moves to job 1.
		{"equal submits stay together", []float64{0, 1, 1, 2}, []float64{1, 1, 1, 1}, 2, 0.1, 0, 1, 3, true},
		// Job 1 overshoots from starts 0 and 1; from 2 the run to the end.
		{"a large job moves the start", []float64{0, 1, 2, 3, 4}, []float64{1, 10, 1, 1, 1}, 3, 0.1, 0, 2, 5, true},
		{"runs out", []float64{0, 1}, []float64{1, 1}, 3, 0.1, 0, 0, 0, false},
		{"overshoots from every start", []float64{0, 1}, []float64{1, 10}, 3, 0.1, 0, 0, 0, false},
		{"a single job", []float64{5}, []float64{2}, 2, 0.1, 0, 0, 1, true},
		// From job 0 a run of 1 meets 3 (the 3-node-second job); at least
		// 3 jobs are asked, so the start moves to job 1: 1+1+1.
		{"too few jobs move the start", []float64{0, 1, 2, 3}, []float64{3, 1, 1, 1}, 3, 0.1, 3, 1, 4, true},
		{"too few jobs from every start", []float64{0, 1}, []float64{3, 3}, 3, 0.1, 2, 0, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			i, k, ok := loadRun(tc.sub, tc.work, tc.target, tc.tol, max(tc.minJobs, 1))
			if i != tc.i || k != tc.k || ok != tc.ok {
				t.Errorf("loadRun = %d, %d, %v; want %d, %d, %v", i, k, ok, tc.i, tc.k, tc.ok)
			}
		})
	}
}

func TestRunSpan(t *testing.T) {
	sub := []float64{0, 10, 20, 30}
	for _, tc := range []struct {
		start float64
		i, k  int
		want  float64
	}{
		{0, 0, 2, 20},  // to the next submit
		{-5, 0, 1, 15}, // from a start before the first job
		{10, 1, 4, 30}, // the trace's end: 20 and one mean gap of 10
		{30, 3, 4, 0},  // one job at the start, at the end
	} {
		if got := runSpan(sub, tc.start, tc.i, tc.k); got != tc.want {
			t.Errorf("runSpan(start %v, %d, %d) = %v, want %v", tc.start, tc.i, tc.k, got, tc.want)
		}
	}
}

// every is a trace of n jobs of 4 of 16 procs running runtime s,
// submitted every 600 s from time 0.
func every(n int, runtime float64) *Trace {
	t := &Trace{Format: "test", Source: "every.swf", MaxProcs: 16}
	for i := range n {
		t.Records = append(t.Records, Record{Submit: float64(i) * 600, Runtime: runtime, Size: 4,
			Features: workloads.Features{User: "u1"}})
	}
	return t
}

// TestBuildLoadWindow: a window of Hours at Load holds the consecutive
// jobs from its start that carry the load, their arrivals spread over
// the window by one factor. On 16 nodes over 2 h (115,200 node-seconds)
// each job of 4 nodes × 3600 s carries load 0.125; the window starts at
// 1 h, on job 6, and jobs come every 600 s: n jobs span n·600 s of the
// trace up to the next one, so the factor is 7200 / (n·600).
func TestBuildLoadWindow(t *testing.T) {
	tests := []struct {
		name    string
		tr      *Trace
		load    float64
		jobs    int
		factor  float64
		startS  float64 // the window's start on the trace's clock
		moved   int
		history int
	}{
		{"load 1: 8 jobs stretched", every(30, 3600), 1, 8, 1.5, 3600, 0, 6},
		{"load 0.5: 4 jobs", every(30, 3600), 0.5, 4, 3, 3600, 0, 6},
		{"load 2: 16 jobs compressed", every(30, 3600), 2, 16, 0.75, 3600, 0, 6},
		// 8 jobs give 1.0, within 1.04 ± 0.05; 9 give 1.125, further off.
		{"nearest within the band", every(30, 3600), 1.04, 8, 1.5, 3600, 0, 6},
		// Jobs 6–9 end the trace: their 1800 s and one mean gap of 600 s.
		{"to the trace's end", every(10, 3600), 0.5, 4, 3, 3600, 0, 6},
		// Job 7 carries 1.25: from job 6 the load jumps from 0.125 to
		// 1.375, from job 7 it starts at 1.25, so the window starts at job
		// 8 (4800 s) and holds jobs 8–15.
		{"a large job moves the start", func() *Trace {
			tr := every(30, 3600)
			tr.Records[7].Runtime = 36000
			return tr
		}(), 1, 8, 1.5, 4800, 2, 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultOptions()
			o.Nodes, o.Racks, o.StartHours, o.Hours, o.Load = 16, 2, 1, 2, tc.load
			w, rep := build(t, tc.tr, o)
			if len(w.Jobs) != tc.jobs || len(w.History) != tc.history || rep.Moved != tc.moved {
				t.Fatalf("jobs %d, history %d, moved %d; want %d, %d, %d", len(w.Jobs), len(w.History), rep.Moved, tc.jobs, tc.history, tc.moved)
			}
			if rep.ArrivalFactor != tc.factor || rep.WindowStartS != tc.startS || w.Header.WindowS != 7200 {
				t.Errorf("factor %v, start %v s, window %v s; want %v, %v, 7200", rep.ArrivalFactor, rep.WindowStartS, w.Header.WindowS, tc.factor, tc.startS)
			}
			work := workloads.Work(w.Jobs)
			if want := work / (16 * 7200); math.Abs(rep.Load-want) > 1e-12 || math.Abs(rep.Load-tc.load) > loadBand(tc.load) ||
				math.Abs(workloads.Stats(w).Load-rep.Load) > 1e-9 {
				t.Errorf("load %v (stats %v, work %v), want %v ± %v", rep.Load, workloads.Stats(w).Load, want, tc.load, loadBand(tc.load))
			}
			for i, j := range w.Jobs {
				if want := float64(i) * 600 * tc.factor; j.Submit != want {
					t.Fatalf("window job %d submit %v, want %v", i, j.Submit, want)
				}
			}
			for i, j := range w.History {
				if want := (float64(i)*600 - tc.startS) * tc.factor; j.Submit != want {
					t.Fatalf("history job %d submit %v, want %v", i, j.Submit, want)
				}
			}
		})
	}
}

// TestBuildDefaultStartSample: from the default start (the middle) a
// window holds at least FewJobs jobs when a later start allows it; an
// asked start is kept. 1,000 jobs of 4 nodes × 60 s come every 600 s;
// the one at the middle runs 1,000 h. On 16 nodes over 2 h at load 1,
// 480 short jobs fill the window; from the middle the long job alone
// overshoots, so the window starts after it.
func TestBuildDefaultStartSample(t *testing.T) {
	tr := every(1000, 60)
	tr.Records[500].Runtime = 3.6e6
	tr.Records[501].Runtime = 60 * 400 // a run from here holds 1 job + the rest: too few
	for _, asked := range []bool{false, true} {
		o := DefaultOptions()
		o.Nodes, o.Racks, o.Hours, o.Load = 16, 2, 2, 1
		if asked {
			o.StartHours = 501 * 600 / 3600.0
		}
		w, rep := build(t, tr, o)
		switch {
		case !asked && (len(w.Jobs) < FewJobs || rep.Moved != 2 || !rep.FromMiddle):
			t.Errorf("default start: %d jobs, moved %d; want ≥ %d jobs after moving past 2", len(w.Jobs), rep.Moved, FewJobs)
		case asked && (len(w.Jobs) >= FewJobs || rep.Moved != 0):
			t.Errorf("asked start: %d jobs, moved %d; want the asked start kept (a thin window)", len(w.Jobs), rep.Moved)
		}
		if math.Abs(rep.Load-1) > loadBand(1) {
			t.Errorf("load %v", rep.Load)
		}
	}
}

// TestBuildLoadUnmet: a trace that cannot fill the window to the load
// is an error on Hours naming the trace and what it carries, never a
// thinner window.
func TestBuildLoadUnmet(t *testing.T) {
	tests := []struct {
		name      string
		start     float64
		load      float64
		wantParts []string
	}{
		// Jobs 27–29 carry 3 × 0.125 of the 2 h window; at load 1 they
		// fill 3 × 14400 / (16 · 3600) = 0.75 h.
		{"too short", 16000.0 / 3600, 1, []string{
			"2 at load 1 needs 1.15e+05 node-seconds of jobs on 16 nodes, but every.swf runs out: its 3 jobs from the window start (4.44 h) to its end carry 4.32e+04 (load 0.375 over 2 h); ask for at most 0.75 hours, a lower load or an earlier start",
		}},
		// 8 jobs give 1.0, 9 give 1.125: neither within 1.06 ± 0.05.
		{"jobs too large for the band", 1, 1.06, []string{
			"2 at load 1.06: no run of whole jobs of every.swf from the window start (1.00 h) on carries load 1.06 ± 0.05 over 2 h; the jobs that cross it are too large (the largest alone carries load 0.125)",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultOptions()
			o.Nodes, o.Racks, o.StartHours, o.Hours, o.Load = 16, 2, tc.start, 2, tc.load
			_, _, err := Build(every(30, 3600), o)
			var fe *workloads.FieldError
			if !errors.As(err, &fe) || fe.Field != "Hours" || !errors.Is(err, ErrLoadUnmet) {
				t.Fatalf("Build() = %v, want a FieldError on Hours matching ErrLoadUnmet", err)
			}
			for _, want := range tc.wantParts {
				if !strings.Contains(fe.Problem, want) {
					t.Errorf("problem %q lacks %q", fe.Problem, want)
				}
			}
			if !strings.HasPrefix(err.Error(), "import every.swf: hours ") || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q: want one line naming the trace", err)
			}
		})
	}
}

// TestBuildLoadWindowDeterministic: the same trace and options cut the
// same window, whatever the order of the trace's records.
func TestBuildLoadWindowDeterministic(t *testing.T) {
	tr := every(300, 3600)
	for i := range tr.Records {
		tr.Records[i].Runtime = float64(600 + (i*7919)%5000)
	}
	o := DefaultOptions()
	o.Nodes, o.Racks, o.StartHours, o.Hours, o.Load = 16, 2, 1, 2, 1.4
	w1, r1 := build(t, tr, o)
	rev := *tr
	rev.Records = slices.Clone(tr.Records)
	slices.Reverse(rev.Records)
	w2, r2 := build(t, &rev, o)
	if len(w1.Jobs) != len(w2.Jobs) || r1.ArrivalFactor != r2.ArrivalFactor || r1.Load != r2.Load {
		t.Fatalf("jobs %d vs %d, factor %v vs %v, load %v vs %v", len(w1.Jobs), len(w2.Jobs), r1.ArrivalFactor, r2.ArrivalFactor, r1.Load, r2.Load)
	}
	for i := range w1.Jobs {
		if w1.Jobs[i].Submit != w2.Jobs[i].Submit || w1.Jobs[i].Runtime != w2.Jobs[i].Runtime {
			t.Fatalf("job %d differs: %+v vs %+v", i, w1.Jobs[i], w2.Jobs[i])
		}
	}
}

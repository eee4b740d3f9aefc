package workloads

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestWriteReadRoundTrip(t *testing.T) {
	p := DefaultGoogleParams()
	p.HistoryJobs = 500
	tests := []struct {
		name string
		w    *Workload
	}{
		{"small", smallWorkload()},
		{"google defaults", generate(t, p)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			first := encode(t, tc.w)
			got, err := Read(bytes.NewReader(first))
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			if !reflect.DeepEqual(got.Jobs, tc.w.Jobs) || !reflect.DeepEqual(got.History, tc.w.History) {
				t.Errorf("jobs differ after the round trip")
			}
			if second := encode(t, got); !bytes.Equal(first, second) {
				t.Errorf("Write(Read(file)) is not byte-identical to the file")
			}
			if n := bytes.Count(first, []byte("\n")); n != 1+len(tc.w.History)+len(tc.w.Jobs) {
				t.Errorf("file has %d lines, want 1 + %d + %d", n, len(tc.w.History), len(tc.w.Jobs))
			}
		})
	}
}

func TestWriteSetsCountsAndMarksHistory(t *testing.T) {
	lines := strings.Split(strings.TrimSpace(string(encode(t, smallWorkload()))), "\n")
	if !strings.Contains(lines[0], `"jobs":3,"history_jobs":1`) {
		t.Errorf("header %s lacks the job counts", lines[0])
	}
	if !strings.Contains(lines[1], `"history":true`) {
		t.Errorf("history line %s lacks \"history\":true", lines[1])
	}
	for _, l := range lines[2:] {
		if strings.Contains(l, `"history"`) {
			t.Errorf("window line %s carries a history marker", l)
		}
	}
}

// TestReadMalformed replaces one line of a valid small file (line 1 is the
// header, 2 the history job, 3–5 the window jobs) and checks the error
// names that line and the problem.
func TestReadMalformed(t *testing.T) {
	valid := strings.Split(strings.TrimSuffix(string(encode(t, smallWorkload())), "\n"), "\n")
	job := func(fields string) string {
		return `{"id":1,"submit_s":30,"class":"be","runtime_s":60,"value":1,"features":{"submit_hour":0,"submit_day":0}` + fields + `}`
	}
	tests := []struct {
		name    string
		line    int    // line to replace (1-based); 0 appends
		text    string // replacement; "" deletes the line
		wantErr string
	}{
		{"zero nodes", 4, job(`,"nodes":0`), "workload line 4: job 1: nodes must be ≥ 1, got 0"},
		{"wider than cluster", 4, job(`,"nodes":9`), "workload line 4: job 1: nodes must be ≤ cluster size 8, got 9"},
		{"zero runtime", 4, strings.Replace(job(`,"nodes":1`), `"runtime_s":60`, `"runtime_s":0`, 1), "line 4: job 1: runtime_s must be in [0.001, 1e+09], got 0"},
		// Below a millisecond, loads and slack shares overflow to +Inf.
		{"sub-millisecond runtime", 4, strings.Replace(job(`,"nodes":1`), `"runtime_s":60`, `"runtime_s":1e-300`, 1), "line 4: job 1: runtime_s must be in [0.001, 1e+09], got 1e-300"},
		{"huge runtime", 4, strings.Replace(job(`,"nodes":1`), `"runtime_s":60`, `"runtime_s":1e308`, 1), "line 4: job 1: runtime_s must be in [0.001, 1e+09], got 1e+308"},
		{"negative submit", 4, strings.Replace(job(`,"nodes":1`), `"submit_s":30`, `"submit_s":-1`, 1), "line 4: job 1: submit_s must be in [0, window_s=3600), got -1"},
		{"submit past window", 5, strings.Replace(job(`,"nodes":1`), `"id":1,"submit_s":30`, `"id":2,"submit_s":3600`, 1), "line 5: job 2: submit_s must be in [0, window_s=3600)"},
		{"deadline before submit", 4, strings.Replace(job(`,"nodes":1,"deadline_s":30`), `"class":"be"`, `"class":"slo"`, 1), "line 4: job 1: SLO deadline must be in (submit, submit + 1.0001e+13] with submit 30, got 30"},
		{"be with deadline", 4, job(`,"nodes":1,"deadline_s":99`), "line 4: job 1: best-effort jobs have no deadline"},
		{"preferred out of range", 4, job(`,"nodes":1,"preferred":[0,2]`), "line 4: job 1: preferred partition 2 out of range [0, 2)"},
		{"preferred unsorted", 4, job(`,"nodes":1,"preferred":[1,0]`), "line 4: job 1: preferred partitions must be strictly ascending"},
		{"duplicate id", 4, strings.Replace(job(`,"nodes":1`), `"id":1`, `"id":0`, 1), "line 4: duplicate job id 0"},
		{"unsorted", 4, job(`,"nodes":1`) + "\n" + strings.Replace(job(`,"nodes":1`), `"id":1,"submit_s":30`, `"id":5,"submit_s":10`, 1), "line 5: job 5: jobs not sorted by submit (10 after 30)"},
		{"unknown class", 4, strings.Replace(job(`,"nodes":1`), `"be"`, `"batch"`, 1), `line 4: bad JSON: unknown job class "batch"`},
		{"unknown field", 4, job(`,"nodes":1,"tasks":3`), `line 4: bad JSON: json: unknown field "tasks"`},
		{"task job without tasks", 4, job(`,"nodes":1,"task_nodes":1`), "line 4: job 1: a task-level job (task_nodes > 0) needs task_durations_s, got none"},
		{"task job's width", 4, job(`,"nodes":3,"task_nodes":1,"task_durations_s":[60,60]`), "line 4: job 1: nodes must be tasks × task_nodes = 2 × 1 = 2 for a task-level job, got 3"},
		{"task wider than a partition", 4, job(`,"nodes":5,"task_nodes":5,"task_durations_s":[60]`), "line 4: job 1: task_nodes must be ≤ the largest partition's 4 nodes (a task runs in one partition), got 5"},
		{"task job's runtime", 4, job(`,"nodes":2,"task_nodes":1,"task_durations_s":[60,70]`), "line 4: job 1: runtime_s of a task-level job must be its mean task duration 65 (within 0.001 s), got 60"},
		{"zero task", 4, job(`,"nodes":2,"task_nodes":1,"task_durations_s":[120,0]`), "line 4: job 1: task_durations_s[1] of a task-level job must be ≥ 0.001, got 0"},
		{"negative task nodes", 4, job(`,"nodes":1,"task_nodes":-1`), "line 4: job 1: task_nodes must be ≥ 0, got -1"},
		// DAG stages: the predecessor must be on an earlier line of the
		// same section.
		{"stage after itself", 4, job(`,"nodes":1,"after":1`), "workload line 4: job 1: after names the job itself"},
		{"stage after a later job", 4, job(`,"nodes":1,"after":2`), "workload line 4: job 1: after names job 2, which does not come earlier"},
		{"stage after no job", 4, job(`,"nodes":1,"after":99`), "workload line 4: job 1: after names job 99, which does not come earlier"},
		{"stage after a history job", 4, job(`,"nodes":1,"after":10`), "workload line 4: job 1: after names job 10 of the other section"},
		{"negative predecessor", 4, job(`,"nodes":1,"after":-1`), "workload line 4: job 1: after names job -1, which does not come earlier"},
		{"after not a number", 4, job(`,"nodes":1,"after":"0"`), `workload line 4: bad JSON: "after" holds a JSON string, want a whole number`},
		{"not JSON", 3, "nodes=1", "workload line 3: bad JSON"},
		{"trailing data", 3, valid[2] + " {}", "workload line 3: bad JSON: trailing data"},
		{"blank line", 3, " ", "workload line 3: blank line"},
		{"bad hour", 4, strings.Replace(job(`,"nodes":1`), `"submit_hour":0`, `"submit_hour":24`, 1), "line 4: job 1: submit_hour must be 0–23, got 24"},
		{"history not negative", 2, strings.Replace(valid[1], `"submit_s":-100`, `"submit_s":0`, 1), "line 2: job 10: history jobs must have submit_s < 0, got 0"},
		{"history after window", 0, strings.Replace(valid[1], `"id":10`, `"id":11`, 1), "line 6: history job after window jobs"},
		{"too many jobs", 0, strings.Replace(valid[4], `"id":2`, `"id":3`, 1), "line 6: more jobs than the header's 3"},
		{"truncated", 5, "", "file ends after line 4 with 2 jobs and 1 history jobs, header says 3 and 1 (truncated?)"},
		{"bad version", 1, strings.Replace(valid[0], `"version":1`, `"version":2`, 1), "workload line 1: unsupported version 2 (want 1)"},
		{"no partitions", 1, strings.Replace(valid[0], `"partition_nodes":[4,4]`, `"partition_nodes":[]`, 1), "workload line 1: cluster must have ≥ 1 partition, got 0"},
		{"empty partition", 1, strings.Replace(valid[0], `"partition_nodes":[4,4]`, `"partition_nodes":[4,0]`, 1), "workload line 1: cluster partition 1 must have 1…16777216 nodes, got 0"},
		{"slowdown below 1", 1, strings.Replace(valid[0], `"slowdown":1.5`, `"slowdown":0.5`, 1), "workload line 1: cluster slowdown must be in [1, 1000], got 0.5"},
		{"zero window", 1, strings.Replace(valid[0], `"window_s":3600`, `"window_s":0`, 1), "workload line 1: window_s must be in [0.001, 1e+09], got 0"},
		{"sub-millisecond window", 1, strings.Replace(valid[0], `"window_s":3600`, `"window_s":1e-300`, 1), "workload line 1: window_s must be in [0.001, 1e+09], got 1e-300"},
		{"huge window", 1, strings.Replace(valid[0], `"window_s":3600`, `"window_s":1e308`, 1), "workload line 1: window_s must be in [0.001, 1e+09], got 1e+308"},
		{"header not JSON", 1, "version 1", "workload line 1: header: bad JSON"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lines := append([]string(nil), valid...)
			switch {
			case tc.line == 0:
				lines = append(lines, tc.text)
			case tc.text == "":
				lines = append(lines[:tc.line-1], lines[tc.line:]...)
			default:
				lines[tc.line-1] = tc.text
			}
			_, err := Read(strings.NewReader(strings.Join(lines, "\n") + "\n"))
			if err == nil {
				t.Fatalf("Read accepted the file, want error %q", tc.wantErr)
			}
			if !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error %q does not contain %q", err, tc.wantErr)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error %q does not match ErrInvalid", err)
			}
		})
	}
}

// TestReadJSONErrorsInWords: a value of the wrong JSON type, or a line cut
// inside its object, is told with the field and the JSON kinds, not with
// the decoder's Go types ("Go struct field fileJob.Job.id of type int").
func TestReadJSONErrorsInWords(t *testing.T) {
	valid := strings.Split(strings.TrimSuffix(string(encode(t, smallWorkload())), "\n"), "\n")
	tests := []struct {
		name    string
		line    int // 1-based line replaced
		text    string
		wantErr string
	}{
		{"id as text", 3, strings.Replace(valid[2], `"id":0`, `"id":"0"`, 1), `workload line 3: bad JSON: "id" holds a JSON string, want a whole number`},
		{"nodes as an array", 3, strings.Replace(valid[2], `"nodes":`, `"nodes":[1],"x":`, 1), `workload line 3: bad JSON: "nodes" holds a JSON array, want a whole number`},
		{"window as text", 1, strings.Replace(valid[0], `"window_s":3600`, `"window_s":"1h"`, 1), `workload line 1: header: bad JSON: "window_s" holds a JSON string, want a number`},
		{"header an array", 1, "[1]", "workload line 1: header: bad JSON: found a JSON array, want an object"},
		{"header cut short", 1, valid[0][:20], "workload line 1: header: bad JSON: the line ends inside its object"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lines := append([]string(nil), valid...)
			lines[tc.line-1] = tc.text
			_, err := Read(strings.NewReader(strings.Join(lines, "\n") + "\n"))
			if err == nil || err.Error() != tc.wantErr {
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error %q does not match ErrInvalid", err)
			}
		})
	}
}

func TestReadEmptyAndLongLines(t *testing.T) {
	if _, err := Read(strings.NewReader("")); err == nil || !strings.Contains(err.Error(), "workload line 1: empty input") {
		t.Errorf("empty input: got %v", err)
	}
	long := strings.Repeat(" ", MaxLineBytes+1)
	if _, err := Read(strings.NewReader(long)); err == nil || !strings.Contains(err.Error(), "workload line 1: line longer than") {
		t.Errorf("long line: got %v", err)
	}
}

func TestReadLineErrorCarriesLine(t *testing.T) {
	_, err := Read(strings.NewReader("{}\n"))
	var le *LineError
	if !errors.As(err, &le) || le.Line != 1 {
		t.Fatalf("got %v, want a *LineError for line 1", err)
	}
}

func TestWriteRejectsInvalid(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(w *Workload)
		wantErr string
	}{
		{"zero nodes", func(w *Workload) { w.Jobs[1].Nodes = 0 }, "workload line 4: job 1: nodes must be ≥ 1, got 0"},
		{"nan runtime", func(w *Workload) { w.Jobs[0].Runtime = nan() }, "workload line 3: job 0: runtime_s must be in [0.001, 1e+09], got NaN"},
		{"huge value", func(w *Workload) { w.Jobs[0].Value = 1e308 }, "workload line 3: job 0: value must be in [0, 1e+12], got 1e+308"},
		{"history in window", func(w *Workload) { w.History[0].Submit = 5 }, "workload line 2: job 10: history jobs must have submit_s < 0"},
		{"unknown class", func(w *Workload) { w.Jobs[2].Class = 7 }, "workload line 5: job 2: unknown class 7"},
		{"no cluster", func(w *Workload) { w.Header.Cluster = Cluster{} }, "workload line 1: cluster must have ≥ 1 partition"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := smallWorkload()
			tc.mutate(w)
			var buf bytes.Buffer
			err := Write(&buf, w)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("Write: got %v, want %q", err, tc.wantErr)
			}
			if buf.Len() != 0 {
				t.Errorf("Write wrote %d bytes of an invalid workload", buf.Len())
			}
		})
	}
	if err := Write(&bytes.Buffer{}, nil); err == nil {
		t.Error("Write(nil) succeeded")
	}
}

// TestReadHeader: ReadHeader returns the header of a file whose job lines
// are broken, and fails as Read does on a bad or missing header line.
func TestReadHeader(t *testing.T) {
	valid := strings.Split(strings.TrimSuffix(string(encode(t, smallWorkload())), "\n"), "\n")
	h, err := ReadHeader(strings.NewReader(valid[0] + "\nnot a job\n"))
	if err != nil {
		t.Fatal(err)
	}
	if h.WindowS != 3600 || h.Jobs != 3 {
		t.Errorf("header %+v, want window_s 3600 and 3 jobs", h)
	}
	for _, tc := range []struct{ name, text, want string }{
		{"empty", "", "workload line 1: empty input, want a header line"},
		{"blank", "\n", "workload line 1: blank line"},
		{"zero window", strings.Replace(valid[0], `"window_s":3600`, `"window_s":0`, 1), "workload line 1: window_s must be in [0.001, 1e+09], got 0"},
	} {
		if _, err := ReadHeader(strings.NewReader(tc.text)); err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestTaskJobRoundTrip: a task-level job, wider than the cluster (its
// tasks run in waves), is written and read back as it was.
func TestTaskJobRoundTrip(t *testing.T) {
	w := smallWorkload()
	j := &w.Jobs[2]
	j.TaskNodes, j.TaskDurations = 1, []float64{10, 20, 30, 40, 50, 60, 70, 80, 90, 100}
	j.Nodes, j.Runtime = 10, MeanTaskDuration(j.TaskDurations)
	got, err := Read(bytes.NewReader(encode(t, w)))
	if err != nil {
		t.Fatal(err)
	}
	g := got.Jobs[2]
	if !g.TaskLevel() || g.Tasks() != 10 || g.Nodes != 10 || g.Runtime != 55 || !slices.Equal(g.TaskDurations, j.TaskDurations) {
		t.Errorf("read back %+v", g)
	}
	if got.Jobs[1].TaskLevel() || got.Jobs[1].Tasks() != 1 {
		t.Errorf("a gang job reads as task-level: %+v", got.Jobs[1])
	}
}

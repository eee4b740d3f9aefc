package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// traceFixtures are the importers' test traces.
var traceFixtures = filepath.Join("..", "..", "workloads", "traces", "testdata")

func TestWorkloadImportStatsSimulate(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "w.jsonl")
	_, stderr, err := runCLI(t, "workload", "import", "--format", "swf", filepath.Join(traceFixtures, "small.swf"),
		"--start", "0", "--hours", "0", "--nodes", "16", "--load", "0.8", "-o", file)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"4 jobs kept, 4 filtered", "failed 1", "4 jobs, 0 history jobs", "widths × 0.25", "0.800 imported"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("import report lacks %q:\n%s", want, stderr)
		}
	}
	out, _, err := runCLI(t, "workload", "stats", file, "--nodes", "32", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Generator    string  `json:"generator"`
		Jobs         int     `json:"jobs"`
		Nodes        int     `json:"nodes"`
		ClusterNodes int     `json:"cluster_nodes"`
		Load         float64 `json:"load"`
		CoVByUser    struct {
			Groups int `json:"groups"`
		} `json:"cov_by_user"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("stats JSON: %v\n%s", err, out)
	}
	// Load 0.8 on the workload's 16 nodes is 0.4 on 32.
	if sum.Generator != "swf" || sum.Jobs != 4 || sum.Nodes != 32 || sum.ClusterNodes != 16 || sum.Load < 0.399 || sum.Load > 0.401 || sum.CoVByUser.Groups == 0 {
		t.Errorf("stats %+v", sum)
	}
	out, _, err = runCLI(t, "simulate", "--workload", file, "--schedulers", "prio", "--parallel", "1", "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "prio") {
		t.Errorf("simulate output lacks the scheduler:\n%s", out)
	}
}

func TestWorkloadImportBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.swf")
	os.WriteFile(bad, []byte("1 0 0 60 4 -1 -1 4 60 -1 1 5 3 9 2 -1 -1 -1\n1 0 0 60 4\n2 60 0 60 4 -1 -1 4 60 -1 1 5 3 9 2 -1 -1 -1\n"), 0o644)
	out := filepath.Join(dir, "out.jsonl")
	os.WriteFile(out, []byte("keep me"), 0o644)
	tests := []struct {
		name string
		args []string
		want string
		// usage: a command-line mistake (exit status 2).
		usage bool
	}{
		{"bad line", []string{"--format", "swf", bad, "-o", out}, bad + ":2: want 18 fields, got 5 (--skip-bad skips and counts such lines)", false},
		{"unknown format", []string{"--format", "pbs", bad}, "--format", true},
		{"no path", []string{"--format", "swf"}, "FILE or DIR", true},
		{"missing file", []string{"--format", "mustang", filepath.Join(dir, "nope.csv")}, "no such file", false},
		{"empty window", []string{"--format", "swf", "--skip-bad", bad, "--start", "100", "-o", out}, "--start: 100 puts the window at [100.00 h, 105.00 h) of the 0.02 h trace: the window holds no jobs", true},
		{"negative start", []string{"--format", "swf", bad, "--start", "-5"}, "--start: must be ≥ 0 hours after the trace's first submit (leave it out for the middle of the trace), got -5", true},
		{"start -1, the library's mark for the middle", []string{"--format", "swf", bad, "--start", "-1"}, "--start: must be ≥ 0 hours", true},
		{"start not a number", []string{"--format", "swf", bad, "--start", "NaN"}, "--start: must be ≥ 0 hours", true},
		{"tasks without task durations", []string{"--format", "swf", bad, "--tasks"}, "--tasks: the swf format has no per-task durations (google2011 and alibaba2018 do)", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCLI(t, append([]string{"workload", "import", "-q"}, tc.args...)...)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v, want one line mentioning %q", err, tc.want)
			}
			want := 1
			if tc.usage {
				want = 2
			}
			if got := exitCode(err); got != want {
				t.Errorf("exit status %d, want %d", got, want)
			}
		})
	}
	if data, _ := os.ReadFile(out); string(data) != "keep me" {
		t.Errorf("a failed import overwrote the output: %q", data)
	}
	_, stderr, err := runCLI(t, "workload", "import", "--format", "swf", "--skip-bad", bad, "-o", out)
	if err != nil || !strings.Contains(stderr, "1 bad lines skipped") {
		t.Fatalf("--skip-bad: %v\n%s", err, stderr)
	}
}

// TestWorkloadImportOptionErrors: a value the importer's options refuse is
// told under the flag that set it, with the library's bounds.
func TestWorkloadImportOptionErrors(t *testing.T) {
	imp := func(args ...string) []string {
		return append([]string{"workload", "import", "-q", "--format", "swf", filepath.Join(traceFixtures, "small.swf")}, args...)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no nodes", imp("--nodes", "0"), "--nodes: must be ≥ 1, got 0"},
		{"nodes too many", imp("--nodes", "1000000000"), "--nodes: must be ≤ 134217728 (16777216 per rack × 8 racks), got 1000000000"},
		{"start past the bound", imp("--start", "1e9"), "--start: must be finite and ≤ 1e+06 hours, got 1e+09"},
		{"negative hours", imp("--hours", "-1"), "--hours: must be 0 (to the end of the trace) or in [0.01, 1e+06], got -1"},
		{"tiny hours", imp("--hours", "1e-9"), "--hours: must be 0 (to the end of the trace) or in [0.01, 1e+06], got 1e-09"},
		{"hours not a number", imp("--hours", "NaN"), "--hours: must be 0 (to the end of the trace) or in [0.01, 1e+06], got NaN"},
		{"bad fit", imp("--fit", "squeeze"), `--fit: must be scale or drop, got "squeeze"`},
		{"negative max procs", imp("--max-procs", "-1"), "--max-procs: must be ≥ 0, got -1"},
		{"negative load", imp("--load", "-1"), "--load: must be 0 (keep the trace's arrivals) or in [0.01, 100], got -1"},
		{"huge load", imp("--load", "1e300"), "--load: must be 0 (keep the trace's arrivals) or in [0.01, 100], got 1e+300"},
		{"negative slack", imp("--slack", "20,-5"), "--slack: must be in [0, 1e+06] percent, got -5"},
		{"huge slack", imp("--slack", "1e308"), "--slack: must be in [0, 1e+06] percent, got 1e+308"},
		{"slo share above 1", imp("--slo-share", "2"), "--slo-share: must be in [0, 1], got 2"},
		{"slo share not a number", imp("--slo-share", "NaN"), "--slo-share: must be in [0, 1], got NaN"},
		// Refused by the trace once it is read: the window the flags cut.
		{"window past the trace", imp("--start", "0", "--hours", "1e6"), "--hours: 1e+06 makes the window last 3.6e+09 s, more than 1e+09 s; ask for a shorter window or a higher load"},
		{"window squeezed", imp("--start", "24", "--hours", "0", "--nodes", "1000", "--fit", "drop", "--load", "100"), "--load: 100 squeezes the window's 120 node-seconds of jobs on 1000 nodes into 0.0012 s (under 1 s); ask for a lower load"},
		{"trace too short for the load", imp("--start", "0", "--hours", "24", "--nodes", "16", "--load", "1.4"),
			"--hours: 24 at load 1.4 needs 1.94e+06 node-seconds of jobs on 16 nodes, but small.swf runs out: its 4 jobs from the window start (0.00 h) to its end carry 7.97e+04 (load 0.0577 over 24 h); ask for at most 0.98 hours, a lower load"},
		{"window emptied by the fit", imp("--start", "0", "--nodes", "1", "--racks", "1", "--fit", "drop"), "--fit: drop leaves none of the window's 3 jobs: 3 are wider than the 1-node cluster (scale fits them; so would more nodes)"},
		{"window empty from the middle", imp("--hours", "0.01"), "--hours: 0.01 from the middle of the trace puts the window at [12.50 h, 12.51 h) of the 25.00 h trace: the window holds no jobs"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCLI(t, tc.args...)
			checkUsageError(t, err, tc.want)
		})
	}
}

// swfJobs writes an SWF log of n jobs of 8 of 64 procs running 3600 s,
// one every 600 s, and returns its path.
func swfJobs(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("; MaxProcs: 64\n")
	for i := range n {
		fmt.Fprintf(&b, "%d %d 0 3600 8 -1 -1 8 7200 -1 1 %d 1 %d 1 -1 -1 -1\n", i+1, i*600, i%7, i%13)
	}
	path := filepath.Join(t.TempDir(), "jobs.swf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestWorkloadImportLoadWindow: --hours with --load gives a window of
// those hours at that load, and a window of fewer than 200 jobs is
// warned about on standard error (with -q too), in one line.
func TestWorkloadImportLoadWindow(t *testing.T) {
	// 16 nodes, widths 8/64 → 2 nodes × 3600 s = load 7200 / (16 · 3600)
	// = 0.125 per job over 1 h.
	path := swfJobs(t, 2000)
	tests := []struct {
		name string
		args []string
		jobs int
		warn bool
	}{
		{"load 1.4 over 1 h: 11 jobs", []string{"--hours", "1", "--load", "1.4"}, 11, true},
		{"load 1.4 over 24 h: 269 jobs", []string{"--hours", "24", "--load", "1.4"}, 269, false},
		{"quiet still warns", []string{"--hours", "1", "--load", "1.4", "-q"}, 11, true},
		{"the trace's arrivals over 1 h", []string{"--hours", "1"}, 6, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "w.jsonl")
			stdout, stderr, err := runCLI(t, append([]string{"workload", "import", "--format", "swf", path, "--nodes", "16", "--start", "0", "-o", out}, tc.args...)...)
			if err != nil {
				t.Fatal(err)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			sum, _, err := runCLI(t, "workload", "stats", out, "--format", "json")
			if err != nil {
				t.Fatal(err)
			}
			var st struct {
				Jobs    int     `json:"jobs"`
				WindowS float64 `json:"window_s"`
				Load    float64 `json:"load"`
			}
			if err := json.Unmarshal([]byte(sum), &st); err != nil {
				t.Fatal(err)
			}
			if st.Jobs != tc.jobs {
				t.Errorf("%d jobs, want %d", st.Jobs, tc.jobs)
			}
			if slices.Contains(tc.args, "--load") && (math.Abs(st.Load-1.4) > 0.05 || st.WindowS != 3600*hoursArg(t, tc.args)) {
				t.Errorf("load %v over %v s, want 1.4 ± 0.05 over --hours", st.Load, st.WindowS)
			}
			want := fmt.Sprintf("import: warning: the window holds %d jobs, fewer than 200: a thin sample of the trace; a longer --hours", tc.jobs)
			if got := strings.Count(stderr, "warning"); got != map[bool]int{true: 1, false: 0}[tc.warn] || tc.warn && !strings.Contains(stderr, want) {
				t.Errorf("stderr:\n%s\nwant the warning %v (%q)", stderr, tc.warn, want)
			}
		})
	}
}

func hoursArg(t *testing.T, args []string) float64 {
	i := slices.Index(args, "--hours")
	h, err := strconv.ParseFloat(args[i+1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestWorkloadImportProgress: a large trace's read is told on standard
// error in a few lines (quarters of its bytes, then the end), none with
// -q, and standard output carries the workload alone.
func TestWorkloadImportProgress(t *testing.T) {
	path := swfJobs(t, 30000) // ≈ 1.6 MB
	stdout, stderr, err := runCLI(t, "workload", "import", "--format", "swf", path, "--hours", "2")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stdout, `{"version":`) || strings.Contains(stdout, "import:") {
		t.Errorf("stdout does not hold the workload alone: %.200s", stdout)
	}
	for _, want := range []string{"import: 25% of 1.", "import: 75% of 1.", "import: read 30001 lines, 1."} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if n := strings.Count(stderr, "import: "); n > 10 {
		t.Errorf("%d progress and report lines, want a few:\n%s", n, stderr)
	}
	_, stderr, err = runCLI(t, "workload", "import", "-q", "--format", "swf", path, "--hours", "2")
	if err != nil || strings.Contains(stderr, "% of") || strings.Contains(stderr, "read ") {
		t.Errorf("-q: %v, stderr %q", err, stderr)
	}
}

// TestWorkloadStatsRawTrace: a raw trace where a workload file belongs is
// told in one line with the import that turns it into one.
func TestWorkloadStatsRawTrace(t *testing.T) {
	swf := filepath.Join(traceFixtures, "small.swf")
	data, err := os.ReadFile(swf)
	if err != nil {
		t.Fatal(err)
	}
	gz := filepath.Join(t.TempDir(), "small.swf.gz")
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	zw.Close()
	os.WriteFile(gz, b.Bytes(), 0o644)
	google := filepath.Join(traceFixtures, "google2011")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"swf", []string{"workload", "stats", swf}, swf + ": is a raw swf trace, not a workload file; import it first: planner workload import --format swf " + swf + " -o W.jsonl"},
		{"swf.gz", []string{"workload", "stats", gz}, gz + ": is a raw swf trace, not a workload file; import it first: planner workload import --format swf " + gz + " -o W.jsonl"},
		{"google2011", []string{"workload", "stats", google}, google + ": is a raw google2011 trace, not a workload file; import it first: planner workload import --format google2011 " + google + " -o W.jsonl"},
		{"under --workload", []string{"workload", "stats", "--workload", swf}, "--workload " + swf + ": is a raw swf trace"},
		{"simulate", []string{"simulate", "--workload", google, "--quiet"}, "--workload " + google + ": is a raw google2011 trace"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, _, err := runCLI(t, tc.args...)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v, want one line starting %q", err, tc.want)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
		})
	}
}

// TestWorkloadImportTasks: --tasks imports a Google 2011 trace's jobs as
// task-level jobs, which stats measures across time and space and which
// a scheduler of gang jobs refuses.
func TestWorkloadImportTasks(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tasks.jsonl")
	_, stderr, err := runCLI(t, "workload", "import", "--format", "google2011", filepath.Join(traceFixtures, "google2011"),
		"--tasks", "--nodes", "4", "--racks", "1", "--fit", "drop", "--start", "0", "--hours", "0", "--slo-share", "0", "-o", file)
	if err != nil || !strings.Contains(stderr, "task-level, 5 one-node tasks") {
		t.Fatalf("import: %v\n%s", err, stderr)
	}
	out, _, err := runCLI(t, "workload", "stats", file, "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Tasks *struct {
			SpaceJobs int `json:"space_jobs"`
		} `json:"task_variability"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil || sum.Tasks == nil || sum.Tasks.SpaceJobs != 2 {
		t.Errorf("stats: %v\n%s", err, out)
	}
	_, _, err = runCLI(t, "simulate", "--workload", file, "--schedulers", "prio", "-q")
	if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), "--schedulers: scheduler prio does not schedule task-level jobs, which workload tasks.jsonl has") {
		t.Errorf("simulate with prio: %v", err)
	}
}

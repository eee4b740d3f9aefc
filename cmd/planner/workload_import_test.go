package main

import (
	"encoding/json"
	"os"
	"path/filepath"
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
		{"bad line", []string{"--format", "swf", bad, "-o", out}, bad + ":2: want 18 fields, got 5", false},
		{"unknown format", []string{"--format", "pbs", bad}, "--format", true},
		{"no path", []string{"--format", "swf"}, "FILE or DIR", true},
		{"missing file", []string{"--format", "mustang", filepath.Join(dir, "nope.csv")}, "no such file", false},
		{"empty window", []string{"--format", "swf", "--skip-bad", bad, "--start", "100", "-o", out}, "--start: 100 puts the window at [100.00 h, 105.00 h) of the 0.02 h trace: the window holds no jobs", true},
		{"negative start", []string{"--format", "swf", bad, "--start", "-5"}, "--start: must be ≥ 0 hours after the trace's first submit (leave it out for the middle of the trace), got -5", true},
		{"start -1, the library's mark for the middle", []string{"--format", "swf", bad, "--start", "-1"}, "--start: must be ≥ 0 hours", true},
		{"start not a number", []string{"--format", "swf", bad, "--start", "NaN"}, "--start: must be ≥ 0 hours", true},
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
		{"window squeezed", imp("--start", "0", "--hours", "0.01", "--nodes", "1000", "--fit", "drop", "--load", "100"), "--load: 100 squeezes the window's 4.8e+03 node-seconds of jobs on 1000 nodes into 0.048 s (under 1 s); ask for a lower load"},
		{"window emptied by the fit", imp("--start", "0", "--nodes", "1", "--racks", "1", "--fit", "drop"), "--fit: drop leaves none of the window's 3 jobs: 3 are wider than the 1-node cluster (scale fits them; so would more nodes)"},
		{"window empty from the middle", imp("--hours", "0.01", "--load", "100"), "--hours: 0.01 from the middle of the trace puts the window at [12.50 h, 12.51 h) of the 25.00 h trace: the window holds no jobs"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCLI(t, tc.args...)
			checkUsageError(t, err, tc.want)
		})
	}
}

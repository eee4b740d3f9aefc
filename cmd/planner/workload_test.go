package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWorkloadGenerateThenStatsAndEval(t *testing.T) {
	file := filepath.Join(t.TempDir(), "w.jsonl")
	if _, _, err := runCLI(t, "workload", "generate", "--hours", "1", "--seed", "4", "--out", file); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "workload", "stats", file, "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var sum map[string]any
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("stats JSON: %v\n%s", err, out)
	}
	out, _, err = runCLI(t, "predict", "eval", "--workload", file, "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var prof struct {
		N           int
		FactorOfTwo float64
	}
	if err := json.Unmarshal([]byte(out), &prof); err != nil || prof.N == 0 {
		t.Fatalf("eval JSON: %v %+v\n%s", err, prof, out)
	}
	// The same generator flags write the same bytes.
	again := filepath.Join(t.TempDir(), "w.jsonl")
	if _, _, err := runCLI(t, "workload", "generate", "--hours", "1", "--seed", "4", "-o", again); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(file)
	b, _ := os.ReadFile(again)
	if string(a) != string(b) {
		t.Error("same flags wrote different workload files")
	}
}

// TestWorkloadEnvironments generates each environment from the CLI and
// checks its header, its requested times (Mustang-like only) and that
// predict eval prints the tails of its error profile.
func TestWorkloadEnvironments(t *testing.T) {
	for _, gen := range []string{"google", "hedgefund", "mustang"} {
		t.Run(gen, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), gen+".jsonl")
			if _, _, err := runCLI(t, "workload", "generate", "--workload", gen, "--hours", "0.5", "--nodes", "64", "-o", file); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			header, jobs, _ := strings.Cut(string(data), "\n")
			if !strings.Contains(header, `"generator":"`+gen+`"`) {
				t.Errorf("header %s does not name generator %s", header, gen)
			}
			if got, want := strings.Contains(jobs, `"requested_s"`), gen == "mustang"; got != want {
				t.Errorf("jobs carry requested_s: %v, want %v", got, want)
			}
			out, _, err := runCLI(t, "predict", "eval", "--workload", gen, "--hours", "0.5", "--nodes", "64")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out, "workload "+gen+":") || !strings.Contains(out, "above +95%:") || !strings.Contains(out, "below -55%:") {
				t.Errorf("predict eval output lacks the workload name or the tails:\n%s", out)
			}
		})
	}
}

// TestTaskGeneratorDefaults: a task-level generator's cluster, window and
// load are its own (150 nodes in one rack, load 1) unless given.
func TestTaskGeneratorDefaults(t *testing.T) {
	type summary struct {
		ClusterNodes int     `json:"cluster_nodes"`
		WindowS      float64 `json:"window_s"`
		Load         float64 `json:"load"`
		Tasks        *struct {
			TimeJobs int `json:"time_jobs"`
		} `json:"task_variability"`
	}
	stats := func(args ...string) summary {
		t.Helper()
		out, _, err := runCLI(t, append([]string{"workload", "stats", "--format", "json"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		var s summary
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	if s := stats("--workload", "google2011-tasks", "--hours", "2"); s.ClusterNodes != 150 || s.WindowS != 7200 ||
		s.Load < 0.99 || s.Load > 1.01 || s.Tasks == nil || s.Tasks.TimeJobs == 0 {
		t.Errorf("google2011-tasks, 2 hours: %+v", s)
	}
	if s := stats("--workload", "google2011-tasks", "--hours", "2", "--nodes", "64", "--load", "0.5"); s.ClusterNodes != 64 || s.Load < 0.49 || s.Load > 0.51 {
		t.Errorf("google2011-tasks on 64 nodes at load 0.5: %+v", s)
	}
}

func TestWorkloadBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	good := filepath.Join(dir, "good.jsonl")
	if _, _, err := runCLI(t, "workload", "generate", "--hours", "0.5", "-o", good); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(good)
	lines := strings.Split(string(data), "\n")
	lines[3] = `{"id": 3, "nodes": 0}`
	os.WriteFile(bad, []byte(strings.Join(lines, "\n")), 0o644)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"malformed line", []string{"workload", "stats", bad}, "line 4"},
		{"missing file", []string{"predict", "eval", "--workload", filepath.Join(dir, "nope")}, "nope: neither a generator (google, hedgefund, mustang, 2sigma, google2011-tasks, google2019-tasks, drift, 2sigma-dag, scalability-N) nor an existing file"},
		{"negative load", []string{"workload", "generate", "--load", "-1"}, "--load"},
		{"unknown generator", []string{"workload", "generate", "--workload", "borg"}, "want a generator (google, hedgefund, mustang, 2sigma, google2011-tasks, google2019-tasks, drift, 2sigma-dag, scalability-N)"},
		{"unknown subcommand", []string{"workload", "frob"}, "frob"},
		{"predict without eval", []string{"predict"}, "eval"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCLI(t, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v, want one line mentioning %q", err, tc.want)
			}
		})
	}
}

// TestWorkloadOutChecked: --out is checked before any work, names itself in
// its errors, and never overwrites the input.
func TestWorkloadOutChecked(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.swf")
	swf := "; MaxProcs: 64\n1 0 0 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n"
	if err := os.WriteFile(trace, []byte(swf), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"the input itself", []string{"workload", "import", "--format", "swf", trace, "-o", trace}, "is the input"},
		{"a directory", []string{"workload", "generate", "--hours", "0.2", "-o", dir}, "--out " + dir + ": is a directory"},
		{"a missing directory", []string{"workload", "generate", "--hours", "0.2", "-o", filepath.Join(dir, "no", "w.jsonl")}, "does not exist"},
		{"under a file", []string{"workload", "generate", "--hours", "0.2", "-o", filepath.Join(trace, "w.jsonl")}, "--out " + filepath.Join(trace, "w.jsonl") + ": " + trace + " is not a directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCLI(t, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v, want one line mentioning %q", err, tc.want)
			}
		})
	}
	if b, _ := os.ReadFile(trace); string(b) != swf {
		t.Fatalf("the trace changed:\n%s", b)
	}
	// "-" is standard output.
	out, _, err := runCLI(t, "workload", "generate", "--hours", "0.2", "-o", "-")
	if err != nil || !strings.HasPrefix(out, `{"version"`) {
		t.Fatalf("-o -: %v, output %.40q", err, out)
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error(`-o - created a file named "-"`)
	}
}

// TestErrorsNameAPathOnce: an error about a file names its flag and the
// file once ("--out x: x: …" named it twice).
func TestErrorsNameAPathOnce(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "dangling.jsonl")
	if err := os.Symlink(filepath.Join(dir, "missing", "w.jsonl"), link); err != nil {
		t.Fatal(err)
	}
	res := filepath.Join(dir, "res")
	if err := os.MkdirAll(filepath.Join(res, "results.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	emptyFile := filepath.Join(dir, "empty.jsonl")
	if err := os.WriteFile(emptyFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	sweepRes := filepath.Join(dir, "sweep")
	if err := os.MkdirAll(filepath.Join(sweepRes, "results.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		path string // named once
		want string // the whole error
	}{
		{"workload file through a dangling link", []string{"workload", "generate", "--hours", "0.2", "-o", link}, link,
			"--out: " + link + ": a symbolic link to a missing file: lstat " + filepath.Join(dir, "missing") + ": no such file or directory"},
		{"simulate results over a directory", []string{"simulate", "--nodes", "16", "--hours", "0.34", "--schedulers", "prio", "--quiet", "--out", res}, filepath.Join(res, "results.json"),
			"--out: " + filepath.Join(res, "results.json") + ": is a directory"},
		{"sweep results over a directory", []string{"sweep", "--nodes", "16", "--hours", "0.34", "--schedulers", "prio", "--quiet", "--vary", "load=1,2", "--out", sweepRes}, filepath.Join(sweepRes, "results.json"),
			"--out: " + filepath.Join(sweepRes, "results.json") + ": is a directory"},
		{"a directory as the workload", []string{"predict", "eval", "--workload", dir}, dir,
			"--workload " + dir + ": is a directory, want a workload file or a generator (google, hedgefund, mustang, 2sigma, google2011-tasks, google2019-tasks, drift, 2sigma-dag, scalability-N)"},
		// A file given as the command's argument is named by its path.
		{"a directory as the argument", []string{"workload", "stats", dir}, dir,
			dir + ": is a directory, want a workload file or a generator (google, hedgefund, mustang, 2sigma, google2011-tasks, google2019-tasks, drift, 2sigma-dag, scalability-N)"},
		{"a missing file as the argument", []string{"workload", "stats", filepath.Join(dir, "none.jsonl")}, filepath.Join(dir, "none.jsonl"),
			filepath.Join(dir, "none.jsonl") + ": neither a generator (google, hedgefund, mustang, 2sigma, google2011-tasks, google2019-tasks, drift, 2sigma-dag, scalability-N) nor an existing file"},
		{"a bad file as the argument", []string{"workload", "stats", emptyFile}, emptyFile,
			emptyFile + ": workload line 1: empty input, want a header line"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCLI(t, tc.args...)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if n := strings.Count(err.Error(), tc.path); n != 1 {
				t.Errorf("error names %s %d times", tc.path, n)
			}
		})
	}
}

// TestSimulateConfigOfAFile: the JSON config of a run on a workload file
// leaves out the generator's settings, which the file replaces; a
// generated workload's config keeps them.
func TestSimulateConfigOfAFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "w.jsonl")
	if _, _, err := runCLI(t, "workload", "generate", "--hours", "0.25", "--nodes", "16", "-o", file); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args      []string
		generated bool
	}{
		{[]string{"--workload", file}, false},
		{[]string{"--hours", "0.25", "--nodes", "16"}, true},
	} {
		args := append([]string{"simulate", "--schedulers", "prio", "--format", "json", "--quiet"}, tc.args...)
		out, _, err := runCLI(t, args...)
		if err != nil {
			t.Fatal(err)
		}
		var rep struct{ Config map[string]any }
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%v in\n%s", err, out)
		}
		for _, key := range []string{"nodes", "hours", "load", "slack"} {
			if _, ok := rep.Config[key]; ok != tc.generated {
				t.Errorf("%v: config has %q: %v, want %v", tc.args, key, ok, tc.generated)
			}
		}
	}
}

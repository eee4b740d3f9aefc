package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exampleWorkload is the workload file docs/user-guide.md shows, from this
// package's directory.
var exampleWorkload = filepath.Join("..", "..", "workloads", "testdata", "example.jsonl")

// writeConfig writes a --config file holding the JSON object body and
// returns its path.
func writeConfig(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestWorkloadAsArgument: every command that reads a workload takes it as
// --workload; workload stats and predict eval also as their argument, and
// both at once only when they name the same workload. The argument wins
// over a --config file's workload, as the command line does.
func TestWorkloadAsArgument(t *testing.T) {
	file := exampleWorkload
	other := filepath.Join("..", "..", "workloads", "testdata", ".", "example.jsonl") // the same file
	googleCfg := writeConfig(t, `{"workload": "google"}`)
	tests := []struct {
		name    string
		args    []string
		want    string // in stdout, or the whole error when wantErr
		wantErr bool
	}{
		{"stats, argument", []string{"workload", "stats", file}, "2 jobs (+1 history)", false},
		{"stats, --workload", []string{"workload", "stats", "--workload", file}, "2 jobs (+1 history)", false},
		{"stats, both the same", []string{"workload", "stats", file, "--workload", other}, "2 jobs (+1 history)", false},
		{"stats, both different", []string{"workload", "stats", file, "--workload", "google"},
			`workload stats: two workloads given, "` + file + `" as the argument and "google" as --workload; give one`, true},
		{"stats, two arguments", []string{"workload", "stats", file, file},
			`workload stats: unexpected argument "` + file + `" (give one workload)`, true},
		{"stats, the argument over --config", []string{"workload", "stats", "--config", googleCfg, file}, "2 jobs (+1 history)", false},
		{"predict eval, argument", []string{"predict", "eval", file}, "workload example.jsonl: 2 jobs predicted", false},
		{"predict eval, --workload", []string{"predict", "eval", "--workload", file}, "workload example.jsonl: 2 jobs predicted", false},
		{"predict eval, both different", []string{"predict", "eval", "--workload", "hedgefund", file},
			`predict eval: two workloads given, "` + file + `" as the argument and "hedgefund" as --workload; give one`, true},
		{"simulate, --workload", []string{"simulate", "--workload", file, "--schedulers", "3sigma,prio", "--quiet"}, "workload example.jsonl: 2 jobs on 8 nodes", false},
		{"simulate takes no argument", []string{"simulate", file}, `simulate: unexpected argument "` + file + `"`, true},
		{"sweep, --workload", []string{"sweep", "--workload", file, "--vary", "interval=1m,2m", "--schedulers", "prio", "--quiet"}, "prio", false},
		{"sweep takes no argument", []string{"sweep", "--vary", "interval=1m,2m", file}, `sweep: unexpected argument "` + file + `"`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := runCLI(t, tc.args...)
			if tc.wantErr {
				checkUsageError(t, err, tc.want)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("output lacks %q:\n%s", tc.want, out)
			}
		})
	}
}

// TestUnknownWorkload: a --workload (or argument) that is neither a
// generator nor a file is a usage error that says so and lists the
// generators, in every command that reads a workload.
func TestUnknownWorkload(t *testing.T) {
	const problem = "neither a generator (google, hedgefund, mustang, 2sigma, google2011-tasks, google2019-tasks, drift, 2sigma-dag, scalability-N) nor an existing file"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"simulate", []string{"simulate", "--workload", "googel", "--hours", "2"}, "--workload googel: " + problem},
		{"sweep", []string{"sweep", "--workload", "googel", "--hours", "2", "--vary", "load=1,2"}, "--workload googel: " + problem},
		{"sweep of workloads", []string{"sweep", "--vary", "workload=google,googel"}, "--vary workload=googel: --workload googel: " + problem},
		{"workload stats, --workload", []string{"workload", "stats", "--workload", "googel", "--nodes", "3"}, "--workload googel: " + problem},
		{"workload stats, argument", []string{"workload", "stats", "googel"}, "googel: " + problem},
		{"predict eval", []string{"predict", "eval", "--workload", "googel"}, "--workload googel: " + problem},
		{"predict eval, argument", []string{"predict", "eval", "googel"}, "googel: " + problem},
		{"a missing file", []string{"workload", "stats", "no/such.jsonl"}, "no/such.jsonl: " + problem},
		{"workload generate", []string{"workload", "generate", "--workload", "googel"}, `--workload: want a generator (google, hedgefund, mustang, 2sigma, google2011-tasks, google2019-tasks, drift, 2sigma-dag, scalability-N), got "googel"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCLI(t, tc.args...)
			checkUsageError(t, err, tc.want)
		})
	}
}

// TestOutAndQuietShorthands: -o is --out (a file, or a results
// directory) and -q is --quiet (no progress on standard error) in every
// command that has them.
func TestOutAndQuietShorthands(t *testing.T) {
	tiny := []string{"--nodes", "16", "--hours", "0.34", "--schedulers", "prio"}
	bench := []string{"bench", "solver", "--jobs", "10", "--seeds", "1", "--solvers", "greedy", "--deterministic", "--work", "10"}
	tests := []struct {
		name     string
		args     func(dir string) []string
		quiet    bool   // nothing on stderr
		wantFile string // in dir, written by -o
	}{
		{"simulate -q -o", func(d string) []string { return append([]string{"simulate", "-q", "-o", d}, tiny...) }, true, "results.json"},
		{"simulate --quiet --out", func(d string) []string { return append([]string{"simulate", "--quiet", "--out", d}, tiny...) }, true, "results.json"},
		{"simulate with progress", func(d string) []string { return append([]string{"simulate", "-o", d}, tiny...) }, false, "jobs.csv"},
		{"sweep -q -o", func(d string) []string {
			return append([]string{"sweep", "-q", "-o", d, "--vary", "load=1,2"}, tiny...)
		}, true, "report.md"},
		{"sweep with progress", func(d string) []string { return append([]string{"sweep", "--vary", "load=1,2"}, tiny...) }, false, ""},
		{"bench solver -q", func(string) []string { return append(bench, "-q") }, true, ""},
		{"bench solver with progress", func(string) []string { return bench }, false, ""},
		{"workload generate -o", func(d string) []string {
			return []string{"workload", "generate", "--hours", "0.2", "-o", filepath.Join(d, "w.jsonl")}
		}, true, "w.jsonl"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			_, stderr, err := runCLI(t, tc.args(dir)...)
			if err != nil {
				t.Fatal(err)
			}
			if (stderr == "") != tc.quiet {
				t.Errorf("stderr %q; want it empty: %v", stderr, tc.quiet)
			}
			if tc.wantFile != "" {
				if _, err := os.Stat(filepath.Join(dir, tc.wantFile)); err != nil {
					t.Errorf("-o wrote no %s: %v", tc.wantFile, err)
				}
			}
		})
	}
}

// TestConfigAndFormat: workload stats, predict eval and bench solver take
// --format table|json and --config FILE as simulate does: the file's keys
// are flag names, the command line wins, and an error about the file's
// setting names the file.
func TestConfigAndFormat(t *testing.T) {
	commands := map[string][]string{
		"workload stats": {"workload", "stats", exampleWorkload},
		"predict eval":   {"predict", "eval", exampleWorkload},
		"bench solver":   {"bench", "solver", "--jobs", "10", "--seeds", "1", "--solvers", "greedy", "--deterministic", "--work", "10", "--quiet"},
	}
	jsonCfg := writeConfig(t, `{"format": "json"}`)
	xmlCfg := writeConfig(t, `{"format": "xml"}`)
	typoCfg := writeConfig(t, `{"formatt": "json"}`)
	for _, name := range []string{"workload stats", "predict eval", "bench solver"} {
		cmd := commands[name]
		with := func(extra ...string) []string { return append(append([]string{}, cmd...), extra...) }
		tests := []struct {
			name     string
			args     []string
			wantJSON bool
			wantErr  string
		}{
			{"--format json", with("--format", "json"), true, ""},
			{"--format table", with("--format", "table"), false, ""},
			{"--config", with("--config", jsonCfg), true, ""},
			{"the command line wins", with("--config", jsonCfg, "--format", "table"), false, ""},
			{"a bad setting", with("--config", xmlCfg), false, "--config " + xmlCfg + `: format: want table or json, got "xml"`},
			{"an unknown setting", with("--config", typoCfg), false, "--config " + typoCfg + `: unknown setting "formatt"`},
		}
		for _, tc := range tests {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				out, _, err := runCLI(t, tc.args...)
				if tc.wantErr != "" {
					checkUsageError(t, err, tc.wantErr)
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if isJSON := json.Valid([]byte(out)); isJSON != tc.wantJSON {
					t.Errorf("output is JSON: %v, want %v:\n%s", isJSON, tc.wantJSON, out)
				}
			})
		}
	}
}

// TestBoolValueApart: a true/false flag with its value as the next
// argument (--deterministic false), which the flag library would read as
// the flag set to true and a stray argument, is a usage error that says
// how to write it; with "=" it is read.
func TestBoolValueApart(t *testing.T) {
	tiny := []string{"--nodes", "16", "--hours", "0.34", "--schedulers", "3sigma", "-q"}
	tests := []struct {
		name string
		args []string
		want string // the whole error; "" for none
	}{
		{"simulate", append([]string{"simulate", "--deterministic", "false"}, tiny...), "--deterministic: write --deterministic=false (a true/false flag takes its value after '=')"},
		{"any case", append([]string{"simulate", "--deterministic", "FALSE"}, tiny...), "--deterministic: write --deterministic=false (a true/false flag takes its value after '=')"},
		{"sweep", append([]string{"sweep", "--vary", "load=1,2", "--synthetic", "true"}, tiny...), "--synthetic: write --synthetic=true (a true/false flag takes its value after '=')"},
		{"a shorthand", []string{"bench", "solver", "-q", "false"}, "--quiet: write --quiet=false (a true/false flag takes its value after '=')"},
		{"workload import", []string{"workload", "import", "--format", "swf", "--skip-bad", "true", "x.swf"}, "--skip-bad: write --skip-bad=true (a true/false flag takes its value after '=')"},
		{"with =", []string{"bench", "solver", "--deterministic=true", "--work", "10", "--jobs", "10", "--seeds", "1", "--solvers", "greedy", "-q=true"}, ""},
		{"the value of a string flag", []string{"simulate", "--workload", "false"}, "--workload false: neither a generator (google, hedgefund, mustang, 2sigma, google2011-tasks, google2019-tasks, drift, 2sigma-dag, scalability-N) nor an existing file"},
		{"an argument after --", []string{"workload", "stats", "--", "false"}, "false: neither a generator (google, hedgefund, mustang, 2sigma, google2011-tasks, google2019-tasks, drift, 2sigma-dag, scalability-N) nor an existing file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCLI(t, tc.args...)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			checkUsageError(t, err, tc.want)
		})
	}
}

// TestListDefaultsInHelp: --help shows a list flag's default as the list
// is written on the command line: --slack's as 20,40,60,80.
func TestListDefaultsInHelp(t *testing.T) {
	for _, args := range [][]string{
		{"simulate"}, {"sweep"}, {"workload", "generate"}, {"workload", "stats"}, {"workload", "import"},
		{"predict", "eval"}, {"bench", "solver"}, {"bench", "cycle"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			out, _, err := runCLI(t, append(args, "--help")...)
			if err != nil && exitCode(err) != 0 {
				t.Fatal(err)
			}
			if strings.Contains(out, "(default [") {
				t.Errorf("a list default in brackets:\n%s", out)
			}
			if args[0] != "bench" && !strings.Contains(out, "(default 20,40,60,80)") {
				t.Errorf("--slack's default is not 20,40,60,80:\n%s", out)
			}
		})
	}
}

// TestHelpEndsWithAnExample: every command's --help ends with "Example:"
// and a command line, which runs (from the top of the repository, writing
// into a temporary directory).
func TestHelpEndsWithAnExample(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	commands := [][]string{
		{"simulate"}, {"sweep"}, {"workload", "generate"}, {"workload", "import"}, {"workload", "stats"},
		{"predict", "eval"}, {"bench", "solver"}, {"bench", "cycle"}, {"version"},
	}
	for _, cmd := range commands {
		t.Run(strings.Join(cmd, " "), func(t *testing.T) {
			out, _, err := runCLI(t, append(cmd, "--help")...)
			if err != nil && exitCode(err) != 0 {
				t.Fatal(err)
			}
			before, example, ok := strings.Cut(out, "\nExample:\n  ")
			if !ok || strings.TrimSpace(before) == "" || !strings.HasPrefix(example, "planner "+strings.Join(cmd, " ")) ||
				!strings.HasSuffix(example, "\n") || strings.Count(example, "\n") != 1 {
				t.Fatalf("--help does not end with an example of the command:\n%s", out)
			}
			args := strings.Fields(example)[1:]
			// The example runs where a checkout's files are: the
			// workloads (the README's example file) and the traces
			// of `make traces`.
			dir := t.TempDir()
			for _, sub := range []string{"workloads", "traces"} {
				if err := os.Symlink(filepath.Join(repo, sub), filepath.Join(dir, sub)); err != nil {
					t.Fatal(err)
				}
			}
			if cmd[0] == "workload" && cmd[1] == "import" {
				if _, err := os.Stat(filepath.Join(repo, "traces")); err != nil {
					t.Skip("no traces/ in this checkout (make traces)")
				}
			}
			t.Chdir(dir)
			if _, _, err := runCLI(t, args...); err != nil {
				t.Errorf("%s: %v", strings.TrimSpace(example), err)
			}
		})
	}
}

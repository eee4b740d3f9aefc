package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exampleWorkload is the workload file README.md shows, from this
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
	const problem = "neither a generator (google, hedgefund, mustang) nor an existing file"
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
		{"workload generate", []string{"workload", "generate", "--workload", "googel"}, `--workload: want a generator (google, hedgefund, mustang), got "googel"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCLI(t, tc.args...)
			checkUsageError(t, err, tc.want)
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

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestValueErrorsInWords: a value that does not parse — a list item, a
// number, a duration, a boolean, a --config file, a --best-known file — is
// a usage error naming the flag (or file) and the item, in words, without
// the parser's text ("strconv.Atoi: parsing \"\"", a bare "EOF").
func TestValueErrorsInWords(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	empty := write("empty.json", "")
	array := write("array.json", "[1, 2]")
	slack := write("slack.json", `{"slack": "20,,40"}`)
	nodes := write("nodes.json", `{"nodes": "many"}`)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"empty list item", []string{"bench", "solver", "--jobs", "10,,20"}, `--jobs: empty item in "10,,20"`},
		{"list item not a number", []string{"bench", "solver", "--jobs", "10,x"}, `--jobs: "x" is not a whole number`},
		{"empty seed", []string{"bench", "solver", "--seeds", "1,,3"}, `--seeds: empty item in "1,,3"`},
		{"seed not a number", []string{"bench", "solver", "--seeds", "x"}, `--seeds: "x" is not a whole number ≥ 0`},
		{"seed out of range", []string{"bench", "solver", "--seeds", "1-99999999999999999999"}, `--seeds: "99999999999999999999" is out of range`},
		{"negative seed", []string{"bench", "solver", "--seeds", "-5"}, `--seeds: "-5" is not a whole number ≥ 0`},
		{"open seed range", []string{"bench", "solver", "--seeds", "1-"}, `--seeds: seed range "1-" has no end`},
		{"no seeds", []string{"bench", "solver", "--seeds", ""}, `--seeds: give at least one seed`},
		{"model too large", []string{"bench", "solver", "--jobs", "99999999"}, `--jobs: instances: 99999999 jobs × 7 starts × 8 racks is too large a model`},
		{"cluster too large", []string{"bench", "solver", "--rack-nodes", "99999999"}, `--rack-nodes: instances: 8 racks × 99999999 nodes × 60 slices is too large a cluster`},
		{"model too large by its slices", []string{"bench", "solver", "--jobs", "1", "--slices", "9999999"}, `--slices: instances: 1 jobs × 7 starts × 8 racks × 9999999 slices is too large a model`},
		{"too many columns, slices not among their factors", []string{"bench", "solver", "--jobs", "600000", "--slices", "200000"}, `--jobs: instances: 600000 jobs × 7 starts × 8 racks is too large a model`},
		{"model too large by its racks", []string{"bench", "solver", "--racks", "100000"}, `--racks: instances: 300 jobs × 7 starts × 100000 racks is too large a model`},
		{"cluster too large by its racks", []string{"bench", "solver", "--jobs", "1", "--starts", "1", "--racks", "40000", "--rack-nodes", "1000", "--slices", "60"}, `--racks: instances: 40000 racks × 1000 nodes × 60 slices is too large a cluster`},
		{"empty best-known file", []string{"bench", "solver", "--best-known", empty}, "--best-known: " + empty + ": empty file (want the JSON of best-known objectives: a bench solver --format json output)"},
		{"whole number not a number", []string{"bench", "solver", "--racks", "many"}, `--racks: "many" is not a whole number`},
		{"whole number out of range", []string{"bench", "solver", "--racks", "99999999999999999999"}, `--racks: "99999999999999999999" is out of range`},
		{"number not a number", []string{"simulate", "--load", "high"}, `--load: "high" is not a number`},
		{"empty workload", []string{"simulate", "--workload", ""}, "--workload: empty; give a generator (google, hedgefund, mustang, 2sigma, google2011-tasks, google2019-tasks, drift, 2sigma-dag, scalability-N) or a workload file"},
		{"empty workload to summarise", []string{"workload", "stats", "--workload", " "}, "--workload: empty; give a generator (google, hedgefund, mustang, 2sigma, google2011-tasks, google2019-tasks, drift, 2sigma-dag, scalability-N) or a workload file"},
		{"config number not a number", []string{"simulate", "--config", nodes}, "--config " + nodes + `: nodes: "many" is not a whole number`},
		{"sweep value not a number", []string{"sweep", "--vary", "nodes=a,b"}, `--vary nodes=a: "a" is not a whole number`},
		{"empty slack item", []string{"simulate", "--slack", "20,,40"}, `--slack: empty item in "20,,40"`},
		{"negative seed of a run", []string{"simulate", "--seed", "-1"}, `--seed: "-1" is not a whole number ≥ 0`},
		{"number out of range", []string{"simulate", "--hours", "1e400"}, `--hours: "1e400" is out of range`},
		{"duration without unit", []string{"simulate", "--interval", "5"}, `--interval: "5" is not a duration (a number and a unit: 90s, 5m, 1h30m)`},
		{"duration out of range", []string{"simulate", "--interval", "9999999999h"}, `--interval: "9999999999h" is out of range`},
		{"duration out of range in parts", []string{"simulate", "--interval", "2000000h2000000h"}, `--interval: "2000000h2000000h" is out of range`},
		{"solve limit out of range", []string{"bench", "solver", "--timeout", "99999999999s"}, `--timeout: "99999999999s" is out of range`},
		{"sweep duration out of range", []string{"sweep", "--vary", "interval=1m,9999999999h"}, `--vary interval=9999999999h: "9999999999h" is out of range`},
		{"duration with an unknown unit", []string{"simulate", "--interval", "5d"}, `--interval: "5d" is not a duration (a number and a unit: 90s, 5m, 1h30m)`},
		{"not a boolean", []string{"simulate", "--quiet=maybe"}, `--quiet: "maybe" is not true or false`},
		{"empty config file", []string{"simulate", "--config", empty}, "--config " + empty + ": empty file (want a JSON object whose keys are flag names)"},
		{"config file not an object", []string{"simulate", "--config", array}, "--config " + array + ": not a JSON object whose keys are flag names: it holds a JSON array"},
		{"config list with an empty item", []string{"simulate", "--config", slack}, "--config " + slack + `: slack: empty item in "20,,40"`},
		{"sweep value with an empty item", []string{"sweep", "--vary", "slack=20/,40"}, `--vary slack=20/: empty item in "20/"`},
		{"sweep duration without unit", []string{"sweep", "--vary", "interval=1m,5"}, `--vary interval=5: "5" is not a duration (a number and a unit: 90s, 5m, 1h30m)`},
		{"import start not a number", []string{"workload", "import", "--format", "swf", "--start", "x", "t.swf"}, `--start: "x" is not a number`},
		{"predict nodes not a number", []string{"predict", "eval", "--nodes", "x"}, `--nodes: "x" is not a whole number`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCLI(t, tc.args...)
			checkUsageError(t, err, tc.want)
			if msg := err.Error(); strings.Contains(msg, "strconv") || strings.Contains(msg, "parsing") || strings.HasSuffix(msg, "EOF") {
				t.Errorf("error %q shows the parser's text", msg)
			}
		})
	}
}

// TestDurationForm: durationForm holds every duration time.ParseDuration
// reads (so that a value of it that does not parse is one too large) and
// none it refuses for its form.
func TestDurationForm(t *testing.T) {
	for _, s := range []string{"1h30m", "1.5s", ".5m", "5.m", "-1s", "+2h", "1µs", "1μs", "1us", "10ns", "0s", "2562047h"} {
		if _, err := time.ParseDuration(s); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if !durationForm.MatchString(s) {
			t.Errorf("%q does not match durationForm", s)
		}
	}
	for _, s := range []string{"", "5", "5d", ".s", "h", "1h 30m", " 1h", "1.2.3s", "--1s"} {
		if durationForm.MatchString(s) {
			t.Errorf("%q matches durationForm", s)
		}
	}
}

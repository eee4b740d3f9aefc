package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWholeNumbersAreDecimal: a whole-number flag — on the command line or
// in --config — reads base 10, leading zeros included: each command line
// prints what the one with the plain number prints (010 is 10, not 8; 08
// is 8, not an error).
func TestWholeNumbersAreDecimal(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "cfg.json")
	if err := os.WriteFile(cfg, []byte(`{"seed": "010", "nodes": 16}`), 0o644); err != nil {
		t.Fatal(err)
	}
	swf := filepath.Join(traceFixtures, "small.swf")
	sim := func(extra ...string) []string {
		return append([]string{"simulate", "--hours", "0.2", "--schedulers", "prio", "--quiet", "--format", "json"}, extra...)
	}
	gen := func(extra ...string) []string {
		return append([]string{"workload", "generate", "--hours", "0.1"}, extra...)
	}
	imp := func(extra ...string) []string {
		return append([]string{"workload", "import", "--format", "swf", swf, "--start", "0", "--hours", "0", "--quiet"}, extra...)
	}
	tests := []struct {
		name       string
		args, same []string
	}{
		{"simulate --seed 010", sim("--nodes", "16", "--seed", "010"), sim("--nodes", "16", "--seed", "10")},
		{"simulate --nodes 016", sim("--nodes", "016"), sim("--nodes", "16")},
		{"simulate --nodes 08", sim("--nodes", "08"), sim("--nodes", "8")},
		{"simulate seed 010 in --config", sim("--config", cfg), sim("--nodes", "16", "--seed", "10")},
		{"generate --seed 010 --nodes 016", gen("--seed", "010", "--nodes", "016"), gen("--seed", "10", "--nodes", "16")},
		{"import --seed 09 --nodes 016 --max-procs 08", imp("--seed", "09", "--nodes", "016", "--max-procs", "08"), imp("--seed", "9", "--nodes", "16", "--max-procs", "8")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _, err := runCLI(t, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			want, _, err := runCLI(t, tc.same...)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%v printed\n%s\nwant what %v prints:\n%s", tc.args, got, tc.same, want)
			}
		})
	}
}

// TestWholeNumbersNotDecimal: a whole number in another base (0x10, 0o7,
// 0b1) or with digit separators (1_000) is a usage error naming the flag
// and the value, on every whole-number flag of every command, in --config
// and in --vary. The command lines are quick ones, in case a value is
// taken.
func TestWholeNumbersNotDecimal(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "cfg.json")
	if err := os.WriteFile(cfg, []byte(`{"parallel": "0x10"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	swf := filepath.Join(traceFixtures, "small.swf")
	sim := func(extra ...string) []string {
		return append([]string{"simulate", "--nodes", "16", "--hours", "0.2", "--schedulers", "prio", "--quiet"}, extra...)
	}
	bench := func(extra ...string) []string {
		return append([]string{"bench", "solver", "--jobs", "5", "--seeds", "1", "--solvers", "greedy", "--quiet"}, extra...)
	}
	imp := func(extra ...string) []string {
		return append([]string{"workload", "import", "--format", "swf", swf, "--start", "0", "--hours", "0", "--quiet"}, extra...)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"simulate --nodes hex", sim("--nodes", "0x10"), `--nodes: "0x10" is not a whole number`},
		{"simulate --nodes separators", sim("--nodes", "1_6"), `--nodes: "1_6" is not a whole number`},
		{"simulate --seed octal", sim("--seed", "0o7"), `--seed: "0o7" is not a whole number ≥ 0`},
		{"simulate --parallel binary", sim("--parallel", "0b1"), `--parallel: "0b1" is not a whole number`},
		{"simulate --samples-per-feature hex", sim("--schedulers", "pointrealest", "--samples-per-feature", "0x5"), `--samples-per-feature: "0x5" is not a whole number`},
		{"simulate --parallel in --config", sim("--config", cfg), "--config " + cfg + `: parallel: "0x10" is not a whole number`},
		{"sweep --vary nodes hex", []string{"sweep", "--hours", "0.2", "--schedulers", "prio", "--quiet", "--vary", "nodes=0x10"}, `--vary nodes=0x10: "0x10" is not a whole number`},
		{"sweep --vary nodes with a leading zero", []string{"sweep", "--hours", "0.2", "--schedulers", "prio", "--quiet", "--vary", "nodes=016,16"}, `--vary nodes: "16" is given twice (as "016" first)`},
		{"bench --racks", bench("--racks", "0x2"), `--racks: "0x2" is not a whole number`},
		{"bench --rack-nodes", bench("--rack-nodes", "0x4"), `--rack-nodes: "0x4" is not a whole number`},
		{"bench --starts", bench("--starts", "0x3"), `--starts: "0x3" is not a whole number`},
		{"bench --slices", bench("--slices", "0x10"), `--slices: "0x10" is not a whole number`},
		{"bench --work", bench("--deterministic", "--work", "0x10"), `--work: "0x10" is not a whole number`},
		{"bench --jobs", bench("--jobs", "0x5"), `--jobs: "0x5" is not a whole number`},
		{"generate --nodes", []string{"workload", "generate", "--hours", "0.1", "--nodes", "0x10"}, `--nodes: "0x10" is not a whole number`},
		{"generate --seed", []string{"workload", "generate", "--hours", "0.1", "--nodes", "16", "--seed", "0x10"}, `--seed: "0x10" is not a whole number ≥ 0`},
		{"stats --nodes", []string{"workload", "stats", "--hours", "0.1", "--nodes", "0x10"}, `--nodes: "0x10" is not a whole number`},
		{"predict eval --seed", []string{"predict", "eval", "--hours", "0.1", "--nodes", "16", "--seed", "0x1"}, `--seed: "0x1" is not a whole number ≥ 0`},
		{"import --nodes", imp("--nodes", "0x10"), `--nodes: "0x10" is not a whole number`},
		{"import --max-procs", imp("--max-procs", "0x10"), `--max-procs: "0x10" is not a whole number`},
		{"import --seed", imp("--seed", "0x10"), `--seed: "0x10" is not a whole number ≥ 0`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCLI(t, tc.args...)
			checkUsageError(t, err, tc.want)
		})
	}
}

// TestWholeNumberHelp: --help shows a whole-number flag with the flag
// library's type name (int, uint) and its default, as before it was read in
// base 10; a zero default is not shown.
func TestWholeNumberHelp(t *testing.T) {
	tests := []struct {
		cmd       []string
		flag, typ string
		def       string // "" means not shown
	}{
		{[]string{"simulate"}, "nodes", "int", "256"},
		{[]string{"simulate"}, "seed", "uint", "1"},
		{[]string{"simulate"}, "samples-per-feature", "int", ""},
		{[]string{"sweep"}, "nodes", "int", "256"},
		{[]string{"bench", "solver"}, "racks", "int", "8"},
		{[]string{"bench", "solver"}, "work", "int", ""},
		{[]string{"workload", "generate"}, "seed", "uint", "1"},
		{[]string{"workload", "import"}, "max-procs", "int", ""},
		{[]string{"workload", "import"}, "nodes", "int", "256"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.cmd, " ")+" --"+tc.flag, func(t *testing.T) {
			out, _, err := runCLI(t, append(tc.cmd, "--help")...)
			if err != nil && exitCode(err) != 0 {
				t.Fatal(err)
			}
			var line string
			for _, l := range strings.Split(out, "\n") {
				if strings.HasPrefix(strings.TrimSpace(l), "--"+tc.flag+" ") {
					line = l
				}
			}
			if !strings.Contains(line, "--"+tc.flag+" "+tc.typ+" ") {
				t.Errorf("help line %q, want type %s", line, tc.typ)
			}
			switch {
			case tc.def != "" && !strings.HasSuffix(line, "(default "+tc.def+")"):
				t.Errorf("help line %q, want (default %s)", line, tc.def)
			case tc.def == "" && strings.HasSuffix(line, ")") && strings.Contains(line, "(default "):
				t.Errorf("help line %q shows a zero default", line)
			}
		})
	}
}

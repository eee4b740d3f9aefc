package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/plannerhq/planner/solver"
)

func TestMain(m *testing.M) {
	solver.RunWorkerIfRequested() // this test binary is the solver worker too
	os.Exit(m.Run())
}

func runCLI(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	err = run(args, &out, &errb)
	return out.String(), errb.String(), err
}

// checkUsageError fails t unless err is the usage error want: that
// whole one-line message, and exit status 2.
func checkUsageError(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
	if code := exitCode(err); code != 2 {
		t.Errorf("exit code %d, want 2", code)
	}
}

func TestVersionListsBackends(t *testing.T) {
	out, _, err := runCLI(t, "version")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, "planner ") {
		t.Errorf("version output starts %q", out)
	}
	for _, name := range solver.Backends() {
		if !strings.Contains(out, "  "+name+" ") {
			t.Errorf("version output does not list backend %s:\n%s", name, out)
		}
	}
	for lib, v := range solver.LibraryVersions() {
		if !strings.Contains(out, v) {
			t.Errorf("version output lacks the %s library version %q", lib, v)
		}
	}
}

// TestBenchSolverJSON also checks that nothing a C library prints reaches
// standard output: the JSON must parse.
func TestBenchSolverJSON(t *testing.T) {
	out, _, err := runCLI(t, "bench", "solver", "--jobs", "20", "--seeds", "1-2",
		"--timeout", "200ms", "--format", "json", "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, out)
	}
	if want := 2 * len(solver.Backends()); len(rows) != want {
		t.Fatalf("%d rows, want %d", len(rows), want)
	}
	for _, r := range rows {
		for _, f := range []string{"solver", "seed", "status", "objective", "bound", "gap_pct", "wall_ms"} {
			if _, ok := r[f]; !ok {
				t.Errorf("row lacks field %q: %v", f, r)
			}
		}
	}
}

func TestBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // in the error
	}{
		{"no command", nil, "no command"},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"version with an argument", []string{"version", "x"}, `version: unexpected argument "x"`},
		{"unknown solver", []string{"bench", "solver", "--solvers", "gurobi"}, `unknown backend "gurobi"`},
		{"no solver", []string{"bench", "solver", "--solvers", ""}, "--solvers: give at least one backend (this build has: " + strings.Join(solver.Backends(), ", ") + ")"},
		{"bad seeds", []string{"bench", "solver", "--seeds", "5-1"}, "runs backwards"},
		{"huge timeout", []string{"bench", "solver", "--timeout", "2562047h"}, "--timeout: must be in (0, 1h0m0s]"},
		{"negative reference", []string{"bench", "solver", "--reference", "-1s"}, "--reference: must be in [0, 1h0m0s]"},
		{"timed reference of a deterministic run", []string{"bench", "solver", "--deterministic", "--reference", "1s"}, "--reference: a timed reference solve would make a --deterministic run's best known (and % of best) depend on the machine"},
		{"bad format", []string{"bench", "solver", "--format", "xml"}, "--format"},
		{"zero jobs", []string{"bench", "solver", "--jobs", "0"}, "--jobs"},
		{"negative timeout", []string{"bench", "solver", "--timeout", "-1s"}, "--timeout"},
		{"bad racks", []string{"bench", "solver", "--racks", "0", "--seeds", "1"}, "racks"},
		{"starts beyond the slices", []string{"bench", "solver", "--starts", "8"}, "--starts: 8 start options"},
		{"starts past an int's shift", []string{"bench", "solver", "--starts", "100"}, "--starts: 100 start options"},
		{"too many slices", []string{"bench", "solver", "--slices", "1000000000"}, "slices is too large a model"},
		{"too many nodes", []string{"bench", "solver", "--rack-nodes", "1000000000"}, "too large a cluster"},
		{"too large, checked before the first solve", []string{"bench", "solver", "--jobs", "5,100000000", "--solvers", "greedy"}, "100000000 jobs"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCLI(t, tc.args...)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
			if exitCode(err) == 0 {
				t.Error("exit code 0")
			}
		})
	}
}

// TestBenchSolverGuardStopped: a deterministic solve that the --timeout
// guard cuts before it ends depends on the machine. Its row says
// so, the rows are still written, and the run exits 1.
func TestBenchSolverGuardStopped(t *testing.T) {
	out, _, err := runCLI(t, "bench", "solver", "--jobs", "300", "--seeds", "1", "--solvers", "greedy",
		"--deterministic", "--timeout", "1ms", "--format", "json", "--quiet")
	if want := "--timeout: the 1ms guard stopped 1 of 1 deterministic solves before they ended (guard_stopped)"; err == nil || !strings.HasPrefix(err.Error(), want) || exitCode(err) != 1 {
		t.Fatalf("error %v (exit %d), want one starting %q, exit 1", err, exitCode(err), want)
	}
	var rows []struct {
		GuardStopped bool `json:"guard_stopped"`
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 1 || !rows[0].GuardStopped {
		t.Fatalf("rows %+v (%v), want one with guard_stopped\n%s", rows, err, out)
	}
}

// failingWriter refuses every write, as a full disk does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestVersionWriteError: output that cannot be written is an error, not a
// silent exit 0.
func TestVersionWriteError(t *testing.T) {
	if err := runVersion(failingWriter{}); err == nil || !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("runVersion to a failing writer: %v", err)
	}
}

func TestParseSeeds(t *testing.T) {
	tests := []struct {
		in   string
		want []uint64
		bad  bool
	}{
		{in: "4", want: []uint64{4}},
		{in: "1-3", want: []uint64{1, 2, 3}},
		{in: "1,3,7-9", want: []uint64{1, 3, 7, 8, 9}},
		{in: "x", bad: true},
		{in: "3-1", bad: true},
		{in: "1-", bad: true},
		{in: "", bad: true},
		{in: "18446744073709551615", want: []uint64{18446744073709551615}},
		{in: "18446744073709551614-18446744073709551615", want: []uint64{18446744073709551614, 18446744073709551615}},
		{in: "1,1", bad: true},
		{in: "1-3,2", bad: true},
	}
	for _, tc := range tests {
		got, err := parseSeeds(tc.in)
		if tc.bad != (err != nil) {
			t.Errorf("parseSeeds(%q) error = %v", tc.in, err)
			continue
		}
		if !tc.bad && !slices.Equal(got, tc.want) {
			t.Errorf("parseSeeds(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestHelpFlags: --help on every command prints its usage and is not an
// error (exit status 0, no "help requested" line).
func TestHelpFlags(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "solver", "--help"},
		{"simulate", "--help"},
		{"sweep", "--help"},
		{"workload", "generate", "--help"},
		{"workload", "stats", "--help"},
		{"workload", "import", "--help"},
		{"predict", "eval", "--help"},
		{"simulate", "-h"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			stdout, stderr, err := runCLI(t, args...)
			if code := exitCode(err); err != nil && code != 0 {
				t.Fatalf("exit status %d: %v", code, err)
			}
			if !strings.Contains(stdout+stderr, "Usage") && !strings.Contains(stdout+stderr, "--") {
				t.Errorf("no usage printed: stdout %q stderr %q", stdout, stderr)
			}
		})
	}
}

// TestHelpToStdout: --help (or -h) on every command and command group,
// and 'planner help', print the usage to standard output, nothing to
// standard error, and exit 0.
func TestHelpToStdout(t *testing.T) {
	for _, args := range [][]string{
		{"--help"}, {"help"}, {"-h"},
		{"bench", "--help"}, {"bench", "-h"}, {"bench", "solver", "--help"},
		{"predict", "--help"}, {"predict", "-h"}, {"predict", "eval", "--help"},
		{"workload", "--help"}, {"workload", "-h"},
		{"workload", "generate", "--help"}, {"workload", "import", "--help"}, {"workload", "stats", "-h"},
		{"simulate", "--help"}, {"sweep", "--help"}, {"version", "--help"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			stdout, stderr, err := runCLI(t, args...)
			if err != nil && exitCode(err) != 0 {
				t.Fatalf("exit status %d: %v", exitCode(err), err)
			}
			if !strings.Contains(stdout, "Usage") && !strings.HasPrefix(stdout, "planner — ") {
				t.Errorf("no usage on stdout: %q", stdout)
			}
			if stderr != "" {
				t.Errorf("stderr %q, want nothing", stderr)
			}
		})
	}
}

// TestHelpCommand: 'planner help CMD [SUB]' prints what 'planner CMD [SUB]
// --help' prints; an unknown command or a flag is a usage error.
func TestHelpCommand(t *testing.T) {
	for _, args := range [][]string{
		{"simulate"}, {"sweep"}, {"serve"}, {"replay"}, {"slurm-bridge"},
		{"workload"}, {"workload", "import"}, {"bench", "cycle"}, {"predict", "eval"}, {"version"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			got, _, err := runCLI(t, append([]string{"help"}, args...)...)
			if err != nil && exitCode(err) != 0 {
				t.Fatalf("exit status %d: %v", exitCode(err), err)
			}
			want, _, err := runCLI(t, append(slices.Clone(args), "--help")...)
			if code := exitCode(err); err != nil && code != 0 {
				t.Fatalf("exit status %d: %v", code, err)
			}
			if got != want || !strings.Contains(got, "Usage") {
				t.Errorf("planner help %s printed\n%s\nwant\n%s", strings.Join(args, " "), got, want)
			}
		})
	}
	for _, args := range [][]string{{"bogus"}, {"simulate", "--schedulers"}} {
		_, _, err := runCLI(t, append([]string{"help"}, args...)...)
		if code := exitCode(err); code != 2 {
			t.Errorf("planner help %v: exit status %d (%v), want 2", args, code, err)
		}
	}
}

// TestHelpAfterACommand: 'help' after a command or command group is not a
// request for help, on any of them: it is an argument the command does not
// take (exit status 2).
func TestHelpAfterACommand(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "help"}, {"bench", "solver", "help"},
		{"predict", "help"}, {"predict", "eval", "help"},
		{"workload", "help"}, {"workload", "generate", "help"}, {"workload", "import", "help"},
		{"simulate", "help"}, {"sweep", "help"}, {"version", "help"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			stdout, _, err := runCLI(t, args...)
			if code := exitCode(err); code != 2 {
				t.Errorf("exit status %d (%v), want 2", code, err)
			}
			if strings.Contains(stdout, "Usage") {
				t.Errorf("usage printed: %q", stdout)
			}
		})
	}
}

// TestBenchDefaultSolvers: bench solver's default --solvers is every
// backend of the build, the default backend first where the build has it
// (a build without cgo has greedy alone; `make test` runs this test and
// TestBenchSolverJSON, a run with the default --solvers, in such a build).
func TestBenchDefaultSolvers(t *testing.T) {
	got := defaultBenchSolvers()
	if want := solver.Backends(); !slices.Equal(slices.Sorted(slices.Values(got)), want) {
		t.Fatalf("default --solvers %v, the build has %v", got, want)
	}
	if slices.Contains(solver.Backends(), solver.DefaultName) && got[0] != solver.DefaultName {
		t.Errorf("default --solvers %v: want %s first", got, solver.DefaultName)
	}
}

func TestVersionFromBuildInfo(t *testing.T) {
	info := func(v string) *debug.BuildInfo { return &debug.BuildInfo{Main: debug.Module{Version: v}} }
	for _, tc := range []struct {
		name, linked string
		info         *debug.BuildInfo
		want         string
	}{
		{"go install @v0.2.0", devVersion, info("v0.2.0"), "0.2.0"},
		{"a checkout's pseudo-version", devVersion, info("v0.0.0-20260101120000-0123456789ab+dirty"), "0.0.0-20260101120000-0123456789ab+dirty"},
		{"devel", devVersion, info("(devel)"), devVersion},
		{"no build info", devVersion, nil, devVersion},
		{"-X wins", "1.0.0", info("v0.2.0"), "1.0.0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := versionFrom(tc.linked, tc.info); got != tc.want {
				t.Errorf("versionFrom(%q, %v) = %q, want %q", tc.linked, tc.info, got, tc.want)
			}
		})
	}
}

package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/registry"
)

// tinySweep is a quick sweep setting: 16 nodes, 20 minutes, two prio
// schedulers.
var tinySweep = []string{"--nodes", "16", "--hours", "0.34", "--schedulers", "prio,prio-nopreempt", "--quiet", "--parallel", "2"}

func sweepArgs(extra ...string) []string {
	return append(append([]string{}, tinySweep...), extra...)
}

// countingSchedulers is the scheduler registry with every factory counting
// the runs it builds.
func countingSchedulers(n *atomic.Int64) planner.Registry {
	reg := registry.Default()
	for i := range reg {
		f := reg[i].New
		reg[i].New = func(o planner.Options) (planner.Scheduler, error) {
			n.Add(1)
			return f(o)
		}
	}
	return reg
}

// runCounting runs the command line args as runCLI does, simulate and
// sweep with a registry that counts in built the schedulers they build;
// counted is false for the other commands, which build none.
func runCounting(t *testing.T, built *atomic.Int64, args ...string) (counted bool, err error) {
	t.Helper()
	switch args[0] {
	case "simulate":
		return true, runSimulateWith(context.Background(), args[1:], io.Discard, io.Discard, countingSchedulers(built))
	case "sweep":
		return true, runSweepWith(context.Background(), args[1:], io.Discard, io.Discard, countingSchedulers(built))
	}
	_, _, err = runCLI(t, args...)
	return false, err
}

func sweepCLI(t *testing.T, reg planner.Registry, args ...string) (string, error) {
	t.Helper()
	var out, errb strings.Builder
	err := runSweepWith(context.Background(), args, &out, &errb, reg)
	return out.String(), err
}

type sweepJSON struct {
	Config map[string]any
	Runs   []struct {
		Scheduler string
		Seed      uint64
		Params    struct {
			Load  float64
			Sweep struct{ Flag, Value string }
		}
		Metrics map[string]*float64
	}
	Means []struct{ Scheduler, Value string }
}

func TestSweepJSONAndResume(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sweep")
	var built atomic.Int64
	reg := countingSchedulers(&built)
	args := sweepArgs("--vary", "load=0.8,1.4", "--seeds", "1-2", "--format", "json", "--out", dir)
	out, err := sweepCLI(t, reg, args...)
	if err != nil {
		t.Fatal(err)
	}
	var rep sweepJSON
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v in\n%s", err, out)
	}
	// 2 values × 2 seeds × 2 schedulers, in (value, seed, scheduler) order.
	if len(rep.Runs) != 8 || built.Load() != 8 {
		t.Fatalf("%d runs, %d built; want 8", len(rep.Runs), built.Load())
	}
	for i, r := range rep.Runs {
		value := []string{"0.8", "1.4"}[i/4]
		if r.Scheduler != []string{"prio", "prio-nopreempt"}[i%2] || r.Seed != uint64(1+i/2%2) ||
			r.Params.Sweep.Flag != "load" || r.Params.Sweep.Value != value || r.Params.Load != map[string]float64{"0.8": 0.8, "1.4": 1.4}[value] {
			t.Errorf("run %d: %+v", i, r)
		}
		if r.Metrics["slo_miss_rate"] == nil {
			t.Errorf("run %d lacks slo_miss_rate", i)
		}
	}
	if len(rep.Means) != 4 || rep.Config["vary"] != "load" {
		t.Errorf("means %+v, config %v", rep.Means, rep.Config)
	}
	for _, f := range []string{"results.json", "report.md", "slo_miss_rate.png", "slo_miss_rate.svg", "goodput_machine_hours.png", "goodput_machine_hours.svg"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	if !strings.Contains(string(md), "planner sweep "+strings.Join(args, " ")) {
		t.Errorf("report.md does not state the command:\n%s", md)
	}

	// The same sweep again: nothing is computed, the output is the same.
	built.Store(0)
	again, err := sweepCLI(t, reg, args...)
	if err != nil {
		t.Fatal(err)
	}
	if built.Load() != 0 || again != out {
		t.Errorf("resumed sweep built %d runs (want 0); output equal: %v", built.Load(), again == out)
	}
	// A changed flag invalidates every point.
	built.Store(0)
	if _, err := sweepCLI(t, reg, sweepArgs("--vary", "load=0.8,1.4", "--seeds", "1-2", "--format", "json", "--out", dir, "--interval", "30s")...); err != nil {
		t.Fatal(err)
	}
	if built.Load() != 8 {
		t.Errorf("after changing --interval %d runs built, want 8", built.Load())
	}
}

// TestSweepSolverTimeoutPoints: in deterministic mode the default solve
// timeout and the same timeout given (75% of the 1 m interval) are the same
// configuration, stored once: a timeout sets only the guard against a
// runaway solve there, and no solve of the planner comes near it.
func TestSweepSolverTimeoutPoints(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sweep")
	var built atomic.Int64
	args := []string{"--nodes", "16", "--hours", "0.34", "--schedulers", "3sigma", "--quiet",
		"--vary", "solver-timeout=0s,45s", "--format", "json", "--out", dir}
	out, err := sweepCLI(t, countingSchedulers(&built), args...)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Runs []struct {
			Params struct {
				SolverTimeoutS float64 `json:"solver_timeout_s"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v in\n%s", err, out)
	}
	if len(rep.Runs) != 2 {
		t.Fatalf("%d runs reported, want 2", len(rep.Runs))
	}
	for i, r := range rep.Runs {
		if r.Params.SolverTimeoutS != 45 {
			t.Errorf("run %d: solver_timeout_s %v, want 45", i, r.Params.SolverTimeoutS)
		}
	}
	points, err := os.ReadDir(filepath.Join(dir, "points"))
	if err != nil || len(points) != 1 {
		t.Errorf("%d stored points (%v), want 1", len(points), err)
	}
}

func TestSweepStudyAndFormats(t *testing.T) {
	var n atomic.Int64
	out, err := sweepCLI(t, countingSchedulers(&n), sweepArgs("--study", "slack", "--vary", "slack=20,100/180", "--format", "csv")...)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "slack,scheduler,workload,seed,slo_miss_rate,") || !strings.HasPrefix(lines[3], "100/180,prio,") {
		t.Errorf("csv:\n%s", out)
	}
	// A flag only the planning schedulers read needs one of them.
	out, err = sweepCLI(t, countingSchedulers(&n), "--nodes", "16", "--hours", "0.34", "--schedulers", "prio,pointrealest", "--quiet", "--parallel", "2", "--vary", "solver-timeout=10ms,1s")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "SLO miss %") || !strings.Contains(out, "10ms") {
		t.Errorf("table:\n%s", out)
	}
}

func TestSweepBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"nothing to vary", sweepArgs(), "--vary"},
		{"unknown flag", sweepArgs("--vary", "loads=1,2"), "unknown simulate flag --loads"},
		{"no equals", sweepArgs("--vary", "load"), "want FLAG=v1,v2"},
		{"no values", sweepArgs("--vary", "load="), "no values"},
		{"empty value", sweepArgs("--vary", "load=1,,2"), `--vary load: empty item in "1,,2"`},
		{"bad value", sweepArgs("--vary", "load=1,x"), "--vary load=x"},
		{"invalid value", sweepArgs("--vary", "load=1,-1"), "--load: must be > 0"},
		{"bad duration", sweepArgs("--vary", "solver-timeout=1s,soon"), "--vary solver-timeout=soon"},
		{"repeated value", sweepArgs("--vary", "load=1,1"), "given twice"},
		{"not variable", sweepArgs("--vary", "parallel=1,2"), "does not change results"},
		{"varied and given", sweepArgs("--vary", "hours=1,2", "--hours", "1"), "both varied and given"},
		{"unknown study", sweepArgs("--study", "speed"), "unknown study"},
		{"study of another flag", sweepArgs("--study", "slack", "--vary", "load=1"), "study slack varies --slack"},
		{"bad seeds", sweepArgs("--vary", "load=1", "--seeds", "3-1"), "--seeds"},
		{"seed and seeds", sweepArgs("--vary", "load=1", "--seeds", "1-2", "--seed", "4"), "not both"},
		{"synthetic with samples", sweepArgs("--vary", "synthetic-shift=0,10", "--synthetic", "--samples-per-feature", "5"), "--samples-per-feature"},
		{"synthetic shift too large", sweepArgs("--vary", "synthetic-shift=0,1e308", "--synthetic"), "--synthetic-shift: must be a percentage in (-100, 10000]"},
		{"synthetic width too large", sweepArgs("--vary", "synthetic-cov=20,1e5", "--synthetic"), "--synthetic-cov: must be in [0, 10000] percent"},
		{"sub-second interval", sweepArgs("--vary", "interval=1ns,1m"), "--interval: must be ≥ 1s"},
		{"vary twice", sweepArgs("--vary", "hours=0.25,0.5", "--vary", "load=1"), `--vary: given twice ("hours=0.25,0.5", then "load=1")`},
		{"study twice", sweepArgs("--study", "load", "--study", "slack"), `--study: given twice ("load", then "slack")`},
		{"seeds twice", sweepArgs("--vary", "load=1", "--seeds", "1", "--seeds", "2"), `--seeds: given twice ("1", then "2")`},
		{"no seeds", sweepArgs("--vary", "load=1", "--seeds="), "--seeds: give at least one seed"},
		{"unknown executor", sweepArgs("--vary", "load=1", "--executor", "cloud"), `--executor: want local or slurm, got "cloud"`},
		{"slurm without out", sweepArgs("--vary", "load=1", "--executor", "slurm"), "--executor slurm: give --out DIR"},
		{"sbatch options locally", sweepArgs("--vary", "load=1", "--sbatch-arg=--partition=x"), "--sbatch-arg: only the slurm executor"},
		{"vary the executor", sweepArgs("--vary", "executor=local,slurm"), "unknown simulate flag --executor"},
		{"array points without out", sweepArgs("--vary", "load=1", "--array-points", "0"), "--array-points: give --out DIR"},
		{"bad array points", sweepArgs("--vary", "load=1", "--array-points", "0,x", "--out", "o"), "--array-points 0,x: want point indices"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var n atomic.Int64
			_, err := sweepCLI(t, countingSchedulers(&n), tc.args...)
			if err == nil {
				t.Fatal("accepted")
			}
			if msg := err.Error(); !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
				t.Errorf("error %q, want one line containing %q", msg, tc.want)
			}
			if exitCode(err) != 2 {
				t.Errorf("exit code %d, want 2", exitCode(err))
			}
			if n.Load() != 0 {
				t.Errorf("%d runs built before the error", n.Load())
			}
		})
	}
}

// TestSimulateEstimateFlags: the synthetic and sample-limited estimates
// reach the 3sigma variants (their results change) and are reported.
func TestSimulateEstimateFlags(t *testing.T) {
	args := []string{"simulate", "--nodes", "16", "--hours", "0.5", "--quiet", "--schedulers", "pointrealest", "--format", "json"}
	base, _, err := runCLI(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	for _, extra := range [][]string{{"--synthetic", "--synthetic-shift", "60", "--synthetic-cov", "0"}, {"--samples-per-feature", "1"}} {
		out, _, err := runCLI(t, append(args, extra...)...)
		if err != nil {
			t.Fatal(err)
		}
		var rep struct {
			Runs []struct{ Params map[string]any }
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		p := rep.Runs[0].Params
		if (extra[0] == "--synthetic") != (p["synthetic"] != nil) || (extra[0] == "--samples-per-feature") != (p["samples_per_feature"] == 1.0) {
			t.Errorf("%v: params %v", extra, p)
		}
		if out == base {
			t.Errorf("%v changed nothing", extra)
		}
	}
}

// Sweeps run on every generator, and settings of a --config file count as
// given: a study does not replace them with its own.
func TestSweepGeneratorsAndConfig(t *testing.T) {
	for _, w := range []string{"hedgefund", "mustang"} {
		var n atomic.Int64
		out, err := sweepCLI(t, countingSchedulers(&n), sweepArgs("--workload", w, "--vary", "load=1.0", "--format", "csv")...)
		if err != nil || n.Load() != 2 || !strings.Contains(out, ","+w+",") {
			t.Errorf("--workload %s: %d runs, err %v, out:\n%s", w, n.Load(), err, out)
		}
	}
	cfg := filepath.Join(t.TempDir(), "cfg.json")
	if err := os.WriteFile(cfg, []byte(`{"schedulers": ["prio"], "nodes": 16, "hours": 0.34}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	out, err := sweepCLI(t, countingSchedulers(&n), "--config", cfg, "--study", "load", "--vary", "load=1.0", "--format", "csv", "--quiet")
	if err != nil || n.Load() != 1 || strings.Contains(out, "3sigma") {
		t.Errorf("study with --config: %d runs (want 1, prio only), err %v, out:\n%s", n.Load(), err, out)
	}
	// A seed set by the file conflicts with --seeds, and the error says
	// where the seed came from.
	seeded := filepath.Join(t.TempDir(), "seeded.json")
	if err := os.WriteFile(seeded, []byte(`{"seed": 3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = sweepCLI(t, countingSchedulers(&n), "--config", seeded, "--seeds", "1-2", "--vary", "load=1,2")
	if want := "--seeds: give --seed or --seeds, not both (--config " + seeded + " sets seed)"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

// TestSweepOut: a --out that cannot be a directory fails before any run,
// and one whose files cannot be written still gets the results to
// standard output first.
func TestSweepOut(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "afile")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	blocked := filepath.Join(dir, "blocked")
	if err := os.MkdirAll(filepath.Join(blocked, "results.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		out        string
		want       string
		runs       int64 // built
		wantStdout bool
	}{
		{"a file", file, "--out: mkdir " + file + ": not a directory", 0, false},
		{"results.json a directory", blocked, "--out: " + filepath.Join(blocked, "results.json") + ": is a directory", 4, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var n atomic.Int64
			out, err := sweepCLI(t, countingSchedulers(&n), sweepArgs("--vary", "load=1,2", "--format", "csv", "--out", tc.out)...)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if n.Load() != tc.runs {
				t.Errorf("%d runs built, want %d", n.Load(), tc.runs)
			}
			if got := strings.HasPrefix(out, "load,scheduler,"); got != tc.wantStdout {
				t.Errorf("results on stdout: %v, want %v:\n%s", got, tc.wantStdout, out)
			}
		})
	}
}

// TestSweepWorkloadsCSV: a sweep over workload files names its first CSV
// column vary_workload (the files as given), apart from the workload
// column (their base names).
func TestSweepWorkloadsCSV(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, seed := range []string{"1", "2"} {
		f := filepath.Join(dir, "w"+seed+".jsonl")
		if _, _, err := runCLI(t, "workload", "generate", "--hours", "0.25", "--nodes", "16", "--seed", seed, "-o", f); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	var n atomic.Int64
	out, err := sweepCLI(t, countingSchedulers(&n), "--schedulers", "prio", "--quiet", "--format", "csv",
		"--vary", "workload="+strings.Join(files, ","))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "vary_workload,scheduler,workload,seed,") ||
		!strings.HasPrefix(lines[1], files[0]+",prio,w1.jsonl,") {
		t.Errorf("csv:\n%s", out)
	}
}

// TestSweepOneTiming: on its own the rule puts the planners on the cycle
// at 180% deadline slack and on events at 20%; a sweep over both gives
// every point events, says so in each run, and keys its stored runs by it.
func TestSweepOneTiming(t *testing.T) {
	for _, tc := range []struct {
		slack, want string
	}{{"180", "cycle"}, {"20,180", "events"}} {
		t.Run(tc.slack, func(t *testing.T) {
			out, err := sweepCLI(t, registry.Default(), "--nodes", "16", "--hours", "0.2", "--schedulers", "3sigma", "--quiet",
				"--vary", "slack="+tc.slack, "--format", "json")
			if err != nil {
				t.Fatal(err)
			}
			var rep struct {
				Runs []struct {
					Params struct {
						Decisions       string
						DecisionsReason string `json:"decisions_reason"`
						Sweep           struct{ Value string }
					}
				}
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Runs) != strings.Count(tc.slack, ",")+1 {
				t.Fatalf("%v in\n%s", err, out)
			}
			for _, r := range rep.Runs {
				p := r.Params
				if p.Decisions != tc.want || !strings.Contains(p.DecisionsReason, "one timing for every point of the sweep") {
					t.Errorf("slack %s decided %q (%q), want %s for the whole sweep", p.Sweep.Value, p.Decisions, p.DecisionsReason, tc.want)
				}
			}
		})
	}
}

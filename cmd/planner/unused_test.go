package main

import (
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/plannerhq/planner/planner/registry"
)

// tinyWorkloadFile writes a generated 16-node, half-hour workload file.
func tinyWorkloadFile(t *testing.T) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "w.jsonl")
	if _, _, err := runCLI(t, "workload", "generate", "--nodes", "16", "--hours", "0.5", "-o", file); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestFlagsWithoutEffect: a flag given where it does nothing — a
// generator flag with a workload file, a synthetic-estimate flag without
// --synthetic, a solver or estimate flag that no chosen scheduler reads —
// is a usage error naming it (and the --config file that set it); given
// where it acts, it is accepted (a sweep needs one point where it acts).
func TestFlagsWithoutEffect(t *testing.T) {
	file := tinyWorkloadFile(t)
	// Another file, so that a sweep of files has two values.
	file2 := file + "2"
	if data, err := os.ReadFile(file); err != nil || os.WriteFile(file2, data, 0o644) != nil {
		t.Fatal("copy of the workload file", err)
	}
	cfg := filepath.Join(t.TempDir(), "cfg.json")
	if err := os.WriteFile(cfg, []byte(`{"workload": "`+file+`", "load": 1.2}`), 0o644); err != nil {
		t.Fatal(err)
	}
	solverCfg := filepath.Join(t.TempDir(), "solver.json")
	if err := os.WriteFile(solverCfg, []byte(`{"solver": "greedy"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	simWith := func(schedulers string, extra ...string) []string {
		return append([]string{"simulate", "--schedulers", schedulers, "--quiet", "--format", "json"}, extra...)
	}
	sim := func(extra ...string) []string { return simWith("prio", extra...) }
	sweepWith := func(schedulers string, extra ...string) []string {
		return append([]string{"sweep", "--schedulers", schedulers, "--quiet", "--format", "csv", "--parallel", "1"}, extra...)
	}
	sweep := func(extra ...string) []string { return sweepWith("prio", extra...) }
	tiny := []string{"--nodes", "16", "--hours", "0.34"}
	tests := []struct {
		name string
		args []string
		want string // the whole error; "" means accepted
	}{
		{"simulate file and --nodes", sim("--workload", file, "--nodes", "16"), "--nodes: not used with --workload (the workload file sets the cluster)"},
		{"simulate file and --hours", sim("--workload", file, "--hours", "0.5"), "--hours: not used with --workload (the workload file sets the window)"},
		{"simulate file and --load", sim("--workload", file, "--load", "1.4"), "--load: not used with --workload (the workload file sets the arrivals)"},
		{"simulate file and --slack", sim("--workload", file, "--slack", "20"), "--slack: not used with --workload (the workload file sets the deadlines)"},
		{"simulate file and load in --config", sim("--config", cfg), "--config " + cfg + ": load: not used with --workload (the workload file sets the arrivals)"},
		{"simulate file and --seed", sim("--workload", file, "--seed", "2"), ""},
		{"simulate --synthetic-shift alone", sim("--nodes", "16", "--hours", "0.34", "--synthetic-shift", "10"), "--synthetic-shift: has no effect without --synthetic"},
		{"simulate --synthetic-cov alone", sim("--nodes", "16", "--hours", "0.34", "--synthetic-cov", "0"), "--synthetic-cov: has no effect without --synthetic"},
		{"simulate --synthetic-cov=20 with --synthetic=false", simWith("pointrealest", "--nodes", "16", "--hours", "0.34", "--synthetic=false", "--synthetic-cov", "20"), "--synthetic-cov: has no effect without --synthetic"},

		{"simulate prio and --solver", sim(append(tiny, "--solver", "greedy")...), "--solver: no scheduler in --schedulers plans with a solver (prio)"},
		{"simulate baselines and --solver-timeout", simWith("prio-nopreempt,backfill,backfill-pred", append(tiny, "--solver-timeout", "2s")...), "--solver-timeout: no scheduler in --schedulers plans with a solver (prio-nopreempt, backfill, backfill-pred)"},
		{"simulate prio and --horizon", sim(append(tiny, "--horizon", "1h")...), "--horizon: no scheduler in --schedulers plans with a solver (prio)"},
		{"simulate prio and --solver-timeout=0", sim(append(tiny, "--solver-timeout=0")...), "--solver-timeout: no scheduler in --schedulers plans with a solver (prio)"},
		{"simulate prio and --solver in --config", sim(append(tiny, "--config", solverCfg)...), "--config " + solverCfg + ": solver: no scheduler in --schedulers plans with a solver (prio)"},
		{"simulate prio and --synthetic", sim(append(tiny, "--synthetic")...), "--synthetic: no 3sigma variant in --schedulers plans with 3σPredict's estimates (prio)"},
		{"simulate prio and --synthetic-cov with --synthetic", sim(append(tiny, "--synthetic", "--synthetic-cov", "10")...), "--synthetic: no 3sigma variant in --schedulers plans with 3σPredict's estimates (prio)"},
		{"simulate backfill-pred and --samples-per-feature", simWith("backfill-pred", append(tiny, "--samples-per-feature", "5")...), "--samples-per-feature: no 3sigma variant in --schedulers plans with 3σPredict's estimates (backfill-pred)"},
		{"simulate pointperfest and --synthetic", simWith("pointperfest", append(tiny, "--synthetic")...), "--synthetic: no 3sigma variant in --schedulers plans with 3σPredict's estimates (pointperfest)"},
		{"simulate pointperfest and --solver", simWith("prio,pointperfest", append(tiny, "--solver", "greedy", "--horizon", "30m")...), ""},
		{"simulate pointrealest and --samples-per-feature", simWith("prio,pointrealest", append(tiny, "--samples-per-feature", "5", "--solver-timeout", "10ms")...), ""},
		{"simulate prio and --fallback", sim(append(tiny, "--fallback", "gs")...), "--fallback: no scheduler in --schedulers falls back from a solve (prio)"},
		{"simulate prio and --solver-fail-rate", sim(append(tiny, "--solver-fail-rate", "0.1")...), "--solver-fail-rate: no scheduler in --schedulers plans with a solver (prio)"},
		{"simulate pointperfest with --solver none and --fallback", simWith("prio,pointperfest", append(tiny, "--solver", "none", "--fallback", "slearn")...), ""},
		{"simulate pointperfest with --solver-fail-rate", simWith("pointperfest", append(tiny, "--solver-fail-rate", "0.5", "--fallback", "prio")...), ""},

		{"sweep of --load on a file", sweep("--workload", file, "--vary", "load=1,2"), "--vary load: not used with --workload (the workload file sets the arrivals)"},
		{"sweep on a file with --nodes", sweep("--workload", file, "--nodes", "16", "--vary", "interval=30s,1m"), "--nodes: not used with --workload (the workload file sets the cluster)"},
		{"study nodes on a file", sweep("--workload", file, "--study", "nodes"), "--study nodes (it varies --nodes): not used with --workload (the workload file sets the cluster)"},
		{"sweep of --synthetic-shift alone", sweep("--nodes", "16", "--hours", "0.34", "--vary", "synthetic-shift=0,10"), "--vary synthetic-shift: has no effect without --synthetic"},
		{"sweep with --synthetic-cov alone", sweep("--nodes", "16", "--hours", "0.34", "--synthetic-cov", "10", "--vary", "load=1,2"), "--synthetic-cov: has no effect without --synthetic"},
		{"study shift with --synthetic=false", sweepWith("pointrealest", "--nodes", "16", "--hours", "0.34", "--study", "shift", "--synthetic=false"), "--study shift (it varies --synthetic-shift): has no effect without --synthetic"},
		// The study fixes --hours 2, which a file ignores: not an error.
		{"study shift on a file", sweepWith("prio,pointrealest", "--workload", file, "--study", "shift", "--vary", "synthetic-shift=0"), ""},
		{"study shift of prio", sweep("--workload", file, "--study", "shift"), "--study shift (it varies --synthetic-shift): no 3sigma variant in --schedulers plans with 3σPredict's estimates (prio)"},
		{"study samples of prio", sweep(append(tiny, "--study", "samples")...), "--study samples (it varies --samples-per-feature): no 3sigma variant in --schedulers plans with 3σPredict's estimates (prio)"},
		{"sweep of --solver-timeout for baselines", sweepWith("prio,backfill", append(tiny, "--vary", "solver-timeout=10ms,1s")...), "--vary solver-timeout: no scheduler in --schedulers plans with a solver (prio, backfill)"},
		{"sweep on a file with load in --config", sweep("--config", cfg, "--vary", "interval=30s,1m"), "--config " + cfg + ": load: not used with --workload (the workload file sets the arrivals)"},
		{"sweep of prio with --solver in --config", sweep(append(tiny, "--config", solverCfg, "--vary", "load=1,2")...), "--config " + solverCfg + ": solver: no scheduler in --schedulers plans with a solver (prio)"},
		{"sweep with --horizon for prio", sweep(append(tiny, "--horizon", "1h", "--vary", "load=1,2")...), "--horizon: no scheduler in --schedulers plans with a solver (prio)"},
		{"sweep with --solver for prio and pointrealest", sweepWith("prio,pointrealest", append(tiny, "--solver", "greedy", "--vary", "load=1")...), ""},
		// --nodes acts on the generator's points.
		{"sweep of a generator and a file with --nodes", sweep("--nodes", "16", "--hours", "0.34", "--vary", "workload=google,"+file), ""},
		{"sweep of files only with --nodes", sweep("--nodes", "16", "--vary", "workload="+file+","+file2), "--nodes: not used with --workload (the workload file sets the cluster)"},

		{"stats of a file with --hours", []string{"workload", "stats", file, "--hours", "1"}, "--hours: not used with --workload (the workload file sets the window)"},
		{"stats of a file with --load", []string{"workload", "stats", file, "--load", "1"}, "--load: not used with --workload (the workload file sets the arrivals)"},
		{"stats of a file with --seed", []string{"workload", "stats", file, "--seed", "3"}, "--seed: not used with --workload (it seeds a generator)"},
		{"stats of a file with --nodes", []string{"workload", "stats", file, "--nodes", "64"}, ""},
		{"predict eval of a file with --nodes", []string{"predict", "eval", "--workload", file, "--nodes", "16"}, "--nodes: not used with --workload (the workload file sets the cluster)"},
		{"predict eval of a file with --seed", []string{"predict", "eval", "--workload", file, "--seed", "2"}, "--seed: not used with --workload (it seeds a generator)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var built atomic.Int64
			counted, err := runCounting(t, &built, tc.args...)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			checkUsageError(t, err, tc.want)
			if counted && built.Load() != 0 {
				t.Errorf("%d runs built before the error", built.Load())
			}
		})
	}
}

// TestStudiesUseTheirFlags: every study, with the schedulers it fixes,
// varies a flag they read.
func TestStudiesUseTheirFlags(t *testing.T) {
	for _, st := range studies {
		t.Run(st.name, func(t *testing.T) {
			reg := registry.Default()
			fs, base := newSimulateFlags("sweep", io.Discard, reg)
			if err := parseFlags(fs, nil); err != nil {
				t.Fatal(err)
			}
			if _, err := planSweep(fs, base, sweepFlags{study: st.name}, reg); err != nil {
				t.Fatal(err)
			}
		})
	}
}

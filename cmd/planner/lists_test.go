package main

import (
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/plannerhq/planner/planner/registry"
)

// TestDuplicates: a list naming a scheduler, a solver or an instance size
// twice, and a sweep given one value twice in different spellings, are
// usage errors naming the flag and the item: each would run twice.
func TestDuplicates(t *testing.T) {
	file := tinyWorkloadFile(t)
	cfg := filepath.Join(t.TempDir(), "cfg.json")
	if err := os.WriteFile(cfg, []byte(`{"schedulers": ["prio", "prio"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"simulate schedulers", []string{"simulate", "--schedulers", "prio,prio"}, "--schedulers: prio is given twice"},
		{"simulate schedulers in --config", []string{"simulate", "--config", cfg}, "--config " + cfg + ": schedulers: prio is given twice"},
		{"sweep schedulers", []string{"sweep", "--schedulers", "prio,backfill,prio", "--vary", "load=1,2"}, "--schedulers: prio is given twice"},
		{"bench solvers", []string{"bench", "solver", "--solvers", "greedy,greedy"}, "--solvers: greedy is given twice"},
		{"bench seeds", []string{"bench", "solver", "--seeds", "1-3,2", "--solvers", "greedy"}, "--seeds: 2 is given twice"},
		{"bench seeds", []string{"bench", "solver", "--seeds", "4,4", "--solvers", "greedy"}, "--seeds: 4 is given twice"},
		{"sweep seeds", []string{"sweep", "--seeds", "1,2,1", "--vary", "load=1,2"}, "--seeds: 1 is given twice"},
		{"bench jobs", []string{"bench", "solver", "--jobs", "10,20,10", "--solvers", "greedy"}, "--jobs: 10 is given twice"},
		{"sweep value", []string{"sweep", "--vary", "load=1,2,1"}, `--vary load: "1" is given twice`},
		{"sweep numbers", []string{"sweep", "--vary", "load=1,1.0"}, `--vary load: "1.0" is given twice (as "1" first)`},
		{"sweep hours", []string{"sweep", "--vary", "hours=0.5,.50"}, `--vary hours: ".50" is given twice (as "0.5" first)`},
		{"sweep durations", []string{"sweep", "--vary", "interval=60s,1m"}, `--vary interval: "1m" is given twice (as "60s" first)`},
		{"sweep lists", []string{"sweep", "--vary", "slack=20/40,20/40.0"}, `--vary slack: "20/40.0" is given twice (as "20/40" first)`},
		{"sweep files", []string{"sweep", "--vary", "workload=" + file + "," + filepath.Dir(file) + "/./w.jsonl"}, `--vary workload: "` + filepath.Dir(file) + `/./w.jsonl" is given twice (as "` + file + `" first)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var built atomic.Int64
			counted, err := runCounting(t, &built, append(tc.args, "--quiet")...)
			checkUsageError(t, err, tc.want)
			if counted && built.Load() != 0 {
				t.Errorf("%d runs built before the error", built.Load())
			}
		})
	}
}

// TestSweepValuesThatDiffer: values that differ, however little, are not
// the same value given twice.
func TestSweepValuesThatDiffer(t *testing.T) {
	for _, vary := range []string{"slack=20.0000001,20.0000004", "slack=20/40.0000001,20/40.0000004", "load=1.0000001,1.0000004", "hours=0.5,0.5000001"} {
		t.Run(vary, func(t *testing.T) {
			reg := registry.Default()
			fs, base := newSimulateFlags("sweep", io.Discard, reg)
			if err := parseFlags(fs, nil); err != nil {
				t.Fatal(err)
			}
			p, err := planSweep(fs, base, sweepFlags{vary: vary}, reg)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if len(p.points) != 2 {
				t.Errorf("%d points, want 2", len(p.points))
			}
		})
	}
}

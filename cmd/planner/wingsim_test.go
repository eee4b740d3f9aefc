package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWingSimulateJSON: the JSON carries the metric names, the
// same flags give the same bytes, and at nominal capacity every policy
// completes nearly every job.
func TestWingSimulateJSON(t *testing.T) {
	args := []string{"wing", "simulate", "--scale", "0.5", "--capacity", "100,20", "--schedulers", "prio-user,wing-agg", "--format", "json"}
	out, _, err := runCLI(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	again, _, err := runCLI(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	if out != again {
		t.Fatal("the same flags gave different JSON")
	}
	var r struct {
		Runs  []map[string]any `json:"runs"`
		Means []map[string]any `json:"means"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Runs) != 4 || len(r.Means) != 4 {
		t.Fatalf("%d runs and %d means, want 4 each", len(r.Runs), len(r.Means))
	}
	for _, run := range r.Runs {
		for _, k := range []string{"value_attained", "jobs_failed", "jobs_failed_share", "priority_inversions"} {
			if _, ok := run[k]; !ok {
				t.Errorf("no %q in a run", k)
			}
		}
		if v := run["value_attained"].(float64); v < 0 || v > 1 {
			t.Errorf("value_attained %v outside [0, 1]", v)
		}
		if run["capacity_pct"].(float64) == 100 && run["jobs_failed_share"].(float64) > 0.01 {
			t.Errorf("%v fails %v of the jobs at 100 %%", run["scheduler"], run["jobs_failed_share"])
		}
	}
}

func TestWingSimulateBadFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"wing", "simulate", "--queues", "flat"}, `--queues: unknown queue mode "flat" (want hierarchical or global)`},
		{[]string{"wing", "simulate", "--capacity", "0"}, `--capacity: "0" is not a percentage in [1, 100]`},
		{[]string{"wing", "simulate", "--capacity", "20,x"}, `--capacity: "x" is not a percentage in [1, 100]`},
		{[]string{"wing", "simulate", "--seeds", "1,-2"}, `--seeds: "-2" is not a seed`},
		{[]string{"wing", "simulate", "--schedulers", "prio"}, `--schedulers: unknown data-lake scheduler "prio"`},
		{[]string{"wing", "simulate", "--format", "csv"}, `--format: want table or json, got "csv"`},
		{[]string{"wing", "simulate", "extra"}, `wing simulate: unexpected argument "extra"`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, _, err := runCLI(t, tt.args...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
}

// TestWingSimulateOut: --out writes the sweep's files.
func TestWingSimulateOut(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := runCLI(t, "wing", "simulate", "--scale", "0.25", "--capacity", "100,40", "--schedulers", "prio-user,wing-agg", "--out", dir); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"sweep.json", "sweep.csv", "value.svg", "failed.svg"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || len(b) == 0 {
			t.Errorf("%s: %v, %d bytes", f, err, len(b))
		}
	}
}

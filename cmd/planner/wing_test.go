package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestWingProfileJSON: the JSON carries the names, the same
// flags give the same bytes, and the calibration holds on the default
// lake.
func TestWingProfileJSON(t *testing.T) {
	args := []string{"wing", "profile", "--workload", "datalake", "--seed", "2", "--format", "json"}
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
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"recurring_jobs_share", "jobs_with_upstream_share", "cross_org_share", "edge_precision", "edge_recall", "value_per_iteration"} {
		if _, ok := r[k]; !ok {
			t.Errorf("no %q in the JSON", k)
		}
	}
	for _, tg := range r["targets"].([]any) {
		if m := tg.(map[string]any); m["met"] != true {
			t.Errorf("target %v not met: %v", m["name"], m["measured"])
		}
	}
	if its := r["value_per_iteration"].([]any); len(its) < 2 {
		t.Errorf("value per iteration %v", its)
	}
}

func TestWingProfileTable(t *testing.T) {
	out, _, err := runCLI(t, "wing", "profile", "--scale", "0.5")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"recurring jobs", "edge precision", "Algorithm 1:", "iteration"} {
		if !strings.Contains(out, s) {
			t.Errorf("no %q in the table:\n%s", s, out)
		}
	}
}

// TestWingBadFlags: every bad input is one line naming it, exit status 2.
func TestWingBadFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"wing"}, "wing: the subcommands are 'wing profile' and 'wing simulate'"},
		{[]string{"wing", "prof"}, "wing: the subcommands are 'wing profile' and 'wing simulate'"},
		{[]string{"wing", "profile", "--workload", "google"}, `--workload: unknown workload "google" (wing profile reads datalake)`},
		{[]string{"wing", "profile", "--format", "csv"}, `--format: want table or json, got "csv"`},
		{[]string{"wing", "profile", "--scale", "0.1"}, "--scale: must be in [0.25, 8], got 0.1"},
		{[]string{"wing", "profile", "--scale", "NaN"}, "--scale: must be in [0.25, 8], got NaN"},
		{[]string{"wing", "profile", "--tr", "-1"}, "--tr: must be in [0, 1], got -1"},
		{[]string{"wing", "profile", "--seed", "-3"}, `--seed: "-3" is not a whole number ≥ 0`},
		{[]string{"wing", "profile", "extra"}, `wing profile: unexpected argument "extra"`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, _, err := runCLI(t, tt.args...)
			checkUsageError(t, err, tt.want)
		})
	}
}

func TestWingHelp(t *testing.T) {
	for _, args := range [][]string{{"wing", "--help"}, {"wing", "profile", "--help"}} {
		out, stderr, err := runCLI(t, args...)
		if err != nil && exitCode(err) != 0 {
			t.Fatalf("%v: %v", args, err)
		}
		if !strings.Contains(out, "Usage: planner wing profile") || stderr != "" {
			t.Errorf("%v: stdout %q stderr %q", args, out, stderr)
		}
	}
	out, _, _ := runCLI(t, "wing", "profile", "--help")
	if !strings.HasSuffix(out, "\nExample:\n  "+wingExample+"\n") {
		t.Errorf("wing profile --help does not end with its example:\n%s", out)
	}
}

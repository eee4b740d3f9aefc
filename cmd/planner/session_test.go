package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/planner/registry"
)

// TestLogFile: --log-level debug --log-file F writes one parseable JSON
// line per cycle (message "cycle"), with the cycle's fields.
func TestLogFile(t *testing.T) {
	dir := t.TempDir()
	logPath := filepath.Join(dir, "run.log")
	out, _, err := runCLI(t, simArgs("--schedulers", "pointperfest", "--format", "json", "--log-level", "debug", "--log-file", logPath)...)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Runs []struct{ Metrics map[string]float64 }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cycles, starts, info := 0, 0, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var line map[string]any
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		switch line["message"] {
		case "cycle":
			cycles++
			for _, k := range []string{"t", "pending", "running", "solved", "fallback", "objective", "solve_ms", "cycle_ms", "scheduler"} {
				if _, ok := line[k]; !ok {
					t.Fatalf("cycle line without %s: %s", k, sc.Text())
				}
			}
		case "start":
			starts++
		case "run started", "run finished":
			info++
		}
	}
	if want := int(rep.Runs[0].Metrics["cycles"]); cycles != want || want == 0 {
		t.Errorf("%d cycle lines, the run had %d cycles", cycles, want)
	}
	if starts == 0 || info != 2 {
		t.Errorf("%d start lines, %d run lines", starts, info)
	}
}

func TestLogFlagErrors(t *testing.T) {
	_, _, err := runCLI(t, simArgs("--log-level", "verbose")...)
	checkUsageError(t, err, `--log-level: want one of error, warn, info, debug, got "verbose"`)
	_, _, err = runCLI(t, simArgs("--log-file", filepath.Join(t.TempDir(), "no", "such", "dir", "f.log"))...)
	if err == nil || !strings.HasPrefix(err.Error(), "--log-file: ") {
		t.Errorf("error %v", err)
	}
}

// TestResultsProvenance: results.json carries the provenance; standard
// output does not, so that it stays byte-identical.
func TestResultsProvenance(t *testing.T) {
	dir := t.TempDir()
	out, _, err := runCLI(t, simArgs("--schedulers", "prio", "--format", "json", "--out", dir)...)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "provenance") {
		t.Error("standard output carries the provenance")
	}
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Provenance map[string]any
		Runs       []any
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"planner_version", "vcs_modified", "go_version", "solver_libraries", "command", "start", "wall_s", "host"} {
		if _, ok := rep.Provenance[k]; !ok {
			t.Errorf("provenance without %s: %v", k, rep.Provenance)
		}
	}
	if cmd, _ := rep.Provenance["command"].([]any); len(cmd) < 2 || cmd[0] != "planner" || cmd[1] != "simulate" {
		t.Errorf("command %v", rep.Provenance["command"])
	}
	if len(rep.Runs) != 1 {
		t.Errorf("%d runs", len(rep.Runs))
	}
}

// TestOutCheckedFirst: an --out that cannot be written fails before any
// simulation runs.
func TestOutCheckedFirst(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := runCLI(t, simArgs("--schedulers", "prio", "--out", filepath.Join(file, "sub"))...)
	if err == nil || !strings.HasPrefix(err.Error(), "--out: ") {
		t.Fatalf("error %v", err)
	}
	if os.Getuid() != 0 { // root writes anywhere
		ro := filepath.Join(t.TempDir(), "ro")
		if err := os.Mkdir(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		_, _, err = runCLI(t, simArgs("--schedulers", "prio", "--out", ro)...)
		if err == nil || !strings.Contains(err.Error(), "cannot write into it") {
			t.Errorf("read-only --out: %v", err)
		}
	}
}

// TestInterruptWritesFinishedRuns: a simulate interrupted while its second
// scheduler runs writes the first one's results, says so, and exits 130.
func TestInterruptWritesFinishedRuns(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reg := registry.Default()
	reg = append(reg, planner.Policy{Name: "interrupter", New: func(planner.Options) (planner.Scheduler, error) {
		return &plannertest.Func{SchedName: "interrupter", F: func(*planner.State) (*planner.Decision, error) {
			cancel() // the user presses Ctrl-C during this run
			return &planner.Decision{}, nil
		}}, nil
	}})
	dir := t.TempDir()
	var out, errb bytes.Buffer
	err := runSimulateWith(ctx, simArgs("--schedulers", "prio,interrupter", "--parallel", "1", "--format", "json", "--out", dir)[1:], &out, &errb, reg)
	if !errors.Is(err, errInterrupted) || exitCode(err) != 130 {
		t.Fatalf("error %v (exit %d), want interrupted, exit 130", err, exitCode(err))
	}
	if !strings.Contains(err.Error(), "1 of 2 runs had finished") {
		t.Errorf("message %q", err)
	}
	var rep struct{ Runs []struct{ Scheduler string } }
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || len(rep.Runs) != 1 || rep.Runs[0].Scheduler != "prio" {
		t.Errorf("output %s (%v)", out.String(), err)
	}
	if _, err := os.Stat(filepath.Join(dir, "results.json")); err != nil {
		t.Error(err)
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".*"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plannerhq/planner/service/slurm/slurmtest"
)

// sweepSlurmArgs is a small sweep: two loads × two seeds × two schedulers.
var sweepSlurmArgs = []string{"sweep", "--vary", "load=1.0,1.4", "--seeds", "1-2", "--nodes", "16", "--hours", "0.5",
	"--schedulers", "prio,3sigma", "--parallel", "1", "--quiet", "--format", "json"}

// storedRuns are the stored runs of a sweep's --out: each file's "run"
// object by file name (the key of its configuration); the provenance,
// which says where and when it was computed, left out.
func storedRuns(t *testing.T, out string) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(out, "points", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	runs := map[string]string{}
	for _, f := range files {
		var st struct {
			Run json.RawMessage `json:"run"`
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &st); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		runs[filepath.Base(f)] = string(st.Run)
	}
	return runs
}

// withoutProvenance is a results.json without its provenance.
func withoutProvenance(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	delete(m, "provenance")
	out, _ := json.Marshal(m)
	return string(out)
}

// arrays are the job arrays of a slurm sweep's --out: the element count
// of each, in submission order.
func arrays(t *testing.T, out string) []int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(out, "slurm", "*_*.out"))
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	var ids []string
	for _, f := range files {
		id, _, _ := strings.Cut(filepath.Base(f), "_")
		if count[id] == 0 {
			ids = append(ids, id)
		}
		count[id]++
	}
	slices.SortFunc(ids, func(a, b string) int {
		x, _ := strconv.Atoi(a)
		y, _ := strconv.Atoi(b)
		return x - y
	})
	var n []int
	for _, id := range ids {
		n = append(n, count[id])
	}
	return n
}

// TestSweepOnSlurm: --executor slurm computes a sweep's points as a job
// array of a real Slurm on loopback, each element this (test) binary, and
// reports the results of the local executor byte for byte; with runs
// removed, it resumes as the local executor does, submitting only their
// points.
func TestSweepOnSlurm(t *testing.T) {
	cl := slurmtest.Start(t, slurmtest.Options{Nodes: 4})
	poll := slurmPoll
	slurmPoll = time.Second // the loopback arrays end in seconds
	t.Cleanup(func() { slurmPoll = poll })
	for _, kv := range cl.Env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	// The array's elements run this test binary as the planner binary.
	t.Setenv("PLANNER_TEST_MAIN", "1")

	local := filepath.Join(t.TempDir(), "local")
	want, stderr, err := runCLI(t, append(sweepSlurmArgs, "--out", local)...)
	if err != nil {
		t.Fatalf("local: %v\n%s", err, stderr)
	}
	onSlurm := filepath.Join(t.TempDir(), "slurm")
	args := append(slices.Clone(sweepSlurmArgs), "--out", onSlurm, "--executor", "slurm")
	got, stderr, err := runCLI(t, args...)
	if err != nil {
		t.Fatalf("slurm: %v\n%s", err, stderr)
	}
	if got != want {
		t.Errorf("the slurm executor's results differ from the local one's:\n%s\nwant\n%s", got, want)
	}
	wantRuns := storedRuns(t, local)
	if len(wantRuns) != 8 {
		t.Fatalf("the local sweep stored %d runs, want 8", len(wantRuns))
	}
	check := func(when string) {
		t.Helper()
		gotRuns := storedRuns(t, onSlurm)
		for name, w := range wantRuns {
			if g, ok := gotRuns[name]; !ok {
				t.Errorf("%s: run %s is not stored", when, name)
			} else if g != w {
				t.Errorf("%s: run %s is %s, want %s", when, name, g, w)
			}
		}
		if len(gotRuns) != len(wantRuns) {
			t.Errorf("%s: %d runs stored, want %d", when, len(gotRuns), len(wantRuns))
		}
		if g, w := withoutProvenance(t, filepath.Join(onSlurm, "results.json")), withoutProvenance(t, filepath.Join(local, "results.json")); g != w {
			t.Errorf("%s: results.json differs from the local one's", when)
		}
	}
	check("first")
	if got := arrays(t, onSlurm); !slices.Equal(got, []int{4}) {
		t.Errorf("job arrays of %v elements, want one of 4 (the points)", got)
	}

	// Two runs of one point lost, one of another: resuming submits those
	// two points only.
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range wantRuns {
			if !yield(n) {
				return
			}
		}
	})
	removed := 0
	for _, n := range names {
		var st struct {
			Run struct {
				Scheduler string `json:"scheduler"`
				Seed      uint64 `json:"seed"`
				Params    struct {
					Load float64 `json:"load"`
				} `json:"params"`
			} `json:"run"`
		}
		b, _ := os.ReadFile(filepath.Join(onSlurm, "points", n))
		if err := json.Unmarshal(b, &st); err != nil {
			t.Fatal(err)
		}
		r := st.Run
		if (r.Params.Load == 1 && r.Seed == 1) || (r.Params.Load == 1.4 && r.Seed == 2 && r.Scheduler == "prio") {
			if err := os.Remove(filepath.Join(onSlurm, "points", n)); err != nil {
				t.Fatal(err)
			}
			removed++
		}
	}
	if removed != 3 {
		t.Fatalf("removed %d runs, want 3", removed)
	}
	again, stderr, err := runCLI(t, args...)
	if err != nil {
		t.Fatalf("resumed: %v\n%s", err, stderr)
	}
	if again != want {
		t.Errorf("the resumed sweep's results differ from the local one's:\n%s\nwant\n%s", again, want)
	}
	check("resumed")
	if got := arrays(t, onSlurm); !slices.Equal(got, []int{4, 2}) {
		t.Errorf("job arrays of %v elements, want 4 then 2 (the points with a run lost)", got)
	}
	// Nothing missing: nothing submitted.
	if _, stderr, err := runCLI(t, args...); err != nil {
		t.Fatalf("complete: %v\n%s", err, stderr)
	}
	if got := arrays(t, onSlurm); !slices.Equal(got, []int{4, 2}) {
		t.Errorf("a complete sweep submitted a job array: %v", got)
	}
}

// TestSweepArrayElementOutsideSlurm: an element of the job array needs
// its index from Slurm, and an index of its points.
func TestSweepArrayElementOutsideSlurm(t *testing.T) {
	out := t.TempDir()
	for _, tc := range []struct{ task, want string }{
		{"", `--array-points: SLURM_ARRAY_TASK_ID is "", want an index of its 2 points`},
		{"unset", `--array-points: no array index: none of SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX, PBS_ARRAY_INDEX, LSB_JOBINDEX is set`},
		{"2", `--array-points: SLURM_ARRAY_TASK_ID is "2", want an index of its 2 points`},
	} {
		t.Setenv("SLURM_ARRAY_TASK_ID", tc.task)
		if tc.task == "unset" {
			os.Unsetenv("SLURM_ARRAY_TASK_ID") // t.Setenv restores it
		}
		_, _, err := runCLI(t, append(slices.Clone(sweepSlurmArgs), "--out", out, "--array-points", "0,3")...)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("SLURM_ARRAY_TASK_ID=%q: error %v, want %q", tc.task, err, tc.want)
		}
	}
	t.Setenv("SLURM_ARRAY_TASK_ID", "1")
	if _, _, err := runCLI(t, append(slices.Clone(sweepSlurmArgs), "--out", out, "--array-points", "0,9")...); err == nil ||
		err.Error() != "--array-points: point 9, the sweep has 4" {
		t.Errorf("point out of range: %v", err)
	}
	t.Setenv("SLURM_ARRAY_TASK_ID", "0")
	logFile := filepath.Join(t.TempDir(), "sweep.log")
	_, stderr, err := runCLI(t, "sweep", "--vary", "load=1.0,1.4", "--nodes", "16", "--hours", "0.25", "--schedulers", "prio",
		"--parallel", "1", "--out", out, "--log-file", logFile, "--array-points", "1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(logFile); !os.IsNotExist(err) {
		t.Errorf("an element wrote the sweep's --log-file (%v); it logs to its output", err)
	}
	if runs := storedRuns(t, out); len(runs) != 1 || !strings.Contains(stderr, "sweep: point load=1.4 seed 1: 1 runs computed, 0 reused") {
		t.Errorf("an element stored %d runs, want the 1 of its point; stderr:\n%s", len(runs), stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "results.json")); !os.IsNotExist(err) {
		t.Errorf("an element wrote results.json (%v); the executor that submitted it reports", err)
	}
}

// TestSweepIndexedElements: the sweep's points computed by one process
// per index, each told its index as a Kubernetes Indexed Job (or PBS, or
// LSF) tells it, then reported by the local executor, give the local
// executor's results and stored runs.
func TestSweepIndexedElements(t *testing.T) {
	local := filepath.Join(t.TempDir(), "local")
	want, _, err := runCLI(t, append(slices.Clone(sweepSlurmArgs), "--out", local)...)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, env string
		first     int // the index of the first element
	}{{"kubernetes", "JOB_COMPLETION_INDEX", 0}, {"pbs", "PBS_ARRAY_INDEX", 0}, {"lsf", "LSB_JOBINDEX", 1}} {
		t.Run(tc.name, func(t *testing.T) {
			for _, v := range arrayIndexVars {
				t.Setenv(v, "")
				os.Unsetenv(v)
			}
			out := filepath.Join(t.TempDir(), "indexed")
			for k := range 4 { // the sweep's 4 points: 2 loads × 2 seeds
				t.Setenv(tc.env, strconv.Itoa(tc.first+k))
				if _, stderr, err := runCLI(t, append(slices.Clone(sweepSlurmArgs), "--out", out, "--array-points", "0,1,2,3")...); err != nil {
					t.Fatalf("%s=%d: %v\n%s", tc.env, tc.first+k, err, stderr)
				}
			}
			os.Unsetenv(tc.env)
			got, _, err := runCLI(t, append(slices.Clone(sweepSlurmArgs), "--out", out)...)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("results differ from the local executor's:\n%s\nwant\n%s", got, want)
			}
			if g, w := storedRuns(t, out), storedRuns(t, local); !maps.Equal(g, w) {
				t.Errorf("%d runs stored, differing from the local executor's %d", len(g), len(w))
			}
		})
	}
}

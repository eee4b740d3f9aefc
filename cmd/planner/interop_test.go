package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/plannerhq/planner/experiments"
	"github.com/plannerhq/planner/solver"
	"github.com/plannerhq/planner/workloads/traces"
)

// csvRows reads the CSV file at path, header first.
func csvRows(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

// column is the named column of rows (header first), for the rows of
// scheduler when the table has a scheduler column, keyed by key's column.
func column(rows [][]string, scheduler, key, name string) map[string]string {
	s, k, c := slices.Index(rows[0], "scheduler"), slices.Index(rows[0], key), slices.Index(rows[0], name)
	out := map[string]string{}
	for _, r := range rows[1:] {
		if s < 0 || r[s] == scheduler {
			out[r[k]] = r[c]
		}
	}
	return out
}

// TestBatsimWorkloadImportsAndRuns: a Batsim workload of 50 delay jobs
// imports, runs, and comes out as a Batsim jobs file whose node intervals
// hold each job's resources, with the Batsim ids in jobs.csv.
func TestBatsimWorkloadImportsAndRuns(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "w.jsonl")
	_, stderr, err := runCLI(t, "workload", "import", "--format", "batsim", filepath.Join(traceFixtures, "batsim-50.json"),
		"--start", "0", "--hours", "0", "--nodes", "32", "--racks", "4", "-o", file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "50 jobs kept, 2 filtered") {
		t.Errorf("import report:\n%s", stderr)
	}
	out := filepath.Join(dir, "out")
	if _, _, err := runCLI(t, "simulate", "--workload", file, "--schedulers", "prio,backfill", "--parallel", "1", "--quiet", "--out", out); err != nil {
		t.Fatal(err)
	}
	src := column(csvRows(t, filepath.Join(out, "jobs.csv")), "backfill", "job_id", "source_id")
	for _, sched := range []string{"prio", "backfill"} {
		rows := csvRows(t, filepath.Join(out, "jobs-"+sched+".batsim.csv"))
		if !slices.Equal(rows[0], experiments.BatsimJobsHeader) || len(rows) != 51 {
			t.Fatalf("%s: header %v, %d rows; want Batsim's and 50 jobs", sched, rows[0], len(rows)-1)
		}
		alloc, req := slices.Index(rows[0], "allocated_resources"), slices.Index(rows[0], "requested_number_of_resources")
		state := slices.Index(rows[0], "final_state")
		done := 0
		for _, r := range rows[1:] {
			if r[state] != "COMPLETED_SUCCESSFULLY" {
				continue // never started within the simulated span: no nodes
			}
			done++
			n := 0
			for _, iv := range strings.Fields(r[alloc]) {
				lo, hi, _ := strings.Cut(iv, "-")
				a, _ := strconv.Atoi(lo)
				b := a
				if hi != "" {
					b, _ = strconv.Atoi(hi)
				}
				n += b - a + 1
			}
			if strconv.Itoa(n) != r[req] {
				t.Errorf("%s job %s: allocated %q holds %d nodes, requested %s", sched, r[0], r[alloc], n, r[req])
			}
		}
		if done < 25 {
			t.Errorf("%s: %d of the 50 jobs completed, want at least half", sched, done)
		}
	}
	ids := map[string]bool{}
	for _, s := range src {
		ids[s] = true
	}
	if len(ids) != 50 || ids[""] {
		t.Errorf("jobs.csv source ids %v, want the 50 Batsim ids", src)
	}
}

// TestSWFRoundTripWaits: an SWF log imported, simulated and exported as
// SWF gives, imported again, the waits of jobs.csv; the trace's job
// numbers are jobs.csv's source ids.
func TestSWFRoundTripWaits(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "w.jsonl")
	if _, _, err := runCLI(t, "workload", "import", "-q", "--format", "swf", filepath.Join(traceFixtures, "small.swf"),
		"--start", "0", "--hours", "0", "--nodes", "16", "--load", "0.8", "-o", file); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if _, _, err := runCLI(t, "simulate", "--workload", file, "--schedulers", "backfill", "--parallel", "1", "--quiet", "--out", out); err != nil {
		t.Fatal(err)
	}
	jobs := csvRows(t, filepath.Join(out, "jobs.csv"))
	waits := column(jobs, "backfill", "job_id", "wait_s")
	src := column(jobs, "backfill", "job_id", "source_id")
	var got []string
	for id := range len(src) {
		got = append(got, src[strconv.Itoa(id)])
	}
	if want := []string{"1", "4", "7", "8"}; !slices.Equal(got, want) {
		t.Errorf("source ids %v, want the SWF job numbers %v", got, want)
	}
	tr, err := traces.Read(traces.FormatSWF, filepath.Join(out, "schedule-backfill.swf"), traces.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	started := 0
	for _, w := range waits {
		if w != "" {
			started++
		}
	}
	if len(tr.Records) != started || started == 0 {
		t.Fatalf("re-import kept %d jobs (filtered %v), want the %d that ran", len(tr.Records), tr.Filtered, started)
	}
	for _, r := range tr.Records {
		n, _ := strconv.Atoi(r.SourceID)
		id := strconv.Itoa(n - 1)
		if w := strconv.FormatFloat(r.Wait, 'g', -1, 64); w != waits[id] {
			t.Errorf("job %s: SWF wait %s, jobs.csv %s", id, w, waits[id])
		}
	}
}

// TestSacctImports: a sacct --parsable2 --allocations sample of 20
// completed jobs imports whole.
func TestSacctImports(t *testing.T) {
	file := filepath.Join(t.TempDir(), "w.jsonl")
	_, stderr, err := runCLI(t, "workload", "import", "--format", "sacct", filepath.Join(traceFixtures, "sacct-20.txt"),
		"--start", "0", "--hours", "0", "--nodes", "16", "-o", file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "20 jobs kept") || !strings.Contains(stderr, "20 jobs, 0 history jobs") {
		t.Errorf("import report:\n%s", stderr)
	}
}

// TestWorkloadMetaCarriedThrough: a workload file's meta objects (the
// header's and a job's) reach the JSON report and jobs.csv; a meta that
// is not an object is an error naming the line.
func TestWorkloadMetaCarriedThrough(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "w.jsonl")
	if _, _, err := runCLI(t, "workload", "import", "-q", "--format", "batsim", filepath.Join(traceFixtures, "batsim-50.json"),
		"--start", "0", "--hours", "0", "--nodes", "32", "--racks", "4", "-o", file); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(string(b), "\n", 2)
	withMeta := strings.TrimSuffix(lines[0], "}") + `,"meta":{"site":"test","platform":{"nb_res":32}}}` + "\n" + lines[1]
	if err := os.WriteFile(file, []byte(withMeta), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	stdout, _, err := runCLI(t, "simulate", "--workload", file, "--schedulers", "prio", "--parallel", "1", "--quiet", "--format", "json", "--out", out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, `"workload_meta": {`) || !strings.Contains(stdout, `"site": "test"`) {
		t.Errorf("JSON report lacks the workload's meta:\n%.600s", stdout)
	}
	metas := column(csvRows(t, filepath.Join(out, "jobs.csv")), "prio", "source_id", "meta")
	if metas["4"] != `{"extra":{"queue":"big"}}` {
		t.Errorf("jobs.csv meta of Batsim job 4 = %q", metas["4"])
	}
	bad := strings.Replace(withMeta, `"meta":{"site":"test","platform":{"nb_res":32}}`, `"meta":[1]`, 1)
	if err := os.WriteFile(file, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = runCLI(t, "simulate", "--workload", file, "--schedulers", "prio", "--quiet")
	if err == nil || !strings.Contains(err.Error(), "line 1") || !strings.Contains(err.Error(), "meta must be a JSON object") {
		t.Errorf("a meta array: error %v", err)
	}
}

// TestSimulateWithoutCSolvers: every scheduler runs in a build without
// the C solver libraries (CGO_ENABLED=0, `make test` runs this test so):
// the planners fall back to the greedy backend with one warning, not an
// error; a build with them prints none.
func TestSimulateWithoutCSolvers(t *testing.T) {
	_, stderr, err := runCLI(t, "simulate", "--schedulers", "3sigma", "--hours", "1", "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	want := solver.Fallback()
	if n := strings.Count(stderr, "warning: this build has no C solver libraries"); (want == "" && n != 0) || (want != "" && n != 1) {
		t.Errorf("stderr has the fallback warning %d times (this build's: %q):\n%s", n, want, stderr)
	}
}

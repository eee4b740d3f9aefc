package experiments

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/plannerhq/planner/workloads/traces"
)

// readCSV reads a whole CSV file as rows.
func readCSV(t *testing.T, path string) [][]string {
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

// procSet parses an interval set as evalys's ProcSet.from_str does:
// space-separated "a-b" or "a" with a ≤ b, none overlapping. It returns
// the nodes in ascending order.
func procSet(t *testing.T, s string) []int {
	t.Helper()
	var out []int
	for _, tok := range strings.Fields(s) {
		lo, hi, rng := strings.Cut(tok, "-")
		a, err := strconv.Atoi(lo)
		b := a
		if err == nil && rng {
			b, err = strconv.Atoi(hi)
		}
		if err != nil || b < a || (len(out) > 0 && a <= out[len(out)-1]) {
			t.Fatalf("allocated_resources %q: bad interval %q", s, tok)
		}
		for n := a; n <= b; n++ {
			out = append(out, n)
		}
	}
	return out
}

// jobsCSVWaits are jobs.csv's wait_s of scheduler's jobs, by job id ("" when
// the job never started).
func jobsCSVWaits(t *testing.T, dir, scheduler string) map[string]string {
	t.Helper()
	rows := readCSV(t, filepath.Join(dir, "jobs.csv"))
	col := slices.Index(rows[0], "wait_s")
	waits := map[string]string{}
	for _, r := range rows[1:] {
		if r[0] == scheduler {
			waits[r[1]] = r[col]
		}
	}
	return waits
}

// TestBatsimJobsEvalysShape reads jobs-<scheduler>.batsim.csv the way
// evalys's JobSet.from_csv does (pandas read_csv: job_id a string,
// allocated_resources a ProcSet, every other column but final_state a
// number, empty as NaN) and checks Batsim's definitions: the waits are
// jobs.csv's, the times add up, a job's intervals cover its
// requested_number_of_resources nodes exactly, and two jobs running at
// once never share a node.
func TestBatsimJobsEvalysShape(t *testing.T) {
	in := randomInput(5, 200, 3*3600)
	rep := runReport(t, in, 1, "prio", "prio-preempt")
	dir := t.TempDir()
	if err := rep.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	for _, sched := range []string{"prio", "prio-preempt"} {
		rows := readCSV(t, filepath.Join(dir, "jobs-"+sched+".batsim.csv"))
		if !slices.Equal(rows[0], BatsimJobsHeader) {
			t.Fatalf("%s: header %v", sched, rows[0])
		}
		if len(rows)-1 != len(in.Jobs) {
			t.Fatalf("%s: %d rows, want one per job (%d)", sched, len(rows)-1, len(in.Jobs))
		}
		col := func(name string) int { return slices.Index(BatsimJobsHeader, name) }
		waits := jobsCSVWaits(t, dir, sched)
		type span struct {
			start, end float64
			nodes      []int
		}
		var spans []span
		completed := 0
		for _, r := range rows[1:] {
			num := map[string]float64{}
			for i, name := range BatsimJobsHeader {
				switch name {
				case "job_id", "workload_name", "final_state", "allocated_resources":
					continue
				}
				v := math.NaN()
				if r[i] != "" {
					var err error
					if v, err = strconv.ParseFloat(r[i], 64); err != nil {
						t.Fatalf("%s job %s: %s %q is not a number", sched, r[0], name, r[i])
					}
				}
				num[name] = v
			}
			if r[col("workload_name")] != in.Name {
				t.Errorf("workload_name %q, want %q", r[col("workload_name")], in.Name)
			}
			if r[col("waiting_time")] != waits[r[0]] {
				t.Errorf("%s job %s: waiting_time %q, jobs.csv wait_s %q", sched, r[0], r[col("waiting_time")], waits[r[0]])
			}
			if r[col("final_state")] != batsimCompleted {
				if num["success"] != 0 {
					t.Errorf("%s job %s: %s with success %v", sched, r[0], r[col("final_state")], num["success"])
				}
				continue
			}
			completed++
			const eps = 1e-6
			sub, st, fin := num["submission_time"], num["starting_time"], num["finish_time"]
			switch {
			case num["success"] != 1:
				t.Errorf("%s job %s: completed with success %v", sched, r[0], num["success"])
			case math.Abs(st-sub-num["waiting_time"]) > eps, math.Abs(fin-st-num["execution_time"]) > eps,
				math.Abs(fin-sub-num["turnaround_time"]) > eps,
				math.Abs(num["stretch"]*num["execution_time"]-num["turnaround_time"]) > eps:
				t.Errorf("%s job %s: times do not add up: %v", sched, r[0], r)
			}
			nodes := procSet(t, r[col("allocated_resources")])
			if float64(len(nodes)) != num["requested_number_of_resources"] {
				t.Errorf("%s job %s: allocated_resources %q holds %d nodes, requested %v", sched, r[0],
					r[col("allocated_resources")], len(nodes), num["requested_number_of_resources"])
			}
			if len(nodes) > 0 && (nodes[0] < 0 || nodes[len(nodes)-1] >= in.Cluster.TotalNodes()) {
				t.Errorf("%s job %s: nodes %v outside the cluster", sched, r[0], nodes)
			}
			spans = append(spans, span{st, fin, nodes})
		}
		if completed == 0 {
			t.Fatalf("%s: no job completed", sched)
		}
		for i := range spans {
			for k := i + 1; k < len(spans); k++ {
				a, b := spans[i], spans[k]
				if a.start < b.end && b.start < a.end && slices.ContainsFunc(a.nodes, func(n int) bool {
					_, found := slices.BinarySearch(b.nodes, n)
					return found
				}) {
					t.Fatalf("%s: two jobs running at once share a node: %v and %v", sched, a, b)
				}
			}
		}
	}
}

func TestNodeIntervals(t *testing.T) {
	for _, tc := range []struct {
		name  string
		nodes []int
		want  string
	}{
		{"none", nil, ""},
		{"one", []int{7}, "7"},
		{"blocks", append(seq(0, 32), seq(64, 96)...), "0-31 64-95"},
		{"mixed", []int{1, 2, 4, 6, 7, 8}, "1-2 4 6-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := nodeIntervals(tc.nodes); got != tc.want {
				t.Errorf("nodeIntervals(%v) = %q, want %q", tc.nodes, got, tc.want)
			}
		})
	}
}

// seq is lo, lo+1, …, hi−1.
func seq(lo, hi int) []int {
	var out []int
	for i := lo; i < hi; i++ {
		out = append(out, i)
	}
	return out
}

// TestScheduleSWFReimports re-imports schedule-<scheduler>.swf with the
// SWF parser: its completed jobs are kept, with the job number as the
// source id (job id + 1) and the waits of jobs.csv to the bit; the
// others are filtered out by their status.
func TestScheduleSWFReimports(t *testing.T) {
	in := randomInput(6, 150, 3*3600)
	rep := runReport(t, in, 1, "prio-preempt")
	dir := t.TempDir()
	if err := rep.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	tr, err := traces.Read(traces.FormatSWF, filepath.Join(dir, "schedule-prio-preempt.swf"), traces.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.MaxProcs != in.Cluster.TotalNodes() {
		t.Errorf("MaxProcs %d, want the cluster's %d nodes", tr.MaxProcs, in.Cluster.TotalNodes())
	}
	waits := jobsCSVWaits(t, dir, "prio-preempt")
	completed := 0
	for _, j := range rep.Runs[0].Sim.Jobs {
		if j.Completed {
			completed++
		}
	}
	if len(tr.Records) != completed || len(tr.Records)+tr.FilteredTotal() != len(in.Jobs) {
		t.Fatalf("re-import kept %d and filtered %v of %d jobs, want the %d completed ones kept", len(tr.Records), tr.Filtered, len(in.Jobs), completed)
	}
	for _, r := range tr.Records {
		n, err := strconv.Atoi(r.SourceID)
		if err != nil {
			t.Fatalf("source id %q", r.SourceID)
		}
		id := strconv.Itoa(n - 1)
		if got := strconv.FormatFloat(r.Wait, 'g', -1, 64); got != waits[id] {
			t.Errorf("job %s: SWF wait %s, jobs.csv wait_s %s", id, got, waits[id])
		}
	}
}

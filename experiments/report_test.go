package experiments

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/plannertest"
)

func runReport(t *testing.T, in Input, parallel int, names ...string) *Report {
	t.Helper()
	runs, err := Run(context.Background(), in, testRegistry(), RunConfig{
		Schedulers: names, Sim: SimConfig{Interval: 60}, Seed: 9, Parallel: parallel,
		Params: Params{Nodes: in.Cluster.TotalNodes(), Slack: []float64{20, 40}}})
	if err != nil {
		t.Fatal(err)
	}
	return &Report{Config: map[string]any{"seed": 9}, Runs: runs, Deterministic: true}
}

// TestMetricsFromJobsCSV recomputes every job metric from jobs.csv, by the
// definitions of DESIGN.md, and compares with results.json.
func TestMetricsFromJobsCSV(t *testing.T) {
	in := randomInput(11, 400, 4*3600)
	// Jobs shorter than the bounded slowdown's τ = 10 s.
	for i := range 10 {
		in.Jobs = append(in.Jobs, newJob(400+i, float64(1200*i+30), 1, float64(1+i%8)).job())
	}
	rep := runReport(t, in, 2, "prio", "prio-preempt")
	dir := t.TempDir()
	if err := rep.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	var results struct {
		Runs []struct {
			Scheduler string
			Metrics   map[string]*float64
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &results); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "jobs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// The contract's columns in its order, then the columns of the wait,
	// slowdown and fairness metrics, the miss cause, then those of
	// task-level jobs.
	if !slices.Equal(rows[0], JobsCSVHeader) || strings.Join(rows[0], ",") !=
		"scheduler,job_id,class,submit_s,deadline_s,nodes,runtime_s,partition,start_s,end_s,completed,met_deadline,preemptions,"+
			"user,wait_s,bounded_slowdown,miss,tasks,task_work_node_s,source_id,meta" {
		t.Fatalf("header %v", rows[0])
	}
	for _, run := range results.Runs {
		got := recompute(t, rows[1:], run.Scheduler, *run.Metrics["span_s"], in.Cluster.TotalNodes())
		for name, want := range got {
			j := run.Metrics[name]
			if j == nil {
				t.Errorf("%s: %s missing from results.json", run.Scheduler, name)
				continue
			}
			if math.Abs(*j-want) > 1e-9*max(1, math.Abs(want)) {
				t.Errorf("%s: %s = %v in results.json, %v from jobs.csv", run.Scheduler, name, *j, want)
			}
		}
		// Goodput is work within the span that turned out useful: never
		// more than the busy time.
		span, nodes := *run.Metrics["span_s"], float64(in.Cluster.TotalNodes())
		if gp, busy := *run.Metrics["goodput_machine_hours"]*3600, *run.Metrics["utilization"]*nodes*span; gp > busy*(1+1e-12) {
			t.Errorf("%s: goodput %g node-seconds above the busy time %g", run.Scheduler, gp, busy)
		}
		if *run.Metrics["slo_miss_rate"] <= 0 || *run.Metrics["be_goodput_machine_hours"] <= 0 ||
			*run.Metrics["bsld_mean"] <= 1 || *run.Metrics["fairness_jain"] >= 1 || *run.Metrics["fairness_users"] != 5 {
			t.Errorf("%s: degenerate test workload: %v", run.Scheduler, run.Metrics)
		}
	}
}

// recompute derives the metrics of one scheduler from jobs.csv rows.
// Utilization is only derivable when nothing was preempted (lost runs are
// not in jobs.csv).
func recompute(t *testing.T, rows [][]string, sched string, span float64, nodes int) map[string]float64 {
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("bad number %q", s)
		}
		return v
	}
	var slo, met, preempt int
	var sloGP, beGP, busy float64
	var beLat, jct, wait, bsld, sloBSLD, beBSLD []float64
	userSum, userN := map[string]float64{}, map[string]float64{}
	misses := map[string]float64{}
	for _, c := range MissCauses {
		misses["slo_miss_"+c.String()] = 0
	}
	for _, r := range rows {
		if r[0] != sched {
			continue
		}
		// wait_s and bounded_slowdown are derived from the row's times.
		switch {
		case r[8] == "" && r[14] != "":
			t.Errorf("job %s: wait %s without a start", r[1], r[14])
		case r[8] != "":
			w := num(r[8]) - num(r[3])
			if math.Abs(num(r[14])-w) > 1e-9 {
				t.Errorf("job %s: wait_s %s, want start − submit = %v", r[1], r[14], w)
			}
			wait = append(wait, w)
		}
		if r[10] == "true" {
			w, run := num(r[8])-num(r[3]), num(r[9])-num(r[8])
			b := max(1, (w+run)/max(run, 10))
			if math.Abs(num(r[15])-b) > 1e-9*b {
				t.Errorf("job %s: bounded_slowdown %s, want %v", r[1], r[15], b)
			}
			bsld = append(bsld, b)
			if r[2] == "slo" {
				sloBSLD = append(sloBSLD, b)
			} else {
				beBSLD = append(beBSLD, b)
			}
			userSum[r[13]] += b
			userN[r[13]]++
		} else if r[15] != "" {
			t.Errorf("job %s: bounded_slowdown %s without completing", r[1], r[15])
		}
		// A miss cause on exactly the SLO jobs that missed.
		if cause, err := ParseMissCause(r[16]); err != nil {
			t.Error(err)
		} else if (cause != MissNone) != (r[2] == "slo" && r[11] != "true") {
			t.Errorf("job %s: class %s, met_deadline %s, miss %q", r[1], r[2], r[11], r[16])
		} else if cause != MissNone {
			misses["slo_miss_"+r[16]]++
		}
		n := num(r[5])
		pre, _ := strconv.Atoi(r[12])
		preempt += pre
		if r[2] == "slo" {
			slo++
		}
		if r[8] != "" {
			// Runs under way at the end of the span go on to their ends;
			// utilization counts them within the span.
			end := span
			if r[10] == "true" {
				end = min(num(r[9]), span)
			}
			busy += n * (end - num(r[8]))
		}
		if r[10] != "true" {
			continue
		}
		work := n * (min(num(r[9]), span) - num(r[8])) / 3600 // within the span, as busy
		jct = append(jct, num(r[9])-num(r[3]))
		switch {
		case r[2] == "slo" && r[11] == "true":
			met++
			sloGP += work
			if num(r[9]) > num(r[4]) {
				t.Errorf("job %s met_deadline but ended after it", r[1])
			}
		case r[2] == "be":
			beGP += work
			beLat = append(beLat, num(r[9])-num(r[3]))
		}
	}
	meanOf := func(x []float64) float64 {
		s := 0.0
		for _, v := range x {
			s += v
		}
		return s / float64(len(x))
	}
	// Empirical quantile: the smallest x with i/n ≥ p.
	q := func(p float64, x []float64) float64 {
		s := slices.Clone(x)
		slices.Sort(s)
		return s[int(math.Ceil(p*float64(len(s))))-1]
	}
	// Jain's index of the per-user mean slowdowns.
	var sx, sxx float64
	for u, sum := range userSum {
		x := sum / userN[u]
		sx += x
		sxx += x * x
	}
	out := map[string]float64{
		"wait_mean_s":               meanOf(wait),
		"wait_p50_s":                q(0.5, wait),
		"wait_p99_s":                q(0.99, wait),
		"bsld_mean":                 meanOf(bsld),
		"bsld_p99":                  q(0.99, bsld),
		"slo_bsld_mean":             meanOf(sloBSLD),
		"slo_bsld_p99":              q(0.99, sloBSLD),
		"be_bsld_mean":              meanOf(beBSLD),
		"be_bsld_p99":               q(0.99, beBSLD),
		"fairness_jain":             sx * sx / (float64(len(userSum)) * sxx),
		"fairness_users":            float64(len(userSum)),
		"slo_miss_rate":             float64(slo-met) / float64(slo),
		"goodput_machine_hours":     sloGP + beGP,
		"slo_goodput_machine_hours": sloGP,
		"be_goodput_machine_hours":  beGP,
		"be_latency_mean_s":         meanOf(beLat),
		"jct_mean_s":                meanOf(jct),
		"jct_p50_s":                 q(0.5, jct),
		"jct_p99_s":                 q(0.99, jct),
		"preemptions":               float64(preempt),
		"completed_jobs":            float64(len(jct)),
	}
	if preempt == 0 {
		out["utilization"] = busy / (span * float64(nodes))
	}
	for name, n := range misses {
		out[name] = n
	}
	return out
}

// TestDeterministicOutput: the same input gives byte-identical JSON, CSV and
// jobs.csv whatever the parallelism.
func TestDeterministicOutput(t *testing.T) {
	in := randomInput(5, 300, 3*3600)
	names := []string{"prio-preempt", "prio", "prio-preempt"}
	var ref [3][]byte
	for i, par := range []int{1, 2, 3, 1} {
		rep := runReport(t, in, par, names...)
		var out [3]bytes.Buffer
		if err := rep.WriteJSON(&out[0]); err != nil {
			t.Fatal(err)
		}
		if err := rep.WriteCSV(&out[1]); err != nil {
			t.Fatal(err)
		}
		if err := rep.WriteJobsCSV(&out[2]); err != nil {
			t.Fatal(err)
		}
		for k := range out {
			if i == 0 {
				ref[k] = out[k].Bytes()
			} else if !bytes.Equal(ref[k], out[k].Bytes()) {
				t.Errorf("output %d differs with --parallel %d", k, par)
			}
		}
		for k, run := range rep.Runs {
			if run.Scheduler != names[k] {
				t.Errorf("run %d is %s, want %s (listed order)", k, run.Scheduler, names[k])
			}
		}
	}
	if bytes.Contains(ref[0], []byte("cycle_ms")) || bytes.Contains(ref[0], []byte("solver_ms")) {
		t.Error("deterministic JSON contains wall-clock metrics")
	}
}

func TestJSONShape(t *testing.T) {
	rep := runReport(t, randomInput(2, 50, 3600), 1, "prio")
	var b bytes.Buffer
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	// Keys in the contract's order.
	order := []string{`"config"`, `"runs"`, `"scheduler"`, `"workload"`, `"seed"`, `"params"`, `"metrics"`,
		`"slo_miss_rate"`, `"goodput_machine_hours"`, `"slo_goodput_machine_hours"`, `"be_goodput_machine_hours"`,
		`"be_latency_mean_s"`, `"jct_mean_s"`, `"jct_p50_s"`, `"jct_p99_s"`, `"utilization"`,
		`"solver_time_limited"`, `"fallbacks"`}
	last := -1
	for _, k := range order {
		i := strings.Index(s[last+1:], k)
		if i < 0 {
			t.Fatalf("key %s missing or out of order in\n%s", k, s)
		}
		last += 1 + i
	}
	rep.Deterministic = false
	b.Reset()
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"cycle_ms_p99"`) {
		t.Error("non-deterministic JSON lacks cycle_ms_p99")
	}
	var v any
	if err := json.Unmarshal(b.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
}

func TestNoSLOJobsIsNull(t *testing.T) {
	in := Input{Cluster: cluster(2), Jobs: jobsOf(newJob(0, 0, 1, 10)), Window: 60}
	rep := runReport(t, in, 1, "prio")
	var b bytes.Buffer
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"slo_miss_rate": null`) {
		t.Errorf("slo_miss_rate without SLO jobs should be null:\n%s", b.String())
	}
	b.Reset()
	if err := rep.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "prio") {
		t.Errorf("table:\n%s", b.String())
	}
}

func TestChartIsPNG(t *testing.T) {
	rep := runReport(t, randomInput(3, 100, 3600), 2, "prio", "prio-preempt")
	var b bytes.Buffer
	if err := rep.WriteChart(&b); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	if r := img.Bounds(); r.Dx() < 600 || r.Dy() < 200 {
		t.Errorf("chart is %v", r)
	}
}

func TestRunErrors(t *testing.T) {
	in := randomInput(1, 10, 600)
	_, err := Run(context.Background(), in, testRegistry(), RunConfig{Schedulers: []string{"prio", "nope"}, Sim: SimConfig{Interval: 60}})
	if err == nil || !strings.Contains(err.Error(), `unknown scheduler "nope"`) {
		t.Errorf("error %v", err)
	}
	bad := planner.Registry{{Name: "bad", New: func(planner.Options) (planner.Scheduler, error) {
		return &plannertest.Func{SchedName: "bad", F: func(*planner.State) (*planner.Decision, error) {
			return &planner.Decision{Start: []planner.Placement{{JobID: 12345, Alloc: []int{1, 0, 0, 0}}}}, nil
		}}, nil
	}}}
	_, err = Run(context.Background(), in, bad, RunConfig{Schedulers: []string{"bad"}, Sim: SimConfig{Interval: 60}})
	if err == nil || !strings.Contains(err.Error(), "scheduler bad") {
		t.Errorf("error %v", err)
	}
}

// TestSolverTimeOfFailedSolves: solver_ms_p99 counts every solve that ran,
// also those that gave no answer (the fallback then decided); cycles
// without a solve do not count.
func TestSolverTimeOfFailedSolves(t *testing.T) {
	cycles := []CycleRecord{
		{Stats: planner.CycleStats{Solve: 20 * time.Millisecond, Fallback: true, TimeLimited: true}},
		{Stats: planner.CycleStats{Solve: 10 * time.Millisecond, Solved: true}},
		{Stats: planner.CycleStats{}}, // nothing to solve
	}
	m := ComputeMetrics(nil, cycles, 3600, 16, 0)
	if m.SolverMsP99 != 20 {
		t.Errorf("solver_ms_p99 = %g, want 20 (the failed solve's wall time)", m.SolverMsP99)
	}
	if m := ComputeMetrics(nil, cycles[:1], 3600, 16, 0); m.SolverMsP99 != 20 {
		t.Errorf("with no solve answered: solver_ms_p99 = %g, want 20", m.SolverMsP99)
	}
}

// TestCycleTimeQuantiles: the cycle and solve time metrics are the p50,
// p90, p99 (stat.Empirical: the smallest time with CDF ≥ p) and the
// largest of 1, 2, …, 200 ms; solves count only the cycles that ran one.
func TestCycleTimeQuantiles(t *testing.T) {
	var cycles []CycleRecord
	for i := 200; i >= 1; i-- { // out of order
		c := CycleRecord{Wall: time.Duration(i) * time.Millisecond}
		if i%2 == 0 {
			c.Stats.Solve = time.Duration(i) * time.Millisecond
		}
		cycles = append(cycles, c)
	}
	m := ComputeMetrics(nil, cycles, 3600, 16, 0)
	got := []float64{m.CycleMsP50, m.CycleMsP90, m.CycleMsP99, m.CycleMsMax, m.SolverMsP50, m.SolverMsP90, m.SolverMsP99, m.SolverMsMax}
	want := []float64{100, 180, 198, 200, 100, 180, 198, 200}
	if !slices.Equal(got, want) {
		t.Errorf("cycle p50/p90/p99/max, solve p50/p90/p99/max = %v, want %v", got, want)
	}
	if m := ComputeMetrics(nil, nil, 3600, 16, 0); !math.IsNaN(m.CycleMsMax) || !math.IsNaN(m.SolverMsP50) {
		t.Errorf("no cycles: %v, %v, want NaN", m.CycleMsMax, m.SolverMsP50)
	}
}

package experiments

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/gs"
	"github.com/plannerhq/planner/planner/slearn"
)

// TestComputeTaskMetrics by hand: job 1 (4 tasks of mean 10 s, waits 0,
// 0, 10, 30: NWT 1), job 2 (3 tasks of mean 20 s, waits 0, 20, 40: NWT 1);
// estimates of job 1 (12 s, 20% off, right queue), job 2 (10 s, 50% off,
// wrong queue) and of a thin job 3 (left out).
func TestComputeTaskMetrics(t *testing.T) {
	jobs := []JobRecord{
		{JobID: 1, Completed: true, Tasks: 4, Runtime: 10, TaskWaitSum: 40},
		{JobID: 2, Completed: true, Tasks: 3, Runtime: 20, TaskWaitSum: 60},
		{JobID: 3, Completed: true, Tasks: 1, Runtime: 5, TaskWaitSum: 15},
	}
	est := []planner.EstimateRecord{
		{JobID: 1, Tasks: 4, Estimate: 12, Queue: 1, TrueQueue: 1},
		{JobID: 2, Tasks: 3, Estimate: 10, Queue: 0, TrueQueue: 1},
		{JobID: 3, Tasks: 1, Estimate: 50, Queue: 2, TrueQueue: 0},
	}
	m := ComputeTaskMetrics(jobs, est)
	// NWT: 1, 1 and 3 (job 3's wait 15 over 5 s).
	if m.NWTMean != 5.0/3 || m.NWTP50 != 1 || m.Estimated != 2 || m.RightQueue != 0.5 || math.Abs(m.PredErrP50-20) > 1e-9 {
		t.Errorf("task metrics %+v", m)
	}
	if m := ComputeTaskMetrics(jobs, nil); !math.IsNaN(m.PredErrP50) || !math.IsNaN(m.RightQueue) || m.Estimated != 0 {
		t.Errorf("without estimates %+v", m)
	}
}

func TestSpeedups(t *testing.T) {
	rec := func(id int, jct float64) JobRecord {
		return JobRecord{JobID: id, Completed: true, Submit: 10, End: 10 + jct}
	}
	runs := []RunResult{
		{Scheduler: "slearn", Sim: &SimResult{Jobs: []JobRecord{rec(1, 100), rec(2, 10), rec(3, 50)}}},
		// Ratios 2, 5 and job 3 not completed: mean (200+50)/(100+10).
		{Scheduler: "fifo", Sim: &SimResult{Jobs: []JobRecord{rec(1, 200), rec(2, 50), {JobID: 3}}}},
	}
	s := Speedups(runs, "slearn")
	if len(s) != 1 || s[0].Baseline != "fifo" || s[0].Jobs != 2 || math.Abs(s[0].Mean-250.0/110) > 1e-12 || s[0].P50 != 2 {
		t.Errorf("speedups %+v", s)
	}
	if Speedups(runs, "oracle") != nil {
		t.Error("speedups over a reference that did not run")
	}
}

// taskRegistry runs the GS policies of SLearn's comparison.
func taskRegistry() planner.Registry {
	reg := planner.Registry{{Name: slearn.Name, Tasks: true, New: func(o planner.Options) (planner.Scheduler, error) { return slearn.NewDefault(o.Seed) }}}
	for _, name := range []string{gs.NameFIFO, gs.NameOracle} {
		reg = append(reg, planner.Policy{Name: name, Tasks: true, New: func(planner.Options) (planner.Scheduler, error) { return gs.NewVariant(name) }})
	}
	return reg
}

// TestTaskReport: a report of task-level runs has the task metrics in
// JSON (read back by ParseMetrics), in CSV and in its second table, and
// the speedups of its reference; a report of gang runs has neither.
func TestTaskReport(t *testing.T) {
	in := Input{Name: "tasks", Cluster: cluster(8), Window: 600}
	for i := range 30 {
		d := make([]float64, 3+i%5)
		for k := range d {
			d[k] = float64(20 + (i*7+k*13)%90)
		}
		in.Jobs = append(in.Jobs, newJob(i, float64(20*i), 0, 0).tasks(d...).job())
	}
	runs, err := Run(context.Background(), in, taskRegistry(), RunConfig{Schedulers: []string{"slearn", "fifo", "oracle"},
		Sim: SimConfig{Interval: 1}, Seed: 1, Parallel: 1})
	if err != nil {
		t.Fatal(err)
	}
	rep := &Report{Config: map[string]any{}, Runs: runs, Deterministic: true, SpeedupReference: "slearn"}
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Runs []struct {
			Scheduler string
			Metrics   json.RawMessage
		}
		Reference string    `json:"speedup_reference"`
		Speedups  []Speedup `json:"speedups"`
	}
	if err := json.Unmarshal(js.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if out.Reference != "slearn" || len(out.Speedups) != 2 || out.Speedups[0].Baseline != "fifo" {
		t.Errorf("speedups %q %+v", out.Reference, out.Speedups)
	}
	for i, r := range out.Runs {
		m, err := ParseMetrics(r.Metrics)
		if err != nil || m.Task == nil || m.Task.NWTMean != runs[i].Metrics.Task.NWTMean || m.Task.Estimated != runs[i].Metrics.Task.Estimated {
			t.Errorf("%s: parsed %+v (%v), ran %+v", r.Scheduler, m.Task, err, runs[i].Metrics.Task)
		}
	}
	if o := runs[2].Metrics.Task; o.PredErrP50 != 0 || o.RightQueue != 1 || o.Estimated != 30 {
		t.Errorf("oracle task metrics %+v", o)
	}
	var tab, cs bytes.Buffer
	if err := rep.WriteTable(&tab); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tab.String(), "slearn speedup mean") || !strings.Contains(tab.String(), "NWT mean") {
		t.Errorf("table:\n%s", tab.String())
	}
	if err := rep.WriteCSV(&cs); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&cs).ReadAll()
	if err != nil || !strings.HasSuffix(strings.Join(rows[0], ","), "nwt_mean,nwt_p50,pred_err_p50_pct,right_queue_share,estimated_wide_jobs,dag_jobs,dag_jct_mean_s,dag_jct_p50_s") ||
		len(rows[1]) != len(rows[0]) {
		t.Errorf("csv header %v (%v)", rows[0], err)
	}

	gang := runReport(t, randomInput(3, 20, 3600), 1, "prio")
	gang.SpeedupReference = "slearn"
	var gj bytes.Buffer
	if err := gang.WriteJSON(&gj); err != nil {
		t.Fatal(err)
	}
	if s := gj.String(); strings.Contains(s, "speedup") || strings.Contains(s, "nwt_mean") {
		t.Errorf("a gang report names task metrics or speedups:\n%s", s)
	}
}

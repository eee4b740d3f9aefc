package experiments

import (
	"bytes"
	"context"
	"encoding/csv"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"

	"github.com/plannerhq/planner/planner/plannertest"
)

// TestTimeSeries plays a tiny simulation with a preemption and checks
// every cycle's record, the CSV rows and the runs, computed by hand.
func TestTimeSeries(t *testing.T) {
	// 4 nodes. Job 0 (BE, 4 nodes, 1000 s) from 0; job 1 (SLO, 2 nodes,
	// 100 s) and job 2 (BE, 1 node, 30 s) arrive at 100.
	in := Input{Cluster: cluster(4), Window: 100,
		Jobs: jobsOf(newJob(0, 0, 4, 1000), newJob(1, 100, 2, 100).slo(400), newJob(2, 100, 1, 30))}
	sim, err := NewSim(in, SimConfig{Interval: 60, Drain: 5000}, &plannertest.Func{SchedName: "preempter", F: preemptSLO})
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// t=0: job 0 starts. t=60: nothing pending, skipped. t=120: job 0
	// preempted (4 nodes × 120 s lost), job 1 starts (2 nodes); jobs 0 and
	// 2 wait. t=180: job 2 fits (1 node), job 0 does not. t=240: jobs 1
	// (220) and 2 (210) ended; job 0 restarts, to 1240.
	want := []CycleRecord{
		{Now: 0, Started: 1, BusyNodes: 4, FreeNodes: 0, RunningJobs: 1},
		{Now: 120, Started: 1, Preempt: 1, PreemptedNodeSeconds: 480, BusyNodes: 2, FreeNodes: 2,
			PendingJobs: 2, PendingNodes: 5, RunningJobs: 1},
		{Now: 180, Started: 1, BusyNodes: 3, FreeNodes: 1, PendingJobs: 1, PendingNodes: 4, RunningJobs: 2},
		{Now: 240, Started: 1, BusyNodes: 4, FreeNodes: 0, RunningJobs: 1},
	}
	if len(res.Cycles) != len(want) {
		t.Fatalf("%d cycles, want %d: %+v", len(res.Cycles), len(want), res.Cycles)
	}
	for i, w := range want {
		got := res.Cycles[i]
		got.Wall, got.Stats = 0, w.Stats
		if got != w {
			t.Errorf("cycle %d:\n got %+v\nwant %+v", i, got, w)
		}
	}
	var b bytes.Buffer
	if err := WriteTimeSeriesCSV(&b, res); err != nil {
		t.Fatal(err)
	}
	wantCSV := "t_s,utilization,busy_nodes,free_nodes,pending_jobs,pending_nodes,running_jobs,started,preempted,preempted_node_s,held_nodes\n" +
		"0,1,4,0,0,0,1,1,0,0,0\n" +
		"120,0.5,2,2,2,5,1,1,1,480,0\n" +
		"180,0.75,3,1,1,4,2,1,0,0,0\n" +
		"240,1,4,0,0,0,1,1,0,0,0\n"
	if b.String() != wantCSV {
		t.Errorf("CSV:\n%s\nwant:\n%s", b.String(), wantCSV)
	}
	// Every run, the preempted one too, by start.
	wantRuns := []RunRecord{
		{JobID: 0, Start: 0, End: 120, Alloc: []int{4}, Preempted: true},
		{JobID: 1, Start: 120, End: 220, Alloc: []int{2}},
		{JobID: 2, Start: 180, End: 210, Alloc: []int{1}},
		{JobID: 0, Start: 240, End: 1240, Alloc: []int{4}},
	}
	if !slices.EqualFunc(res.Runs, wantRuns, func(a, b RunRecord) bool {
		return a.JobID == b.JobID && a.Start == b.Start && a.End == b.End && a.Preempted == b.Preempted && slices.Equal(a.Alloc, b.Alloc)
	}) {
		t.Errorf("runs %+v, want %+v", res.Runs, wantRuns)
	}
	// The utilisation curve of timeseries.png is exact between cycles and
	// agrees with the cycles.
	wantSteps := [][2]float64{{0, 4}, {120, 2}, {180, 3}, {210, 2}, {220, 0}, {240, 4}, {1240, 0}}
	steps := busyNodeSteps(res)
	if len(steps) != len(wantSteps) {
		t.Fatalf("busy steps %v, want %v", steps, wantSteps)
	}
	for i, w := range wantSteps {
		if steps[i].X != w[0] || steps[i].Y != w[1] {
			t.Errorf("busy steps %v, want %v", steps, wantSteps)
			break
		}
	}
}

// TestBusyStepsAgreeWithCycles: on a random simulation with preemptions,
// the busy nodes the runs give at each cycle's time are the cycle's, and
// the cycles' preempted node-seconds are the preempted runs' work.
func TestBusyStepsAgreeWithCycles(t *testing.T) {
	rep := runReport(t, randomInput(4, 300, 3*3600), 1, "prio-preempt")
	res := rep.Runs[0].Sim
	steps := busyNodeSteps(res)
	lost, lostRuns := 0.0, 0.0
	for _, c := range res.Cycles {
		i, found := slices.BinarySearchFunc(steps, c.Now, func(p plotter.XY, t float64) int {
			switch {
			case p.X < t:
				return -1
			case p.X > t:
				return 1
			}
			return 0
		})
		if !found {
			i--
		}
		if int(steps[i].Y) != c.BusyNodes || c.BusyNodes+c.FreeNodes != res.Nodes {
			t.Fatalf("t=%g: runs hold %g nodes, the cycle says %d busy, %d free", c.Now, steps[i].Y, c.BusyNodes, c.FreeNodes)
		}
		lost += c.PreemptedNodeSeconds
	}
	for _, r := range res.Runs {
		if r.Preempted {
			n := 0
			for _, k := range r.Alloc {
				n += k
			}
			lostRuns += float64(n) * (r.End - r.Start)
		}
	}
	if lost == 0 || math.Abs(lost-lostRuns) > 1e-6 {
		t.Errorf("preempted node-seconds: %g over the cycles, %g over the runs (want equal, > 0)", lost, lostRuns)
	}
}

// TestOutDirPlots: --out holds the time series of every scheduler, the
// time-series chart, the CDF of cycle and solve times and a Gantt chart
// per scheduler, all non-empty, the PNGs decodable.
func TestOutDirPlots(t *testing.T) {
	rep := runReport(t, randomInput(3, 150, 3600), 2, "prio", "prio-preempt")
	dir := t.TempDir()
	if err := rep.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"timeseries.png", "cycle-cdf.png", "gantt-prio.png", "gantt-prio-preempt.png"} {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r := img.Bounds(); r.Dx() < 600 || r.Dy() < 300 {
			t.Errorf("%s is %v", name, r)
		}
	}
	for _, run := range rep.Runs {
		f, err := os.Open(filepath.Join(dir, "timeseries-"+run.Scheduler+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(rows[0], TimeSeriesCSVHeader) || len(rows) != 1+len(run.Sim.Cycles) || len(run.Sim.Cycles) == 0 {
			t.Errorf("%s: %d rows for %d cycles, header %v", run.Scheduler, len(rows), len(run.Sim.Cycles), rows[0])
		}
	}
	// Two runs whose files would clash are refused.
	rep.Runs[1].Scheduler = "prio"
	if err := rep.WriteDir(t.TempDir()); err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("error %v, want one line about runs writing the same files", err)
	}
}

package experiments

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/workloads"
)

// TestFitPower: exact power laws are recovered (slope, coefficient, R² 1);
// bad input is an error naming the problem.
func TestFitPower(t *testing.T) {
	law := func(c, k float64, n ...float64) []float64 {
		t := make([]float64, len(n))
		for i, x := range n {
			t[i] = c * math.Pow(x, k)
		}
		return t
	}
	sizes := []float64{250, 500, 1000, 2000, 4000}
	for _, tc := range []struct {
		name  string
		coef  float64
		slope float64
	}{
		{"linear", 0.4, 1},
		{"quadratic", 1e-3, 2},
		{"sublinear", 7, 0.5},
		{"three halves", 3, 1.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := FitPower(sizes, law(tc.coef, tc.slope, sizes...))
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(f.Slope-tc.slope) > 1e-9 || math.Abs(f.Coef/tc.coef-1) > 1e-9 || math.Abs(f.R2-1) > 1e-9 {
				t.Errorf("fit %+v, want slope %g, coef %g, R² 1", f, tc.slope, tc.coef)
			}
		})
	}
	// Noise around slope 1: the fit's R² is below 1 and its slope near.
	f, err := FitPower([]float64{1, 2, 4, 8}, []float64{1.1, 1.9, 4.2, 7.8})
	if err != nil {
		t.Fatal(err)
	}
	if f.R2 >= 1 || f.R2 < 0.99 || math.Abs(f.Slope-1) > 0.05 {
		t.Errorf("noisy linear fit %+v", f)
	}
	for _, tc := range []struct {
		name string
		n, t []float64
		want string
	}{
		{"lengths", []float64{1, 2}, []float64{1}, "2 sizes but 1 times"},
		{"zero time", []float64{1, 2}, []float64{1, 0}, "point 1 (2, 0) is not positive"},
		{"one size", []float64{3, 3}, []float64{1, 2}, "two distinct sizes"},
		{"no point", nil, nil, "two distinct sizes"},
	} {
		if _, err := FitPower(tc.n, tc.t); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestGoogleBacklog: the state has the pending jobs asked, submitted in the
// ten minutes before now, running jobs on 85% or more of the GOOGLE
// cluster's nodes with allocations that add up with the free nodes, and
// asking for more than two hours hold is an error.
func TestGoogleBacklog(t *testing.T) {
	st, history, err := GoogleBacklog(1, 300, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Pending) != 300 || len(history) == 0 || st.Interval != 60 {
		t.Fatalf("%d pending, %d history jobs, interval %g", len(st.Pending), len(history), st.Interval)
	}
	if st.Cluster.TotalNodes() != workloads.GoogleCluster().TotalNodes() {
		t.Errorf("cluster of %d nodes, want GOOGLE's %d", st.Cluster.TotalNodes(), workloads.GoogleCluster().TotalNodes())
	}
	used := make([]int, len(st.Free))
	busy := 0
	for _, r := range st.Running {
		if r.Start > st.Now || r.Start < st.Now-r.Job.Runtime {
			t.Errorf("job %d started at %g, now %g, runtime %g", r.Job.ID, r.Start, st.Now, r.Job.Runtime)
		}
		for i, a := range r.Alloc {
			used[i] += a
			busy += a
		}
	}
	for i := range used {
		if used[i]+st.Free[i] != st.Cluster.PartitionNodes[i] {
			t.Errorf("partition %d: %d used + %d free ≠ %d nodes", i, used[i], st.Free[i], st.Cluster.PartitionNodes[i])
		}
	}
	if share := float64(busy) / float64(st.Cluster.TotalNodes()); share < backlogBusy {
		t.Errorf("busy share %.3f, want ≥ %g", share, backlogBusy)
	}
	for _, p := range st.Pending {
		if p.Job.Submit > st.Now || p.Job.Submit < st.Now-600 {
			t.Errorf("job %d submitted at %g, now %g", p.Job.ID, p.Job.Submit, st.Now)
		}
		if p.Job.Class == workloads.SLO && p.Job.Deadline <= p.Job.Submit {
			t.Errorf("SLO job %d: deadline %g not after submit %g", p.Job.ID, p.Job.Deadline, p.Job.Submit)
		}
	}
	if _, _, err := GoogleBacklog(1, 100000, time.Minute); err == nil || !strings.Contains(err.Error(), "100000 pending jobs asked") {
		t.Errorf("too large a backlog: error %v", err)
	}
}

// TestRunCycleScale: a scheduler is built per size with the cluster, the
// interval and the derived horizon, trained, given one untimed and
// cfg.Cycles timed cycles on the backlog asked; the chart is a PNG.
func TestRunCycleScale(t *testing.T) {
	var built []planner.Options
	calls := map[int]int{}
	cfg := CycleScaleConfig{
		Pending: []int{20, 40}, Cycles: 2, Seed: 1, Interval: 10 * time.Second,
		Options: planner.Options{Solver: "greedy"},
		New: func(o planner.Options) (planner.Scheduler, error) {
			built = append(built, o)
			return &plannertest.Func{SchedName: "fake", F: func(st *planner.State) (*planner.Decision, error) {
				calls[len(st.Pending)]++
				return &planner.Decision{Stats: planner.CycleStats{Options: 3 * len(st.Pending), Solve: time.Millisecond, Fallback: len(st.Pending) == 40}}, nil
			}}, nil
		},
		Horizon: func(h []workloads.Job, interval time.Duration) time.Duration { return 7 * interval },
	}
	var seen []int
	pts, err := RunCycleScale(context.Background(), cfg, func(p CycleScalePoint) { seen = append(seen, p.Pending) })
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 2 || len(seen) != 2 || calls[20] != 3 || calls[40] != 3 {
		t.Fatalf("points %d, progress %v, calls %v; want 2 points, 1 + 2 cycles per size", len(pts), seen, calls)
	}
	for i, o := range built {
		if o.Interval != 10*time.Second || o.Horizon != 70*time.Second || o.Solver != "greedy" || o.Cluster.TotalNodes() == 0 {
			t.Errorf("scheduler %d built with %+v", i, o)
		}
	}
	for i, p := range pts {
		if len(p.WallMS) != 2 || p.Options != 3*p.Pending || p.SolveMS != 1 {
			t.Errorf("point %d: %+v", i, p)
		}
	}
	if pts[0].Fallbacks != 0 || pts[1].Fallbacks != 2 {
		t.Errorf("fallbacks %d, %d; want 0, 2", pts[0].Fallbacks, pts[1].Fallbacks)
	}
	var png bytes.Buffer
	if err := WriteCycleScaleChart(&png, pts); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png.Bytes(), []byte("\x89PNG")) {
		t.Error("the chart is not a PNG")
	}
	if err := WriteCycleScaleChart(&png, pts[:1]); err == nil {
		t.Error("a chart of one size: no error")
	}
	bad := cfg
	bad.Cycles = 0
	if _, err := RunCycleScale(context.Background(), bad, nil); err == nil || !strings.Contains(err.Error(), "0 timed cycles") {
		t.Errorf("0 cycles: error %v", err)
	}
}

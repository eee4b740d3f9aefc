package slearn

import (
	"math"
	"testing"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/planner/gs"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/workloads"
)

// byResources predicts a point mass at its value for the job's Resources
// feature (seconds) and learns nothing.
type byResources map[string]float64

func (byResources) Observe(workloads.Features, float64) {}

func (p byResources) Predict(f workloads.Features) (distributions.Piecewise, float64, bool) {
	v, ok := p[f.Resources]
	if !ok {
		return nil, 0, false
	}
	d, _ := distributions.NewPoint(v)
	return d, v, true
}

// stage is job id of the DAG stage resources, n one-node tasks of d
// seconds, waiting for job after (none when < 0), submitted at submit.
func stage(id int, resources string, n int, d float64, after int, submit float64) *workloads.Job {
	j := wide(id, n, d)
	j.Features.Name, j.Features.Resources, j.Submit = "etl", resources, submit
	if after >= 0 {
		j.After = &after
	}
	return j
}

// TestDAGScaling: history predicts 100 s for a DAG's first stage, but its
// pilots say 300 s (every task runs 300 s): d_s/d_h = 3, so the later
// stages, predicted 40 s and 40 s, are estimated 120 s each, not
// sampled; the third (10 tasks: 1,200 node-s) goes to Q1, where history
// alone (400 node-s) would put it in Q0. A DAG whose first stage is thin
// (not sampled) keeps history's 40 s.
func TestDAGScaling(t *testing.T) {
	s, err := NewDAG(gs.DefaultConfig(), gs.DefaultThinLimit, 1,
		byResources{"first": 100, "second": 40, "third": 40})
	if err != nil {
		t.Fatal(err)
	}
	if s.Name() != NameDAG {
		t.Errorf("name %q", s.Name())
	}
	c := plannertest.New(t, s, []int{20}, 1)
	c.Submit(stage(1, "first", 4, 300, -1, 0), stage(10, "first", 2, 50, -1, 0))
	// Each stage is submitted when the one it waits for has completed, as
	// the simulator releases it.
	next := map[int]*workloads.Job{
		1:  stage(2, "second", 2, 100, 1, 0),
		2:  stage(3, "third", 10, 30, 2, 0),
		10: stage(11, "second", 4, 40, 10, 0),
	}
	for range 5000 {
		for id, j := range next {
			if _, done := c.Completed[id]; done {
				j.Submit = c.Now
				c.Submit(j)
				delete(next, id)
			}
		}
		if len(c.Completed) == 5 {
			break
		}
		c.Step()
	}
	if len(c.Completed) != 5 {
		t.Fatalf("completed %v", c.Completed)
	}
	want := map[int]struct {
		est   float64
		queue int
	}{1: {300, 1}, 2: {120, 0}, 3: {120, 1}, 11: {40, 0}}
	got := map[int]float64{}
	for _, e := range s.Estimates() {
		got[e.JobID] = e.Estimate
		w, ok := want[e.JobID]
		if !ok {
			t.Errorf("estimate of job %d: %+v", e.JobID, e)
			continue
		}
		if math.Abs(e.Estimate-w.est) > 1e-9 || e.Queue != w.queue {
			t.Errorf("job %d: estimate %v in Q%d, want %v in Q%d", e.JobID, e.Estimate, e.Queue, w.est, w.queue)
		}
	}
	if len(got) != len(want) {
		t.Errorf("estimates %v, want %v", got, want)
	}
}

func TestScaled(t *testing.T) {
	for _, tc := range []struct{ later, sampled, predicted, want float64 }{
		{40, 300, 100, 120}, // the first stage ran 3× its prediction
		{40, 50, 200, 10},   // ¼ of it
		{40, 0, 100, 40},    // not sampled: history alone
		{40, 300, 0, 40},    // no prediction to compare with
	} {
		if got := Scaled(tc.later, tc.sampled, tc.predicted); got != tc.want {
			t.Errorf("Scaled(%v, %v, %v) = %v, want %v", tc.later, tc.sampled, tc.predicted, got, tc.want)
		}
	}
}

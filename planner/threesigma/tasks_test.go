package threesigma

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/estimate"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/workloads"
)

// TestTaskLevelJobs: 3sigma plans a task-level job's waiting tasks as one
// gang: every task of a job that fits starts in the same cycle, each job
// completes, and every decision passes Validate (the harness checks).
func TestTaskLevelJobs(t *testing.T) {
	s, err := New(Name3Sigma, planner.Options{Deterministic: true, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	c := plannertest.New(t, s, []int{4, 4}, 10)
	wide := plannertest.NewJob(1).Tasks(1, 100, 110, 90, 105, 95, 100).SLO(400).Job()
	thin := plannertest.NewJob(2).Tasks(1, 50).Job()
	c.Submit(wide, thin)
	for i := 0; len(c.Completed) < 2 && i < 100; i++ {
		c.Step()
	}
	if len(c.Completed) != 2 {
		t.Fatalf("completed %v after 100 cycles", c.Completed)
	}
	first := map[int]int{} // job → the cycle of its first task start
	last := map[int]int{}
	for i, d := range c.Decisions {
		for _, ts := range d.StartTasks {
			if _, ok := first[ts.JobID]; !ok {
				first[ts.JobID] = i
			}
			last[ts.JobID] = i
		}
		if len(d.Start) > 0 {
			t.Errorf("cycle %d starts gangs %v: task-level jobs start by tasks", i, d.Start)
		}
	}
	if first[1] != last[1] {
		t.Errorf("the wide job's tasks started in cycles %d to %d, want one", first[1], last[1])
	}
	if c.Completed[1] > 400 {
		t.Errorf("the wide SLO job completed at %v, after its deadline 400", c.Completed[1])
	}
}

// TestHybridPilots: 3sigma-hybrid starts a wide job's pilot ahead of the
// plan, and once it has completed plans the job by the posterior of its
// prior (history of 100 s tasks) given the pilot (400 s): an estimate
// between the two, nearer the pilot when history has erred.
func TestHybridPilots(t *testing.T) {
	s, err := NewHybrid(planner.Options{Deterministic: true, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var history []workloads.Job
	for i := range 10 {
		rt := 100.0
		if i%2 == 1 {
			rt = 130
		}
		history = append(history, *plannertest.NewJob(100+i).Name("n").Submit(-1000).Tasks(1, rt, rt, rt).Job())
	}
	s.Train(history)
	c := plannertest.New(t, s, []int{2}, 10)
	durs := make([]float64, 20)
	for i := range durs {
		durs[i] = 400
	}
	c.Submit(plannertest.NewJob(1).Name("n").Tasks(1, durs...).Job())
	d := c.Step()
	if len(d.StartTasks) == 0 {
		t.Fatal("no pilot started in the first cycle")
	}
	prior, _ := s.est.Estimate(c.State().Pending[0].Job)
	for s.done[1] == nil {
		c.Step()
	}
	c.Step() // planned again, by the posterior
	got, ok := s.jobs[1]
	if !ok {
		t.Fatal("the job is not planned after its pilot")
	}
	if !(got.est.Point > prior.Point && got.est.Point < 400) {
		t.Errorf("estimate after the pilot %v, want between the prior %v and the pilot's 400 s", got.est.Point, prior.Point)
	}
}

// TestLongest: the factor to the longest of k tasks is exp(s·z_k) with
// z_k (Blom's) within 5% of the expected largest of k standard normals
// (0.5% from 20 tasks on),
// ∫ x·k·φ(x)·Φ(x)^(k−1) dx (numerical integration), and 1 for one task or
// a gang job.
func TestLongest(t *testing.T) {
	s := &ThreeSigma{done: map[int]*estimate.Sample{}}
	job := plannertest.NewJob(1).Tasks(1, 10, 10).Job()
	s2 := s.spread.For(estimate.Sample{})
	for _, k := range []int{2, 5, 20, 100} {
		n := distuv.UnitNormal
		want := quad.Fixed(func(x float64) float64 {
			return x * float64(k) * n.Prob(x) * math.Pow(n.CDF(x), float64(k-1))
		}, -10, 10, 2000, nil, 0)
		z := math.Log(s.longest(job, k)) / math.Sqrt(s2)
		tol := 0.05
		if k >= 20 {
			tol = 0.005
		}
		if math.Abs(z-want) > tol*want {
			t.Errorf("k = %d: z %v, expected largest normal %v", k, z, want)
		}
	}
	if f := s.longest(job, 1); f != 1 {
		t.Errorf("one task: %v", f)
	}
	if f := s.longest(plannertest.NewJob(2).Nodes(4).Job(), 4); f != 1 {
		t.Errorf("gang job: %v", f)
	}
}

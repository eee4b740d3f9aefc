package slearn

import (
	"slices"
	"testing"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/gs"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/workloads"
)

// wide is a job of n one-node tasks of d seconds each.
func wide(id, n int, d float64) *workloads.Job {
	ds := make([]float64, n)
	for i := range ds {
		ds[i] = d
	}
	return plannertest.NewJob(id).Tasks(1, ds...).Job()
}

// TestPilotsFirst: a wide job of 100 tasks runs 3 pilots (3%) in the
// sampling queue; while a thin job (Q0) holds the other node, no node is
// spare for its held tasks. When the pilots complete, their mean is the
// estimate and the job goes to the queue of its size.
func TestPilotsFirst(t *testing.T) {
	s, err := NewDefault(1)
	if err != nil {
		t.Fatal(err)
	}
	c := plannertest.New(t, s, []int{4}, 1)
	c.Submit(wide(1, 100, 100), plannertest.NewJob(2).Tasks(1, 500).Job())
	d := c.Step()
	var pilots []int
	for _, ts := range d.StartTasks {
		if ts.JobID == 1 {
			pilots = append(pilots, ts.Task)
		}
	}
	if len(pilots) != 3 || len(d.StartTasks) != 4 {
		t.Fatalf("first cycle started %+v, want 3 pilots of job 1 and job 2's task", d.StartTasks)
	}
	for c.Now < 100 {
		c.Step()
	}
	// t = 100: the pilots completed; 100 tasks × 100 s = 10⁴ node-s, Q2.
	e := s.Estimates()
	if len(e) != 1 || e[0].JobID != 1 || e[0].Estimate != 100 || e[0].Queue != 2 || e[0].TrueQueue != 2 || e[0].Tasks != 100 {
		t.Fatalf("estimates %+v", e)
	}
}

// TestWorkConservation: with nodes no queue wants, held tasks run, in
// arrival order.
func TestWorkConservation(t *testing.T) {
	s, _ := NewDefault(1)
	c := plannertest.New(t, s, []int{10}, 1)
	c.Submit(wide(1, 100, 100))
	d := c.Step()
	if len(d.StartTasks) != 10 {
		t.Errorf("started %d tasks on 10 idle nodes, want 10", len(d.StartTasks))
	}
}

// TestThinJobs: a job of fewer than 3 tasks is not sampled: all its tasks
// start at once in the highest queue, and it has no estimate.
func TestThinJobs(t *testing.T) {
	s, _ := NewDefault(1)
	c := plannertest.New(t, s, []int{2}, 1)
	c.Submit(wide(1, 2, 30))
	if d := c.Step(); len(d.StartTasks) != 2 {
		t.Errorf("started %+v", d.StartTasks)
	}
	for c.Now < 31 {
		c.Step()
	}
	if len(s.Estimates()) != 0 || c.Completed[1] != 30 {
		t.Errorf("estimates %+v, completed %v", s.Estimates(), c.Completed)
	}
}

// TestPilotsSeeded: the pilots are a random draw of the seed.
func TestPilotsSeeded(t *testing.T) {
	pick := func(seed uint64) []int {
		s, _ := NewDefault(seed)
		st := &planner.State{Cluster: workloads.Cluster{PartitionNodes: []int{1}, Slowdown: 1}, Free: []int{0}}
		j := wide(1, 100, 10)
		w := make([]int, 100)
		for i := range w {
			w[i] = i
		}
		st.Pending = []*planner.Pending{{Job: j, Waiting: w}}
		if _, err := s.Schedule(t.Context(), st); err != nil {
			t.Fatal(err)
		}
		return s.jobs[1].pilot
	}
	a, b := pick(1), pick(1)
	if !slices.Equal(a, b) || len(a) != 3 || slices.Equal(a, pick(2)) || slices.Equal(a, []int{0, 1, 2}) {
		t.Errorf("pilots %v, %v (seed 1), %v (seed 2)", a, b, pick(2))
	}
}

// TestHybrid: the hybrid sizes a thin job by history — of a long and a
// short thin job known from history, arriving together on one node, the
// short one runs first, where SLearn runs them first in, first out — and
// a wide job by the
// posterior of its history and its pilots, between the two.
func TestHybrid(t *testing.T) {
	hist := func(id int, name string, d ...float64) workloads.Job {
		return *plannertest.NewJob(id).Name(name).Submit(-1000).Tasks(1, d...).Job()
	}
	var history []workloads.Job
	for i := range 3 {
		history = append(history, hist(100+i, "long", 5000+100*float64(i)), hist(105+i, "short", 20+float64(i)))
	}
	for i := range 10 {
		history = append(history, hist(110+i, "wide", 50+float64(i), 55, 60))
	}
	long := plannertest.NewJob(1).Name("long").Tasks(1, 5000).Job()
	short := plannertest.NewJob(2).Name("short").Tasks(1, 20).Job()
	for _, tc := range []struct {
		name      string
		hybrid    bool
		shortDone float64
	}{{"slearn: first in, first out", false, 5020}, {"hybrid: by history", true, 20}} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := NewDefault(1)
			if tc.hybrid {
				s, _ = NewHybrid(gs.DefaultConfig(), gs.DefaultThinLimit, 1, nil)
			}
			s.Train(history)
			c := plannertest.New(t, s, []int{1}, 1)
			c.Submit(long, short)
			for len(c.Completed) < 2 {
				c.Step()
			}
			if c.Completed[2] != tc.shortDone {
				t.Errorf("short job done at %v, want %v", c.Completed[2], tc.shortDone)
			}
		})
	}
	// A wide job of the history's name ("wide", about 54 s a task) whose
	// tasks now take 200 s: its pilots (3% of 100: 3) pull the estimate
	// most of the way from history to 200 s.
	s, _ := NewHybrid(gs.DefaultConfig(), gs.DefaultThinLimit, 1, nil)
	s.Train(history)
	c := plannertest.New(t, s, []int{10}, 1)
	w := wide(3, 100, 200)
	w.Features.Name = "wide"
	c.Submit(w)
	for len(s.Estimates()) == 0 {
		c.Step()
	}
	if e := s.Estimates()[0]; !(e.Estimate > 120 && e.Estimate < 200) {
		t.Errorf("posterior estimate %v, want between the history (≈ 54 s) and the pilots (200 s), nearer the pilots", e.Estimate)
	}
}

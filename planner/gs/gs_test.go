package gs

import (
	"github.com/plannerhq/planner/planner"
	"math"
	"testing"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/workloads"
)

// TestInverseSquare: E[T⁻²]^(−1/2) of a piecewise-uniform distribution
// against a midpoint-rule integral, and of a point mass.
func TestInverseSquare(t *testing.T) {
	segs := []distributions.Segment{{Lo: 10, Hi: 20, Mass: 0.25}, {Lo: 40, Hi: 100, Mass: 0.5}, {Lo: 300, Hi: 300, Mass: 0.25}}
	d, err := distributions.NewPiecewiseUniform(segs)
	if err != nil {
		t.Fatal(err)
	}
	s := 0.0
	for _, seg := range segs {
		if seg.Lo == seg.Hi {
			s += seg.Mass / (seg.Lo * seg.Lo)
			continue
		}
		const n = 100000
		h := (seg.Hi - seg.Lo) / n
		for k := range n {
			x := seg.Lo + (float64(k)+0.5)*h
			s += seg.Mass / (seg.Hi - seg.Lo) * h / (x * x)
		}
	}
	if got, want := InverseSquare(d), 1/math.Sqrt(s); math.Abs(got-want) > 1e-6*want {
		t.Errorf("InverseSquare = %v, want %v", got, want)
	}
	p, _ := distributions.NewPoint(42)
	if got := InverseSquare(p); math.Abs(got-42) > 1e-12 {
		t.Errorf("InverseSquare(point 42) = %v", got)
	}
}

// longThenShort: on 2 nodes, a long job (2 tasks of 1,000 s) and a short
// one (2 tasks of 10 s) arrive together, the long one first.
func longThenShort() []*workloads.Job {
	return []*workloads.Job{
		plannertest.NewJob(1).Tasks(1, 1000, 1000).Job(),
		plannertest.NewJob(2).Tasks(1, 10, 10).Job(),
	}
}

// run steps policy until every job completed and returns completion
// times.
func run(t *testing.T, policy *GS, nodes int, jobs ...*workloads.Job) map[int]float64 {
	t.Helper()
	c := plannertest.New(t, policy, []int{nodes}, 1)
	c.Submit(jobs...)
	for range 10000 {
		if len(c.Completed) == len(jobs) {
			return c.Completed
		}
		c.Step()
	}
	t.Fatalf("%s: %d of %d jobs completed", policy.Name(), len(c.Completed), len(jobs))
	return nil
}

func TestPolicies(t *testing.T) {
	tests := []struct {
		policy      string
		long, short float64 // completion times
	}{
		// Sized by the truth, the short job (20 node-s, Q0) takes the
		// first node, the long one (2,000 node-s, Q1) the other by
		// weighted sharing; the short job's second task takes the node its
		// first frees, and the long job's second waits for it.
		{NameOracle, 1020, 20},
		// FIFO: the long job takes both nodes.
		{NameFIFO, 1000, 1010},
		// LAS: both new, in Q0 first in, first out: the long job first.
		{NameLAS, 1000, 1010},
	}
	for _, tc := range tests {
		t.Run(tc.policy, func(t *testing.T) {
			g, err := NewVariant(tc.policy)
			if err != nil {
				t.Fatal(err)
			}
			done := run(t, g, 2, longThenShort()...)
			if done[1] != tc.long || done[2] != tc.short {
				t.Errorf("long job done at %v, short at %v; want %v, %v", done[1], done[2], tc.long, tc.short)
			}
		})
	}
}

// TestLASDemotes: a job moves down as its tasks complete. On one node, job
// 1 of 3 tasks of 600 s runs its first task in Q0; after it (600 node-s,
// still Q0) the second; after 1,200 node-s it is in Q1, so job 2, which
// arrived at 5 s, runs before its third task.
func TestLASDemotes(t *testing.T) {
	g, _ := NewVariant(NameLAS)
	done := run(t, g, 1, plannertest.NewJob(1).Tasks(1, 600, 600, 600).Job(),
		plannertest.NewJob(2).Submit(5).Tasks(1, 100).Job())
	if done[1] != 1900 || done[2] != 1300 {
		t.Errorf("job 1 done at %v, job 2 at %v; want 1900, 1300", done[1], done[2])
	}
}

// TestEstimates: the oracle reports exact estimates in the right queues;
// 3sigmatl does not estimate thin jobs; FIFO reports none.
func TestEstimates(t *testing.T) {
	jobs := append(longThenShort(), plannertest.NewJob(3).Tasks(1, 50).Job())
	o, _ := NewVariant(NameOracle)
	run(t, o, 2, jobs...)
	if e := o.Estimates(); len(e) != 3 || e[0].Estimate != 1000 || e[0].Queue != 1 || e[0].TrueQueue != 1 || e[1].Estimate != 10 || e[1].Queue != 0 {
		t.Errorf("oracle estimates %+v", e)
	}
	tl, _ := NewVariant(Name3SigmaTL)
	run(t, tl, 2, append(longThenShort(), plannertest.NewJob(3).Tasks(1, 50, 50, 50).Job())...)
	if e := tl.Estimates(); len(e) != 1 || e[0].JobID != 3 {
		t.Errorf("3sigmatl estimates %+v, want job 3's only", e)
	}
	f, _ := NewVariant(NameFIFO)
	run(t, f, 2, longThenShort()...)
	if e := f.Estimates(); e != nil {
		t.Errorf("fifo estimates %+v", e)
	}
}

// TestHistoryLearns: 3sigma-gs sizes a job by its name's history.
func TestHistoryLearns(t *testing.T) {
	g, _ := NewVariant(Name3Sigma)
	h := plannertest.NewJob(10).Name("etl").Submit(-100).Tasks(1, 500, 500).Job()
	g.Train([]workloads.Job{*h})
	run(t, g, 2, plannertest.NewJob(1).Name("etl").Tasks(1, 400, 400).Job())
	if e := g.Estimates(); len(e) != 1 || math.Abs(e[0].Estimate-500) > 1 {
		t.Errorf("estimates %+v, want ≈ 500 s from history", e)
	}
}

// TestPendingFollowsQueue: the records GS pairs with the pending jobs
// of each cycle are the ones its map holds, whatever changed in the
// queue since the last cycle: arrivals at the tail and in the middle, one
// job or several leaving, a reordered queue, a Pending entry reused for
// another job, an empty queue.
func TestPendingFollowsQueue(t *testing.T) {
	g, err := NewVariant(Name)
	if err != nil {
		t.Fatal(err)
	}
	ps := make([]*planner.Pending, 8)
	for i := range ps {
		ps[i] = &planner.Pending{Job: plannertest.NewJob(i).Runtime(float64(10*(i+1))).Tasks(1, 5, 5).Job(), Waiting: []int{0, 1}}
	}
	// reused is one Pending entry that a driver hands for job 7, then
	// for job 6.
	reused := &planner.Pending{Waiting: []int{0, 1}}
	cycles := []struct {
		name    string
		pending []*planner.Pending
		reuse   int // reused's job
	}{
		{"first", []*planner.Pending{ps[0], ps[1], ps[2]}, 7},
		{"tail arrival", []*planner.Pending{ps[0], ps[1], ps[2], ps[3]}, 7},
		{"head left", []*planner.Pending{ps[1], ps[2], ps[3]}, 7},
		{"middle arrival", []*planner.Pending{ps[1], ps[4], ps[2], ps[3]}, 7},
		{"two left", []*planner.Pending{ps[1], ps[3]}, 7},
		{"reordered", []*planner.Pending{ps[3], ps[5], ps[1]}, 7},
		{"entry", []*planner.Pending{reused, ps[5], ps[1]}, 7},
		{"entry reused", []*planner.Pending{reused, ps[5], ps[1]}, 6},
		{"empty", nil, 6},
		{"again", []*planner.Pending{ps[6], ps[7]}, 6},
	}
	for _, c := range cycles {
		reused.Job = ps[c.reuse].Job
		got := g.pending(&planner.State{Pending: c.pending})
		if len(got) != len(c.pending) {
			t.Fatalf("%s: %d records for %d pending jobs", c.name, len(got), len(c.pending))
		}
		for i, it := range got {
			if it.P != c.pending[i] || g.last[i].j != g.jobs[it.P.Job.ID] || g.last[i].j == nil ||
				it.Queue != g.last[i].j.queue || len(it.Tasks) != 2 {
				t.Errorf("%s: pending[%d] (job %d) paired with the wrong record", c.name, i, c.pending[i].Job.ID)
			}
		}
	}
}

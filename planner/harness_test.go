package planner

import (
	"cmp"
	"context"
	"slices"
	"testing"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/workloads"
)

// jobB is a fixture builder for test jobs.
type jobB struct{ j workloads.Job }

func newJob(id int) *jobB {
	return &jobB{j: workloads.Job{ID: id, Class: workloads.BestEffort, Nodes: 1, Runtime: 60, Value: 1}}
}
func (b *jobB) Nodes(n int) *jobB        { b.j.Nodes = n; return b }
func (b *jobB) Runtime(r float64) *jobB  { b.j.Runtime = r; return b }
func (b *jobB) Value(v float64) *jobB    { b.j.Value = v; return b }
func (b *jobB) Submit(t float64) *jobB   { b.j.Submit = t; return b }
func (b *jobB) Name(n string) *jobB      { b.j.Features.Name = n; return b }
func (b *jobB) Preferred(p ...int) *jobB { b.j.Preferred = p; return b }
func (b *jobB) SLO(deadline float64) *jobB {
	b.j.Class, b.j.Deadline = workloads.SLO, deadline
	return b
}
func (b *jobB) Job() *workloads.Job { j := b.j; return &j }

// fixedEstimator gives chosen jobs a chosen distribution and every other
// job a point mass at its true runtime.
type fixedEstimator map[int]distributions.Piecewise

func (f fixedEstimator) Train([]workloads.Job)           {}
func (f fixedEstimator) Observe(*workloads.Job, float64) {}
func (f fixedEstimator) Estimate(j *workloads.Job) (Estimate, error) {
	if d, ok := f[j.ID]; ok {
		return Estimate{Dist: d, Point: d.Mean()}, nil
	}
	return pointEstimate(j.Runtime)
}

// harness is a recording fake cluster (CONVENTIONS 15): it owns the nodes,
// the pending and running jobs and the clock, steps the scheduler one cycle
// at a time, checks every decision against the cluster's rules, applies it,
// and completes jobs whose true runtime has passed.
type harness struct {
	t        *testing.T
	s        Scheduler
	cluster  workloads.Cluster
	free     []int
	now      float64
	interval float64
	pending  []*Pending
	running  []*Running
	// Records.
	decisions   []*Decision
	completed   map[int]float64 // job → completion time
	preemptions map[int]int
	starts      map[int]int
}

func newHarness(t *testing.T, s Scheduler, partitions []int, interval float64) *harness {
	return &harness{t: t, s: s, interval: interval, free: slices.Clone(partitions),
		cluster:   workloads.Cluster{PartitionNodes: slices.Clone(partitions), Slowdown: 1.5},
		completed: map[int]float64{}, preemptions: map[int]int{}, starts: map[int]int{}}
}

func (h *harness) submit(jobs ...*workloads.Job) {
	for _, j := range jobs {
		h.pending = append(h.pending, &Pending{Job: j})
	}
}

func (h *harness) state() *State {
	var pend []*Pending
	for _, p := range h.pending {
		if p.Job.Submit <= h.now {
			pend = append(pend, p)
		}
	}
	return &State{Now: h.now, Cluster: h.cluster, Free: slices.Clone(h.free),
		Pending: pend, Running: slices.Clone(h.running), Interval: h.interval}
}

// step runs one cycle at the current time, checks and applies its decision,
// then advances the clock by one interval, completing jobs on the way.
func (h *harness) step() *Decision {
	h.t.Helper()
	st := h.state()
	d, err := h.s.Schedule(context.Background(), st)
	if err != nil {
		h.t.Fatalf("t=%v: Schedule: %v", h.now, err)
	}
	h.decisions = append(h.decisions, d)
	h.apply(st, d)
	h.advance(h.now + h.interval)
	return d
}

// apply checks d against the cluster's rules and enacts it.
func (h *harness) apply(st *State, d *Decision) {
	h.t.Helper()
	for _, id := range d.Preempt {
		i := slices.IndexFunc(h.running, func(r *Running) bool { return r.Job.ID == id })
		if i < 0 {
			h.t.Fatalf("t=%v: preempts job %d, which is not running", h.now, id)
		}
		r := h.running[i]
		if r.Job.Class != workloads.BestEffort {
			h.t.Fatalf("t=%v: preempts job %d of class %v; only best-effort jobs may be preempted", h.now, id, r.Job.Class)
		}
		for p, n := range r.Alloc {
			h.free[p] += n
		}
		h.running = slices.Delete(h.running, i, i+1)
		h.pending = append(h.pending, &Pending{Job: r.Job, Preemptions: h.preemptions[id] + 1})
		h.preemptions[id]++
	}
	seen := map[int]bool{}
	for _, pl := range d.Start {
		if seen[pl.JobID] {
			h.t.Fatalf("t=%v: job %d started twice", h.now, pl.JobID)
		}
		seen[pl.JobID] = true
		i := slices.IndexFunc(h.pending, func(p *Pending) bool { return p.Job.ID == pl.JobID })
		if i < 0 || h.pending[i].Job.Submit > h.now {
			h.t.Fatalf("t=%v: starts job %d, which is not pending", h.now, pl.JobID)
		}
		j := h.pending[i].Job
		if len(pl.Alloc) != len(h.free) {
			h.t.Fatalf("t=%v: job %d: alloc %v for %d partitions", h.now, j.ID, pl.Alloc, len(h.free))
		}
		n, slowed := 0, false
		for p, a := range pl.Alloc {
			if a < 0 || a > h.free[p] {
				h.t.Fatalf("t=%v: job %d takes %d nodes of partition %d, which has %d free (capacity exceeded)", h.now, j.ID, a, p, h.free[p])
			}
			n += a
			if a > 0 && !j.IsPreferred(p) {
				slowed = true
			}
		}
		if n != j.Nodes {
			h.t.Fatalf("t=%v: job %d gets %d nodes, needs %d", h.now, j.ID, n, j.Nodes)
		}
		for p, a := range pl.Alloc {
			h.free[p] -= a
		}
		h.pending = slices.Delete(h.pending, i, i+1)
		h.running = append(h.running, &Running{Job: j, Start: h.now, Alloc: slices.Clone(pl.Alloc), Slowed: slowed})
		h.starts[j.ID]++
	}
}

// advance completes every running job whose true runtime ends by t, in
// completion order, and sets the clock to t.
func (h *harness) advance(t float64) {
	end := func(r *Running) float64 { return r.Start + h.cluster.RuntimeOn(r.Job, !r.Slowed) }
	slices.SortStableFunc(h.running, func(a, b *Running) int { return cmp.Compare(end(a), end(b)) })
	for len(h.running) > 0 && end(h.running[0]) <= t {
		r := h.running[0]
		h.running = h.running[1:]
		for p, n := range r.Alloc {
			h.free[p] += n
		}
		h.completed[r.Job.ID] = end(r)
		h.s.Observe(r.Job, end(r)-r.Start, end(r))
	}
	h.now = t
}

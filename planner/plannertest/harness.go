package plannertest

import (
	"cmp"
	"context"
	"slices"
	"testing"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/workloads"
)

// Cluster is a recording fake cluster (CONVENTIONS 15): it owns the nodes,
// the pending and running jobs and the clock; Step runs the scheduler for
// one cycle, checks its decision with planner.Decision.Validate (a broken
// rule fails the test), carries it out, reports what it carried out with
// Scheduler.Applied, and advances the clock by one interval, completing
// the jobs whose true runtime has passed (Scheduler.Observe). Every
// decision and completion is recorded.
type Cluster struct {
	T        testing.TB
	S        planner.Scheduler
	Spec     workloads.Cluster
	Free     []int
	Now      float64
	Interval float64
	// Pending holds submitted jobs, some of them possibly submitted in
	// the future (State shows only those submitted by Now).
	Pending []*planner.Pending
	Running []*planner.Running

	// Refuse, when set, is asked about every start before it is carried
	// out: a non-nil error refuses it (as a live cluster may), and the job
	// stays pending.
	Refuse func(planner.Placement) error

	// Records.
	Decisions   []*planner.Decision
	Applied     []*planner.ApplyResult
	Completions []planner.Completion
	Completed   map[int]float64 // job → completion time
	Preemptions map[int]int     // job → times preempted
	Starts      map[int]int     // job → times started
}

// New returns a cluster of the given partitions (node counts) with the
// papers' slowdown of 1.5 off a job's preferred partitions, a cycle every
// interval seconds, at time 0.
func New(t testing.TB, s planner.Scheduler, partitions []int, interval float64) *Cluster {
	return &Cluster{T: t, S: s, Interval: interval, Free: slices.Clone(partitions),
		Spec:      workloads.Cluster{PartitionNodes: slices.Clone(partitions), Slowdown: 1.5},
		Completed: map[int]float64{}, Preemptions: map[int]int{}, Starts: map[int]int{}}
}

// Submit queues jobs; each becomes visible at its Submit time.
func (c *Cluster) Submit(jobs ...*workloads.Job) {
	for _, j := range jobs {
		c.Pending = append(c.Pending, &planner.Pending{Job: j})
	}
}

// State is the cluster as the scheduler sees it now.
func (c *Cluster) State() *planner.State {
	var pend []*planner.Pending
	for _, p := range c.Pending {
		if p.Job.Submit <= c.Now {
			pend = append(pend, p)
		}
	}
	return &planner.State{Now: c.Now, Cluster: c.Spec, Free: slices.Clone(c.Free),
		Pending: pend, Running: slices.Clone(c.Running), Interval: c.Interval}
}

// Step runs one cycle at the current time, checks and carries out its
// decision, then advances the clock by one interval, completing jobs on
// the way. It returns the decision.
func (c *Cluster) Step() *planner.Decision {
	c.T.Helper()
	st := c.State()
	d, err := c.S.Schedule(context.Background(), st)
	if err != nil {
		c.T.Fatalf("t=%v: Schedule: %v", c.Now, err)
	}
	if d == nil {
		d = &planner.Decision{}
	}
	c.Decisions = append(c.Decisions, d)
	c.Apply(st, d)
	c.Advance(c.Now + c.Interval)
	return d
}

// Apply checks d against st (the state the scheduler saw), carries it out
// (preemptions, then the starts Refuse lets through) and tells the
// scheduler what was carried out.
func (c *Cluster) Apply(st *planner.State, d *planner.Decision) {
	c.T.Helper()
	if err := d.Validate(st); err != nil {
		c.T.Fatalf("t=%v: %v", c.Now, err)
	}
	res := &planner.ApplyResult{Now: c.Now}
	for _, id := range d.Preempt {
		i := slices.IndexFunc(c.Running, func(r *planner.Running) bool { return r.Job.ID == id })
		r := c.Running[i]
		for p, n := range r.Alloc {
			c.Free[p] += n
		}
		c.Running = slices.Delete(c.Running, i, i+1)
		c.Preemptions[id]++
		c.Pending = append(c.Pending, &planner.Pending{Job: r.Job, Preemptions: c.Preemptions[id]})
		res.Preempted = append(res.Preempted, id)
	}
	for _, pl := range d.Start {
		if c.Refuse != nil {
			if err := c.Refuse(pl); err != nil {
				res.Refused = append(res.Refused, planner.Refusal{JobID: pl.JobID, Err: err})
				continue
			}
		}
		i := slices.IndexFunc(c.Pending, func(p *planner.Pending) bool { return p.Job.ID == pl.JobID })
		j := c.Pending[i].Job
		slowed := false
		for p, a := range pl.Alloc {
			c.Free[p] -= a
			if a > 0 && !j.IsPreferred(p) {
				slowed = true
			}
		}
		c.Pending = slices.Delete(c.Pending, i, i+1)
		c.Running = append(c.Running, &planner.Running{Job: j, Start: c.Now, Alloc: slices.Clone(pl.Alloc), Slowed: slowed})
		c.Starts[j.ID]++
		res.Started = append(res.Started, pl)
	}
	c.Applied = append(c.Applied, res)
	c.S.Applied(res)
}

// Advance completes every running job whose true runtime ends by t, in
// completion order, telling the scheduler of each, and sets the clock to t.
func (c *Cluster) Advance(t float64) {
	end := func(r *planner.Running) float64 { return r.Start + c.Spec.RuntimeOn(r.Job, r.Alloc) }
	slices.SortStableFunc(c.Running, func(a, b *planner.Running) int { return cmp.Compare(end(a), end(b)) })
	for len(c.Running) > 0 && end(c.Running[0]) <= t {
		r := c.Running[0]
		c.Running = c.Running[1:]
		for p, n := range r.Alloc {
			c.Free[p] += n
		}
		e := end(r)
		c.Completed[r.Job.ID] = e
		comp := planner.Completion{Job: r.Job, Start: r.Start, End: e, Runtime: e - r.Start, Slowed: r.Slowed, Slowdown: 1,
			Speed: c.Spec.SpeedOf(r.Alloc)}
		if r.Slowed {
			comp.Slowdown = c.Spec.Slowdown
		}
		c.Completions = append(c.Completions, comp)
		c.S.Observe(comp)
	}
	c.Now = t
}

// Snapshot copies st deep enough that enacting a decision does not change
// it: its Free, Pending and Running entries (not the jobs).
func Snapshot(st *planner.State) *planner.State {
	if st == nil {
		return nil
	}
	c := *st
	c.Free = slices.Clone(st.Free)
	c.Pending = make([]*planner.Pending, len(st.Pending))
	for i, p := range st.Pending {
		cp := *p
		c.Pending[i] = &cp
	}
	c.Running = make([]*planner.Running, len(st.Running))
	for i, r := range st.Running {
		cr := *r
		cr.Alloc = slices.Clone(r.Alloc)
		c.Running[i] = &cr
	}
	return &c
}

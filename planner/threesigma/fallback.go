package threesigma

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime/debug"
	"slices"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/estimate"
	"github.com/plannerhq/planner/planner/gs"
	"github.com/plannerhq/planner/planner/prio"
	"github.com/plannerhq/planner/planner/slearn"
	"github.com/plannerhq/planner/workloads"
)

// Fallback is the rule that decides a cycle whose solve gave no usable
// answer (an error, no incumbent at the limit, a crashed worker, a
// panic recovered in a stage; DESIGN.md step 4).
type Fallback int

const (
	// FallbackGS hands the nodes the urgent SLO jobs leave to GS (SLearn
	// §5.1.1): priority queues by the job's size, the planner's own point
	// estimate × its nodes (3σPredict's, for the 3sigma variants), first
	// in, first out within a queue, weighted sharing across queues.
	FallbackGS Fallback = iota
	// FallbackSLearn hands them to SLearn's cycle without memory
	// (slearn.Decide): jobs sized by their own completed tasks, the
	// others' pilots sampled first, thin and gang jobs first in, first
	// out.
	FallbackSLearn
	// FallbackPrio hands them to the priority rule: the rest by submit
	// time, each where it fits now.
	FallbackPrio
)

// DefaultFallback is the fallback of a Config whose Fallback is not set.
const DefaultFallback = FallbackGS

var fallbackNames = [...]string{"gs", "slearn", "prio"}

// String returns "gs", "slearn" or "prio".
func (f Fallback) String() string {
	if f < 0 || int(f) >= len(fallbackNames) {
		return fmt.Sprintf("Fallback(%d)", int(f))
	}
	return fallbackNames[f]
}

// ParseFallback is the inverse of String; "" is DefaultFallback.
func ParseFallback(s string) (Fallback, error) {
	if s == "" {
		return DefaultFallback, nil
	}
	for i, n := range fallbackNames {
		if n == s {
			return Fallback(i), nil
		}
	}
	return 0, fmt.Errorf("threesigma: unknown fallback %q (want gs, slearn or prio)", s)
}

// Fallbacks are the fallback names ParseFallback accepts.
func Fallbacks() []string { return fallbackNames[:] }

// fallback is the last stage: when no earlier stage decided (the solver
// gave no usable answer, or a stage failed), a rule without a solve
// decides this cycle, so that it still ends on time with a decision. Every
// rule decides in two steps:
//
//  1. the urgent SLO jobs — those that can still meet their deadline
//     (chance > 0) — first (urgent);
//  2. the nodes left go to the other jobs — best-effort jobs and the SLO
//     jobs that can no longer meet their deadline, which are worth no more
//     than best-effort ones (3Sigma §4.2 gives them a decaying value at
//     best) — by the configured rule (Fallback).
//
// So no rule starts an SLO job that can no longer meet its deadline ahead
// of one that can. When the configured rule itself fails (a panic, in
// estimates it reads), the priority rule decides the second step; the
// decision is marked as the fallback's either way.
func (c *cycle) fallback() {
	d, err := c.decideBy(c.s.cfg.Fallback)
	if err != nil && c.s.cfg.Fallback != FallbackPrio {
		d, err = c.decideBy(FallbackPrio)
	}
	if err != nil {
		d = &planner.Decision{} // nothing could be decided: wait for the next cycle
		if c.failed == "" {
			c.failed, c.failErr = "fallback", err
		}
	}
	d.Stats.Fallback = true
	c.dec = d
}

// decideBy is the fallback's decision with rule deciding its second step;
// a panic in it is an error.
func (c *cycle) decideBy(rule Fallback) (d *planner.Decision, err error) {
	defer func() {
		if v := recover(); v != nil {
			d, err = nil, &stagePanic{stage: "fallback " + rule.String(), value: v, stack: debug.Stack()}
		}
	}()
	st := c.st
	var urgent, rest []*planner.Pending
	for _, p := range st.Pending {
		if p.Job.Class == workloads.SLO && c.chance(p.Job, nil) > 0 {
			urgent = append(urgent, p)
		} else {
			rest = append(rest, p)
		}
	}
	d = c.urgent(urgent)
	sub := c.after(d, rest)
	var more *planner.Decision
	switch rule {
	case FallbackGS:
		more = gs.Decide(sub, gs.DefaultConfig(), c.size)
	case FallbackSLearn:
		more = slearn.Decide(sub, gs.DefaultConfig(), gs.DefaultThinLimit, c.s.cfg.Seed, c.s.learned)
	case FallbackPrio:
		slices.SortStableFunc(rest, func(a, b *planner.Pending) int {
			if s := cmp.Compare(a.Job.Submit, b.Job.Submit); s != 0 {
				return s
			}
			return cmp.Compare(a.Job.ID, b.Job.ID)
		})
		more = prio.Place(sub, rest, false)
	default:
		return nil, fmt.Errorf("threesigma: unknown fallback %v", rule)
	}
	d.Start = append(d.Start, more.Start...)
	d.StartTasks = append(d.StartTasks, more.StartTasks...)
	return d, nil
}

// urgent starts the urgent SLO jobs by deadline (then submit time, then
// id):
//
//   - a gang job on its preferred partitions when they hold it now;
//   - else, when Config.NoPreempt is off, on its preferred partitions
//     once the running best-effort gang jobs that hold nodes there are
//     stopped (latest started first), when that makes it fit;
//   - else anywhere (slowed) when the whole cluster holds it — first by
//     its free nodes, then by stopping best-effort gang jobs — if it can
//     still meet its deadline at the slower pace;
//   - else it waits for a later cycle;
//   - a task-level job's waiting tasks where planner.PlaceTask puts them.
//
// Stopping jobs that run for one that can still make its deadline is what
// the plan's keep-variables do when they price a running best-effort job
// below an SLO job's expected utility.
func (c *cycle) urgent(jobs []*planner.Pending) *planner.Decision {
	jobs = slices.Clone(jobs)
	slices.SortStableFunc(jobs, planner.ComparePrio)
	st := c.st
	d := &planner.Decision{}
	free := slices.Clone(st.Free)
	var victims []*planner.Running
	if !c.s.cfg.NoPreempt {
		for _, r := range st.Running {
			if r.Job.Class == workloads.BestEffort && !r.Job.TaskLevel() {
				victims = append(victims, r)
			}
		}
		slices.SortFunc(victims, func(a, b *planner.Running) int {
			if x := cmp.Compare(b.Start, a.Start); x != 0 {
				return x
			}
			return cmp.Compare(b.Job.ID, a.Job.ID)
		})
	}
	stopped := map[int]bool{}
	// stop frees the nodes of the victims, in order, for which counts
	// (the nodes of a victim that help) add up to need beyond have; it
	// reports whether they do, and stops them only then.
	stop := func(have, need int, counts func(*planner.Running) int) bool {
		var pick []*planner.Running
		for _, v := range victims {
			if have >= need {
				break
			}
			if n := counts(v); n > 0 && !stopped[v.Job.ID] {
				pick = append(pick, v)
				have += n
			}
		}
		if have < need {
			return false
		}
		for _, v := range pick {
			stopped[v.Job.ID] = true
			d.Preempt = append(d.Preempt, v.Job.ID)
			for r, k := range v.Alloc {
				free[r] += k
			}
		}
		return true
	}
	for _, p := range jobs {
		j := p.Job
		if j.TaskLevel() {
			for _, k := range p.Waiting {
				r, ok := planner.PlaceTask(free, j)
				if !ok {
					break
				}
				free[r] -= j.TaskNodes
				d.StartTasks = append(d.StartTasks, planner.TaskPlacement{JobID: j.ID, Task: k, Partition: r})
			}
			continue
		}
		pref := func(v []int) int {
			n := 0
			for r, k := range v {
				if j.IsPreferred(r) {
					n += k
				}
			}
			return n
		}
		fits := pref(free) >= j.Nodes || stop(pref(free), j.Nodes, func(v *planner.Running) int { return pref(v.Alloc) })
		if !fits && c.chance(j, c.slowedAlloc()) > 0 {
			fits = sumNodes(free) >= j.Nodes || stop(sumNodes(free), j.Nodes, func(v *planner.Running) int { return sumNodes(v.Alloc) })
		}
		if !fits {
			continue
		}
		alloc, ok := planner.PlaceJob(st.Cluster, free, j)
		if !ok {
			continue
		}
		for r, k := range alloc {
			free[r] -= k
		}
		d.Start = append(d.Start, planner.Placement{JobID: j.ID, Alloc: alloc})
	}
	return d
}

// slowedAlloc is an allocation off a job's preferred partitions, for
// chance: one node of every partition (the slowest speed and the slowdown
// count, as on the slowest mix the job could get).
func (c *cycle) slowedAlloc() []int {
	a := make([]int, len(c.st.Cluster.PartitionNodes))
	for r := range a {
		a[r] = 1
	}
	return a
}

func sumNodes(v []int) int {
	s := 0
	for _, x := range v {
		s += x
	}
	return s
}

// after is the cycle's state once d (starts and preemptions) is carried
// out, with pending the jobs still to decide: the free nodes less d's
// starts plus the preempted jobs' nodes, the running jobs without the
// preempted ones.
func (c *cycle) after(d *planner.Decision, pending []*planner.Pending) *planner.State {
	sub := *c.st
	sub.Pending = pending
	sub.Free = slices.Clone(c.st.Free)
	for _, pl := range d.Start {
		for r, k := range pl.Alloc {
			sub.Free[r] -= k
		}
	}
	byID := make(map[int]*planner.Pending, len(c.st.Pending))
	for _, p := range c.st.Pending {
		byID[p.Job.ID] = p
	}
	for _, ts := range d.StartTasks {
		sub.Free[ts.Partition] -= byID[ts.JobID].Job.TaskNodes
	}
	if len(d.Preempt) > 0 {
		sub.Running = nil
		for _, r := range c.st.Running {
			if slices.Contains(d.Preempt, r.Job.ID) {
				for p, k := range r.Alloc {
					sub.Free[p] += k
				}
				continue
			}
			sub.Running = append(sub.Running, r)
		}
	}
	return &sub
}

// size is a job's size for GS's queues (node-seconds): the planner's
// point estimate of its runtime (of a task-level job, its mean task
// runtime) × its nodes. A job whose estimate cannot be had counts
// estimate.DefaultRuntime.
func (c *cycle) size(job *workloads.Job) (s float64) {
	defer func() {
		if recover() != nil || !(s >= 0) || math.IsInf(s, 0) {
			s = estimate.DefaultRuntime * float64(job.Nodes)
		}
	}()
	return c.s.info(job, c.id, c.st.Now).est.Point * float64(job.Nodes)
}

// chance is the probability that an SLO job started now on alloc
// completes by its deadline, by the planner's estimate of its runtime T:
// P(T · f ≤ deadline − now), f the runtime factor of alloc
// (workloads.Cluster.Factor); nil alloc is its fastest preferred nodes,
// f = 1 / their speed. A deadline not ahead has chance 0. When the
// estimate itself fails (the stage that failed may have been the
// estimator), only the deadline is judged: chance 1 while it is ahead.
func (c *cycle) chance(job *workloads.Job, alloc []int) (p float64) {
	left := job.Deadline - c.st.Now
	if !(left > 0) {
		return 0
	}
	defer func() {
		if recover() != nil || math.IsNaN(p) {
			p = 1
		}
	}()
	cl := c.st.Cluster
	f := 1.0
	if alloc != nil {
		f = cl.Factor(job, alloc)
	} else if !cl.Uniform() {
		v := 0.0
		for r := range cl.PartitionNodes {
			if job.IsPreferred(r) {
				v = max(v, cl.Speed(r))
			}
		}
		if v > 0 {
			f = 1 / v
		}
	}
	return c.s.info(job, c.id, c.st.Now).est.Dist.CDF(left / f)
}

// ErrFailedOnPurpose is wrapped by the solve stage's error when the
// solve was failed on purpose (planner.SolverNone, Config.FailRate).
var ErrFailedOnPurpose = errors.New("solve failed on purpose")

// failStream salts the seed of the failed-solve draws, so that they are
// not a stream a generator seeded alike draws from.
const failStream = 0x6661696c00000000

// failOnPurpose fails this cycle's solve before it starts: every solve
// with planner.SolverNone; with Config.FailRate = P, when a uniform draw
// u in [0, 1) from a source seeded by Config.Seed and the cycle's number
// is below P. Each cycle's draw is its own, so that which cycles fail does
// not depend on how many draws earlier cycles made.
func (c *cycle) failOnPurpose() error {
	cfg := &c.s.cfg
	if c.s.solver == nil {
		return fmt.Errorf("solve: %w (solver %s)", ErrFailedOnPurpose, planner.SolverNone)
	}
	if cfg.FailRate > 0 && rand.New(rand.NewPCG(cfg.Seed^failStream, c.id)).Float64() < cfg.FailRate {
		return fmt.Errorf("solve: %w (fail rate %v)", ErrFailedOnPurpose, cfg.FailRate)
	}
	return nil
}

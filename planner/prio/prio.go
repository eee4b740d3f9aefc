package prio

import (
	"cmp"
	"context"
	"slices"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/workloads"
)

// Registry names of the strict-priority baselines.
const (
	// Name: prio as the 3Sigma paper runs it (§6.1), SLO jobs strictly
	// before best-effort jobs, preempting best-effort jobs for them.
	Name = "prio"
	// NameNoPreempt: prio without preemption (SLO jobs wait for free
	// nodes).
	NameNoPreempt = "prio-nopreempt"
)

// Prio is the strict-priority baseline of 3sigma Table 1 ("like Borg"): it
// uses no runtime knowledge at all. Every cycle it orders the pending jobs
//
//  1. SLO jobs by earliest deadline (ties: earlier submit, then lower id) —
//     EDF rather than FIFO, because the deadline is the only thing an SLO
//     request tells a runtime-blind scheduler about urgency;
//  2. then best-effort jobs first-in first-out (submit time, then id),
//
// and places each gang that fits in the free nodes now (Place), skipping
// a job that does not fit and going on with the next (backfill).
// SLO jobs therefore come strictly first for free nodes, but a small
// best-effort job may start while a large SLO job waits.
//
// With Options.PreemptBE, an SLO job that does not fit may also stop
// running best-effort jobs (the paper's Prio preempts; the default baseline of
// this project does not — see Options).
type Prio struct {
	name string
	opts Options
}

// Options configure Prio. The zero value is the default baseline.
type Options struct {
	// PreemptBE lets an SLO job that does not fit in the free nodes preempt
	// running best-effort jobs, most recently started first (they lose the
	// least work), until the free nodes hold it. Off by default.
	PreemptBE bool
}

var _ planner.Scheduler = (*Prio)(nil)

// New returns the strict-priority baseline: Name with opts.PreemptBE,
// NameNoPreempt without.
func New(opts Options) *Prio {
	name := NameNoPreempt
	if opts.PreemptBE {
		name = Name
	}
	return &Prio{name: name, opts: opts}
}

// Name is Name or NameNoPreempt.
func (p *Prio) Name() string { return p.name }

// Train does nothing: Prio has no runtime knowledge.
func (p *Prio) Train([]workloads.Job) {}

// Applied does nothing: Prio keeps no memory between cycles.
func (p *Prio) Applied(*planner.ApplyResult) {}

// Observe does nothing: Prio has no runtime knowledge.
func (p *Prio) Observe(planner.Completion) {}

// Schedule orders the pending jobs (PrioOrder) and places them (Place).
func (p *Prio) Schedule(_ context.Context, st *planner.State) (*planner.Decision, error) {
	return Place(st, planner.PrioOrder(st.Pending), p.opts.PreemptBE), nil
}

// Place places the jobs of order, in that order, on the free nodes of st
// (st is not modified): a gang job where planner.PlaceJob puts it when it
// fits now, else it is skipped (backfill); a task-level job's waiting
// tasks where planner.PlaceTask puts them, in index order, while they fit.
// With preemptBE, an SLO gang job that does not fit takes nodes from
// running best-effort gang jobs (latest start first, ties by higher id)
// when stopping them makes it fit. It is Prio's cycle, and the planning
// schedulers' fallback places with it.
func Place(st *planner.State, order []*planner.Pending, preemptBE bool) *planner.Decision {
	free := slices.Clone(st.Free)
	var victims []*planner.Running
	if preemptBE {
		for _, r := range st.Running {
			if r.Job.Class == workloads.BestEffort && !r.Job.TaskLevel() {
				victims = append(victims, r)
			}
		}
		slices.SortFunc(victims, func(a, b *planner.Running) int {
			if c := cmp.Compare(b.Start, a.Start); c != 0 {
				return c
			}
			return cmp.Compare(b.Job.ID, a.Job.ID)
		})
	}
	d := &planner.Decision{}
	for _, pj := range order {
		if pj.Job.TaskLevel() {
			for _, k := range pj.Waiting {
				r, ok := planner.PlaceTask(free, pj.Job)
				if !ok {
					break
				}
				free[r] -= pj.Job.TaskNodes
				d.StartTasks = append(d.StartTasks, planner.TaskPlacement{JobID: pj.Job.ID, Task: k, Partition: r})
			}
			continue
		}
		alloc, ok := planner.PlaceJob(st.Cluster, free, pj.Job)
		if !ok && preemptBE && pj.Job.Class == workloads.SLO {
			// Would stopping BE jobs make room at all?
			total := sumNodes(free)
			n := 0
			for _, v := range victims {
				if total >= pj.Job.Nodes {
					break
				}
				total += sumNodes(v.Alloc)
				n++
			}
			if total >= pj.Job.Nodes {
				for _, v := range victims[:n] {
					d.Preempt = append(d.Preempt, v.Job.ID)
					for r, k := range v.Alloc {
						free[r] += k
					}
				}
				victims = victims[n:]
				alloc, ok = planner.PlaceJob(st.Cluster, free, pj.Job)
			}
		}
		if !ok {
			continue
		}
		for r, k := range alloc {
			free[r] -= k
		}
		d.Start = append(d.Start, planner.Placement{JobID: pj.Job.ID, Alloc: alloc})
	}
	return d
}

func sumNodes(v []int) int {
	s := 0
	for _, x := range v {
		s += x
	}
	return s
}

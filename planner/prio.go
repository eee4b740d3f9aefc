package planner

import (
	"cmp"
	"context"
	"slices"

	"github.com/plannerhq/planner/workloads"
)

// PrioName is the registry name of the strict-priority baseline.
const PrioName = "prio"

// Prio is the strict-priority baseline of 3sigma Table 1 ("like Borg"): it
// uses no runtime knowledge at all. Every cycle it orders the pending jobs
//
//  1. SLO jobs by earliest deadline (ties: earlier submit, then lower id) —
//     EDF rather than FIFO, because the deadline is the only thing an SLO
//     request tells a runtime-blind scheduler about urgency;
//  2. then best-effort jobs first-in first-out (submit time, then id),
//
// and places each gang that fits in the free nodes now with PlaceGreedy,
// skipping a job that does not fit and going on with the next (backfill).
// SLO jobs therefore come strictly first for free nodes, but a small
// best-effort job may start while a large SLO job waits.
//
// With PrioOptions.PreemptBE, an SLO job that does not fit may also stop
// running best-effort jobs (the paper's Prio preempts; the default baseline of
// this project does not — see PrioOptions).
type Prio struct {
	opts PrioOptions
}

// PrioOptions configure Prio. The zero value is the default baseline.
type PrioOptions struct {
	// PreemptBE lets an SLO job that does not fit in the free nodes preempt
	// running best-effort jobs, most recently started first (they lose the
	// least work), until the free nodes hold it. Off by default.
	PreemptBE bool
}

var _ Scheduler = (*Prio)(nil)

// NewPrio returns the strict-priority baseline.
func NewPrio(opts PrioOptions) *Prio { return &Prio{opts: opts} }

// Name is PrioName.
func (p *Prio) Name() string { return PrioName }

// Train does nothing: Prio has no runtime knowledge.
func (p *Prio) Train([]workloads.Job) {}

// Observe does nothing: Prio has no runtime knowledge.
func (p *Prio) Observe(*workloads.Job, float64, float64) {}

// Schedule orders the pending jobs (PrioOrder) and places greedily.
func (p *Prio) Schedule(_ context.Context, st *State) (*Decision, error) {
	order := PrioOrder(st.Pending)
	if !p.opts.PreemptBE {
		return &Decision{Start: PlaceGreedy(st, order)}, nil
	}
	return p.scheduleWithPreemption(st, order), nil
}

// scheduleWithPreemption is PlaceGreedy in which an SLO job that does not
// fit takes nodes from running best-effort jobs (latest start first, ties by
// higher id) when that makes it fit.
func (p *Prio) scheduleWithPreemption(st *State, order []*Pending) *Decision {
	free := slices.Clone(st.Free)
	victims := make([]*Running, 0, len(st.Running))
	for _, r := range st.Running {
		if r.Job.Class == workloads.BestEffort {
			victims = append(victims, r)
		}
	}
	slices.SortFunc(victims, func(a, b *Running) int {
		if c := cmp.Compare(b.Start, a.Start); c != 0 {
			return c
		}
		return cmp.Compare(b.Job.ID, a.Job.ID)
	})
	d := &Decision{}
	for _, pj := range order {
		alloc, ok := PlaceJob(st.Cluster, free, pj.Job)
		if !ok && pj.Job.Class == workloads.SLO {
			// Would stopping BE jobs make room at all?
			total := prioSum(free)
			n := 0
			for _, v := range victims {
				if total >= pj.Job.Nodes {
					break
				}
				total += prioSum(v.Alloc)
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
				alloc, ok = PlaceJob(st.Cluster, free, pj.Job)
			}
		}
		if !ok {
			continue
		}
		for r, k := range alloc {
			free[r] -= k
		}
		d.Start = append(d.Start, Placement{JobID: pj.Job.ID, Alloc: alloc})
	}
	return d
}

// PrioOrder returns the pending jobs in Prio's order: SLO jobs by deadline,
// then submit time, then id; then best-effort jobs by submit time, then id.
// The input is not modified.
func PrioOrder(pending []*Pending) []*Pending {
	order := slices.Clone(pending)
	slices.SortStableFunc(order, comparePrio)
	return order
}

// comparePrio is Prio's order as a comparison: SLO before best-effort, SLO
// jobs by deadline, then submit time, then id.
func comparePrio(a, b *Pending) int {
	ja, jb := a.Job, b.Job
	if ja.Class != jb.Class {
		if ja.Class == workloads.SLO {
			return -1
		}
		return 1
	}
	if ja.Class == workloads.SLO {
		if c := cmp.Compare(ja.Deadline, jb.Deadline); c != 0 {
			return c
		}
	}
	if c := cmp.Compare(ja.Submit, jb.Submit); c != 0 {
		return c
	}
	return cmp.Compare(ja.ID, jb.ID)
}

// PlaceGreedy places the jobs of order, in that order, on the free nodes of
// state (state.Free is not modified): each job that fits now gets the nodes
// PlaceJob chooses, and a job that does not fit is skipped (backfill). It
// never preempts. It is Prio's placement and the fallback of the planning
// schedulers.
func PlaceGreedy(state *State, order []*Pending) []Placement {
	free := slices.Clone(state.Free)
	var out []Placement
	for _, p := range order {
		alloc, ok := PlaceJob(state.Cluster, free, p.Job)
		if !ok {
			continue
		}
		for r, k := range alloc {
			free[r] -= k
		}
		out = append(out, Placement{JobID: p.Job.ID, Alloc: alloc})
	}
	return out
}

// PlaceJob chooses job.Nodes nodes among free[r] (free is not modified):
//
//   - If the job's preferred partitions together have enough free nodes, it
//     takes only preferred nodes (no slowdown).
//   - Otherwise, if the whole cluster has enough free nodes, it takes nodes
//     anywhere and the job runs Cluster.Slowdown× longer: a runtime-blind
//     scheduler cannot tell whether waiting for preferred nodes would pay.
//   - Otherwise the job does not fit (ok = false).
//
// Within the allowed partitions it fills the partition with the most free
// nodes first (ties: lower index), so a gang touches few partitions and
// small holes are left for small jobs. When the slowdown is taken anyway,
// preferred partitions are not favoured: once one node is off the preferred
// set the job is slowed whatever the mix.
func PlaceJob(c workloads.Cluster, free []int, job *workloads.Job) (alloc []int, ok bool) {
	if job.Nodes <= 0 || len(free) == 0 {
		return nil, false
	}
	prefFree := 0
	for r, f := range free {
		if f > 0 && job.IsPreferred(r) {
			prefFree += f
		}
	}
	allowed := func(r int) bool { return job.IsPreferred(r) }
	if prefFree < job.Nodes {
		if prioSum(free) < job.Nodes {
			return nil, false
		}
		allowed = func(int) bool { return true }
	}
	parts := make([]int, 0, len(free))
	for r, f := range free {
		if f > 0 && allowed(r) {
			parts = append(parts, r)
		}
	}
	slices.SortStableFunc(parts, func(a, b int) int { return cmp.Compare(free[b], free[a]) })
	alloc = make([]int, len(free))
	need := job.Nodes
	for _, r := range parts {
		k := min(need, free[r])
		alloc[r] = k
		need -= k
		if need == 0 {
			break
		}
	}
	return alloc, true
}

func prioSum(v []int) int {
	s := 0
	for _, x := range v {
		s += x
	}
	return s
}

package threesigma

import (
	"cmp"
	"slices"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/workloads"
)

// fallback is the last stage: when no earlier stage decided (the solver gave
// no usable answer, or a stage failed), a priority rule decides this cycle,
// so that it still ends on time with a decision (DESIGN.md step 4). It
// places greedily where each job fits now (PlaceGreedy), in this order:
//
//  1. SLO jobs that can still meet their deadline (canMeet), by deadline;
//  2. then best-effort jobs and the SLO jobs that can no longer meet
//     theirs, by submit time: a late SLO job is worth no more than a
//     best-effort one (3Sigma §4.2 gives it a decaying value at best), and
//     starting it first would take the nodes of jobs that can still make
//     their deadlines.
//
// It preempts nothing.
func (c *cycle) fallback() {
	order := slices.Clone(c.st.Pending)
	feasible := make(map[int]bool, len(order))
	for _, p := range order {
		if p.Job.Class == workloads.SLO {
			feasible[p.Job.ID] = c.canMeet(p.Job)
		}
	}
	rank := func(p *planner.Pending) int {
		if feasible[p.Job.ID] {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(order, func(a, b *planner.Pending) int {
		if r := cmp.Compare(rank(a), rank(b)); r != 0 {
			return r
		}
		if rank(a) == 0 {
			if d := cmp.Compare(a.Job.Deadline, b.Job.Deadline); d != 0 {
				return d
			}
		}
		if s := cmp.Compare(a.Job.Submit, b.Job.Submit); s != 0 {
			return s
		}
		return cmp.Compare(a.Job.ID, b.Job.ID)
	})
	c.dec = &planner.Decision{Start: planner.PlaceGreedy(c.st, order)}
	c.dec.Stats.Fallback = true
}

// canMeet reports whether an SLO job started now could still complete by
// its deadline: the deadline is ahead, and its runtime estimate on its
// fastest preferred nodes (the fastest it can run, speed v) allows a
// runtime of at most deadline − now, P(T/v ≤ deadline − now) > 0. When
// the estimate itself fails (the stage that failed may have been the
// estimator), only the deadline is judged.
func (c *cycle) canMeet(job *workloads.Job) (ok bool) {
	left := job.Deadline - c.st.Now
	if !(left > 0) {
		return false
	}
	defer func() {
		if recover() != nil {
			ok = true
		}
	}()
	if cl := c.st.Cluster; !cl.Uniform() {
		v := 0.0
		for r := range cl.PartitionNodes {
			if job.IsPreferred(r) {
				v = max(v, cl.Speed(r))
			}
		}
		if v > 0 {
			left *= v
		}
	}
	return c.s.info(job, c.id, c.st.Now).est.Dist.CDF(left) > 0
}

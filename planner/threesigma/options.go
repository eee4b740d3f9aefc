package threesigma

import (
	"cmp"
	"slices"

	"github.com/plannerhq/planner/planner"
)

// options is stage 2: the pending jobs to plan and, for each, its allowed
// partition sets (DESIGN.md step 2): the preferred groups with the runtime
// as estimated and, when the preferred partitions are not all of them, all
// groups with the runtime scaled by the cluster's slowdown. A set too small
// for the job's gang is left out. Each set is combined with every start
// slice in the valuation stage.
func (c *cycle) options() error {
	pend := c.planned()
	all := make([]int, len(c.parts))
	for g := range all {
		all[g] = g
	}
	for _, p := range pend {
		job := p.Job
		if job.Nodes <= 0 {
			continue
		}
		info := c.s.info(job, c.id, c.st.Now)
		pj := &pjob{p: p, info: info}
		if pref := c.prefGroups(job); pref != nil {
			pj.sets = append(pj.sets, allowedSet{groups: pref, rt: info.pref})
			pj.sets = append(pj.sets, allowedSet{all: true, groups: all, rt: info.slowRuntime(c.st.Cluster.Slowdown)})
		} else {
			pj.sets = append(pj.sets, allowedSet{groups: all, rt: info.pref})
		}
		pj.sets = slices.DeleteFunc(pj.sets, func(a allowedSet) bool {
			n := 0
			for _, g := range a.groups {
				n += c.gNodes[g]
			}
			return n < job.Nodes
		})
		if len(pj.sets) > 0 {
			c.jobs = append(c.jobs, pj)
		}
	}
	return nil
}

// planned returns the pending jobs this cycle plans: all of them ordered by
// job ID, or with Config.MaxPending the first MaxPending in priority order
// (SLO jobs by deadline, then best-effort jobs by submit time).
func (c *cycle) planned() []*planner.Pending {
	pend := slices.Clone(c.st.Pending)
	if mp := c.s.cfg.MaxPending; mp > 0 && len(pend) > mp {
		slices.SortStableFunc(pend, planner.ComparePrio)
		pend = pend[:mp]
	}
	slices.SortStableFunc(pend, func(a, b *planner.Pending) int { return cmp.Compare(a.Job.ID, b.Job.ID) })
	return pend
}

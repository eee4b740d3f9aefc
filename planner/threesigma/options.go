package threesigma

import (
	"cmp"
	"slices"

	"github.com/plannerhq/planner/planner"
)

// options is stage 2: the pending jobs to plan and, for each, its allowed
// partition sets (DESIGN.md step 2): the preferred groups with the runtime
// as estimated and, when the preferred partitions are not all of them, all
// groups with the runtime scaled by the cluster's slowdown. On a cluster
// whose partitions differ in speed each of these is split by speed
// (speedSets): a gang runs at the pace of its slowest node. A set too
// small for the job's gang is left out. Each set is combined with every
// start slice in the valuation stage.
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
		f := 1.0 // a gang of tasks runs until its longest task ends
		if t := c.tasks[job.ID]; t != nil {
			f = c.s.longest(t.Job, len(t.Waiting))
		}
		if pref := c.prefGroups(job); pref != nil {
			pj.sets = c.speedSets(pj.sets, info, pref, false, f)
			pj.sets = c.speedSets(pj.sets, info, all, true, c.st.Cluster.Slowdown*f)
		} else {
			pj.sets = c.speedSets(pj.sets, info, all, false, f)
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

// speedSets appends to sets the allowed sets of a job over groups, whose
// runtime takes the factor slowdown (all: the sets off the job's preferred
// partitions). There is one set per distinct speed s of the groups, from
// the fastest down: the groups of speed ≥ s, with the runtime ×
// slowdown / s. On a cluster of one speed that is a single set of all the
// groups.
//
// The runtime is exact for a gang placed in the set's groups of speed s
// only, and conservative otherwise (a gang that holds no node of speed s
// runs faster than planned, never slower), because the plan does not know
// which groups the counts y will pick; the faster sets let the plan choose
// the faster pace where it fits.
func (c *cycle) speedSets(sets []allowedSet, info *jobInfo, groups []int, all bool, slowdown float64) []allowedSet {
	if !(slowdown > 0) {
		slowdown = 1
	}
	speeds := make([]float64, 0, 2)
	for _, g := range groups {
		speeds = append(speeds, c.gSpeed[g])
	}
	slices.Sort(speeds)
	speeds = slices.Compact(speeds)
	for i := len(speeds) - 1; i >= 0; i-- {
		s := speeds[i]
		var gs []int
		for _, g := range groups {
			if c.gSpeed[g] >= s {
				gs = append(gs, g)
			}
		}
		if i == 0 {
			gs = groups // all of them: the set it always was on one speed
		}
		sets = append(sets, allowedSet{all: all, groups: gs, rt: info.runtimeAt(slowdown / s)})
	}
	return sets
}

// planned returns the pending jobs this cycle plans: all of them ordered by
// job ID, or with Config.MaxPending the first MaxPending in priority order
// (SLO jobs by deadline, then best-effort jobs by submit time).
func (c *cycle) planned() []*planner.Pending {
	pend := make([]*planner.Pending, 0, len(c.st.Pending))
	c.tasks = map[int]*planner.Pending{}
	for _, p := range c.st.Pending {
		if v := c.gangView(p); v != nil {
			pend = append(pend, v)
		}
	}
	if mp := c.s.cfg.MaxPending; mp > 0 && len(pend) > mp {
		slices.SortStableFunc(pend, planner.ComparePrio)
		pend = pend[:mp]
	}
	slices.SortStableFunc(pend, func(a, b *planner.Pending) int { return cmp.Compare(a.Job.ID, b.Job.ID) })
	return pend
}

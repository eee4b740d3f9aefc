package threesigma

import (
	"cmp"
	"math"
	"slices"

	"github.com/plannerhq/planner/planner"
)

// decode is stage 6: what the answer says to do now. Options with s = 0
// start on real partitions: each group's count goes to the group's
// partitions, most free first. The rest of the plan is not enacted (it is
// re-planned next cycle). A start that does not fit the free nodes (only
// possible through rounding) is repaired within its allowed set, or
// skipped. The options with s > 0 become the decision's Plan.
//
// Keep-variables at 0 preempt their best-effort jobs only where this
// cycle's starts need their nodes (preemptLazily): a keep at 0 that only
// makes room for a start the plan puts in a later slice is left running,
// since that plan is made again next cycle and may never need the nodes.
// Preempting for it would throw the job's work away now and, when the
// next plan changes, start it again: the plan undoing its own decisions
// from one cycle to the next.
func (c *cycle) decode() error {
	x := c.res.X
	dec := &planner.Decision{}
	free := slices.Clone(c.st.Free)
	var victims []*planner.Running // keeps at 0: preemptible for this cycle's starts
	for i := range c.keeps {
		if kp := &c.keeps[i]; x[kp.z] < 0.5 {
			victims = append(victims, kp.run)
		}
	}
	// Least work lost first: the latest start, then the higher id.
	slices.SortFunc(victims, func(a, b *planner.Running) int {
		if v := cmp.Compare(b.Start, a.Start); v != 0 {
			return v
		}
		return cmp.Compare(b.Job.ID, a.Job.ID)
	})
	for _, pj := range c.jobs {
		pj.info.hasPlan = false
	}
	for _, o := range c.opts {
		if x[o.x] > 0.5 {
			info := c.jobs[o.job].info
			info.planned, info.hasPlan = c.abs+int64(o.start), true
			info.plannedAll = c.jobs[o.job].sets[o.set].all
			if o.start > 0 {
				dec.Plan = append(dec.Plan, c.plannedStart(o))
			}
		}
	}
	slices.SortFunc(dec.Plan, func(a, b planner.PlannedStart) int {
		if v := cmp.Compare(a.At, b.At); v != 0 {
			return v
		}
		return cmp.Compare(a.JobID, b.JobID)
	})
	for _, o := range c.opts {
		if o.start != 0 || x[o.x] < 0.5 {
			continue
		}
		pj := c.jobs[o.job]
		set := &pj.sets[o.set]
		k := pj.p.Job.Nodes
		want := make([]int, len(c.parts))
		n := 0
		if o.y == nil {
			want[set.groups[0]] = k
			n = k
		} else {
			for gi, y := range o.y {
				if y >= 0 {
					v := int(math.Round(x[y]))
					want[set.groups[gi]] = v
					n += v
				}
			}
		}
		alloc := make([]int, len(free))
		ok := n == k
		for g := 0; ok && g < len(want); g++ {
			victims = c.preemptLazily(dec, c.parts[g], want[g], free, victims)
			ok = c.takeFrom(c.parts[g], want[g], free, alloc)
		}
		if !ok {
			// Repair: any nodes of the allowed set, most free partition first.
			for p, v := range alloc {
				free[p] += v
				alloc[p] = 0
			}
			var ps []int
			for _, g := range set.groups {
				ps = append(ps, c.parts[g]...)
			}
			victims = c.preemptLazily(dec, ps, k, free, victims)
			if !c.takeFrom(ps, k, free, alloc) {
				for p, v := range alloc {
					free[p] += v
				}
				continue
			}
		}
		dec.Start = append(dec.Start, planner.Placement{JobID: pj.p.Job.ID, Alloc: alloc})
	}
	slices.Sort(dec.Preempt)
	dec.Stats.HeldNodes = c.held(free)
	c.taskStarts(dec)
	c.dec = dec
	return nil
}

// preemptLazily preempts victims (in their order) holding nodes in the
// partitions ps until ps have n free nodes, adding their nodes to free and
// their ids to dec.Preempt. It returns the victims left.
func (c *cycle) preemptLazily(dec *planner.Decision, ps []int, n int, free []int, victims []*planner.Running) []*planner.Running {
	have := 0
	for _, p := range ps {
		have += free[p]
	}
	left := victims[:0]
	for _, v := range victims {
		in := 0
		for _, p := range ps {
			in += v.Alloc[p]
		}
		if have >= n || in == 0 {
			left = append(left, v)
			continue
		}
		dec.Preempt = append(dec.Preempt, v.Job.ID)
		for p, k := range v.Alloc {
			free[p] += k
		}
		have += in
	}
	return left
}

// held is CycleStats.HeldNodes: of the nodes idle once the decision is
// carried out (free), those the jobs the plan starts at its next start
// slice (starts[1]) ask for, min(Σ free, Σ their gangs).
func (c *cycle) held(free []int) int {
	if len(c.starts) < 2 {
		return 0
	}
	want := 0
	for _, o := range c.opts {
		if o.start == c.starts[1] && c.res.X[o.x] > 0.5 {
			want += c.jobs[o.job].p.Job.Nodes
		}
	}
	idle := 0
	for _, f := range free {
		idle += f
	}
	return min(idle, want)
}

// plannedStart is the foreseen start of option o (s > 0): at now + s·q,
// each group's count filling the group's partitions in order.
func (c *cycle) plannedStart(o option) planner.PlannedStart {
	pj := c.jobs[o.job]
	set := &pj.sets[o.set]
	alloc := make([]int, len(c.st.Free))
	fill := func(g, n int) {
		for _, p := range c.parts[g] {
			t := min(n, c.st.Cluster.PartitionNodes[p])
			alloc[p] += t
			n -= t
		}
		if n > 0 { // cannot happen for a feasible answer; keep the count
			alloc[c.parts[g][0]] += n
		}
	}
	if o.y == nil {
		fill(set.groups[0], pj.p.Job.Nodes)
	} else {
		for gi, y := range o.y {
			if y >= 0 {
				fill(set.groups[gi], int(math.Round(c.res.X[y])))
			}
		}
	}
	return planner.PlannedStart{JobID: pj.p.Job.ID, At: c.st.Now + float64(o.start)*c.q, Alloc: alloc}
}

// takeFrom takes n nodes from the partitions ps, most free first (ties to
// the lower index), moving them from free to alloc. It reports whether n
// nodes were found; on false the partial take stays in alloc.
func (c *cycle) takeFrom(ps []int, n int, free, alloc []int) bool {
	if n == 0 {
		return true
	}
	order := slices.Clone(ps)
	slices.SortStableFunc(order, func(a, b int) int {
		if v := cmp.Compare(free[b], free[a]); v != 0 {
			return v
		}
		return cmp.Compare(a, b)
	})
	for _, p := range order {
		t := min(n, free[p])
		if t <= 0 {
			continue
		}
		free[p] -= t
		alloc[p] += t
		n -= t
		if n == 0 {
			return true
		}
	}
	return false
}

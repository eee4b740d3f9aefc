package planner

import (
	"slices"
)

// fallback is the last stage: when no earlier stage decided (the solver gave
// no usable answer, or a stage failed), a priority rule decides this cycle
// so that it still ends on time with a decision (DESIGN.md step 4). It
// starts pending jobs SLO first by deadline, then best-effort by submit
// time, each on its preferred partitions if they have room, else on any
// partitions, and preempts nothing.
func (c *cycle) fallback() {
	c.dec = &Decision{Start: placeByPriority(c.st)}
	c.dec.Stats.Fallback = true
}

// placeByPriority is the greedy priority placement of the fallback.
func placeByPriority(st *State) []Placement {
	pend := slices.Clone(st.Pending)
	slices.SortStableFunc(pend, priorityOrder)
	free := slices.Clone(st.Free)
	var out []Placement
	for _, p := range pend {
		j := p.Job
		if j.Nodes <= 0 {
			continue
		}
		var pref, rest []int
		for r := range free {
			if j.IsPreferred(r) {
				pref = append(pref, r)
			} else {
				rest = append(rest, r)
			}
		}
		alloc := make([]int, len(free))
		if sumFree(free, pref) >= j.Nodes {
			takeMostFree(pref, j.Nodes, free, alloc)
		} else if sumFree(free, pref)+sumFree(free, rest) >= j.Nodes {
			n := j.Nodes - takeMostFree(pref, j.Nodes, free, alloc)
			takeMostFree(rest, n, free, alloc)
		} else {
			continue
		}
		out = append(out, Placement{JobID: j.ID, Alloc: alloc})
	}
	return out
}

func sumFree(free []int, ps []int) int {
	n := 0
	for _, p := range ps {
		n += free[p]
	}
	return n
}

// takeMostFree takes up to n nodes from ps, most free partition first, and
// returns how many it took.
func takeMostFree(ps []int, n int, free, alloc []int) int {
	c := cycle{}
	before := 0
	for _, p := range ps {
		before += alloc[p]
	}
	c.takeFrom(ps, n, free, alloc)
	after := 0
	for _, p := range ps {
		after += alloc[p]
	}
	return after - before
}

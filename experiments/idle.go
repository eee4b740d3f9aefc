package experiments

import (
	"cmp"
	"math"
	"slices"
)

// IdleCapacity is the capacity a run left idle while work that fitted was
// waiting, in node-seconds, split by cause (IdleBreakdown).
type IdleCapacity struct {
	// Fit = Held + Fragmented + Other.
	Fit float64
	// Held: idle nodes the plan kept for a start it planned at its next
	// start slice (planner.CycleStats.HeldNodes).
	Held float64
	// Fragmented: the rest of the idle nodes, when no waiting gang fitted
	// into them on its preferred partitions (every gang that fitted the
	// idle nodes was too large for the rest, or fitted only off its
	// preferred partitions).
	Fragmented float64
	// Other: the rest of the idle nodes, when some waiting gang fitted
	// into them on its preferred partitions: nothing but the scheduler's
	// choice or the time to its next cycle kept it waiting.
	Other float64
}

// IdleBreakdown is the idle capacity of res while work that fitted was
// waiting. At each instant t of the span [0, End), with F(t) the idle
// nodes, F_R(t) those of partitions R, P(t) the waiting jobs (submitted by
// t, not running, not completed) and H(t) the nodes the last cycle's plan
// held (CycleRecord.Stats.HeldNodes, from that cycle to the next):
//
//   - nothing is counted unless some j ∈ P(t) has n_j ≤ F(t);
//   - held = min(F(t), H(t)), and rest = F(t) − held;
//   - rest counts as other when some j ∈ P(t) has n_j ≤ rest and n_j ≤
//     F_pref(j)(t) (it fits the rest on its preferred partitions), else as
//     fragmented.
//
// Each is integrated over time (node-seconds). Runs hold their nodes over
// [Start, End); a job waits from its submit time to its first start, and
// again from each preemption to its next start.
func IdleBreakdown(res *SimResult) IdleCapacity {
	var out IdleCapacity
	span := res.End
	if !(span > 0) {
		return out
	}
	type event struct {
		t     float64
		alloc []int // a run: its nodes taken (sign > 0) or released
		sign  int
		job   int // index into res.Jobs of a job that starts (+1) or stops (−1) waiting; −1: none
		held  int // ≥ 0: a cycle's held nodes from t on
	}
	// At most two events per run, one per cycle, and per job one per
	// waiting interval's edge (≤ two per run, one more for its last
	// wait): sized once, since a run decided at every event has 10⁷
	// cycles.
	ev := make([]event, 0, 4*len(res.Runs)+len(res.Cycles)+len(res.Jobs))
	add := func(e event) {
		if e.t < span {
			ev = append(ev, e)
		}
	}
	for _, r := range res.Runs {
		if r.Start >= span || r.End <= r.Start {
			continue
		}
		add(event{t: r.Start, alloc: r.Alloc, sign: 1, job: -1, held: -1})
		add(event{t: r.End, alloc: r.Alloc, sign: -1, job: -1, held: -1})
	}
	for _, c := range res.Cycles {
		add(event{t: c.Now, job: -1, held: max(0, c.Stats.HeldNodes)})
	}
	// Waiting intervals per job, from its runs (res.Runs is by start).
	idx := make(map[int]int, len(res.Jobs))
	for i := range res.Jobs {
		idx[res.Jobs[i].JobID] = i
	}
	runsOf := make([][]RunRecord, len(res.Jobs))
	for _, r := range res.Runs {
		if i, ok := idx[r.JobID]; ok {
			runsOf[i] = append(runsOf[i], r)
		}
	}
	for i := range res.Jobs {
		from := res.Jobs[i].Submit
		for _, r := range runsOf[i] {
			if r.Start > from {
				add(event{t: from, job: i, sign: 1, held: -1})
				add(event{t: r.Start, job: i, sign: -1, held: -1})
			}
			from = math.Inf(1)
			if r.Preempted {
				from = r.End
			}
		}
		if from < span {
			add(event{t: from, job: i, sign: 1, held: -1})
		}
	}
	slices.SortStableFunc(ev, func(a, b event) int { return cmp.Compare(a.t, b.t) })

	free := slices.Clone(res.PartitionNodes)
	var waiting []int    // indices into res.Jobs
	pos := map[int]int{} // job index → position in waiting
	held := 0
	for i := 0; i < len(ev); {
		t := ev[i].t
		for ; i < len(ev) && ev[i].t == t; i++ {
			e := ev[i]
			switch {
			case e.alloc != nil:
				for p, k := range e.alloc {
					free[p] -= e.sign * k
				}
			case e.job >= 0 && e.sign > 0:
				pos[e.job] = len(waiting)
				waiting = append(waiting, e.job)
			case e.job >= 0:
				if k, ok := pos[e.job]; ok {
					last := waiting[len(waiting)-1]
					waiting[k], pos[last] = last, k
					waiting = waiting[:len(waiting)-1]
					delete(pos, e.job)
				}
			case e.held >= 0:
				held = e.held
			}
		}
		next := span
		if i < len(ev) {
			next = ev[i].t
		}
		dt := next - max(t, 0)
		if dt <= 0 || len(waiting) == 0 {
			continue
		}
		f := 0
		for _, k := range free {
			f += k
		}
		fits := false
		for _, j := range waiting {
			if res.Jobs[j].Nodes <= f {
				fits = true
				break
			}
		}
		if f <= 0 || !fits {
			continue
		}
		h := min(f, held)
		rest := f - h
		other := false
		for _, j := range waiting {
			jr := &res.Jobs[j]
			if jr.Nodes <= rest && jr.Nodes <= preferredFree(free, jr.Preferred) {
				other = true
				break
			}
		}
		out.Fit += float64(f) * dt
		out.Held += float64(h) * dt
		if other {
			out.Other += float64(rest) * dt
		} else {
			out.Fragmented += float64(rest) * dt
		}
	}
	return out
}

// preferredFree is the idle nodes of the partitions pref (nil: all).
func preferredFree(free, pref []int) int {
	n := 0
	if len(pref) == 0 {
		for _, k := range free {
			n += k
		}
		return n
	}
	for _, p := range pref {
		if p >= 0 && p < len(free) {
			n += free[p]
		}
	}
	return n
}

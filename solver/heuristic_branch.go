package solver

import (
	"context"
	"time"
)

// A second guide. The LP answer guides the recreates of the local search
// (their orders, the rack splits, and the core of items they offer), and
// where it leaves a weighty choice open it guides toward both sides at
// once. On the 100-job rack instance of seed 4 it takes the option of a
// 68-node job at start slice 16 at 0.51 and the same job at slice 32 at
// 0.45; searches guided by it ended at 98.4–99.3% of the best known. With
// the job held to slice 16 (its other options taken out of the model),
// every one of six 40,000-move solves reached 100.0–100.3%.
//
// So, as a branch-and-bound would branch on it, the solve takes the
// weightiest choice the LP leaves open (guideBranch) on the side the best
// construction took, solves the LP again with the rivals of that option
// fixed at zero, and gives the second local-search chain that LP's answer
// as its guide, and the best construction it guides as a start when that
// is better than the chain's own. The search itself stays free: holding
// the option there too (never inserting its rivals) changed the results
// by less than ±0.05%. What helps is a guide without the split, on either
// side: on seed 4 the best construction takes slice 32, the side the
// searches drifted to, and the second guide held there still lifted the
// mean from 98.89% to 99.60%.
//
// Measured deterministically (40,000 moves at 100 jobs, 10,000 at 300;
// six and four search seeds per instance), mean share of the best known
// and solves ≥ 99%, without → with:
//
//	100 jobs, seeds 1–5:   99.24% → 99.79%,  24 → 28 of 30
//	100 jobs, seeds 6–10:  99.91% → 100.00%, 30 → 30 of 30
//	300 jobs, seeds 1–5:   99.07% → 99.52%,  12 → 16 of 20
//	300 jobs, seeds 6–10:  98.97% → 99.25%,   9 → 15 of 20
//
// The branch is the open option with the largest value × gang size: by
// value alone the rule picked a 25-node job on seed 4, which gave 99.19%
// there. The second guide went to the second chain: given to the first
// chain instead, the four sets gave 99.77%, 99.55% (300 jobs, seeds 1–5)
// and 99.12% (seeds 6–10).

// guideBranchShare: with a deadline the LP for the second guide, and the
// constructions it guides, may use this share of the time left; they run
// beside the sampling and are abandoned when late.
const guideBranchShare = 0.3

// guideBranchWait: the solve waits for the second guide until this share
// of the time left (CLP's limit counts processor time, and the
// constructions look at the clock only every so often).
const guideBranchWait = 0.4

// guideBranch returns the item to branch on for a second guide — of the
// items x uses that the LP takes at an open share (branchShare), the one
// with the largest value × size — or −1 when there is none.
func (h *heuristic) guideBranch(x []float64) int32 {
	if h.guide == nil || !h.simple {
		return -1
	}
	return h.openChoice(x, func(it int) float64 { return h.value[it] * h.size[it] })
}

// rivals returns the other items in the packing rows of item it's own
// column: on the planner's models, the other options of its job.
func (h *heuristic) rivals(it int32) []int32 {
	var out []int32
	j := h.items[it]
	for q := h.pStart[j]; q < h.pStart[j+1]; q++ {
		r := h.pRow[q]
		for k := h.rStart[r]; k < h.rStart[r+1]; k++ {
			if o := h.itemOf[h.rCol[k]]; o >= 0 && o != it && !h.isFree[o] {
				out = append(out, o)
			}
		}
	}
	return out
}

// relaxFixing returns a function that solves the LP of rm (a model of h's
// shape, as heuristic.reduced returns) again by relax, with the given
// items fixed at their lower bounds; it returns nil when that LP has no
// optimal answer.
func (h *heuristic) relaxFixing(relax relaxFunc, rm *Model, s *Settings) func(context.Context, []int32) *lpRelaxation {
	return func(ctx context.Context, fixed []int32) *lpRelaxation {
		r := *rm
		r.Vars = append([]Var(nil), rm.Vars...)
		for _, it := range fixed {
			fixAtLower(&r.Vars[h.items[it]])
		}
		lp, err := relax(ctx, &r, s)
		if err != nil || lp == nil || !lp.Optimal || len(lp.X) != h.n {
			return nil
		}
		return lp
	}
}

// fixAtLower fixes v at its lower bound.
func fixAtLower(v *Var) {
	v.Upper = v.Lower
	if v.Kind == Binary {
		v.Kind = Integer // keep the bounds: AddVar forces binaries to [0, 1]
	}
}

// secondGuide starts building the second guide from x, the best answer
// so far (see above), and returns a function that waits for it: nil when
// there is none (no LP to solve again, no open choice, or it came too
// late). With a deadline (and not in deterministic mode) it is built on
// its own goroutine, beside the sampling; late is then set when it was
// abandoned with its LP possibly still running.
func (h *heuristic) secondGuide(ctx context.Context, s *Settings, x []float64) (wait func() (g *chainStart, late bool)) {
	none := func() (*chainStart, bool) { return nil, false }
	if h.relaxWith == nil || x == nil {
		return none
	}
	branch := h.guideBranch(x)
	if branch < 0 {
		return none
	}
	rivals := h.rivals(branch)
	if len(rivals) == 0 {
		return none
	}
	hw := h.clone()
	build := func(ctx context.Context) *chainStart {
		lp := hw.relaxWith(ctx, rivals)
		if lp == nil {
			return nil
		}
		b := hw.newIncumbent(nil)
		hw.construction(ctx, lp.X, false, b)
		return &chainStart{x: b.x, guide: lp.X, rc: lp.itemRC}
	}
	d, timed := ctx.Deadline()
	if !timed || s.Deterministic {
		g := build(ctx)
		return func() (*chainStart, bool) { return g, false }
	}
	now, left := wallNow(), float64(wallUntil(d))
	built := watched(ctx, now.Add(time.Duration(guideBranchShare*left)), now.Add(time.Duration(guideBranchWait*left)), build)
	return func() (*chainStart, bool) {
		g, ok := built()
		return g, !ok
	}
}

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
// is better than the chain's own. The first chain gets the other side
// (flipSide) in the same way (see "Both sides" below). The search itself
// stays free: holding the option there too (never inserting its rivals)
// changed the results by less than ±0.05%. What helps is a guide without
// the split, on either side: on seed 4 the best construction takes slice
// 32, the side the searches drifted to, and the second guide held there
// still lifted the mean from 98.89% to 99.60%.
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

// Both sides. Which side is better is not known in advance: on seed 4
// the best known answer starts job 63 at slice 16, the side the best
// construction did not take, and by the LP's bound the other side was
// better on seeds 3 and 4 of five (100 jobs), but on seed 3 the guide held
// there took the mean from 99.62% to 98.39%. So the first chain, which
// searched with the first LP, searches with the other side's: the job's
// other option the LP takes at the largest open share, held there. Its
// LP is solved after the keep side's, and with a deadline only when the
// time left before the wait is at least what the keep side took — at 300
// jobs it is not (keep 160–180 ms after the constructions); at 100 jobs
// both come before the sampling ends. Measured at 100 jobs (seeds 1–5,
// 40,000 moves, ten search seeds): mean share of the best known 99.27% →
// 99.55%, solves ≥ 99% 38 → 48 of 50, seed 4 98.87% → 99.54%. In 900 ms
// solves in process (four search seeds each) the mean and the solves
// ≥ 99%, keep side only → both sides:
//
//	100 jobs, seeds 1–5:   99.08% → 99.31%, 14 → 20 of 20
//	100 jobs, seeds 6–10:  99.61% → 99.73%, 20 → 20 of 20
//	300 jobs, seeds 1–5:   99.12% → 99.24%, 14 → 15 of 20
//	300 jobs, seeds 6–10:  99.20% → 99.44%, 14 → 16 of 20
//
// At 300 jobs the flip side never comes in time, so the differences there
// are the machine's noise (the search seeds were the same on both sides).
// In deterministic mode it always comes: there, 300 jobs seeds 1–5 went
// 99.02% → 98.76% and seeds 6–10 99.20% → 99.56% (10,000 moves, six
// search seeds; BENCHMARKS.md at 5238421, "Both sides of the branch"). The 300-job
// instance it matters most for is validation seed 8, whose 102-node job
// decides the basin: its 1 s answers keep the construction's side and
// end at 97.4–97.9% of the best known, and the flip side's construction
// is 2% better than the best construction. Solving the two LPs again
// from the root's basis brought both sides in time on 8 of 10 300-job
// instances (not on that one) and made the default set worse; taking the
// flip side only when its construction is better by 1% was even over
// the four sets (BENCHMARKS.md at 5238421, "Where the 300-job solves lose").

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

// flipSide returns, of the given rivals of a branch option, the one the
// LP takes at the largest open share (branchShare) — the other side of
// the branch — or −1 when the LP takes none of them at an open share.
func (h *heuristic) flipSide(rivals []int32) int32 {
	flip := int32(-1)
	for _, o := range rivals {
		if g := h.guide[h.items[o]]; g > branchShare && (flip < 0 || g > h.guide[h.items[flip]]) {
			flip = o
		}
	}
	return flip
}

// branchGuides are the second guides of a solve, one for each side of the
// branch (nil: none): keep on the side the best construction took, flip on
// the other.
type branchGuides struct {
	keep, flip *chainStart
}

// secondGuide starts building the second guides from x, the best answer
// so far (see above), and returns a function that waits for them. Each is
// nil when there is none: no LP to solve again, no open choice, no other
// side, or it came too late; both are nil when the search will have a
// single chain. With a deadline (and not in deterministic mode) they are
// built on their own goroutines, beside the sampling, the keep side
// first; the flip side starts only if the time left before the wait is
// at least what the keep side took, and late is set when either was
// abandoned with its LP possibly still running.
func (h *heuristic) secondGuide(ctx context.Context, s *Settings, x []float64) (wait func() (g branchGuides, late bool)) {
	none := func() (branchGuides, bool) { return branchGuides{}, false }
	// One local-search chain (a timed solve on one processor) has no use
	// for them.
	if _, timed := ctx.Deadline(); h.relaxWith == nil || x == nil || h.workers(timed && !s.Deterministic) < 2 {
		return none
	}
	branch := h.guideBranch(x)
	if branch < 0 {
		return none
	}
	keepFixed := h.rivals(branch)
	if len(keepFixed) == 0 {
		return none
	}
	var flipFixed []int32
	if flip := h.flipSide(keepFixed); flip >= 0 {
		flipFixed = h.rivals(flip)
	}
	// build solves the LP with fixed at zero on its own clone of h and
	// makes the guided constructions of its answer.
	build := func(ctx context.Context, fixed []int32) *chainStart {
		if len(fixed) == 0 {
			return nil
		}
		hw := h.clone()
		lp := hw.relaxWith(ctx, fixed)
		if lp == nil {
			return nil
		}
		b := hw.newIncumbent(nil)
		hw.construction(ctx, lp.X, false, b)
		return &chainStart{x: b.x, guide: lp.X, rc: lp.itemRC}
	}
	d, timed := ctx.Deadline()
	if !timed || s.Deterministic {
		g := branchGuides{keep: build(ctx, keepFixed), flip: build(ctx, flipFixed)}
		return func() (branchGuides, bool) { return g, false }
	}
	now, left := wallNow(), float64(wallUntil(d))
	deadline, waitUntil := now.Add(time.Duration(guideBranchShare*left)), now.Add(time.Duration(guideBranchWait*left))
	keepDone := make(chan struct{})
	keep := watched(ctx, deadline, waitUntil, func(ctx context.Context) *chainStart {
		defer close(keepDone)
		return build(ctx, keepFixed)
	})
	flip := watched(ctx, deadline, waitUntil, func(ctx context.Context) *chainStart {
		select {
		case <-keepDone:
		case <-ctx.Done():
			return nil
		}
		if wallUntil(waitUntil) < wallSince(now) {
			return nil // as long again would come too late
		}
		return build(ctx, flipFixed)
	})
	return func() (branchGuides, bool) {
		k, keepOK := keep()
		f, flipOK := flip()
		return branchGuides{keep: k, flip: f}, !keepOK || !flipOK
	}
}

// take makes g (a second guide) this chain's guide, and g's construction
// its start when that is better than the chain's own.
func (c *chainStart) take(h *heuristic, g *chainStart) {
	if g == nil {
		return
	}
	c.guide, c.rc = g.guide, g.rc
	if g.x != nil && (c.x == nil || h.objective(g.x) > h.objective(c.x)) {
		c.x = g.x
	}
}

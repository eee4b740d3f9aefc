package solver

import (
	"context"
	"math"
	"math/rand/v2"
	"strconv"
	"time"
)

// Primal heuristics: structured rounding and repair, sampling, and local
// improvement.
//
// They are built for the planner's models (binary options linked to integer
// node counts, packing rows; see heuristic_structure.go) and stay correct on
// any model: there they fall back to a general repair search that only aims
// at feasibility (heuristic_general.go).
//
// SOLVERS.md measured plain LP rounding at 93% of the best answer at 300
// jobs and traced the gap to large gangs taken fractionally; it concluded
// that better answers need structure: place large jobs first, then fill,
// then improve locally. The pipeline (greedy.go: solve, roundingEngine):
//
//  1. the LP of the reduced model — options that cannot fit even into an
//     empty plan fixed at zero, so the LP stops taking fractions of gangs
//     that can never start (a tighter bound, and a better guide) — solved
//     with the options substituted out by their counts
//     (heuristic_substitute.go), which also prices every item (reduced
//     costs: the local search's core, heuristic_lns.go);
//  2. greedy constructions in several orders (baseOrders), LP-guided ones
//     putting the options the LP takes at ≥ ½ first, large gangs first
//     among them, each gang split over racks as the LP split it;
//  3. sampling: many more constructions in randomised LP-guided orders
//     (sampleOrder) — on the rack instances the best of a few dozen beat
//     the best fixed order by 1–3%, more than local search did in the same
//     time;
//  4. ruin-and-recreate local search (heuristic_lns.go) in two chains, the
//     first from the best answer, the second from its sampling stream's
//     best or, when the LP leaves a job that dominates the objective open,
//     from the other side of that choice (branchStart), each when within
//     1% of the best; the chains are guided by second LPs, solved with
//     the weightiest choice the first left open held to one side (the
//     second chain's) or the other (the first chain's)
//     (heuristic_branch.go), which are built beside the sampling.
//
// Stages 3 and 4 run as two streams (in parallel when GOMAXPROCS allows).
//
// Measured on the rack instances (solver/instances, seeds 1–5, 1 s in
// process on this 2-core machine while other tests ran): 99.7% of the best
// answer known at 100 jobs and 99.4% at 300 jobs, that is 93–94% of the LP
// bound; the best known answers come from this same pipeline run for 30–40
// s of CPU (CBC from them found nothing better in 60 s at 100 jobs).

// roundAndRepair returns a feasible answer of m built greedily, ordered and
// split by the LP answer guide when non-nil (by value per unit of weighted
// resource otherwise), or nil when it finds none. It analyses m on every
// call; callers that also improve should share a heuristic (newHeuristic).
func roundAndRepair(m *Model, guide []float64) []float64 {
	return newHeuristic(m).roundAndRepair(guide)
}

// improve runs local improvement from the feasible answer x for at most
// maxMoves moves (≤ 0: no limit) or until ctx is done, reporting improved
// answers through inc (may be nil), and returns the best answer (x itself
// when nothing better was found) and the moves made. Given the same model,
// start and maxMoves, and no deadline reached, the answer is always the same.
func improve(ctx context.Context, m *Model, x []float64, maxMoves int64, inc func([]float64)) ([]float64, int64) {
	return newHeuristic(m).improve(ctx, x, maxMoves, inc)
}

// roundAndRepair: see the package-level function.
func (h *heuristic) roundAndRepair(guide []float64) []float64 {
	b := h.newIncumbent(nil)
	h.construction(context.Background(), guide, true, b)
	return b.x
}

// construction offers to b the greedy constructions in the guided orders
// (with a guide) and, when unguided is set or there is no guide, in the
// unguided ones, until ctx is done.
func (h *heuristic) construction(ctx context.Context, guide []float64, unguided bool, b *incumbent) {
	if guide != nil && len(guide) != h.n {
		guide = nil
	}
	if !h.simple {
		b.offer(h.generalRepair(ctx, guide, generalRepairMoves(h)), true)
		return
	}
	if guide != nil {
		h.guide = guide // the sampling and the local search order by it too
	}
	for _, o := range h.baseOrders(guide) {
		if ctx.Err() != nil && b.x != nil {
			return
		}
		if !o.lp && guide != nil && !unguided {
			continue
		}
		if s := h.constructOrder(o); s != nil {
			b.offerState(s)
		}
	}
}

// incumbent is the best answer of a solve so far; it reports improvements
// through inc (when not nil) at most every lnsReportEvery, and on flush.
type incumbent struct {
	h        *heuristic
	x        []float64
	obj      float64
	inc      func([]float64)
	last     time.Time
	reported bool
}

func (h *heuristic) newIncumbent(inc func([]float64)) *incumbent {
	return &incumbent{h: h, inc: inc, reported: true}
}

// offer takes x (copied) when it is better; check verifies it first.
func (b *incumbent) offer(x []float64, check bool) {
	if x == nil || (check && b.h.m.CheckFeasible(x) != nil) {
		return
	}
	if v := b.h.objective(x); b.x == nil || v > b.obj {
		b.x, b.obj, b.reported = keepCopy(b.x, x), v, false
		b.report(false)
	}
}

// offerSnapped offers a copy of x snapped to m's integrality, checked,
// when it has one value per column (a warm start, an LP answer).
func (b *incumbent) offerSnapped(x []float64) {
	if x == nil || len(x) != b.h.n {
		return
	}
	x = append([]float64(nil), x...)
	b.h.m.Snap(x)
	b.offer(x, true)
}

// offerState offers a construction's state (feasible by construction).
func (b *incumbent) offerState(s *packState) {
	if b.x == nil || s.obj > b.obj {
		b.x, b.obj, b.reported = keepCopy(b.x, s.x), s.obj, false
		b.report(false)
	}
}

func (b *incumbent) report(force bool) {
	if b.inc == nil || b.reported || (!force && wallSince(b.last) < lnsReportEvery) {
		return
	}
	b.inc(append([]float64(nil), b.x...))
	b.last, b.reported = wallNow(), true
}

// flush reports the incumbent if it has not been.
func (b *incumbent) flush() { b.report(true) }

// constructOrder runs the greedy construction in order o (see construct:
// the state returned is reused by the next construction).
func (h *heuristic) constructOrder(o constructionOrder) *packState {
	var g []float64
	if o.split {
		g = h.guide
	}
	return h.construct(o.order, g)
}

// constructionOrder is one greedy order of the items.
type constructionOrder struct {
	name  string
	order []int32
	lp    bool // ordered by the guide
	split bool // split counts by the guide too
}

// baseOrders returns the item orders roundAndRepair tries; each greedy pass
// costs one insertion attempt per item, and the best answer is kept.
// Measured on the rack instances (100 and 300 jobs, seeds 1–5), no single
// order was best on more than a third of them, and the worst of each fell
// 5–40% below the best, so several cheap passes beat any one:
//
//   - by density (value per unit of weighted resource), and by value;
//   - with a guide: by LP value (ties by density), LP split;
//   - large first: items the LP takes at ≥ ½, largest gang first, then the
//     rest by LP value or by density — "place large jobs first, then fill";
//   - items the LP takes at ≥ ½ by value, then the rest by LP value;
//   - by LP value × value.
func (h *heuristic) baseOrders(guide []float64) []constructionOrder {
	n := len(h.items)
	k := h.orderKeys(guide)
	orders := []constructionOrder{
		{name: "density", order: greedyOrder(n, h.density)},
		{name: "value", order: greedyOrder(n, func(it int32) float64 { return h.value[it] })},
	}
	if guide == nil {
		return orders
	}
	// The guided orders come first, the most robust of them first: a solve
	// whose LP came late may have time for only a few.
	return append([]constructionOrder{
		{name: "lp-value", lp: true, split: true, order: greedyOrder(n, func(it int32) float64 {
			return k.lpValue(it, 1)
		})},
		{name: "lp-large-density", lp: true, split: true, order: greedyOrder(n, func(it int32) float64 {
			if v := k.lp(it); v >= 0.5 {
				return 2 + h.size[it]
			}
			return k.dens(it)
		})},
		{name: "lp-large", lp: true, split: true, order: greedyOrder(n, func(it int32) float64 {
			if v := k.lp(it); v >= 0.5 {
				return 2 + h.size[it]
			}
			return k.lp(it) + 1e-6*k.dens(it)
		})},
		{name: "lp-weighted", lp: true, split: true, order: greedyOrder(n, func(it int32) float64 {
			return k.lpWeighted(it, 1)
		})},
		{name: "lp", lp: true, split: true, order: greedyOrder(n, func(it int32) float64 {
			return k.lp(it) + 1e-6*k.dens(it)
		})},
	}, orders...)
}

// Branch starts. On some instances the best answers sit in a basin the
// search does not reach from the best construction: on the 100-job rack
// instance of seed 3 the most valuable job (value 5,384 at start slice 4)
// is better started at slice 8, leaving slice 0 to three medium jobs, but
// moving it alone loses 6% before the re-packing wins it back. The LP had
// seen it (that job 0.53 at slice 4, 0.47 at slice 8). So the second
// chain starts on the other side of the LP's most valuable open choice,
// as a branch-and-bound would branch on it: the guided constructions
// again with that option offered last. Measured in 1 s solves (100 jobs,
// seeds 1–5, two rounds alternated twice): seed 3 from 98.2–98.3% to
// 99.1–99.3% of the best known, the mean from 99.25–99.30% to 99.37–99.42%;
// at 300 jobs no change beyond the noise (BENCHMARKS.md).
//
// The other direction was tried too: an open option the best construction
// leaves out, offered first. On 300 jobs seed 2, job 110 placed first
// constructs 1.9% better than the best construction and searches to 99.9%
// of the best known (98.5% from the best construction). As a chain's start
// it helped there (eight search seeds: 97.6% → 98.9%) but not on seed 4
// (98.4% → 97.9%), where the better construction led into the worse
// basin, and in 1 s solves the mean fell (BENCHMARKS.md at 5238421, "Basins at 300
// jobs"). Not taken.

// branchShare: an option counts as an open choice of the LP when the LP
// takes more than this share of it and less than 1 − this share.
const branchShare = 0.2

// branchWeight: the choice is worth a branch only when its option's value
// is at least this share of the best objective: a job the rest of the plan
// packs around.
const branchWeight = 1.0 / 3

// openChoice returns, of the options x uses that the LP (guide) takes at
// an open share (branchShare), the one with the largest weight (the first
// of equals), or −1 when there is none.
func (h *heuristic) openChoice(x []float64, weight func(it int) float64) int32 {
	branch, most := int32(-1), 0.0
	for it, j := range h.items {
		g := h.guide[j]
		if h.isFree[it] || x[j] <= 0.5 || g <= branchShare || g >= 1-branchShare {
			continue
		}
		if w := weight(it); branch < 0 || w > most {
			branch, most = int32(it), w
		}
	}
	return branch
}

// branchStart returns the best guided construction with the branch option
// offered last — the most valuable option that best uses and the LP takes
// at an open share (branchShare) — or nil when there is no guide, no such
// option, or ctx is done.
func (h *heuristic) branchStart(ctx context.Context, best []float64) []float64 {
	if h.guide == nil || !h.simple || best == nil {
		return nil
	}
	branch := h.openChoice(best, func(it int) float64 { return h.value[it] })
	if branch < 0 || h.value[branch] < branchWeight*h.objective(best) {
		return nil
	}
	b := h.newIncumbent(nil)
	order := make([]int32, 0, len(h.items))
	for _, o := range h.baseOrders(h.guide) {
		if !o.lp || ctx.Err() != nil {
			continue
		}
		order = order[:0]
		for _, it := range o.order {
			if it != branch {
				order = append(order, it)
			}
		}
		o.order = append(order, branch)
		if st := h.constructOrder(o); st != nil {
			b.offerState(st)
		}
	}
	return b.x
}

// sampleNoise is the σ of the log-normal noise on the keys of the i-th
// sampled order, cycling through these: the best samples measured on the
// rack instances came from all of them.
var sampleNoise = []float64{0.15, 0.25, 0.35, 0.5}

// sampleNoiseWide is the σ cycle of the odd samples of sample (the second
// stream's, whose best starts the second local-search chain): wider, so
// that the two chains start from more different answers. Measured in 1 s
// solves (seeds 1–5, six rounds alternated): mean share of the best known
// 99.25% → 99.36%, better in every round, 43 → 48 of 60 solves ≥ 99%; the
// wide cycle for every sample gave 99.21–99.24% (against 99.24–99.31%),
// and for the second chain's recreate orders as well 99.11–99.17%. The
// local search's own sampled orders keep sampleNoise.
var sampleNoiseWide = []float64{0.15, 0.25, 0.35, 0.5, 0.75, 1.0}

// sampleOrder returns the i-th randomised order: LP value (or value) and LP
// value × value (or density) in turn, each item's key multiplied by
// exp(σ·N(0,1)), σ cycling through sigmas. Sampling many such orders and keeping the best construction
// found answers 1–5% better than the local search on the 300-job rack
// instances, at 3–6 ms per sample.
func (h *heuristic) sampleOrder(guide []float64, rng *rand.Rand, i int, noise, sigmas []float64) constructionOrder {
	n := len(h.items)
	k := h.orderKeys(guide)
	sigma := sigmas[(i/2)%len(sigmas)]
	for j := range noise {
		noise[j] = math.Exp(sigma * rng.NormFloat64())
	}
	name := "sample-" + strconv.Itoa(i)
	switch {
	case guide != nil && i%2 == 0:
		return constructionOrder{name: name, lp: true, split: true, order: greedyOrder(n, func(it int32) float64 {
			return k.lpValue(it, noise[it])
		})}
	case guide != nil:
		return constructionOrder{name: name, lp: true, split: true, order: greedyOrder(n, func(it int32) float64 {
			return k.lpWeighted(it, noise[it])
		})}
	case i%2 == 0:
		return constructionOrder{name: name, order: greedyOrder(n, func(it int32) float64 { return h.value[it] * noise[it] })}
	}
	return constructionOrder{name: name, order: greedyOrder(n, func(it int32) float64 { return h.density(it) * noise[it] })}
}

// orderKeys are the sort keys the orders share.
type orderKeys struct {
	h          *heuristic
	guide      []float64
	dmax, vmax float64
}

func (h *heuristic) orderKeys(guide []float64) orderKeys {
	k := orderKeys{h: h, guide: guide}
	for it := range h.items {
		k.dmax = math.Max(k.dmax, h.density(int32(it)))
		k.vmax = math.Max(k.vmax, h.value[it])
	}
	return k
}

// dens is the density scaled into [0, 1].
func (k orderKeys) dens(it int32) float64 { return k.h.density(it) / (k.dmax + 1e-300) }

// lp is the guide's value of the item, clamped into [0, 1].
func (k orderKeys) lp(it int32) float64 {
	return math.Max(0, math.Min(1, k.guide[k.h.items[it]]))
}

// lpValue puts the items the LP takes at ≥ ½ first, by value (× f), then
// the rest by LP value (× f).
func (k orderKeys) lpValue(it int32, f float64) float64 {
	if v := k.lp(it); v >= 0.5 {
		return 2 + k.h.value[it]*f/(k.vmax+1e-300)
	}
	return (k.lp(it) + 1e-6*k.dens(it)) * f / 2
}

// lpWeighted is (LP value + 0.001) × value × f.
func (k orderKeys) lpWeighted(it int32, f float64) float64 {
	return (k.lp(it) + 1e-3) * k.h.value[it] * f
}

// reduced returns m with every item that cannot fit even into the
// lower-bound answer (nothing else placed) fixed at its lower bound, and how
// many were fixed; m itself when none is. An option whose gang is larger
// than the room its racks ever have is such an item: an LP relaxation would
// take a fraction of it (the large jobs of SOLVERS.md), inflating its bound
// and misleading the rounding. Fixing it changes no feasible answer, so
// the LP of the reduced model is still a bound of m, and a tighter one.
func (h *heuristic) reduced() (*Model, int) {
	s := h.newPackState(nil)
	if s == nil {
		return h.m, 0
	}
	var vars []Var
	n := 0
	for it := range h.items {
		if h.isFree[it] {
			continue
		}
		if s.insert(int32(it), nil) {
			s.remove(int32(it))
			continue
		}
		if vars == nil {
			vars = append([]Var(nil), h.m.Vars...)
		}
		fixAtLower(&vars[h.items[it]])
		n++
	}
	if n == 0 {
		return h.m, 0
	}
	r := *h.m
	r.Vars = vars
	return &r, n
}

// keepCopy copies src into dst (reusing its storage) and returns it; never
// nil, so an empty answer still counts as one.
func keepCopy(dst, src []float64) []float64 {
	if dst == nil {
		dst = make([]float64, 0, len(src))
	}
	return append(dst[:0], src...)
}

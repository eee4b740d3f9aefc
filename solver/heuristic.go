package solver

import (
	"context"
	"math"
)

// Primal heuristics: greedy constructions, guided by an LP answer when
// there is one (rounding and repair).
//
// They are built for the planner's models (binary options linked to integer
// node counts, packing rows; see heuristic_structure.go) and stay correct on
// any model: there they fall back to a general repair search that only aims
// at feasibility (heuristic_general.go).
//
// SOLVERS.md measured plain LP rounding at 93% of the best answer at 300
// jobs and traced the gap to large gangs taken fractionally; the
// constructions therefore place large gangs first among the options the
// LP takes, each split over racks as the LP split it (baseOrders), and the
// LP is that of the reduced model (heuristic.reduced), which takes no
// fraction of a gang that can never start.

// roundAndRepair returns a feasible answer of m built greedily, ordered and
// split by the LP answer guide when non-nil (by value per unit of weighted
// resource otherwise), or nil when it finds none. It analyses m on every
// call.
func roundAndRepair(m *Model, guide []float64) []float64 {
	return newHeuristic(m).roundAndRepair(guide)
}

// roundAndRepair: see the package-level function.
func (h *heuristic) roundAndRepair(guide []float64) []float64 {
	b := h.newIncumbent()
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
	for _, o := range h.baseOrders(guide) {
		if ctx.Err() != nil && b.x != nil {
			return
		}
		if !o.lp && guide != nil && !unguided {
			continue
		}
		var split []float64 // the guided orders split gangs over racks as the guide does
		if o.lp {
			split = guide
		}
		if s := h.construct(o.order, split); s != nil {
			b.offerState(s)
		}
	}
}

// incumbent is the best answer of a solve so far.
type incumbent struct {
	h   *heuristic
	x   []float64
	obj float64
}

func (h *heuristic) newIncumbent() *incumbent { return &incumbent{h: h} }

// offer takes x (copied) when it is better; check verifies it first.
func (b *incumbent) offer(x []float64, check bool) {
	if x == nil || (check && b.h.m.CheckFeasible(x) != nil) {
		return
	}
	if v := b.h.objective(x); b.x == nil || v > b.obj {
		b.x, b.obj = keepCopy(b.x, x), v
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
		b.x, b.obj = keepCopy(b.x, s.x), s.obj
	}
}

// constructionOrder is one greedy order of the items.
type constructionOrder struct {
	order []int32
	lp    bool // ordered by the guide, and split by it
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
		{order: greedyOrder(n, h.density)},
		{order: greedyOrder(n, func(it int32) float64 { return h.value[it] })},
	}
	if guide == nil {
		return orders
	}
	// The guided orders come first, the most robust of them first: a solve
	// whose LP came late may have time for only a few.
	return append([]constructionOrder{
		{lp: true, order: greedyOrder(n, k.lpValue)},
		{lp: true, order: greedyOrder(n, func(it int32) float64 {
			if v := k.lp(it); v >= 0.5 {
				return 2 + h.size[it]
			}
			return k.dens(it)
		})},
		{lp: true, order: greedyOrder(n, func(it int32) float64 {
			if v := k.lp(it); v >= 0.5 {
				return 2 + h.size[it]
			}
			return k.lp(it) + 1e-6*k.dens(it)
		})},
		{lp: true, order: greedyOrder(n, k.lpWeighted)},
		{lp: true, order: greedyOrder(n, func(it int32) float64 {
			return k.lp(it) + 1e-6*k.dens(it)
		})},
	}, orders...)
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

// lpValue puts the items the LP takes at ≥ ½ first, by value, then the
// rest by LP value.
func (k orderKeys) lpValue(it int32) float64 {
	if v := k.lp(it); v >= 0.5 {
		return 2 + k.h.value[it]/(k.vmax+1e-300)
	}
	return (k.lp(it) + 1e-6*k.dens(it)) / 2
}

// lpWeighted is (LP value + 0.001) × value.
func (k orderKeys) lpWeighted(it int32) float64 {
	return (k.lp(it) + 1e-3) * k.h.value[it]
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

// objective returns the maximisation-sense objective of x.
func (h *heuristic) objective(x []float64) float64 {
	v := 0.0
	for j, c := range h.cobj {
		v += c * x[j]
	}
	return v
}

// fixAtLower fixes v at its lower bound.
func fixAtLower(v *Var) {
	v.Upper = v.Lower
	if v.Kind == Binary {
		v.Kind = Integer // keep the bounds: AddVar forces binaries to [0, 1]
	}
}

// keepCopy copies src into dst (reusing its storage) and returns it; never
// nil, so an empty answer still counts as one.
func keepCopy(dst, src []float64) []float64 {
	if dst == nil {
		dst = make([]float64, 0, len(src))
	}
	return append(dst[:0], src...)
}

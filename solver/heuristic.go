package solver

import (
	"context"
	"math"
)

// Primal heuristics: structured rounding and repair, and local improvement.
//
// They are built for the planner's models (binary options linked to integer
// node counts, packing rows; see heuristic_structure.go) and stay correct on
// any model: there they fall back to a general repair search that only aims
// at feasibility (heuristic_general.go).
//
// SOLVERS.md measured plain LP rounding at 93% of the best answer at 300
// jobs and traced the gap to large gangs taken fractionally; it concluded
// that better answers need structure: place large jobs first, then fill,
// then improve locally. That is the shape here: several greedy orders
// (LP-guided when an LP answer is given, large gangs first among them),
// then a ruin-and-recreate local search (heuristic_lns.go).

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
	return h.construction(guide, true)
}

// construction returns the best greedy construction: of the guided orders
// (with a guide) and, when unguided is set or there is no guide, of the
// unguided ones.
func (h *heuristic) construction(guide []float64, unguided bool) []float64 {
	if guide != nil && len(guide) != h.n {
		guide = nil
	}
	if !h.simple {
		return h.generalRepair(context.Background(), guide, generalRepairMoves(h))
	}
	if guide != nil {
		h.guide = guide // the local search orders by it too
	}
	var best *packState
	for _, o := range h.constructionOrders(guide) {
		if !o.lp && guide != nil && !unguided {
			continue
		}
		g := guide
		if !o.split {
			g = nil
		}
		s := h.construct(o.order, g)
		if debugConstruct != nil && s != nil {
			debugConstruct(o.name, s.obj)
		}
		if s != nil && (best == nil || s.obj > best.obj) {
			best = s
		}
	}
	if best == nil {
		return nil
	}
	return best.x
}

var debugConstruct func(name string, obj float64)

type constructionOrder struct {
	name  string
	order []int32
	lp    bool // ordered by the guide
	split bool // split counts by the guide too
}

// constructionOrders returns the item orders roundAndRepair tries; each
// greedy pass costs one insertion attempt per item, and the best answer is
// kept. Measured on the rack instances (100 and 300 jobs, seeds 1–5), no
// single order was best on more than a third of them, and the worst of each
// fell 5–40% below the best, so several cheap passes beat any one:
//
//   - by density (value per unit of weighted resource), and by value;
//   - with a guide: by LP value (ties by density), LP split;
//   - large first: items the LP takes at ≥ ½, largest gang first, then the
//     rest by LP value or by density — "place large jobs first, then fill";
//   - items the LP takes at ≥ ½ by value, then the rest by LP value;
//   - by LP value × value.
func (h *heuristic) constructionOrders(guide []float64) []constructionOrder {
	n := len(h.items)
	dmax, vmax := 0.0, 0.0
	for it := range n {
		dmax = math.Max(dmax, h.density(int32(it)))
		vmax = math.Max(vmax, h.value[it])
	}
	// Keys stay in [0, 2) + ... so that "large" can be a leading term.
	dens := func(it int32) float64 { return h.density(it) / (dmax + 1e-300) }
	orders := []constructionOrder{
		{name: "density", order: greedyOrder(n, h.density)},
		{name: "value", order: greedyOrder(n, func(it int32) float64 { return h.value[it] })},
	}
	if guide != nil {
		lpv := func(it int32) float64 { return math.Max(0, math.Min(1, guide[h.items[it]])) }
		orders = append(orders,
			constructionOrder{name: "lp", lp: true, split: true, order: greedyOrder(n, func(it int32) float64 {
				return lpv(it) + 1e-6*dens(it)
			})},
			constructionOrder{name: "lp-large", lp: true, split: true, order: greedyOrder(n, func(it int32) float64 {
				if v := lpv(it); v >= 0.5 {
					return 2 + h.size[it]
				}
				return lpv(it) + 1e-6*dens(it)
			})},
			constructionOrder{name: "lp-large-density", lp: true, split: true, order: greedyOrder(n, func(it int32) float64 {
				if v := lpv(it); v >= 0.5 {
					return 2 + h.size[it]
				}
				return dens(it)
			})},
			constructionOrder{name: "lp-value", lp: true, split: true, order: greedyOrder(n, func(it int32) float64 {
				if v := lpv(it); v >= 0.5 {
					return 2 + h.value[it]/(vmax+1e-300)
				}
				return lpv(it) + 1e-6*dens(it)
			})},
			constructionOrder{name: "lp-weighted", lp: true, split: true, order: greedyOrder(n, func(it int32) float64 {
				return lpv(it) * h.value[it]
			})},
		)
	}
	return orders
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
		j := h.items[it]
		vars[j].Upper = vars[j].Lower
		if vars[j].Kind == Binary {
			vars[j].Kind = Integer // keep [0, 0]: AddVar forces binaries to [0, 1]
		}
		n++
	}
	if n == 0 {
		return h.m, 0
	}
	r := *h.m
	r.Vars = vars
	return &r, n
}

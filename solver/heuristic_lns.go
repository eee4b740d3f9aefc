package solver

import (
	"context"
	"math"
	"math/rand/v2"
	"time"
)

// Local improvement of simple models: ruin and recreate.
//
// One move removes a few items from the answer (the ruin) and then offers
// every item, in one of a few greedy orders, to insert (the recreate); the
// move is kept when the objective did not drop and rolled back otherwise.
// Three ruins cover the moves a scheduler cares about:
//
//   - random: any few options out — with the recreate this is 1-opt and
//     2-opt (drop one option, add one or two others);
//   - related: an option and others sharing one of its packing rows (same
//     rack and slice) out, so the recreate can re-split and re-time the
//     jobs of one congested region;
//   - ejection: pick an unused option and clear room for it — removing the
//     same job's current option (a move to another start or rack set) and
//     whatever blocks it in its rows (a swap of low-value options for a
//     high-value one) — then insert it before the recreate.
//
// Every change goes through packState, which updates only the rows of the
// changed columns, and nothing is allocated per move.

const (
	// lnsMaxRuin is the most items a random or related ruin removes.
	lnsMaxRuin = 6
	// lnsOrders is how many recreate orders are prepared: by density, by
	// value, and the rest by density with lognormal noise.
	lnsOrders = 8
	// lnsNoise is the σ of the log-noise on densities in the noisy orders.
	lnsNoise = 0.35
	// lnsRecompute: slacks are recomputed from scratch every so many moves
	// so that rounding error from incremental updates cannot accumulate.
	lnsRecompute = 4096
	// lnsReportEvery throttles incumbent reports: each report costs the
	// caller a feasibility check of the whole model.
	lnsReportEvery = 20 * time.Millisecond
	// lnsSeed seeds the move choices: the search is deterministic.
	lnsSeed = 0x5eed
)

// lnsAcceptTol is the relative drop in objective still counted as "not
// worse" (floating-point noise): equal moves are taken, letting the search
// walk across plateaus.
const lnsAcceptTol = 1e-12

type lns struct {
	h      *heuristic
	s      *packState
	rng    *rand.Rand
	orders [][]int32

	best    []float64
	bestObj float64

	cand  []int32  // scratch: items found in a row
	stamp []uint32 // per item: last scan that listed it
	scan  uint32
}

// improve: see the package-level function.
func (h *heuristic) improve(ctx context.Context, x []float64, maxMoves int64, inc func([]float64)) ([]float64, int64) {
	if x == nil || len(x) != h.n || h.m.CheckFeasible(x) != nil {
		return x, 0
	}
	if !h.simple {
		return h.generalImprove(ctx, x, maxMoves, inc)
	}
	xs := append([]float64(nil), x...)
	h.m.Snap(xs)
	s := h.newPackState(xs)
	if s == nil {
		return x, 0
	}
	l := h.newLNS(s)
	moves := l.run(ctx, maxMoves, inc)
	if l.bestObj <= h.objective(x)+lnsAcceptTol*math.Abs(l.bestObj) {
		return x, moves
	}
	return l.best, moves
}

// objective returns the maximisation-sense objective of x.
func (h *heuristic) objective(x []float64) float64 {
	v := 0.0
	for j, c := range h.cobj {
		v += c * x[j]
	}
	return v
}

func (h *heuristic) newLNS(s *packState) *lns {
	rng := rand.New(rand.NewPCG(lnsSeed, uint64(h.n)))
	n := len(h.items)
	l := &lns{h: h, s: s, rng: rng, stamp: make([]uint32, n), cand: make([]int32, 0, 64)}
	l.orders = append(l.orders, greedyOrder(n, h.density), greedyOrder(n, func(it int32) float64 { return h.value[it] }))
	for len(l.orders) < lnsOrders {
		noise := make([]float64, n)
		for i := range noise {
			noise[i] = math.Exp(lnsNoise * rng.NormFloat64())
		}
		l.orders = append(l.orders, greedyOrder(n, func(it int32) float64 { return h.density(it) * noise[it] }))
	}
	l.best = append([]float64(nil), s.x...)
	l.bestObj = s.obj
	return l
}

// run makes moves until maxMoves (≤ 0: no limit) or ctx is done and
// returns the number of moves made. The best answer is in l.best.
func (l *lns) run(ctx context.Context, maxMoves int64, inc func([]float64)) int64 {
	s := l.s
	done := ctx.Done()
	lastReport := time.Now()
	reported := true
	var moves, lastBetter int64
	for maxMoves <= 0 || moves < maxMoves {
		if maxMoves <= 0 && moves-lastBetter >= lnsStall {
			break
		}
		if moves&7 == 0 && done != nil {
			select {
			case <-done:
				return l.finish(moves, reported, inc)
			default:
			}
		}
		if len(l.h.items) == 0 {
			break
		}
		moves++
		if moves%lnsRecompute == 0 {
			s.recompute()
		}
		before := s.obj
		s.logging = true
		switch k := l.rng.IntN(8); {
		case k < 3:
			l.ruinRandom()
		case k < 5:
			l.ruinRelated()
		default:
			l.ruinEject()
		}
		l.recreate(l.orders[l.rng.IntN(len(l.orders))])
		if s.obj < before-lnsAcceptTol*math.Max(1, math.Abs(before)) {
			s.rollback(0)
		}
		s.undo = s.undo[:0]
		s.logging = false
		if s.obj > l.bestObj+lnsAcceptTol*math.Max(1, math.Abs(l.bestObj)) {
			copy(l.best, s.x)
			l.bestObj = s.obj
			lastBetter = moves
			reported = false
			if inc != nil && time.Since(lastReport) >= lnsReportEvery {
				inc(append([]float64(nil), l.best...))
				lastReport, reported = time.Now(), true
			}
		}
	}
	return l.finish(moves, reported, inc)
}

func (l *lns) finish(moves int64, reported bool, inc func([]float64)) int64 {
	if inc != nil && !reported {
		inc(append([]float64(nil), l.best...))
	}
	return moves
}

// ruinRandom removes 1–lnsMaxRuin random items in use.
func (l *lns) ruinRandom() {
	s := l.s
	k := 1 + l.rng.IntN(lnsMaxRuin)
	for ; k > 0 && len(s.active) > 0; k-- {
		s.remove(s.active[l.rng.IntN(len(s.active))])
	}
}

// ruinRelated removes an item in use and up to lnsMaxRuin−1 others that use
// one of its packing rows.
func (l *lns) ruinRelated() {
	s := l.s
	if len(s.active) == 0 {
		return
	}
	it := s.active[l.rng.IntN(len(s.active))]
	row := l.randomRow(it)
	s.remove(it)
	if row < 0 {
		return
	}
	l.itemsInRow(row)
	k := l.rng.IntN(lnsMaxRuin)
	for ; k > 0 && len(l.cand) > 0; k-- {
		i := l.rng.IntN(len(l.cand))
		s.remove(l.cand[i])
		l.cand[i] = l.cand[len(l.cand)-1]
		l.cand = l.cand[:len(l.cand)-1]
	}
}

// randomRow returns a random packing row that item it (in use) occupies
// through itself or a non-zero child, or −1.
func (l *lns) randomRow(it int32) int32 {
	s, h := l.s, l.h
	j := h.items[it]
	// Pick among the parent and its non-zero children, then one of its rows.
	var cols [16]int32
	nc := 0
	if h.pStart[j+1] > h.pStart[j] {
		cols[nc] = j
		nc++
	}
	for g := h.gStart[it]; g < h.gStart[it+1]; g++ {
		for c := h.groups[g].first; c < h.groups[g].end && nc < len(cols); c++ {
			if col := h.child[c]; s.x[col] != 0 && h.pStart[col+1] > h.pStart[col] {
				cols[nc] = col
				nc++
			}
		}
	}
	if nc == 0 {
		return -1
	}
	col := cols[l.rng.IntN(nc)]
	q := h.pStart[col] + int32(l.rng.IntN(int(h.pStart[col+1]-h.pStart[col])))
	return h.pRow[q]
}

// itemsInRow lists in l.cand the items in use that occupy packing row i.
func (l *lns) itemsInRow(i int32) {
	s, h := l.s, l.h
	l.scan++
	l.cand = l.cand[:0]
	for _, c := range h.rCol[h.rStart[i]:h.rStart[i+1]] {
		if s.x[c] <= h.lb[c] {
			continue
		}
		it := h.itemOf[c]
		if it < 0 {
			if p := h.parentOf[c]; p >= 0 {
				it = h.itemOf[p]
			}
		}
		if it < 0 || !s.on[it] || l.stamp[it] == l.scan {
			continue
		}
		l.stamp[it] = l.scan
		l.cand = append(l.cand, it)
	}
}

// ruinEject picks an unused item (the most valuable of a few random ones),
// removes what blocks it — in its own rows and in the rows of the split its
// children would take given the current room — and inserts it.
func (l *lns) ruinEject() {
	s, h := l.s, l.h
	target := int32(-1)
	for range 3 {
		it := int32(l.rng.IntN(len(h.items)))
		if !s.on[it] && (target < 0 || h.value[it] > h.value[target]) {
			target = it
		}
	}
	if target < 0 {
		l.ruinRandom()
		return
	}
	j := h.items[target]
	for q := h.pStart[j]; q < h.pStart[j+1]; q++ {
		l.clearRow(h.pRow[q], h.pCoef[q])
	}
	// The split: children by current room, most first, up to their bounds.
	for g := h.gStart[target]; g < h.gStart[target+1]; g++ {
		grp := &h.groups[g]
		caps := s.cap[:grp.end-grp.first]
		for i := range caps {
			caps[i] = s.room(h.child[int(grp.first)+i])
		}
		rem := grp.k
		for rem > heurTol {
			best := -1
			for i, cp := range caps {
				if cp >= 0 && (best < 0 || cp > caps[best]) {
					best = i
				}
			}
			if best < 0 {
				break
			}
			c := h.child[int(grp.first)+best]
			caps[best] = -1
			amount := math.Min(h.ub[c]-s.x[c], rem/h.childCoef[int(grp.first)+best])
			if h.isInt[c] {
				amount = math.Floor(amount + heurIntTol)
			}
			if amount <= 0 {
				continue
			}
			rem -= amount * h.childCoef[int(grp.first)+best]
			for q := h.pStart[c]; q < h.pStart[c+1]; q++ {
				l.clearRow(h.pRow[q], h.pCoef[q]*amount)
			}
		}
	}
	s.insert(target, nil)
}

// clearRow removes items in use from packing row i, in random order, until
// the row has room for need.
func (l *lns) clearRow(i int32, need float64) {
	s := l.s
	if s.slack[i]+heurTol >= need {
		return
	}
	l.itemsInRow(i)
	for len(l.cand) > 0 && s.slack[i]+heurTol < need {
		k := l.rng.IntN(len(l.cand))
		s.remove(l.cand[k])
		l.cand[k] = l.cand[len(l.cand)-1]
		l.cand = l.cand[:len(l.cand)-1]
	}
}

// recreate offers every unused item, in order, to insert.
func (l *lns) recreate(order []int32) {
	s := l.s
	for _, it := range order {
		if !s.on[it] {
			s.insert(it, nil)
		}
	}
}

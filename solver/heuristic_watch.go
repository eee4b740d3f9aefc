package solver

import "math"

// Watching: which unused items a recreate needs to offer.
//
// An item that fails to fit has a proof: its hinted own row has no room
// for one unit, or the hinted bounds on its children's rooms add up to less
// than k (packState.surelyBlocked). The proof holds until one of those rows
// gains enough slack — for a child, enough for one more unit than its bound.
// So a failed item is registered on those rows with the slack each needs;
// set notes every row that gains room; and the next recreate offers only
// the items whose registrations fired, the items turned off since, and the
// few whose failures the hints do not explain (always). Every item that
// could fit is offered, at a cost proportional to what changed, not to the
// size of the model — on the 300-job instance, most unused options are
// never looked at in a move.
//
// Registrations belong to a child position (or an item's own row) and stay
// put while the hinted row does not change: a repeated failure only
// updates the needed slack in place. List entries that no longer match
// their registration are dropped lazily when a list is scanned.

type watcher struct {
	s *packState
	// lists[r] holds registrations on row r: c ≥ 0 is child position c,
	// c < 0 the own row of item −c−1.
	lists   [][]int32
	regRow  []int32   // per child position: row it is registered on, −1 none
	need    []float64 // per child position: slack at which it fires
	bnd     []float64 // per child position: its room bound when registered (or last fired)
	sum     []float64 // per group: Σ coef·bnd over its children
	ownReg  []int32   // per item
	ownNeed []float64 // per item
	always  []bool    // per item: offered in every recreate

	pending     []bool // per item
	pendingList []int32
	freedMark   []bool // per row
	freed       []int32
}

// watchUnit is the least rise of a continuous column worth a new attempt.
const watchUnit = 1e-6

// startWatching turns watching on with every unused item pending.
func (s *packState) startWatching() {
	h := s.h
	w := &watcher{s: s, lists: make([][]int32, len(h.rhs)),
		regRow: make([]int32, len(h.child)), need: make([]float64, len(h.child)),
		bnd: make([]float64, len(h.child)), sum: make([]float64, len(h.groups)),
		ownReg: make([]int32, len(h.items)), ownNeed: make([]float64, len(h.items)),
		always: make([]bool, len(h.items)), pending: make([]bool, len(h.items)),
		freedMark: make([]bool, len(h.rhs))}
	for c := range w.regRow {
		w.regRow[c] = -1
	}
	for it := range w.ownReg {
		w.ownReg[it] = -1
		w.markPending(int32(it))
	}
	s.w = w
}

func (w *watcher) markPending(it int32) {
	if !w.pending[it] {
		w.pending[it] = true
		w.pendingList = append(w.pendingList, it)
	}
}

// markAllPending makes every item pending (after slacks were recomputed).
func (w *watcher) markAllPending() {
	for it := range w.pending {
		w.markPending(int32(it))
	}
}

func (w *watcher) noteFreed(rows []int32) {
	for _, r := range rows {
		if !w.freedMark[r] {
			w.freedMark[r] = true
			w.freed = append(w.freed, r)
		}
	}
}

// valid reports whether entry e of row r's list is live (and unregisters
// it when not).
func (w *watcher) valid(r, e int32) bool {
	if e >= 0 {
		if w.regRow[e] != r {
			return false // a stale duplicate
		}
		if w.s.on[w.s.h.childItem[e]] {
			w.regRow[e] = -1
			return false
		}
		return true
	}
	it := -e - 1
	if w.ownReg[it] != r {
		return false
	}
	if w.s.on[it] {
		w.ownReg[it] = -1
		return false
	}
	return true
}

func (w *watcher) add(r, e int32) {
	l := w.lists[r]
	if len(l) == cap(l) && len(l) >= 16 {
		// Drop dead entries; grow (doubling) unless that freed at least
		// half of the list, so that appends stay amortised O(1).
		k := 0
		for _, x := range l {
			if w.valid(r, x) {
				l[k] = x
				k++
			}
		}
		if k > cap(l)/2 {
			g := make([]int32, k, 2*cap(l))
			copy(g, l[:k])
			l = g
		}
		l = l[:k]
	}
	w.lists[r] = append(l, e)
}

// watchOwn registers item it, which failed on its hinted own row.
func (w *watcher) watchOwn(it int32) {
	s, h := w.s, w.s.h
	q := s.ownHint[it]
	if q < 0 {
		w.always[it] = true
		return
	}
	unit := 1.0
	if h.isFree[it] && !h.isInt[h.items[it]] {
		unit = watchUnit
	}
	r := h.pRow[q]
	w.ownNeed[it] = h.pCoef[q]*unit - heurTol
	if w.ownReg[it] != r {
		w.ownReg[it] = r
		w.add(r, -it-1)
	}
}

// watchChildren registers item it, whose children's hinted rooms fell
// short: each child with a hinted row is registered there with its current
// bound, and each group keeps the sum of its children's bounds.
func (w *watcher) watchChildren(it int32) {
	s, h := w.s, w.s.h
	for g := h.gStart[it]; g < h.gStart[it+1]; g++ {
		sum := 0.0
		for c := h.groups[g].first; c < h.groups[g].end; c++ {
			b := w.bound(c)
			w.bnd[c] = b
			sum += b * h.childCoef[c]
			r := s.hintRow[c]
			if r < 0 {
				continue // only its bound limits it: that never changes
			}
			w.need[c] = w.nextNeed(c, b)
			if w.regRow[c] != r {
				w.regRow[c] = r
				w.add(r, c)
			}
		}
		w.sum[g] = sum
	}
}

// bound is child position c's room bound from its hinted row (its parent
// unused, so the child is at zero).
func (w *watcher) bound(c int32) float64 {
	s := w.s
	ci := &s.h.cinfo[c]
	b := ci.ub
	if r := s.hintRow[c]; r >= 0 {
		if v := (s.slack[r] + heurTol) * s.hintInv[c]; v < b {
			b = v
		}
	}
	if ci.isInt {
		b = floorPos(b + heurIntTol)
	}
	if b < 0 {
		return 0
	}
	return b
}

// nextNeed is the slack of c's hinted row at which its bound exceeds b.
func (w *watcher) nextNeed(c int32, b float64) float64 {
	s := w.s
	ci := &s.h.cinfo[c]
	if b >= ci.ub {
		return math.Inf(1)
	}
	a := 1 / s.hintInv[c]
	if ci.isInt {
		return a*(b+1) - heurTol
	}
	return a*(b+watchUnit) - heurTol
}

// collectPending fires the registrations on freed rows that now have the
// slack they need, making their items pending.
func (w *watcher) collectPending() {
	s := w.s
	for _, r := range w.freed {
		w.freedMark[r] = false
		l := w.lists[r]
		sl := s.slack[r]
		k := 0
		for _, e := range l {
			if !w.valid(r, e) {
				continue
			}
			if e >= 0 {
				if sl >= w.need[e] {
					// The child's bound grew: the item wakes once its
					// group's bounds add up to k.
					h := s.h
					g := h.childGrp[e]
					b := w.bound(e)
					w.sum[g] += (b - w.bnd[e]) * h.cinfo[e].coef
					w.bnd[e] = b
					if w.sum[g] >= h.groups[g].k-heurTol*math.Max(1, h.groups[g].k) {
						w.regRow[e] = -1
						w.markPending(h.childItem[e])
						continue
					}
					w.need[e] = w.nextNeed(e, b)
				}
			} else if sl >= w.ownNeed[-e-1] {
				w.ownReg[-e-1] = -1
				w.markPending(-e - 1)
				continue
			}
			l[k] = e
			k++
		}
		w.lists[r] = l[:k]
	}
	w.freed = w.freed[:0]
}

// clearPending forgets the pending items (after a recreate offered them all).
func (w *watcher) clearPending() {
	for _, it := range w.pendingList {
		w.pending[it] = false
	}
	w.pendingList = w.pendingList[:0]
}

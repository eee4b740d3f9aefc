package solver

import (
	"math"
)

// packState is an answer of a simple model (see heuristic_structure.go)
// with its row slacks kept up to date, so that inserting or removing an
// item costs a pass over that item's packing entries only. Every change of
// a column can be logged and rolled back, which is how an insertion that
// does not fit is taken back.
type packState struct {
	h      *heuristic
	x      []float64
	slack  []float64 // rhs − activity of each packing row (≤ form)
	obj    float64   // Σ cobj·x, maximisation sense
	on     []bool    // per item
	active []int32   // items that are on, in no particular order
	pos    []int32   // index of an item in active, −1 when off

	logging bool
	undo    []undoRec

	cap []float64 // scratch: room of each child of the item being inserted

	// Blocking hints. Each child's room is at most slack/coef of any one of
	// its rows, so the row that limited it last time (hint, an index into
	// the packing entries, −1 for none) gives a bound that costs one look
	// and stays valid whatever changed since. insert first checks the hinted
	// bounds; only items that pass them get their rooms computed in full,
	// which is what makes offering every item in a recreate cheap.
	//
	// The hints are read for every item a recreate offers, in the random
	// order of its items, so what one look needs sits together: the own
	// hint's row and coefficient in ownHint (not an index into the packing
	// entries, a cache miss away), a child's bounds and hint in childHot.
	ownHint    []ownHint  // per item: its own packing row that had no room
	childHint  []int32    // per position in heuristic.child
	childHint2 []int32    // per position in heuristic.child: the hint before childHint, probed first
	childHot   []childHot // per position in heuristic.child
}

// ownHint is the own packing row of an item that last had no room for it,
// and the item's coefficient there; row −1 for none.
type ownHint struct {
	row  int32
	coef float64
}

// childHot is what a hinted look at a child needs: its bound, its link
// coefficient and integrality (a copy of heuristic.cinfo) and its hinted
// row with the inverse of its coefficient there (row −1 for none).
type childHot struct {
	childInfo
	inv, inv2 float64
	row, row2 int32 // the rows of childHint and childHint2
}

type undoRec struct {
	col int32
	old float64
}

// newPackState returns the state at x (nil: the lower bounds), or nil when
// that point violates a packing row or a bound, or when the model is not
// simple. x is copied.
func (h *heuristic) newPackState(x []float64) *packState {
	if !h.simple {
		return nil
	}
	s := &packState{h: h, x: make([]float64, h.n), slack: make([]float64, len(h.rhs)),
		on: make([]bool, len(h.items)), pos: make([]int32, len(h.items)),
		active: make([]int32, 0, len(h.items)), cap: make([]float64, maxGroupChildren(h)),
		ownHint: make([]ownHint, len(h.items)), childHint: make([]int32, len(h.child)), childHint2: make([]int32, len(h.child)),
		childHot: make([]childHot, len(h.child))}
	// An item's first own packing row is its first hint: on the planner's
	// models that is the job's choice row, which blocks every option of a
	// job already planned at one look.
	for it, j := range h.items {
		s.setOwnHint(int32(it), -1)
		if !h.isFree[it] && h.pStart[j+1] > h.pStart[j] {
			s.setOwnHint(int32(it), h.pStart[j])
		}
	}
	for i := range s.childHint {
		s.childHint[i], s.childHint2[i] = -1, -1
		s.childHot[i] = childHot{childInfo: h.cinfo[i], row: -1, row2: -1}
	}
	for j := range s.x {
		if x != nil {
			s.x[j] = x[j]
		} else {
			s.x[j] = h.lb[j]
		}
		if !finite(s.x[j]) || s.x[j] < h.lb[j]-heurTol || s.x[j] > h.ub[j]+heurTol {
			return nil
		}
	}
	if !s.recompute() {
		return nil
	}
	for it := range s.pos {
		s.pos[it] = -1
		if s.itemOn(int32(it)) {
			s.setOn(int32(it), true)
		}
	}
	return s
}

func maxGroupChildren(h *heuristic) int {
	n := 0
	for _, g := range h.groups {
		n = max(n, int(g.end-g.first))
	}
	return n
}

// recompute sets the slacks and the objective from x from scratch (clearing
// accumulated rounding) and reports whether every packing row holds.
func (s *packState) recompute() bool {
	h := s.h
	copy(s.slack, h.rhs)
	s.obj = 0
	for j, v := range s.x {
		if v == 0 {
			continue
		}
		s.obj += h.cobj[j] * v
		for q := h.pStart[j]; q < h.pStart[j+1]; q++ {
			s.slack[h.pRow[q]] -= h.pCoef[q] * v
		}
	}
	for i, k := range h.rowKind {
		if k == rowPack && s.slack[i] < -heurTol*math.Max(1, math.Abs(h.rhs[i])) {
			return false
		}
	}
	return true
}

// itemOn reports whether item it is in use at the current x.
func (s *packState) itemOn(it int32) bool {
	j := s.h.items[it]
	if s.h.isFree[it] {
		return s.x[j] > s.h.lb[j]+heurTol
	}
	return s.x[j] > 0.5
}

func (s *packState) setOn(it int32, on bool) {
	if s.on[it] == on {
		return
	}
	s.on[it] = on
	if on {
		s.pos[it] = int32(len(s.active))
		s.active = append(s.active, it)
		return
	}
	p := s.pos[it]
	last := s.active[len(s.active)-1]
	s.active[p] = last
	s.pos[last] = p
	s.active = s.active[:len(s.active)-1]
	s.pos[it] = -1
}

// set changes column j to v, updating slacks, objective and item state.
func (s *packState) set(j int32, v float64) {
	d := v - s.x[j]
	if d == 0 {
		return
	}
	h := s.h
	if s.logging {
		s.undo = append(s.undo, undoRec{j, s.x[j]})
	}
	s.x[j] = v
	s.obj += h.cobj[j] * d
	for q := h.pStart[j]; q < h.pStart[j+1]; q++ {
		s.slack[h.pRow[q]] -= h.pCoef[q] * d
	}
	if it := h.itemOf[j]; it >= 0 {
		s.setOn(it, s.itemOn(it))
	}
}

// rollback undoes the logged changes after position mark.
func (s *packState) rollback(mark int) {
	logging := s.logging
	s.logging = false
	for k := len(s.undo) - 1; k >= mark; k-- {
		s.set(s.undo[k].col, s.undo[k].old)
	}
	s.undo = s.undo[:mark]
	s.logging = logging
}

// room returns how far column j can rise before a packing row or its upper
// bound stops it (whole units for integer columns). It stops early, with 0,
// once less than one unit of an integer column fits.
func (s *packState) room(j int32) float64 {
	r, _ := s.roomBlock(j)
	return r
}

// roomBlock is room and the packing entry (index into pRow) of the row
// that limits it, −1 when only the bound does.
func (s *packState) roomBlock(j int32) (float64, int32) {
	return s.roomProbe(j, -1)
}

// roomProbe is roomBlock looking first at packing entry probe (≥ 0), the
// row that blocked the column the time before last: when that row is full
// again, the scan of the column's other rows is skipped.
func (s *packState) roomProbe(j, probe int32) (float64, int32) {
	h := s.h
	r := h.ub[j] - s.x[j]
	block := int32(-1)
	if probe >= 0 {
		if sl := s.slack[h.pRow[probe]] + heurTol; sl < h.pCoef[probe]*r {
			r = sl / h.pCoef[probe]
			block = probe
			if r <= 0 || (h.isInt[j] && r < 1-heurIntTol) {
				return 0, block
			}
		}
	}
	for q := h.pStart[j]; q < h.pStart[j+1]; q++ {
		a := h.pCoef[q]
		if sl := s.slack[h.pRow[q]] + heurTol; sl < a*r {
			r = sl / a
			block = q
			if r <= 0 || (h.isInt[j] && r < 1-heurIntTol) {
				return 0, block
			}
		}
	}
	return wholeRoom(h.isInt[j], r), block
}

// wholeRoom is room r of a column, in whole units for an integer one, and
// never below 0.
func wholeRoom(isInt bool, r float64) float64 {
	if isInt {
		r = floorPos(r + heurIntTol)
	}
	if r < 0 { // not max: no NaN handling in the hot loops
		return 0
	}
	return r
}

// remove turns item it off: its column back to the lower bound (parents to
// 0) and every child count to 0.
func (s *packState) remove(it int32) {
	h := s.h
	j := h.items[it]
	if h.isFree[it] {
		s.set(j, h.lb[j])
		return
	}
	for g := h.gStart[it]; g < h.gStart[it+1]; g++ {
		for c := h.groups[g].first; c < h.groups[g].end; c++ {
			if s.x[h.child[c]] != 0 {
				s.set(h.child[c], 0)
			}
		}
	}
	s.set(j, 0)
}

// insert tries to turn item it on, keeping every row feasible, and reports
// whether it did; on failure the state is unchanged. A free column rises as
// far as it fits. A parent needs room in its own packing rows, and each of
// its link groups must be filled exactly: its children are filled by
// fillGroup (guided by guide when non-nil).
func (s *packState) insert(it int32, guide []float64) bool {
	if s.on[it] {
		return false
	}
	h := s.h
	j := h.items[it]
	if h.isFree[it] {
		if row := s.ownHint[it].row; row >= 0 && s.slack[row] <= 0 {
			return false
		}
		r, b := s.roomBlock(j)
		if r <= heurTol {
			s.setOwnHint(it, b)
			return false
		}
		s.set(j, s.x[j]+r)
		return true
	}
	if s.surelyBlocked(it) != notBlocked {
		return false
	}
	// With one own row, surelyBlocked has just looked at it (the hint).
	for q := h.pStart[j]; q < h.pStart[j+1] && !h.oneOwnRow[it]; q++ {
		if s.slack[h.pRow[q]]+heurTol < h.pCoef[q] {
			s.setOwnHint(it, q)
			return false
		}
	}
	g0, g1 := h.gStart[it], h.gStart[it+1]
	// Fast rejection before touching anything: with disjoint children, the
	// group fits iff the children's rooms add up to k. The rooms are
	// computed one child at a time; optimistic, the sum of the rooms
	// computed so far and of the hinted bounds of the rest, only falls, and
	// once it is below k the item cannot fit: the rest need not be computed.
	for g := g0; g < g1; g++ {
		grp := &h.groups[g]
		if !grp.disjoint {
			continue
		}
		k := grp.kFits
		optimistic := 0.0
		for c := grp.first; c < grp.end; c++ {
			optimistic += s.hintedRoom(c) * h.childCoef[c]
		}
		sum := 0.0
		for c := grp.first; c < grp.end && sum < k && optimistic >= k; c++ {
			hinted := s.hintedRoom(c)
			prev := s.childHint[c]
			r, b := s.roomProbe(h.child[c], s.childHint2[c])
			if b != prev {
				s.setChildHint2(c, prev)
			}
			s.setChildHint(c, b)
			sum += r * h.childCoef[c]
			optimistic += (r - hinted) * h.childCoef[c]
		}
		if sum < k {
			return false
		}
	}
	logging := s.logging
	s.logging = true
	mark := len(s.undo)
	s.set(j, 1)
	ok := true
	for g := g0; g < g1 && ok; g++ {
		ok = s.fillGroup(&h.groups[g], j, guide)
	}
	if !ok {
		s.rollback(mark)
	}
	s.logging = logging
	if !logging {
		s.undo = s.undo[:mark]
	}
	return ok
}

func (s *packState) setChildHint(c, q int32) {
	s.childHint[c] = q
	s.childHot[c].row, s.childHot[c].inv = s.rowInv(q)
}

func (s *packState) setChildHint2(c, q int32) {
	s.childHint2[c] = q
	s.childHot[c].row2, s.childHot[c].inv2 = s.rowInv(q)
}

// rowInv is the row of packing entry q and the inverse of its
// coefficient; row −1 for q < 0.
func (s *packState) rowInv(q int32) (int32, float64) {
	if q < 0 {
		return -1, 0
	}
	return s.h.pRow[q], 1 / s.h.pCoef[q]
}

// setOwnHint records packing entry q (−1: none) as item it's own hint.
func (s *packState) setOwnHint(it, q int32) {
	if q < 0 {
		s.ownHint[it].row = -1
		return
	}
	s.ownHint[it] = ownHint{row: s.h.pRow[q], coef: s.h.pCoef[q]}
}

// hintedRoom is the bound on the room of child position c (its parent
// unused, so the child at zero) from its two hinted rows alone.
func (s *packState) hintedRoom(c int32) float64 {
	ci := &s.childHot[c]
	r := ci.ub
	if ci.row >= 0 {
		if v := (s.slack[ci.row] + heurTol) * ci.inv; v < r {
			r = v
		}
	}
	if ci.row2 >= 0 {
		if v := (s.slack[ci.row2] + heurTol) * ci.inv2; v < r {
			r = v
		}
	}
	return wholeRoom(ci.isInt, r)
}

// Results of surelyBlocked.
const (
	notBlocked = iota
	blockedOwn
	blockedChildren
)

// surelyBlocked reports whether the hints alone show that item it cannot
// fit: its hinted own row has no room for one unit, or the hinted bounds on
// its children's rooms do not add up to some group's k.
func (s *packState) surelyBlocked(it int32) int {
	h := s.h
	if oh := s.ownHint[it]; oh.row >= 0 && s.slack[oh.row]+heurTol < oh.coef {
		return blockedOwn
	}
	// The children of an unused item are all zero, so each one's room is
	// at most min(ub, slack/coef of its hinted row).
	for g := h.gStart[it]; g < h.gStart[it+1]; g++ {
		grp := &h.groups[g]
		sum, k := 0.0, grp.kFits
		for c := grp.first; c < grp.end && sum < k; c++ {
			sum += s.hintedRoom(c) * s.childHot[c].coef
		}
		if sum < k {
			return blockedChildren
		}
	}
	return notBlocked
}

// fillGroup sets the children of grp so that Σ coef·y = k, and reports
// whether it could. Without a guide, the rule is best fit: the child with
// the least room that takes the whole remainder; when none can, the child
// with the most room, filled, and again. So a small gang lands in the
// fullest rack it fits in, keeping the emptier racks whole for large gangs,
// and a large gang uses as few racks as it can. With a guide (an LP answer)
// the children first take the split the LP chose, y/x, as far as it fits.
func (s *packState) fillGroup(grp *linkGroup, parent int32, guide []float64) bool {
	h := s.h
	nc := int(grp.end - grp.first)
	caps := s.cap[:nc]
	rem := grp.k
	tol := heurTol * math.Max(1, grp.k)
	take := func(i int, amount float64) {
		c := h.child[int(grp.first)+i]
		if h.isInt[c] {
			amount = math.Floor(amount + heurIntTol)
		}
		if amount <= 0 {
			return
		}
		s.set(c, s.x[c]+amount)
		rem -= amount * h.childCoef[int(grp.first)+i]
		caps[i] -= amount
	}
	for i := range caps {
		caps[i] = s.room(h.child[int(grp.first)+i])
	}
	if guide != nil && guide[parent] > heurTol {
		// The LP's split, largest share first.
		for range nc {
			best, bestV := -1, 0.0
			for i := range caps {
				c := h.child[int(grp.first)+i]
				if v := guide[c] - s.x[c]*guide[parent]; v > bestV+heurTol && caps[i] > 0 {
					best, bestV = i, v
				}
			}
			if best < 0 || rem <= tol {
				break
			}
			want := math.Round(bestV / guide[parent])
			take(best, math.Min(math.Min(want, caps[best]), rem/h.childCoef[int(grp.first)+best]))
			if !grp.disjoint {
				s.refreshCaps(grp, caps)
			}
		}
	}
	for rem > tol {
		fit, big := -1, -1
		for i, cp := range caps {
			if cp <= 0 {
				continue
			}
			if cp*h.childCoef[int(grp.first)+i] >= rem-tol && (fit < 0 || cp < caps[fit]) {
				fit = i
			}
			if big < 0 || cp > caps[big] {
				big = i
			}
		}
		switch {
		case fit >= 0:
			before := rem
			take(fit, rem/h.childCoef[int(grp.first)+fit])
			if rem == before {
				caps[fit] = 0
			}
		case big >= 0:
			before := rem
			take(big, caps[big])
			if rem == before {
				caps[big] = 0
			}
		default:
			return false
		}
		if !grp.disjoint {
			s.refreshCaps(grp, caps)
		}
	}
	return math.Abs(rem) <= tol
}

func (s *packState) refreshCaps(grp *linkGroup, caps []float64) {
	for i := range caps {
		caps[i] = s.room(s.h.child[int(grp.first)+i])
	}
}

// greedyOrder returns the items sorted by key, descending, ties broken by
// item index (so the order is deterministic); NaN keys come last, and −0
// ties with +0, as cmp.Compare orders them.
//
// It is a least-significant-digit radix sort of the keys' bits, linear in
// the items: a clp solve sorts them seven times. The order is the same as
// slices.SortFunc with cmp.Compare would give (TestGreedyOrderMatchesSort).
func greedyOrder(n int, key func(it int32) float64) []int32 {
	order := make([]int32, n)
	keys := make([]uint64, n)
	for i := range order {
		order[i] = int32(i)
		keys[i] = descendingBits(key(int32(i)))
	}
	radixSortStable(order, keys)
	return order
}

// descendingBits maps a key to an unsigned integer whose ascending order
// is the key's descending order: the IEEE bits with the sign folded so
// that they order like the numbers, then complemented. NaN maps to the
// largest value (last), −0 to the bits of +0 (a tie).
func descendingBits(f float64) uint64 {
	if f != f {
		return math.MaxUint64
	}
	if f == 0 {
		f = 0 // −0 → +0
	}
	b := math.Float64bits(f)
	if b>>63 == 0 {
		b |= 1 << 63
	} else {
		b = ^b
	}
	return ^b
}

// radixSortStable sorts order by keys (parallel slices), ascending, keeping
// the relative order of equal keys, one byte a pass; a pass in which every
// key has the same byte is skipped. keys is left in an unspecified order.
func radixSortStable(order []int32, keys []uint64) {
	n := len(order)
	if n < 2 {
		return
	}
	out := order // the caller's slice, which must hold the result
	bufOrder, bufKeys := make([]int32, n), make([]uint64, n)
	var count [256]int
	for shift := uint(0); shift < 64; shift += 8 {
		count = [256]int{}
		for _, k := range keys {
			count[byte(k>>shift)]++
		}
		if count[byte(keys[0]>>shift)] == n {
			continue
		}
		pos := 0
		for d, c := range count {
			count[d] = pos
			pos += c
		}
		for i, k := range keys {
			d := byte(k >> shift)
			bufOrder[count[d]], bufKeys[count[d]] = order[i], k
			count[d]++
		}
		order, bufOrder = bufOrder, order
		keys, bufKeys = bufKeys, keys
	}
	if &order[0] != &out[0] {
		copy(out, order)
	}
}

// density is an item's value per unit of weighted resource use (see
// heuristic.rowW), the classic greedy key for packing problems.
func (h *heuristic) density(it int32) float64 {
	return h.value[it] / (h.usage[it] + 1e-9)
}

// construct inserts the items in order into the state at the lower bounds
// and returns it, or nil when that state is infeasible. The state is
// h.scratch, reused by the next construct (copy what you keep); reusing it
// keeps its blocking hints, which stay valid bounds and let most items be
// rejected at a glance.
func (h *heuristic) construct(order []int32, guide []float64) *packState {
	s := h.scratch
	if s == nil {
		if s = h.newPackState(nil); s == nil {
			return nil
		}
		h.scratch = s
		h.lbSlack = append([]float64(nil), s.slack...)
		h.lbObj = s.obj
	} else {
		copy(s.x, h.lb)
		copy(s.slack, h.lbSlack)
		s.obj = h.lbObj
		for _, it := range s.active {
			s.on[it], s.pos[it] = false, -1
		}
		s.active = s.active[:0]
		s.undo = s.undo[:0]
		s.logging = false
	}
	for k, it := range order {
		if k&255 == 255 && h.stopped() {
			break // a partial construction is still feasible
		}
		s.insert(it, guide)
	}
	return s
}

// stopped reports whether h.stop is closed (the solve's deadline passed).
func (h *heuristic) stopped() bool {
	select {
	case <-h.stop:
		return true
	default:
		return false
	}
}

// floorPos is math.Floor for the values the hot loops see: exact for
// |v| < 2^52, and a plain conversion (no NaN or infinity handling) for the
// non-negative ones.
func floorPos(v float64) float64 {
	if v >= 0 && v < 1<<52 {
		return float64(int64(v))
	}
	return math.Floor(v)
}

package solver

import "math"

// Structure detection for the primal heuristics.
//
// The planner's models have a simple shape: binary "option" columns x, each
// optionally linked to non-negative "count" columns y by an equality
// Σ a_c·y_c − k·x = 0, and packing rows (≤ with non-negative coefficients:
// demand rows Σ_o x ≤ 1 and capacity rows). On such a model the lower-bound
// point is feasible, and any answer stays feasible while options are only
// added where every packing row has room, so a greedy construction need
// never leave the feasible region. Models of any other
// shape are handled by a general repair search (heuristic_general.go).

// Row classes.
const (
	rowOther = iota // anything else: makes the model general
	rowPack         // ≤ with non-negative coefficients (or ≥ with non-positive ones, negated)
	rowLink         // Σ a_c·y_c − k·x = 0 linking counts y to a binary x
)

// Tolerances of the heuristics.
const (
	// heurTol absorbs floating-point error when the heuristics test a packing
	// row for room: a row counts as satisfied while its slack is ≥ −heurTol.
	// It is far below FeasTol, so every answer passes CheckFeasible.
	heurTol = 1e-9
	// heurIntTol: a count of a ≥ c·(1 − heurIntTol) still fits c whole units.
	heurIntTol = 1e-9
)

// copyBlock is how many columns newHeuristicUntil copies the packing
// entries of at a time: their places in the column-major copy then stay
// in the cache. At 1,000 jobs on the rack instances (3.8 million entries)
// blocks of 512 to 4,096 columns took the copy from 50–57 ms to 32–38 ms
// of processor time.
const copyBlock = 2048

// childInfo is what the hot loops need of a child: its upper bound (its
// room when its parent is unused), its link coefficient and integrality.
type childInfo struct {
	ub    float64
	coef  float64
	isInt bool
}

// linkGroup is one link row of a parent: Σ coef[c]·x[child[c]] = k·x[parent].
type linkGroup struct {
	row   int32
	k     float64
	kFits float64 // k − heurTol·max(1, k): children's rooms adding up to this fit k
	first int32   // children are h.child[first:end], coefficients h.childCoef[first:end]
	end   int32
	// disjoint: no packing row holds two of these children (nor the
	// parent), so each child's room can be computed independently.
	disjoint bool
}

// heuristic holds the analysis of one model that the greedy constructions
// and the rounding share: a column-major copy of the packing
// rows, the link structure, and scratch space. Build it once per model with
// newHeuristic; it is not safe for concurrent use.
type heuristic struct {
	m     *Model
	n     int       // columns
	cobj  []float64 // objective in maximisation sense
	lb    []float64
	ub    []float64
	isInt []bool // Integer or Binary

	rowKind []int8
	// Packing rows in ≤ form: Σ a·x ≤ rhs. Column-major (only packing rows):
	// column j's entries are pRow/pCoef[pStart[j]:pStart[j+1]].
	rhs    []float64
	pStart []int32
	pRow   []int32
	pCoef  []float64
	rowW   []float64 // weight of a unit of each packing row in densities

	simple bool // every row is a packing or link row (see above)

	// stop is the done channel of the running solve's context (nil: none);
	// long loops (a construction, a recreate) look at it every so often so
	// that a solve ends close to its deadline even on a loaded machine.
	stop <-chan struct{}

	// scratch is the state the constructions reuse, and lbSlack/lbObj its
	// slacks and objective at the lower bounds (heuristic_pack.go).
	scratch *packState
	lbSlack []float64
	lbObj   float64

	// Items: the units the greedy inserts.
	// A parent is a binary column with its link groups; a free column is a
	// non-binary column in packing rows only, raised as far as it fits.
	items     []int32 // column of each item
	itemOf    []int32 // item of a column, −1 when none (children, zero-value columns)
	parentOf  []int32 // parent column of a child column, −1 when none
	groups    []linkGroup
	gStart    []int32 // item i's groups are groups[gStart[i]:gStart[i+1]]
	child     []int32
	childItem []int32     // item of each position in child
	childGrp  []int32     // group of each position in child
	cinfo     []childInfo // per position in child: a compact copy for the hot loops
	childPos  []int32     // position in child of each column, −1 for none
	childCoef []float64
	isFree    []bool    // per item: a free column rather than a parent
	value     []float64 // per item: an upper estimate of its objective contribution
	usage     []float64 // per item: its packing-row use, for densities
	size      []float64 // per item: Σ_g k_g (nodes of a gang)
	oneOwnRow []bool    // per item: its column is in exactly one packing row
}

// newHeuristic analyses m. It never fails: models it cannot treat as simple
// are marked general.
func newHeuristic(m *Model) *heuristic { return newHeuristicUntil(m, nil) }

// newHeuristicUntil is newHeuristic, abandoned (nil) when done closes before
// the analysis ends. On a large model the analysis is the longest step
// before a first answer — about 80 ms of processor time at 1,000 jobs on
// the rack instances (3.7 million nonzeros) — so an in-process solve under
// a short limit must be able to give up inside it.
func newHeuristicUntil(m *Model, done <-chan struct{}) *heuristic {
	poll := donePoll{done: done}
	n := len(m.Vars)
	h := &heuristic{m: m, n: n,
		cobj: make([]float64, n), lb: make([]float64, n), ub: make([]float64, n), isInt: make([]bool, n),
		rowKind: make([]int8, len(m.Rows)), rhs: make([]float64, len(m.Rows)),
	}
	for j, v := range m.Vars {
		h.cobj[j] = v.Obj
		if !m.Maximize {
			h.cobj[j] = -v.Obj
		}
		h.lb[j], h.ub[j] = v.Lower, v.Upper
		if v.Kind == Binary {
			h.lb[j], h.ub[j] = math.Max(0, v.Lower), math.Min(1, v.Upper)
		}
		h.isInt[j] = v.Kind != Continuous
		if h.isInt[j] {
			h.lb[j], h.ub[j] = math.Ceil(h.lb[j]-IntTol), math.Floor(h.ub[j]+IntTol)
		}
	}
	isBinary := func(j int) bool { return h.isInt[j] && h.lb[j] == 0 && h.ub[j] == 1 }

	// Classify rows.
	h.simple = true
	h.parentOf = make([]int32, n)
	for j := range h.parentOf {
		h.parentOf[j] = -1
	}
	linkParent := make([]int32, len(m.Rows))
	for i := range m.Rows {
		r := &m.Rows[i]
		if poll.stop(len(r.Index)) {
			return nil
		}
		linkParent[i] = -1
		switch {
		case r.Sense == LE && allSign(r.Coef, 1):
			h.rowKind[i], h.rhs[i] = rowPack, r.RHS
		case r.Sense == GE && allSign(r.Coef, -1):
			h.rowKind[i], h.rhs[i] = rowPack, -r.RHS
		case r.Sense == EQ && r.RHS == 0:
			p := -1
			ok := true
			for k, j := range r.Index {
				c := r.Coef[k]
				switch {
				case c < 0 && p < 0 && isBinary(j):
					p = j
				case c > 0 && h.lb[j] == 0 && h.parentOf[j] < 0:
				default:
					ok = false
				}
			}
			if ok && p >= 0 && len(r.Index) > 1 {
				h.rowKind[i] = rowLink
				linkParent[i] = int32(p)
				for _, j := range r.Index {
					if j != p {
						h.parentOf[j] = int32(p)
					}
				}
			}
		}
		if h.rowKind[i] == rowOther {
			h.simple = false
		}
	}
	// A parent must not itself be a child, and parents and children must
	// start at zero.
	for j := 0; j < n; j++ {
		if p := h.parentOf[j]; p >= 0 && (h.parentOf[p] >= 0 || h.lb[j] != 0) {
			h.simple = false
		}
	}

	// Column-major packing rows: each column's entries counted, then
	// copied into place one block of columns at a time, so that the places
	// being written stay in the cache (copyBlock). Blocks need each row's
	// columns in increasing order, as the planner's models and the
	// instances list them; a model with a row in another order is copied
	// in one block.
	h.pStart = make([]int32, n+1)
	sorted := true
	for i := range m.Rows {
		if h.rowKind[i] != rowPack {
			continue
		}
		r := &m.Rows[i]
		if poll.stop(len(r.Index)) {
			return nil
		}
		prev := -1
		for k, j := range r.Index {
			if r.Coef[k] != 0 {
				h.pStart[j+1]++
			}
			sorted = sorted && j > prev
			prev = j
		}
	}
	for j := 0; j < n; j++ {
		h.pStart[j+1] += h.pStart[j]
	}
	h.pRow = make([]int32, h.pStart[n])
	h.pCoef = make([]float64, h.pStart[n])
	fill := append([]int32(nil), h.pStart[:n]...)
	block := copyBlock
	if !sorted {
		block = max(n, 1)
	}
	cur := make([]int32, len(m.Rows)) // per row: its first entry not copied yet
	for lo := 0; lo < n; lo += block {
		hi := lo + block
		for i := range m.Rows {
			if h.rowKind[i] != rowPack {
				continue
			}
			r := &m.Rows[i]
			sign := 1.0
			if r.Sense == GE {
				sign = -1
			}
			k0 := int(cur[i])
			k := k0
			for ; k < len(r.Index) && r.Index[k] < hi; k++ {
				if c := r.Coef[k]; c != 0 {
					q := &fill[r.Index[k]]
					h.pRow[*q] = int32(i)
					h.pCoef[*q] = sign * c
					*q++
				}
			}
			cur[i] = int32(k)
			if poll.stop(1 + k - k0) {
				return nil
			}
		}
	}
	// Row weights for densities: 1/rhs, so that every row counts in shares
	// of its capacity, with the capacity floored at 1 (a nearly full row is
	// expensive, not infinitely so). Pure choice rows ("at most one of these
	// binaries": every coefficient equals the right-hand side, no counts)
	// cost nothing: they say which options exclude each other, not what
	// they consume.
	h.rowW = make([]float64, len(m.Rows))
	for i := range m.Rows {
		if h.rowKind[i] != rowPack {
			continue
		}
		r := &m.Rows[i]
		choice := h.rhs[i] > 0
		for k, j := range r.Index {
			if !choice {
				break
			}
			choice = math.Abs(r.Coef[k]) == h.rhs[i] && h.parentOf[j] < 0 && isBinary(j)
		}
		if !choice {
			h.rowW[i] = 1 / math.Max(h.rhs[i], 1)
		}
	}

	// Items: parents (binary columns not children) and free columns with a
	// positive objective.
	// The link rows of parent j are links[linkStart[j]:linkStart[j+1]].
	linkStart := make([]int32, n+1)
	children := 0
	for i, p := range linkParent {
		if p >= 0 {
			linkStart[p+1]++
			children += len(m.Rows[i].Index) - 1
		}
	}
	for j := range n {
		linkStart[j+1] += linkStart[j]
	}
	links := make([]int32, linkStart[n])
	next := append([]int32(nil), linkStart[:n]...)
	for i, p := range linkParent {
		if p >= 0 {
			links[next[p]] = int32(i)
			next[p]++
		}
	}
	h.itemOf = make([]int32, n)
	h.gStart = append(make([]int32, 0, n+1), 0)
	h.groups = make([]linkGroup, 0, len(links))
	h.child = make([]int32, 0, children)
	h.childItem = make([]int32, 0, children)
	h.childCoef = make([]float64, 0, children)
	mark := make([]int32, len(m.Rows)) // row stamps for the disjointness test
	for j := 0; j < n; j++ {
		h.itemOf[j] = -1
		if poll.stop(1 + int(h.pStart[j+1]-h.pStart[j])) {
			return nil
		}
		if h.parentOf[j] >= 0 {
			continue
		}
		free := !isBinary(j)
		groupsOf := links[linkStart[j]:linkStart[j+1]]
		if free && (len(groupsOf) > 0 || h.cobj[j] <= 0 || math.IsInf(h.ub[j], 1)) {
			continue
		}
		value, use, size := h.cobj[j], 0.0, 0.0
		if free {
			value = h.cobj[j] * (h.ub[j] - h.lb[j])
		}
		for q := h.pStart[j]; q < h.pStart[j+1]; q++ {
			use += h.pCoef[q] * h.rowW[h.pRow[q]]
		}
		g0, c0 := len(h.groups), len(h.child)
		for _, ri := range groupsOf {
			r := &m.Rows[ri]
			g := linkGroup{row: ri, first: int32(len(h.child)), disjoint: true}
			stamp := ri + 1
			for q := h.pStart[j]; q < h.pStart[j+1]; q++ {
				mark[h.pRow[q]] = stamp
			}
			bestUnit, unitUse := math.Inf(-1), 0.0
			for k, c := range r.Index {
				if c == j {
					g.k = -r.Coef[k]
					continue
				}
				h.child = append(h.child, int32(c))
				h.childItem = append(h.childItem, int32(len(h.items)))
				h.childCoef = append(h.childCoef, r.Coef[k])
				bestUnit = math.Max(bestUnit, h.cobj[c]/r.Coef[k])
				u := 0.0
				for q := h.pStart[c]; q < h.pStart[c+1]; q++ {
					pr := h.pRow[q]
					if mark[pr] == stamp {
						g.disjoint = false
					}
					mark[pr] = stamp
					u += h.pCoef[q] * h.rowW[pr]
				}
				poll.work += int(h.pStart[c+1] - h.pStart[c])
				unitUse += u / r.Coef[k]
			}
			g.end = int32(len(h.child))
			g.kFits = g.k - heurTol*math.Max(1, g.k)
			value += g.k * bestUnit
			use += g.k * unitUse / float64(g.end-g.first)
			size += g.k
			h.groups = append(h.groups, g)
		}
		if !(value > 0) {
			h.groups, h.child, h.childCoef, h.childItem = h.groups[:g0], h.child[:c0], h.childCoef[:c0], h.childItem[:c0]
			continue
		}
		h.itemOf[j] = int32(len(h.items))
		h.items = append(h.items, int32(j))
		h.gStart = append(h.gStart, int32(len(h.groups)))
		h.isFree = append(h.isFree, free)
		h.value = append(h.value, value)
		h.usage = append(h.usage, use)
		h.size = append(h.size, size)
		h.oneOwnRow = append(h.oneOwnRow, h.pStart[j+1]-h.pStart[j] == 1)
	}
	h.childPos = make([]int32, n)
	for j := range h.childPos {
		h.childPos[j] = -1
	}
	h.childGrp = make([]int32, len(h.child))
	h.cinfo = make([]childInfo, len(h.child))
	for c, j := range h.child {
		h.cinfo[c] = childInfo{ub: h.ub[j], coef: h.childCoef[c], isInt: h.isInt[j]}
	}
	for g := range h.groups {
		for c := h.groups[g].first; c < h.groups[g].end; c++ {
			h.childGrp[c] = int32(g)
			h.childPos[h.child[c]] = c
		}
	}
	return h
}

// allSign reports whether every coefficient is ≥ 0 (sign 1) or ≤ 0 (sign −1).
func allSign(coef []float64, sign float64) bool {
	for _, c := range coef {
		if c*sign < 0 {
			return false
		}
	}
	return true
}

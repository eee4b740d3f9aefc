package solver

import (
	"context"
	"math"
	"math/rand/v2"
)

// General models: a repair search for feasibility.
//
// Models that are not simple (≥ rows with positive coefficients, general
// equalities, mixed signs, …) have no obviously feasible point, so the
// greedy cannot start from one. generalRepair is a weighted-violation local
// search in the manner of Feasibility Jump (Luteberget & Sartor, 2023): it
// repeatedly picks a violated row and moves one of its columns to the value
// that best reduces the weighted violation of that column's rows; when no
// move helps, the weights of the violated rows grow, which in time makes
// some move worthwhile. It aims only at feasibility. It changes no result
// of the planner, whose models are all simple; it is how greedy and clp
// answer the general models among the enumerated test cases.

const (
	// genTol: a row counts as satisfied when its violation is at most
	// genTol·max(1, |rhs|), a hundredth of the checker's FeasTol.
	genTol = FeasTol / 100
	// genNoise is the chance of a random step instead of a greedy one.
	genNoise = 0.05
	// genSeed seeds the random steps and starts, so that a solve is
	// deterministic.
	genSeed = 0x5eed
)

// generalRepairMoves is the move budget of generalRepair: generous for the
// small models the general search is meant for, bounded for large ones.
func generalRepairMoves(h *heuristic) int64 {
	return 20_000 + 50*int64(h.n+len(h.m.Rows))
}

// general is the state of the general search: all rows, both views.
type general struct {
	h      *heuristic
	lo, hi []float64 // row bounds
	scale  []float64 // largest |coefficient| of each row (violations are in its units)
	cStart []int32
	cRow   []int32
	cCoef  []float64
	x      []float64
	act    []float64
	w      []float64
	viol   []int32 // violated rows
	vpos   []int32 // position in viol, −1 when satisfied
	rng    *rand.Rand
}

func (h *heuristic) newGeneral() *general {
	m := h.m
	g := &general{h: h, lo: make([]float64, len(m.Rows)), hi: make([]float64, len(m.Rows)),
		scale: make([]float64, len(m.Rows)), cStart: make([]int32, h.n+1),
		x: make([]float64, h.n), act: make([]float64, len(m.Rows)), w: make([]float64, len(m.Rows)),
		vpos: make([]int32, len(m.Rows)), rng: rand.New(rand.NewPCG(genSeed, uint64(h.n)+1))}
	for i := range m.Rows {
		r := &m.Rows[i]
		g.lo[i], g.hi[i] = math.Inf(-1), math.Inf(1)
		if r.Sense != LE {
			g.lo[i] = r.RHS
		}
		if r.Sense != GE {
			g.hi[i] = r.RHS
		}
		g.scale[i] = 1
		for k, j := range r.Index {
			g.scale[i] = math.Max(g.scale[i], math.Abs(r.Coef[k]))
			g.cStart[j+1]++
		}
	}
	for j := 0; j < h.n; j++ {
		g.cStart[j+1] += g.cStart[j]
	}
	g.cRow = make([]int32, g.cStart[h.n])
	g.cCoef = make([]float64, g.cStart[h.n])
	fill := append([]int32(nil), g.cStart[:h.n]...)
	for i := range m.Rows {
		for k, j := range m.Rows[i].Index {
			g.cRow[fill[j]] = int32(i)
			g.cCoef[fill[j]] = m.Rows[i].Coef[k]
			fill[j]++
		}
	}
	return g
}

// violation of row i at activity a, in units of the row's scale.
func (g *general) violation(i int, a float64) float64 {
	tol := genTol * math.Max(1, math.Max(math.Abs(g.lo[i]), math.Abs(g.hi[i])))
	if math.IsInf(g.lo[i], -1) {
		tol = genTol * math.Max(1, math.Abs(g.hi[i]))
	} else if math.IsInf(g.hi[i], 1) {
		tol = genTol * math.Max(1, math.Abs(g.lo[i]))
	}
	switch {
	case a > g.hi[i]+tol:
		return (a - g.hi[i]) / g.scale[i]
	case a < g.lo[i]-tol:
		return (g.lo[i] - a) / g.scale[i]
	}
	return 0
}

// reset puts the search at x0 (nil: each column at the bound nearest 0).
func (g *general) reset(x0 []float64) {
	h := g.h
	for j := range g.x {
		v := 0.0
		if x0 != nil && finite(x0[j]) {
			v = x0[j]
		}
		if h.isInt[j] {
			v = math.Round(v)
		}
		g.x[j] = math.Min(math.Max(v, h.lb[j]), h.ub[j])
	}
	clear(g.act)
	for j, v := range g.x {
		for q := g.cStart[j]; q < g.cStart[j+1]; q++ {
			g.act[g.cRow[q]] += g.cCoef[q] * v
		}
	}
	g.viol = g.viol[:0]
	for i := range g.act {
		g.w[i] = 1
		g.vpos[i] = -1
		g.updateViol(i)
	}
}

func (g *general) updateViol(i int) {
	bad := g.violation(i, g.act[i]) > 0
	switch {
	case bad && g.vpos[i] < 0:
		g.vpos[i] = int32(len(g.viol))
		g.viol = append(g.viol, int32(i))
	case !bad && g.vpos[i] >= 0:
		p := g.vpos[i]
		last := g.viol[len(g.viol)-1]
		g.viol[p] = last
		g.vpos[last] = p
		g.viol = g.viol[:len(g.viol)-1]
		g.vpos[i] = -1
	}
}

// delta is the change of weighted violation when column j moves to v.
func (g *general) delta(j int, v float64) float64 {
	d := v - g.x[j]
	s := 0.0
	for q := g.cStart[j]; q < g.cStart[j+1]; q++ {
		i := int(g.cRow[q])
		a := g.act[i]
		s += g.w[i] * (g.violation(i, a+g.cCoef[q]*d) - g.violation(i, a))
	}
	return s
}

func (g *general) move(j int, v float64) {
	d := v - g.x[j]
	g.x[j] = v
	for q := g.cStart[j]; q < g.cStart[j+1]; q++ {
		i := int(g.cRow[q])
		g.act[i] += g.cCoef[q] * d
		g.updateViol(i)
	}
}

// candidate returns the value of column j (coefficient a in row i) that
// brings row i to its violated bound, rounded towards feasibility for
// integers and clamped to the column's bounds.
func (g *general) candidate(i, j int, a float64) float64 {
	h := g.h
	target := g.hi[i]
	if g.act[i] < g.lo[i] {
		target = g.lo[i]
	}
	v := g.x[j] + (target-g.act[i])/a
	if h.isInt[j] {
		if v > g.x[j] {
			v = math.Ceil(v - heurIntTol)
		} else {
			v = math.Floor(v + heurIntTol)
		}
	}
	return math.Min(math.Max(v, h.lb[j]), h.ub[j])
}

// repair runs the search for at most maxMoves moves and reports whether x
// is feasible (every row within genTol; bounds and integrality hold by
// construction).
func (g *general) repair(ctx context.Context, maxMoves int64) bool {
	m := g.h.m
	done := ctx.Done()
	for it := int64(0); len(g.viol) > 0 && it < maxMoves; it++ {
		if it&255 == 0 && done != nil {
			select {
			case <-done:
				return false
			default:
			}
		}
		i := int(g.viol[g.rng.IntN(len(g.viol))])
		r := &m.Rows[i]
		bestJ, bestV, bestD, bestGain := -1, 0.0, math.Inf(1), math.Inf(-1)
		for k, j := range r.Index {
			a := r.Coef[k]
			if a == 0 {
				continue
			}
			v := g.candidate(i, j, a)
			if v == g.x[j] {
				continue
			}
			d := g.delta(j, v)
			gain := g.h.cobj[j] * (v - g.x[j])
			if d < bestD-1e-12 || (d <= bestD+1e-12 && gain > bestGain) {
				bestJ, bestV, bestD, bestGain = j, v, d, gain
			}
		}
		switch {
		case bestJ < 0:
			g.w[i]++
		case bestD < -1e-12:
			g.move(bestJ, bestV)
		default:
			for _, vi := range g.viol {
				g.w[vi]++
			}
			if g.rng.Float64() < genNoise {
				g.move(bestJ, bestV)
			}
		}
	}
	return len(g.viol) == 0
}

// generalRepair looks for a feasible answer of a general model: from the
// rounded guide (when given), from the bounds nearest zero, then from
// random integer points, within maxMoves moves in all. It returns nil when
// it finds none.
func (h *heuristic) generalRepair(ctx context.Context, guide []float64, maxMoves int64) []float64 {
	if h.n == 0 {
		if h.m.CheckFeasible(nil) == nil {
			return []float64{}
		}
		return nil
	}
	g := h.newGeneral()
	starts := 0
	for used := int64(0); used < maxMoves && ctx.Err() == nil; starts++ {
		var x0 []float64
		switch {
		case starts == 0 && guide != nil:
			x0 = guide
		case starts <= 1:
		default:
			x0 = make([]float64, h.n)
			for j := range x0 {
				lo, hi := h.lb[j], h.ub[j]
				if math.IsInf(lo, -1) {
					lo = math.Min(hi, 0) - 10
				}
				if math.IsInf(hi, 1) {
					hi = math.Max(lo, 0) + 10
				}
				x0[j] = lo + g.rng.Float64()*(hi-lo)
			}
		}
		g.reset(x0)
		budget := max(maxMoves/4, 1000)
		ok := g.repair(ctx, budget)
		used += budget
		if ok {
			x := append([]float64(nil), g.x...)
			if h.m.CheckFeasible(x) == nil {
				return x
			}
		}
	}
	return nil
}

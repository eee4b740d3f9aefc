package solver

import "math"

// The LP the rounding starts from, with the options substituted out.
//
// On a simple model an option x with one link row Σ a_c·y_c = k·x is fixed
// by its counts: x = Σ a_c·y_c / k. Putting that into every other row x is
// in (and into the objective) removes x and its link row without changing
// the LP's feasible set or optimum, as seen on the counts. On the rack
// instances that leaves a third of the rows (100 jobs: 581 of 1,772; 300
// jobs: 781 of 4,339) and about 14–32 columns per row, the shape CLP's
// sifting ("sprint") solves best: 25–35 ms instead of 48–75 ms at 100 jobs
// and 39–58 ms instead of 131–222 ms at 300 jobs, the same optimum on all
// ten instances (BENCHMARKS.md at 5238421, "A smaller LP").
//
// x ≤ 1 becomes a row on its counts unless a packing row of x already
// implies it: the demand row Σ_o x_o ≤ 1 (all columns ≥ 0) does, so the
// rack models need no new row. Options the reduced model fixes at zero
// take their counts with them.

// substitution is an LP of a simple model with options substituted out,
// and how to map its answers back.
type substitution struct {
	lp *Model
	// col is the column of lp for each column of the model, −1 for one
	// substituted out (an option) or dropped (a count of an option fixed
	// at zero).
	col []int32
	// parents are the substituted options, each with its link group.
	parents []substituted
}

type substituted struct {
	col   int32 // the option's column in the model
	group int32 // its link group (heuristic.groups)
}

// substitute returns the LP of m (a model with h's structure and possibly
// tighter bounds, as heuristic.reduced returns) with every option that has
// exactly one link row substituted out, or nil when h is not simple or no
// option qualifies.
func (h *heuristic) substitute(m *Model) *substitution {
	if !h.simple || len(m.Vars) != h.n {
		return nil
	}
	sub := &substitution{col: make([]int32, h.n)}
	group := make([]int32, h.n) // per column: its link group when substituted out, else −1
	for j := range group {
		group[j] = -1
	}
	for it, j := range h.items {
		if h.isFree[it] || h.gStart[it+1]-h.gStart[it] != 1 {
			continue
		}
		g := h.gStart[it]
		group[j] = g
		sub.parents = append(sub.parents, substituted{col: j, group: g})
	}
	if len(sub.parents) == 0 {
		return nil
	}
	// Columns: all but the substituted options and the counts of options
	// fixed at zero (they can only be zero).
	lp := &Model{Name: m.Name, Maximize: m.Maximize}
	for j := range m.Vars {
		sub.col[j] = -1
		if group[j] >= 0 {
			continue
		}
		if p := h.parentOf[j]; p >= 0 && group[p] >= 0 && h.optionUpper(m, p) <= 0 {
			continue
		}
		v := m.Vars[j]
		if v.Kind == Binary {
			v.Kind = Integer // keep the bounds as they are (AddVar would force [0, 1])
		}
		sub.col[j] = int32(len(lp.Vars))
		lp.Vars = append(lp.Vars, v)
	}
	// The objective: x's coefficient spread over its counts, o·a_c/k each.
	for _, p := range sub.parents {
		o := m.Vars[p.col].Obj
		if o == 0 {
			continue
		}
		grp := &h.groups[p.group]
		for c := grp.first; c < grp.end; c++ {
			if nc := sub.col[h.child[c]]; nc >= 0 {
				lp.Vars[nc].Obj += o * h.childCoef[c] / grp.k
			}
		}
	}
	// Rows: link rows of substituted options dropped, every other row with
	// x's entry a replaced by a·a_c/k on each count (added to the count's
	// own entry when it has one).
	acc := make([]float64, len(lp.Vars))
	seen := make([]bool, len(lp.Vars))
	var touched []int
	add := func(nc int32, a float64) {
		if nc < 0 {
			return
		}
		if !seen[nc] {
			seen[nc] = true
			touched = append(touched, int(nc))
		}
		acc[nc] += a
	}
	dropped := make([]bool, len(m.Rows)) // the substituted options' link rows
	for _, p := range sub.parents {
		dropped[h.groups[p.group].row] = true
	}
	for i := range m.Rows {
		if dropped[i] {
			continue
		}
		r := &m.Rows[i]
		touched = touched[:0]
		for k, j := range r.Index {
			a := r.Coef[k]
			if g := group[j]; g >= 0 {
				grp := &h.groups[g]
				for c := grp.first; c < grp.end; c++ {
					add(sub.col[h.child[c]], a*h.childCoef[c]/grp.k)
				}
				continue
			}
			add(sub.col[j], a)
		}
		row := Row{Name: r.Name, Sense: r.Sense, RHS: r.RHS,
			Index: make([]int, 0, len(touched)), Coef: make([]float64, 0, len(touched))}
		for _, nc := range touched {
			if acc[nc] != 0 {
				row.Index = append(row.Index, nc)
				row.Coef = append(row.Coef, acc[nc])
			}
			acc[nc], seen[nc] = 0, false
		}
		lp.Rows = append(lp.Rows, row)
	}
	// x's upper bound, as a row on its counts where no packing row implies
	// it. (Its lower bound is 0, which the counts' lower bounds of 0 imply:
	// the structure asks for both.)
	for _, p := range sub.parents {
		ub := h.optionUpper(m, p.col)
		if ub <= 0 || h.upperImplied(m, p.col, ub) {
			continue // its counts are dropped, or a row holds it already
		}
		grp := &h.groups[p.group]
		var index []int
		var coef []float64
		for c := grp.first; c < grp.end; c++ {
			if nc := sub.col[h.child[c]]; nc >= 0 {
				index = append(index, int(nc))
				coef = append(coef, h.childCoef[c])
			}
		}
		lp.AddRow(m.RowName(int(grp.row))+"_upper", index, coef, LE, grp.k*ub)
	}
	sub.lp = lp
	return sub
}

// optionUpper is the upper bound of option column j in m (a model with
// h's structure, its bounds possibly tightened), at most 1: an option is
// binary, and a bound of 0 fixes it.
func (h *heuristic) optionUpper(m *Model, j int32) float64 {
	return math.Min(m.Vars[j].Upper, h.ub[j])
}

// upperImplied reports whether a packing row of column j in m already
// holds j to at most ub: a ≤ row with j's coefficient a > 0, right-hand
// side b ≤ a·ub, and every column in it bounded below by 0.
func (h *heuristic) upperImplied(m *Model, j int32, ub float64) bool {
	for q := h.pStart[j]; q < h.pStart[j+1]; q++ {
		i := h.pRow[q]
		if h.rhs[i] > h.pCoef[q]*ub {
			continue
		}
		r := &m.Rows[i]
		ok := true
		for _, c := range r.Index {
			if m.Vars[c].Lower < 0 {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// expand maps an answer y of the substituted LP back to the model's
// columns: each option at Σ a_c·y_c / k (within its bounds), dropped counts
// at zero.
func (sub *substitution) expand(h *heuristic, m *Model, y []float64) []float64 {
	x := make([]float64, len(sub.col))
	for j, nc := range sub.col {
		if nc >= 0 {
			x[j] = y[nc]
		}
	}
	for _, p := range sub.parents {
		grp := &h.groups[p.group]
		v := 0.0
		for c := grp.first; c < grp.end; c++ {
			v += h.childCoef[c] * x[h.child[c]]
		}
		x[p.col] = math.Min(math.Max(v/grp.k, 0), h.optionUpper(m, p.col))
	}
	return x
}

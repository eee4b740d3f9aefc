package planner

import (
	"math"

	"github.com/plannerhq/planner/solver"
)

// capTol absorbs rounding in the capacity bounds derived from C: a
// capacity of 2.9999999997 free nodes still holds 3.
const capTol = 1e-6

// model is stage 4: the MILP of 3Sigma §4.3 in the rack form of DESIGN.md
// step 3, over partition groups g and check slices t:
//
//	max  Σ U[j,o]·x[j,o] + Σ_i V_i·z_i
//	s.t. Σ_o x[j,o] ≤ 1                                  per job (demand)
//	     Σ_{g∈R(o)} y[j,o,g] = k_j·x[j,o]                per option (link)
//	     Σ_{j,o} P_o(T > (t − s_o)·q)·y[j,o,g]
//	       + Σ_i n_i(g)·RRC_i(t)·z_i ≤ C[g,t]            per (g, t) (capacity)
//
// x and z binary, y integer. z_i keeps running best-effort job i (its
// objective V_i is its remaining expected utility; z_i = 0 preempts it). An
// option whose set is one group has no y: k·x enters the rows directly.
// Coefficients below CoefTol are dropped, and so are options that cannot
// fit in their start slice (Σ_g floor(C[g,s]) < k: at its start a job
// uses its whole gang), rows that cannot bind, and the demand row of a job
// with one option. y[j,o,g] ≤ min(k, floor(C[g,s])) tightens the LP.
func (c *cycle) model() error {
	if len(c.opts) == 0 {
		c.dec = &Decision{} // nothing to start; never preempt for nothing
		return nil
	}
	nk := len(c.checks)
	ng := len(c.parts)
	m := &solver.Model{Name: c.s.name, Maximize: true}
	m.Vars = make([]solver.Var, 0, len(c.opts)*2+len(c.keeps))
	capIdx := make([][]int, ng*nk)
	capCoef := make([][]float64, ng*nk)
	checkOf := make([]int, c.H) // slice → its check index (starts are checks)
	for k, t := range c.checks {
		checkOf[t] = k
	}
	add := func(g, k, col int, a float64) {
		capIdx[g*nk+k] = append(capIdx[g*nk+k], col)
		capCoef[g*nk+k] = append(capCoef[g*nk+k], a)
	}
	// coverage adds column col's consumption a·P(T > (t − s)·q) to group g.
	coverage := func(g, col, start int, a float64, surv []float64) {
		for k := checkOf[start]; k < nk; k++ {
			off := c.checks[k] - start
			if off >= len(surv) {
				break
			}
			add(g, k, col, a*surv[off])
		}
	}

	kept := c.opts[:0]
	demand := make([][]int, len(c.jobs))
	for _, o := range c.opts {
		pj := c.jobs[o.job]
		set := &pj.sets[o.set]
		k := pj.p.Job.Nodes
		ks := checkOf[o.start]
		room := 0
		for _, g := range set.groups {
			room += roomOf(c.C[g*nk+ks])
		}
		if room < k {
			continue
		}
		o.x = len(m.Vars)
		m.Vars = append(m.Vars, solver.Var{Kind: solver.Binary, Upper: 1, Obj: o.util})
		if len(set.groups) == 1 {
			coverage(set.groups[0], o.x, o.start, float64(k), set.surv)
		} else {
			idx := make([]int, 0, len(set.groups)+1)
			coef := make([]float64, 0, len(set.groups)+1)
			o.y = make([]int, len(set.groups))
			for gi, g := range set.groups {
				ub := min(k, roomOf(c.C[g*nk+ks]))
				if ub == 0 {
					o.y[gi] = -1
					continue
				}
				y := len(m.Vars)
				m.Vars = append(m.Vars, solver.Var{Kind: solver.Integer, Upper: float64(ub)})
				o.y[gi] = y
				idx = append(idx, y)
				coef = append(coef, 1)
				coverage(g, y, o.start, 1, set.surv)
			}
			idx = append(idx, o.x)
			coef = append(coef, -float64(k))
			m.AddRow("", idx, coef, solver.EQ, 0)
		}
		demand[o.job] = append(demand[o.job], o.x)
		kept = append(kept, o)
	}
	c.opts = kept
	if len(c.opts) == 0 {
		c.dec = &Decision{}
		return nil
	}
	for _, d := range demand {
		if len(d) > 1 {
			m.AddRow("", d, ones(len(d)), solver.LE, 1)
		}
	}
	for i := range c.keeps {
		kp := &c.keeps[i]
		kp.z = len(m.Vars)
		m.Vars = append(m.Vars, solver.Var{Kind: solver.Binary, Upper: 1, Obj: kp.value})
		for g, n := range kp.nodes {
			if n == 0 {
				continue
			}
			for k, r := range kp.rrc {
				if k > 0 && r < CoefTol {
					break
				}
				if k == 0 {
					r = 1
				}
				add(g, k, kp.z, float64(n)*r)
			}
		}
	}
	for i, idx := range capIdx {
		if len(idx) == 0 {
			continue
		}
		// A row whose largest activity stays within C cannot bind.
		most := 0.0
		for e, col := range idx {
			most += capCoef[i][e] * m.Vars[col].Upper
		}
		if most <= c.C[i]+capTol {
			continue
		}
		m.AddRow("", idx, capCoef[i], solver.LE, c.C[i])
	}
	c.m = m
	return nil
}

// roomOf is the whole nodes a capacity value holds.
func roomOf(v float64) int { return max(0, int(math.Floor(v+capTol))) }

func ones(n int) []float64 {
	o := make([]float64, n)
	for i := range o {
		o[i] = 1
	}
	return o
}

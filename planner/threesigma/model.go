package threesigma

import (
	"fmt"
	"math"

	"github.com/plannerhq/planner/planner"
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
//	       + Σ_i n_i(g)·RRC_i(t)·z_i ≤ C[g,t]            per (g, t), t < RackSlices
//	     Σ_{j,o} P_o(T > (t − s_o)·q)·k_j·x[j,o]
//	       + Σ_i n_i·RRC_i(t)·z_i ≤ Σ_g C[g,t]           per t ≥ RackSlices
//	     the same over the options confined to R and
//	       n_i(R), ≤ Σ_{g∈R} C[g,t]                      per preferred set R,
//	                                                     start slice t ≥ RackSlices
//
// x and z binary, y integer. z_i keeps running best-effort job i (its
// objective V_i is its remaining expected utility; z_i = 0 preempts it).
// Unless Config.NoReserve, a row per planned SLO start keeps its nodes
// from jobs started now (reserveRows).
//
// Size. Rows per group are kept for the first Config.RackSlices slices only
// (by default slice 0: what is enacted now is packed onto real partitions
// exactly); later slices get one row over the whole cluster, so options
// starting later need no counts y and no link row. This is the aggregation
// DESIGN.md and SOLVERS.md call for at scale: the far plan is re-solved
// every cycle, and a per-rack future plan multiplied the model's size by
// the number of racks. An option whose set is one group has no y either.
// Coefficients below CoefTol are dropped; so are options that cannot fit in
// their start slice (at its start a job holds its whole gang), rows that
// cannot bind, and the demand row of a job with one option; y[j,o,g] ≤
// min(k, floor(C[g,s])) tightens the LP.
func (c *cycle) model() error {
	if len(c.opts) == 0 {
		c.dec = &planner.Decision{} // nothing to start; never preempt for nothing
		return nil
	}
	nk := len(c.checks)
	ng := len(c.parts)
	kr := 0 // checks[:kr] get rows per group
	for kr < nk && c.checks[kr] < c.s.cfg.RackSlices {
		kr++
	}
	nrow := ng*kr + (nk - kr)
	checkOf := make([]int, c.H) // slice → its check index (starts are checks)
	for k, t := range c.checks {
		checkOf[t] = k
	}
	// Set rows: one per distinct preferred set R and set check (see
	// setRows), after the group and aggregate rows.
	sets, setChecks := c.setRows(kr, checkOf)
	setBase := nrow
	nrow += len(sets) * len(setChecks)
	rhs := make([]float64, nrow)
	for g := range ng {
		for k := range nk {
			if k < kr {
				rhs[g*kr+k] = c.C[g*nk+k]
			} else {
				rhs[ng*kr+k-kr] += c.C[g*nk+k]
			}
		}
	}
	for r, R := range sets {
		for j, k := range setChecks {
			for _, g := range R {
				rhs[setBase+r*len(setChecks)+j] += c.C[g*nk+k]
			}
		}
	}

	m := &solver.Model{Name: c.s.name, Maximize: true}
	m.Vars = make([]solver.Var, 0, len(c.opts)*2+len(c.keeps))
	var ent entries
	ent.row = make([]int32, 0, len(c.opts)*(nk+4))
	// cover adds column col's consumption a·P(T > (t − s)·q) from check k0:
	// to group g's rows before kr (g < 0: none) and, if agg, to the
	// aggregate rows from kr on.
	cover := func(col, g, start int, a float64, surv []float64, agg bool) {
		for k := checkOf[start]; k < nk; k++ {
			off := c.checks[k] - start
			if off >= len(surv) {
				break
			}
			if k < kr {
				if g >= 0 {
					ent.add(g*kr+k, col, a*surv[off])
				}
			} else if agg {
				ent.add(ng*kr+k-kr, col, a*surv[off])
			} else {
				break
			}
		}
	}

	kept := c.opts[:0]
	demand := make([][]int, len(c.jobs))
	for _, o := range c.opts {
		pj := c.jobs[o.job]
		set := &pj.sets[o.set]
		k := pj.p.Job.Nodes
		ks := checkOf[o.start]
		room, total := 0, 0.0
		for _, g := range set.groups {
			room += roomOf(c.C[g*nk+ks])
			total += c.C[g*nk+ks]
		}
		if (ks < kr && room < k) || roomOf(total) < k {
			continue
		}
		o.x = len(m.Vars)
		m.Vars = append(m.Vars, solver.Var{Kind: solver.Binary, Upper: 1, Obj: o.util})
		switch {
		case ks >= kr:
			cover(o.x, -1, o.start, float64(k), set.surv, true)
		case len(set.groups) == 1:
			cover(o.x, set.groups[0], o.start, float64(k), set.surv, true)
		default:
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
				cover(y, g, o.start, 1, set.surv, false)
			}
			idx = append(idx, o.x)
			coef = append(coef, -float64(k))
			m.AddRow("", idx, coef, solver.EQ, 0)
			cover(o.x, -1, o.start, float64(k), set.surv, true)
		}
		if !set.all {
			for r, R := range sets {
				if !subset(set.groups, R) {
					continue
				}
				for j, k := range setChecks {
					if k < ks {
						continue
					}
					off := c.checks[k] - o.start
					if off >= len(set.surv) {
						break
					}
					ent.add(setBase+r*len(setChecks)+j, o.x, float64(pj.p.Job.Nodes)*set.surv[off])
				}
			}
		}
		demand[o.job] = append(demand[o.job], o.x)
		kept = append(kept, o)
	}
	c.opts = kept
	if len(c.opts) == 0 {
		c.dec = &planner.Decision{}
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
		n := 0
		for g, ng := range kp.nodes {
			n += ng
			for k := 0; k < kr && ng > 0; k++ {
				if r := kp.rrc[k]; k == 0 || r >= CoefTol {
					ent.add(g*kr+k, kp.z, float64(ng)*math.Max(r, b2f(k == 0)))
				}
			}
		}
		for k := kr; k < nk && n > 0; k++ {
			if r := kp.rrc[k]; r >= CoefTol || k == 0 {
				ent.add(ng*kr+k-kr, kp.z, float64(n)*math.Max(r, b2f(k == 0)))
			}
		}
		for r, R := range sets {
			nr := 0
			for _, g := range R {
				nr += kp.nodes[g]
			}
			for j, k := range setChecks {
				if rr := kp.rrc[k]; nr > 0 && rr >= CoefTol {
					ent.add(setBase+r*len(setChecks)+j, kp.z, float64(nr)*rr)
				}
			}
		}
	}
	idx, coef, start := ent.byRow(nrow)
	for i := range nrow {
		ri, rc := idx[start[i]:start[i+1]], coef[start[i]:start[i+1]]
		if len(ri) == 0 {
			continue
		}
		// A row whose largest activity stays within C cannot bind.
		most := 0.0
		for e, col := range ri {
			most += rc[e] * m.Vars[col].Upper
		}
		if most <= rhs[i]+capTol {
			continue
		}
		m.AddRow("", ri, rc, solver.LE, rhs[i])
	}
	if !c.s.cfg.NoReserve {
		if err := c.reserveRows(m, checkOf); err != nil {
			return err
		}
	}
	breakTies(m)
	c.m = m
	return nil
}

// tieBreak is the size of the objective perturbation of breakTies, relative
// to the largest objective coefficient.
const tieBreak = 1e-7

// breakTies adds to every column's objective a tiny deterministic amount,
// tieBreak·max|obj|·u_j with u_j in [0, 1) a hash of the column index. Many
// plans tie exactly otherwise: best-effort jobs at the same floor value,
// counts y spread over racks of equal room, jobs whose starts are all worth
// their full value. A solver may then return any of the tied answers, and
// which one can depend on timing (a portfolio keeps the first of equal
// incumbents it receives); with distinct objectives the best answer is
// unique. The perturbation is far below any difference between utilities
// the plan cares about (the early bias of one slice is 3·10⁻⁴ of a value).
func breakTies(m *solver.Model) {
	top := 0.0
	for _, v := range m.Vars {
		top = math.Max(top, math.Abs(v.Obj))
	}
	if top == 0 {
		top = 1
	}
	for j := range m.Vars {
		z := uint64(j+1) * 0x9e3779b97f4a7c15 // splitmix64
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		z ^= z >> 31
		m.Vars[j].Obj += tieBreak * top * float64(z>>11) / (1 << 53)
	}
}

// entries collects capacity-row coefficients as (row, column, value)
// triplets and sorts them into rows in one pass (no per-row growth).
type entries struct {
	row  []int32
	col  []int32
	coef []float64
}

func (e *entries) add(row, col int, a float64) {
	e.row = append(e.row, int32(row))
	e.col = append(e.col, int32(col))
	e.coef = append(e.coef, a)
}

// byRow returns the entries grouped by row: row i's columns are
// idx[start[i]:start[i+1]], in the order they were added.
func (e *entries) byRow(nrow int) (idx []int, coef []float64, start []int) {
	start = make([]int, nrow+1)
	for _, r := range e.row {
		start[r+1]++
	}
	for i := range nrow {
		start[i+1] += start[i]
	}
	idx = make([]int, len(e.row))
	coef = make([]float64, len(e.row))
	next := make([]int, nrow)
	copy(next, start[:nrow])
	for n, r := range e.row {
		p := next[r]
		next[r]++
		idx[p], coef[p] = int(e.col[n]), e.coef[n]
	}
	return idx, coef, start
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
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

// setRows returns the distinct preferred sets of the planned jobs that are
// not the whole cluster (as ascending group lists, in first-seen order) and
// the check indices that get a row per set: the start slices from kr on.
// Past slice kr the capacity rows are cluster-wide, so without these rows a
// plan could start a job on its preferred partitions later in nodes that
// will only be free on other partitions; the set row
//
//	Σ_{o: R(o) ⊆ R} k_j·P_o(T > (t − s_o)·q)·x[j,o]
//	  + Σ_i n_i(R)·RRC_i(t)·z_i ≤ Σ_{g∈R} C[g,t]
//
// is the Hall condition of R: what must run inside R fits in R. Jobs
// allowed on all partitions do not appear (they may run outside R).
func (c *cycle) setRows(kr int, checkOf []int) (sets [][]int, checks []int) {
	if c.s.cfg.NoSetRows {
		return nil, nil
	}
	ng := len(c.parts)
	seen := map[string]bool{}
	for _, pj := range c.jobs {
		for _, set := range pj.sets {
			if set.all || len(set.groups) >= ng {
				continue
			}
			key := fmt.Sprint(set.groups)
			if !seen[key] {
				seen[key] = true
				sets = append(sets, set.groups)
			}
		}
	}
	for _, s := range c.starts {
		if k := checkOf[s]; k >= kr {
			checks = append(checks, k)
		}
	}
	return sets, checks
}

// subset reports whether the ascending list a is contained in the
// ascending list b.
func subset(a, b []int) bool {
	i := 0
	for _, v := range b {
		if i < len(a) && a[i] == v {
			i++
		}
	}
	return i == len(a)
}

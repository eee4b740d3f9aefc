package threesigma

import (
	"fmt"

	"github.com/plannerhq/planner/solver"
	"github.com/plannerhq/planner/utility"
	"github.com/plannerhq/planner/workloads"
)

// Reservations: the planned start of an SLO job holds its nodes.
//
// The capacity rows of the model (3Sigma §3.2, §4.3) count every job by
// its expected consumption, and only the options starting now are
// enacted; the rest of the plan is made again at the next cycle. For a
// gang that needs k nodes free at once at its planned start p this is
// optimistic twice: the running jobs leave k nodes free at p in
// expectation only, and every later cycle may give the nodes freed before
// p to jobs started meanwhile (each worth its own value) whose expected
// use at p is fractional. Cycle after cycle the gang's start slips, at a
// cost of CommitPenalty each time, until its deadline has passed (on the
// Google-like workload, seed 1: 7 gangs of 80–196 nodes never started).
//
// EASY backfilling (Mu'alem & Feitelson 2001) avoids this for its head
// job: a job may start now on nodes the head's reservation needs only if
// its requested time ends before the reservation. reserveRows applies that
// rule to the plan. For each SLO job whose last plan starts it at a later
// check p, on the groups G of the set it was planned on, with u_o(p) = 1
// when P(T_o > p·q) ≥ ReserveTol and P(T_o > p·q) otherwise:
//
//	Σ_{o: s_o = 0, other jobs} k_o·u_o(p)·x_o + Σ_i n_i(G)·RRC_i(p)·z_i
//	  ≤ max(0, Σ_{g∈G} Cres[g,p] − k)
//
// where Cres counts a non-preemptible running job whole at p under the
// same rule (heldFree). The row does not hold the job's own options:
// it may start earlier, or later when the plan chooses (its own rows and
// CommitPenalty price that); what it stops is other jobs started now
// taking the nodes it will need. Running best-effort jobs enter by their
// expected use, as in the capacity rows: they may be preempted for it.
// This departs from §4.3, where every row is in expectation; 3Sigma's
// plan is re-made every cycle and holds nothing.
func (c *cycle) reserveRows(m *solver.Model, checkOf []int) error {
	nk := len(c.checks)
	cres := make([][]float64, nk) // per check: heldFree, made at first use
	var err error
	all := make([]int, len(c.parts))
	for g := range all {
		all[g] = g
	}
	in := make([]bool, len(c.parts))
	for ji, pj := range c.jobs {
		if pj.p.Job.Class != workloads.SLO || !pj.info.hasPlan {
			continue
		}
		p := pj.info.planned - c.abs
		if p < 1 || p >= int64(c.H) {
			continue
		}
		kp := checkOf[p]
		if c.checks[kp] != int(p) {
			continue
		}
		G := all
		if !pj.info.plannedAll {
			if pg := c.prefGroups(pj.p.Job); pg != nil {
				G = pg
			}
		}
		if cres[kp] == nil {
			if cres[kp], err = c.heldFree(kp); err != nil {
				return fmt.Errorf("reservation of job %d: %w", pj.p.Job.ID, err)
			}
		}
		clear(in)
		rhs := -float64(pj.p.Job.Nodes)
		for _, g := range G {
			in[g] = true
			rhs += cres[kp][g]
		}
		var idx []int
		var coef []float64
		for _, o := range c.opts {
			if o.start != 0 || o.job == ji {
				continue
			}
			set := &c.jobs[o.job].sets[o.set]
			if int(p) >= len(set.surv) {
				continue // ends before p (below CoefTol)
			}
			u := set.surv[p]
			if u >= ReserveTol {
				u = 1
			}
			if o.y == nil {
				if in[set.groups[0]] {
					idx = append(idx, o.x)
					coef = append(coef, float64(c.jobs[o.job].p.Job.Nodes)*u)
				}
				continue
			}
			for gi, y := range o.y {
				if y >= 0 && in[set.groups[gi]] {
					idx = append(idx, y)
					coef = append(coef, u)
				}
			}
		}
		if len(idx) == 0 {
			continue
		}
		for i := range c.keeps {
			kv := &c.keeps[i]
			n := 0
			for _, g := range G {
				n += kv.nodes[g]
			}
			if r := kv.rrc[kp]; n > 0 && r >= CoefTol {
				idx = append(idx, kv.z)
				coef = append(coef, float64(n)*r)
			}
		}
		m.AddRow("", idx, coef, solver.LE, max(0, rhs))
	}
	return nil
}

// heldFree is Cres at check k, per group: the group's nodes less those of
// the non-preemptible running jobs, each counted whole while
// P(still running at k | elapsed) ≥ ReserveTol and by that probability
// after.
func (c *cycle) heldFree(k int) ([]float64, error) {
	free := make([]float64, len(c.parts))
	for g, n := range c.gNodes {
		free[g] = float64(n)
	}
	at := c.checkT[k : k+1]
	u := make([]float64, 1)
	for _, d := range c.fixed {
		if _, err := utility.RRC(d.Dist, d.Elapsed, at, u); err != nil {
			return nil, err
		}
		if u[0] >= ReserveTol {
			u[0] = 1
		}
		for g, n := range d.Nodes {
			free[g] -= float64(n) * u[0]
		}
	}
	return free, nil
}

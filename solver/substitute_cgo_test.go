//go:build cgo

package solver

import (
	"context"
	"math"
	"testing"
)

// TestSubstitutedLPSameOptimum solves the LP of each rack-shaped enum case
// (as built, without its demand rows so that x ≤ 1 needs rows of its own,
// and as a minimisation) directly and with the options substituted out:
// the optima agree and the answer mapped back meets every row of the
// model.
func TestSubstitutedLPSameOptimum(t *testing.T) {
	n := 0
	for _, c := range enumCases(200) {
		h := newHeuristic(c.m)
		if !h.simple || h.substitute(c.m) == nil {
			continue
		}
		for _, variant := range []string{"as built", "no demand rows", "minimise"} {
			m := substituteVariant(c.m, variant)
			h := newHeuristic(m)
			sub := h.substitute(m)
			if sub == nil {
				t.Fatalf("%s %s: nothing substituted", c.name, variant)
			}
			direct, err := relaxCLP(context.Background(), m, nil)
			if err != nil || !direct.Optimal {
				t.Fatalf("%s %s: direct LP %+v %v", c.name, variant, direct, err)
			}
			lp, err := relaxCLP(context.Background(), sub.lp, nil)
			if err != nil || !lp.Optimal {
				t.Fatalf("%s %s: substituted LP %+v %v", c.name, variant, lp, err)
			}
			x := sub.expand(h, m, lp.X)
			if got := m.ObjectiveValue(x); math.Abs(got-direct.Objective) > 1e-7*math.Max(1, math.Abs(direct.Objective)) {
				t.Errorf("%s %s: substituted optimum %v, direct %v", c.name, variant, got, direct.Objective)
			}
			if err := lpFeasible(m, x); err != "" {
				t.Errorf("%s %s: mapped-back answer: %s", c.name, variant, err)
			}
			n++
		}
	}
	if n < 50 {
		t.Fatalf("only %d substituted LPs compared", n)
	}
}

// substituteVariant returns m as built, without its demand rows (≤ 1 rows
// of binaries only), or negated into a minimisation.
func substituteVariant(m *Model, variant string) *Model {
	v := *m
	switch variant {
	case "no demand rows":
		v.Rows = nil
		for _, r := range m.Rows {
			demand := r.Sense == LE && r.RHS == 1
			for k, j := range r.Index {
				demand = demand && r.Coef[k] == 1 && m.Vars[j].Kind == Binary
			}
			if !demand {
				v.Rows = append(v.Rows, r)
			}
		}
	case "minimise":
		v.Maximize = false
		v.Vars = append([]Var(nil), m.Vars...)
		for j := range v.Vars {
			v.Vars[j].Obj = -v.Vars[j].Obj
		}
	}
	return &v
}

// lpFeasible returns a description of the first row or bound x violates
// (integrality aside), or "".
func lpFeasible(m *Model, x []float64) string {
	const tol = 1e-7
	for j, v := range m.Vars {
		if x[j] < v.Lower-tol || x[j] > v.Upper+tol {
			return m.VarName(j) + " outside its bounds"
		}
	}
	for i, r := range m.Rows {
		a := 0.0
		for k, j := range r.Index {
			a += r.Coef[k] * x[j]
		}
		if (r.Sense != GE && a > r.RHS+tol) || (r.Sense != LE && a < r.RHS-tol) {
			return m.RowName(i) + " violated"
		}
	}
	return ""
}

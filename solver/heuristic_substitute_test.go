package solver

import (
	"math"
	"testing"
)

// substituteModel is one job with two options on two racks:
//
//	max 6·x0 + 4·x1
//	y00 + y01 − 3·x0 = 0, y10 + y11 − 3·x1 = 0   (links, k = 3)
//	x0 + x1 ≤ 1                                   (demand, when withDemand)
//	y00 + y10 ≤ 2, y01 + 0.5·y11 ≤ 2              (racks)
//	y ∈ [0, 2] integer
func substituteModel(withDemand bool) *Model {
	m := &Model{Maximize: true}
	x0 := m.AddVar("x0", Binary, 0, 1, 6)
	y00 := m.AddVar("y00", Integer, 0, 2, 0)
	y01 := m.AddVar("y01", Integer, 0, 2, 0)
	x1 := m.AddVar("x1", Binary, 0, 1, 4)
	y10 := m.AddVar("y10", Integer, 0, 2, 0)
	y11 := m.AddVar("y11", Integer, 0, 2, 0)
	m.AddRow("link0", []int{y00, y01, x0}, []float64{1, 1, -3}, EQ, 0)
	m.AddRow("link1", []int{y10, y11, x1}, []float64{1, 1, -3}, EQ, 0)
	if withDemand {
		m.AddRow("demand", []int{x0, x1}, []float64{1, 1}, LE, 1)
	}
	m.AddRow("rack0", []int{y00, y10}, []float64{1, 1}, LE, 2)
	m.AddRow("rack1", []int{y01, y11}, []float64{1, 0.5}, LE, 2)
	return m
}

func TestSubstituteShape(t *testing.T) {
	for _, withDemand := range []bool{true, false} {
		m := substituteModel(withDemand)
		h := newHeuristic(m)
		if !h.simple {
			t.Fatal("model not recognised as simple")
		}
		sub := h.substitute(m)
		if sub == nil {
			t.Fatal("nothing substituted")
		}
		lp := sub.lp
		if len(lp.Vars) != 4 {
			t.Fatalf("demand %v: %d columns, want the 4 counts", withDemand, len(lp.Vars))
		}
		// Each count carries its option's objective over k: 6/3 and 4/3.
		for j, want := range map[int]float64{1: 2, 2: 2, 4: 4.0 / 3, 5: 4.0 / 3} {
			if got := lp.Vars[sub.col[j]].Obj; math.Abs(got-want) > 1e-12 {
				t.Errorf("demand %v: objective of %s is %v, want %v", withDemand, m.VarName(j), got, want)
			}
		}
		names := map[string]Row{}
		for _, r := range lp.Rows {
			names[r.Name] = r
		}
		for _, gone := range []string{"link0", "link1"} {
			if _, ok := names[gone]; ok {
				t.Errorf("demand %v: link row %s kept", withDemand, gone)
			}
		}
		_, up0 := names["link0_upper"]
		if withDemand {
			// The demand row, now on the counts: each count at 1/3.
			d := names["demand"]
			if len(d.Index) != 4 || math.Abs(d.Coef[0]-1.0/3) > 1e-12 {
				t.Errorf("demand row %+v", d)
			}
			if up0 {
				t.Error("x ≤ 1 added as a row although the demand row implies it")
			}
		} else if !up0 || names["link0_upper"].RHS != 3 {
			t.Errorf("no demand row: want the row y00 + y01 ≤ 3, rows %v", names)
		}
		// Back to the model's columns: x = (y·a)/k.
		y := make([]float64, len(lp.Vars))
		y[sub.col[1]], y[sub.col[2]] = 2, 1
		x := sub.expand(h, m, y)
		if x[0] != 1 || x[3] != 0 || x[1] != 2 || x[2] != 1 {
			t.Errorf("expand: %v", x)
		}
	}
}

// TestSubstituteFixedOption: an option whose upper bound is 0 (as the
// reduced model fixes those that never fit) leaves the LP with its counts,
// and maps back to zero.
func TestSubstituteFixedOption(t *testing.T) {
	m := substituteModel(true)
	h := newHeuristic(m)
	r := *m
	r.Vars = append([]Var(nil), m.Vars...)
	r.Vars[3].Upper, r.Vars[3].Kind = 0, Integer
	sub := h.substitute(&r)
	if len(sub.lp.Vars) != 2 || sub.col[4] != -1 || sub.col[5] != -1 {
		t.Fatalf("columns %d, map %v: want the fixed option's counts dropped", len(sub.lp.Vars), sub.col)
	}
	x := sub.expand(h, &r, []float64{2, 1})
	if x[3] != 0 || x[4] != 0 || x[5] != 0 || x[0] != 1 {
		t.Errorf("expand: %v", x)
	}
}

// TestSubstituteGeneral: a model that is not simple gets no substitution.
func TestSubstituteGeneral(t *testing.T) {
	m := substituteModel(true)
	m.AddRow("mixed", []int{0, 3}, []float64{1, -1}, LE, 0)
	if sub := newHeuristic(m).substitute(m); sub != nil {
		t.Error("substituted a general model")
	}
}

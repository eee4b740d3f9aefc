package solver

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPackingCopy: the column-major copy of the packing rows lists each
// column's entries in row order with the rows' coefficients (≥ rows
// negated), whether the rows list their columns in increasing order (the
// copy then goes by blocks of copyBlock columns; the model spans several)
// or not.
func TestPackingCopy(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 3*copyBlock + 17
	m := &Model{Maximize: true}
	for j := range n {
		m.AddVar("", Integer, 0, 3, float64(j%7))
	}
	for i := range 40 {
		var idx []int
		var coef []float64
		for j := range n {
			if rng.IntN(4) == 0 {
				idx = append(idx, j)
				coef = append(coef, float64(1+rng.IntN(5))) // a zero would be dropped
			}
		}
		sense, rhs := LE, 10.0
		if i%5 == 0 {
			for k := range coef {
				coef[k] = -coef[k]
			}
			sense, rhs = GE, -10
		}
		m.AddRow("", idx, coef, sense, rhs)
	}
	// The copy by hand: column j's entries, row by row.
	type entry struct {
		row  int32
		coef float64
	}
	want := make([][]entry, n)
	for i, r := range m.Rows {
		sign := 1.0
		if r.Sense == GE {
			sign = -1
		}
		for k, j := range r.Index {
			want[j] = append(want[j], entry{int32(i), sign * r.Coef[k]})
		}
	}
	check := func(name string, m *Model) {
		h := newHeuristic(m)
		for j := range n {
			var got []entry
			for q := h.pStart[j]; q < h.pStart[j+1]; q++ {
				got = append(got, entry{h.pRow[q], h.pCoef[q]})
			}
			if !slices.Equal(got, want[j]) {
				t.Fatalf("%s: column %d: entries %v, want %v", name, j, got, want[j])
			}
		}
	}
	check("rows in column order", m)
	rev := *m
	rev.Rows = make([]Row, len(m.Rows))
	for i, r := range m.Rows {
		r.Index, r.Coef = slices.Clone(r.Index), slices.Clone(r.Coef)
		slices.Reverse(r.Index)
		slices.Reverse(r.Coef)
		rev.Rows[i] = r
	}
	check("rows in reverse order", &rev)
}

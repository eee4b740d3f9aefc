package solver

import (
	"math"
	"testing"
)

// TestCheckFeasibleRowTolerance: a row's tolerance is FeasTol × max(1,
// max_k |a_k x_k|), whatever its sense.
func TestCheckFeasibleRowTolerance(t *testing.T) {
	tests := []struct {
		name  string
		coef  float64 // on x = 1, so the scale is max(1, |coef|)
		sense Sense
		rhs   float64
		ok    bool
	}{
		{"LE within FeasTol", 1, LE, 1 - 0.5e-6, true},
		{"LE beyond FeasTol", 1, LE, 1 - 2e-6, false},
		{"LE within the scaled tolerance", 1000, LE, 1000 - 0.5e-3, true},
		{"LE beyond the scaled tolerance", 1000, LE, 1000 - 2e-3, false},
		{"GE within the scaled tolerance", 1000, GE, 1000 + 0.5e-3, true},
		{"GE beyond the scaled tolerance", 1000, GE, 1000 + 2e-3, false},
		{"EQ within the scaled tolerance", -1000, EQ, -1000 + 0.5e-3, true},
		{"EQ beyond the scaled tolerance", -1000, EQ, -1000 - 2e-3, false},
		{"GE small coefficient", 1e-3, GE, 1e-3 + 0.5e-6, true},
		{"GE small coefficient beyond", 1e-3, GE, 1e-3 + 2e-6, false},
	}
	for _, tc := range tests {
		m := &Model{}
		x := m.AddVar("x", Continuous, 0, math.Inf(1), 0)
		m.AddRow("r", []int{x}, []float64{tc.coef}, tc.sense, tc.rhs)
		if err := m.CheckFeasible([]float64{1}); (err == nil) != tc.ok {
			t.Errorf("%s: CheckFeasible = %v, want ok = %v", tc.name, err, tc.ok)
		}
	}
}

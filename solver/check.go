package solver

import (
	"fmt"
	"math"
)

// FeasTol is the absolute tolerance of CheckFeasible on rows and bounds, and
// IntTol the distance from an integer that still counts as integral. Both match
// the defaults of CBC and lp_solve, so their answers pass unchanged.
const (
	FeasTol = 1e-6
	IntTol  = 1e-6
)

// Validate reports the first structural problem of m: a NaN or infinite
// coefficient, objective or right-hand side (naming the row and column), a
// column index out of range or repeated within a row, mismatched slice
// lengths, or bounds with Lower > Upper. Errors wrap ErrInvalidModel.
func (m *Model) Validate() error {
	for j := range m.Vars {
		v := &m.Vars[j]
		if !finite(v.Obj) {
			return fmt.Errorf("%w: objective coefficient of column %s is %v", ErrInvalidModel, m.VarName(j), v.Obj)
		}
		if math.IsNaN(v.Lower) || math.IsNaN(v.Upper) || math.IsInf(v.Lower, 1) || math.IsInf(v.Upper, -1) {
			return fmt.Errorf("%w: column %s has bounds [%v, %v]", ErrInvalidModel, m.VarName(j), v.Lower, v.Upper)
		}
		if v.Lower > v.Upper {
			return fmt.Errorf("%w: column %s has lower bound %v above upper bound %v", ErrInvalidModel, m.VarName(j), v.Lower, v.Upper)
		}
		if v.Kind < Continuous || v.Kind > Binary {
			return fmt.Errorf("%w: column %s has unknown kind %d", ErrInvalidModel, m.VarName(j), int(v.Kind))
		}
	}
	seen := make([]int, len(m.Vars)) // row index + 1 of the last row naming the column
	for i := range m.Rows {
		r := &m.Rows[i]
		if len(r.Index) != len(r.Coef) {
			return fmt.Errorf("%w: row %s has %d indices but %d coefficients", ErrInvalidModel, m.RowName(i), len(r.Index), len(r.Coef))
		}
		if !finite(r.RHS) {
			return fmt.Errorf("%w: row %s has right-hand side %v", ErrInvalidModel, m.RowName(i), r.RHS)
		}
		if r.Sense < LE || r.Sense > EQ {
			return fmt.Errorf("%w: row %s has unknown sense %d", ErrInvalidModel, m.RowName(i), int(r.Sense))
		}
		for k, j := range r.Index {
			if j < 0 || j >= len(m.Vars) {
				return fmt.Errorf("%w: row %s names column %d, outside [0, %d)", ErrInvalidModel, m.RowName(i), j, len(m.Vars))
			}
			if seen[j] == i+1 {
				return fmt.Errorf("%w: row %s names column %s twice", ErrInvalidModel, m.RowName(i), m.VarName(j))
			}
			seen[j] = i + 1
			if !finite(r.Coef[k]) {
				return fmt.Errorf("%w: coefficient of column %s in row %s is %v", ErrInvalidModel, m.VarName(j), m.RowName(i), r.Coef[k])
			}
		}
	}
	return nil
}

// CheckFeasible returns nil when x satisfies every bound, integrality and row
// of m within FeasTol / IntTol, and otherwise an error naming the first
// violated column or row. It is run on every answer before a backend returns it.
func (m *Model) CheckFeasible(x []float64) error {
	if len(x) != len(m.Vars) {
		return fmt.Errorf("solver: answer has %d values for %d columns", len(x), len(m.Vars))
	}
	for j := range m.Vars {
		v, xj := &m.Vars[j], x[j]
		if !finite(xj) {
			return fmt.Errorf("solver: column %s has value %v", m.VarName(j), xj)
		}
		if xj < v.Lower-FeasTol || xj > v.Upper+FeasTol {
			return fmt.Errorf("solver: column %s = %v outside [%v, %v]", m.VarName(j), xj, v.Lower, v.Upper)
		}
		if v.Kind != Continuous && math.Abs(xj-math.Round(xj)) > IntTol {
			return fmt.Errorf("solver: integer column %s = %v", m.VarName(j), xj)
		}
	}
	for i := range m.Rows {
		r := &m.Rows[i]
		coef := r.Coef[:len(r.Index)]
		lhs := 0.0
		for k, j := range r.Index {
			lhs += coef[k] * x[j]
		}
		// The tolerance is FeasTol × max(1, max_k |a_k x_k|); the scale is
		// only needed when the row fails at the smallest tolerance, FeasTol
		// (a check of 1.1M nonzeros is on the critical path of every solve).
		if rowViolated(r, lhs, FeasTol) {
			scale := 1.0
			for k, j := range r.Index {
				scale = math.Max(scale, math.Abs(coef[k]*x[j]))
			}
			if rowViolated(r, lhs, FeasTol*scale) {
				return fmt.Errorf("solver: row %s violated: lhs %v, rhs %v", m.RowName(i), lhs, r.RHS)
			}
		}
	}
	return nil
}

// rowViolated reports whether lhs misses row r's right-hand side by more than tol.
func rowViolated(r *Row, lhs, tol float64) bool {
	switch r.Sense {
	case LE:
		return lhs > r.RHS+tol
	case GE:
		return lhs < r.RHS-tol
	}
	return math.Abs(lhs-r.RHS) > tol
}

// Snap rounds the integer and binary columns of x to the nearest integer and
// clamps every column into its bounds, in place. Backends call it before
// CheckFeasible so that 0.9999999 from a simplex counts as 1.
func (m *Model) Snap(x []float64) {
	for j := range m.Vars {
		v := &m.Vars[j]
		if v.Kind != Continuous {
			x[j] = math.Round(x[j])
		}
		x[j] = math.Min(math.Max(x[j], v.Lower), v.Upper)
	}
}

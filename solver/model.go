package solver

import (
	"fmt"
	"math"
)

// VarKind is the domain of a variable.
type VarKind int

const (
	Continuous VarKind = iota // real in [Lower, Upper]
	Integer                   // integer in [Lower, Upper]
	Binary                    // 0 or 1 (bounds are forced to [0, 1])
)

// Sense is the relation of a row to its right-hand side.
type Sense int

const (
	LE Sense = iota // Σ a·x ≤ rhs
	GE              // Σ a·x ≥ rhs
	EQ              // Σ a·x = rhs
)

// Var is one column of a Model.
type Var struct {
	Name         string // may be empty; exports invent "x<index>"
	Kind         VarKind
	Lower, Upper float64 // Upper may be +Inf for Continuous and Integer
	Obj          float64 // objective coefficient
}

// Row is one sparse constraint Σ Coef[k]·x[Index[k]] (Sense) RHS.
// Index entries are distinct column indices.
type Row struct {
	Name  string
	Index []int
	Coef  []float64
	Sense Sense
	RHS   float64
}

// Model is a solver-neutral mixed-integer linear programme:
//
//	max (or min) Σ Obj[j]·x[j]  subject to the rows and the bounds.
//
// Build it with AddVar and AddRow; backends never modify it.
type Model struct {
	Name     string
	Maximize bool
	Vars     []Var
	Rows     []Row
}

// AddVar appends a column and returns its index. Binary variables get bounds [0, 1].
func (m *Model) AddVar(name string, kind VarKind, lower, upper, obj float64) int {
	if kind == Binary {
		lower, upper = 0, 1
	}
	m.Vars = append(m.Vars, Var{Name: name, Kind: kind, Lower: lower, Upper: upper, Obj: obj})
	return len(m.Vars) - 1
}

// AddRow appends a row and returns its index. The slices are kept, not copied.
func (m *Model) AddRow(name string, index []int, coef []float64, sense Sense, rhs float64) int {
	m.Rows = append(m.Rows, Row{Name: name, Index: index, Coef: coef, Sense: sense, RHS: rhs})
	return len(m.Rows) - 1
}

// NumNonzeros returns the number of stored row coefficients.
func (m *Model) NumNonzeros() int {
	n := 0
	for i := range m.Rows {
		n += len(m.Rows[i].Index)
	}
	return n
}

// ObjectiveValue returns Σ Obj[j]·x[j].
func (m *Model) ObjectiveValue(x []float64) float64 {
	s := 0.0
	for j := range m.Vars {
		s += m.Vars[j].Obj * x[j]
	}
	return s
}

// VarName returns the variable's name, or "x<j>" when it has none.
func (m *Model) VarName(j int) string {
	if n := m.Vars[j].Name; n != "" {
		return n
	}
	return fmt.Sprintf("x%d", j)
}

// RowName returns the row's name, or "r<i>" when it has none.
func (m *Model) RowName(i int) string {
	if n := m.Rows[i].Name; n != "" {
		return n
	}
	return fmt.Sprintf("r%d", i)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

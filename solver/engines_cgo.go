//go:build cgo

package solver

/*
#include <stdlib.h>
#include <string.h>
*/
import "C"

import (
	"context"
	"math"
	"time"
	"unsafe"
)

// cgoBuild reports whether this binary links the C libraries.
const cgoBuild = true

// cgoModel is a Model copied into C memory in the layout the COIN-OR
// libraries load: the matrix column-major (compressed sparse columns, row
// indices ascending within a column, exact zeros dropped), column and row
// bounds with ±Inf replaced by ±DBL_MAX (which CLP, CBC and lp_solve all read
// as infinite) and one integrality flag per column. All arrays live in C
// memory, so they may be handed to C freely; free releases them.
type cgoModel struct {
	ncols, nrows, nnz, nint int

	start *C.int    // ncols+1 column starts
	index *C.int    // nnz row indices
	value *C.double // nnz coefficients
	collb *C.double // ncols
	colub *C.double // ncols
	obj   *C.double // ncols
	rowlb *C.double // nrows
	rowub *C.double // nrows
	isint *C.char   // ncols: 1 for Integer and Binary columns (0 when relaxed)

	ptrs []unsafe.Pointer
}

// cgoInf is the "infinite" bound value handed to the C libraries.
const cgoInf = math.MaxFloat64

func cgoBound(v float64) C.double {
	switch {
	case math.IsInf(v, 1) || v >= cgoInf:
		return C.double(cgoInf)
	case math.IsInf(v, -1) || v <= -cgoInf:
		return C.double(-cgoInf)
	}
	return C.double(v)
}

// cgoColBounds returns the bounds of column j as the engines load them: the
// declared bounds, intersected with [0, 1] for Binary columns.
func cgoColBounds(v *Var) (lo, hi float64) {
	lo, hi = v.Lower, v.Upper
	if v.Kind == Binary {
		lo, hi = math.Max(lo, 0), math.Min(hi, 1)
	}
	return lo, hi
}

func cgoAlloc[T any](c *cgoModel, n int) (*T, []T) {
	var zero T
	size := C.size_t(n) * C.size_t(unsafe.Sizeof(zero))
	if size == 0 {
		size = C.size_t(unsafe.Sizeof(zero)) // malloc(0) may return NULL
	}
	p := C.calloc(1, size)
	if p == nil {
		panic("solver: out of C memory")
	}
	c.ptrs = append(c.ptrs, p)
	return (*T)(p), unsafe.Slice((*T)(p), n)
}

// newCgoModel copies m into C memory. With relax set every column is loaded as
// continuous (integrality dropped, bounds kept).
func newCgoModel(m *Model, relax bool) *cgoModel {
	c := &cgoModel{ncols: len(m.Vars), nrows: len(m.Rows)}
	// Count nonzeros per column.
	count := make([]int, c.ncols+1)
	for i := range m.Rows {
		r := &m.Rows[i]
		for k, j := range r.Index {
			if r.Coef[k] != 0 {
				count[j+1]++
			}
		}
	}
	for j := 0; j < c.ncols; j++ {
		count[j+1] += count[j]
	}
	c.nnz = count[c.ncols]

	var start, index []C.int
	var value, collb, colub, obj, rowlb, rowub []C.double
	var isint []C.char
	c.start, start = cgoAlloc[C.int](c, c.ncols+1)
	c.index, index = cgoAlloc[C.int](c, c.nnz)
	c.value, value = cgoAlloc[C.double](c, c.nnz)
	c.collb, collb = cgoAlloc[C.double](c, c.ncols)
	c.colub, colub = cgoAlloc[C.double](c, c.ncols)
	c.obj, obj = cgoAlloc[C.double](c, c.ncols)
	c.rowlb, rowlb = cgoAlloc[C.double](c, c.nrows)
	c.rowub, rowub = cgoAlloc[C.double](c, c.nrows)
	c.isint, isint = cgoAlloc[C.char](c, c.ncols)

	for j := 0; j <= c.ncols; j++ {
		start[j] = C.int(count[j])
	}
	next := count[:c.ncols] // reuse: next free slot per column
	for i := range m.Rows {
		r := &m.Rows[i]
		for k, j := range r.Index {
			if a := r.Coef[k]; a != 0 {
				p := next[j]
				index[p] = C.int(i)
				value[p] = C.double(a)
				next[j]++
			}
		}
		switch r.Sense {
		case LE:
			rowlb[i], rowub[i] = C.double(-cgoInf), cgoBound(r.RHS)
		case GE:
			rowlb[i], rowub[i] = cgoBound(r.RHS), C.double(cgoInf)
		default:
			rowlb[i], rowub[i] = cgoBound(r.RHS), cgoBound(r.RHS)
		}
	}
	for j := range m.Vars {
		v := &m.Vars[j]
		lo, hi := cgoColBounds(v)
		collb[j], colub[j] = cgoBound(lo), cgoBound(hi)
		obj[j] = C.double(v.Obj)
		if v.Kind != Continuous && !relax {
			isint[j] = 1
			c.nint++
		}
	}
	return c
}

func (c *cgoModel) free() {
	for _, p := range c.ptrs {
		C.free(p)
	}
	c.ptrs = nil
}

// cgoTrivialSolve answers a model without columns: every row reads 0 (op) RHS,
// so it is either optimal with the empty answer or infeasible. The C
// libraries are not trusted with zero columns.
func cgoTrivialSolve(m *Model) *Result {
	x := []float64{}
	if err := m.CheckFeasible(x); err != nil {
		return &Result{Status: Infeasible, Bound: math.NaN(), Gap: math.NaN()}
	}
	return &Result{Status: Optimal, X: x, Objective: 0, Bound: 0, Gap: 0}
}

// cgoTrivialResult is cgoTrivialSolve reporting its answer through inc.
func cgoTrivialResult(m *Model, inc func(x []float64)) *Result {
	r := cgoTrivialSolve(m)
	if r.X != nil && inc != nil {
		inc([]float64{})
	}
	return r
}

// cgoFinish snaps x (a fresh copy owned by the caller), checks it, and
// fills Status, X, Objective and Gap. It returns false when the answer fails
// CheckFeasible after Snap; the caller then reports no solution.
func cgoFinish(m *Model, r *Result, x []float64, optimal bool) bool {
	m.Snap(x)
	if m.CheckFeasible(x) != nil {
		return false
	}
	r.X = x
	r.Objective = m.ObjectiveValue(x)
	r.Status = Feasible
	if optimal {
		r.Status = Optimal
	}
	r.Gap = cgoGap(r.Objective, r.Bound)
	return true
}

func cgoGap(obj, bound float64) float64 {
	if math.IsNaN(bound) || math.IsInf(bound, 0) {
		return math.NaN()
	}
	return math.Abs(bound-obj) / math.Max(math.Abs(obj), 1e-9)
}

// cgoBetter reports whether objective a is strictly better than b in m's sense.
func cgoBetter(m *Model, a, b float64) bool {
	if m.Maximize {
		return a > b
	}
	return a < b
}

// cgoFeasibleStart returns a snapped copy of s.Start when it is a feasible
// answer of m, and nil otherwise.
func cgoFeasibleStart(m *Model, s *Settings) []float64 {
	if s == nil || len(s.Start) != len(m.Vars) {
		return nil
	}
	x := append([]float64(nil), s.Start...)
	m.Snap(x)
	if m.CheckFeasible(x) != nil {
		return nil
	}
	return x
}

// cgoTimeLimit returns the wall-clock budget of a solve: s.TimeLimit, cut
// to the context's deadline; zero means none.
func cgoTimeLimit(ctx context.Context, s *Settings) time.Duration {
	limit := s.TimeLimit
	if dl, ok := ctx.Deadline(); ok {
		if rem := wallUntil(dl); limit <= 0 || rem < limit {
			limit = max(rem, time.Millisecond)
		}
	}
	return limit
}

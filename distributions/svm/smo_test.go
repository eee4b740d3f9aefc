package svm

import (
	"math"
	"testing"
)

// kkt returns the maximal violation m(α) − M(α) of the dual's optimality
// conditions (Chang & Lin eq. 4.6), recomputing ∇ = Qα + p from scratch
// with Q rounded to float32 as the solver stores it, the residual |yᵀα|
// and the worst |y_t∇_t − ρ| over the free variables.
func kkt(ds *dataset, k kernelFunc, index []int, y []int8, p []float64, c float64, r smoResult) (viol, sum, free float64) {
	xsq := make([]float64, ds.n)
	for i := range xsq {
		xsq[i] = dot(ds.row(i), ds.row(i))
	}
	l := len(y)
	grad := append([]float64(nil), p...)
	for s := range l {
		for t := range l {
			q := float64(float32(k.train(ds, xsq, index[s], index[t])))
			grad[s] += float64(y[s]) * float64(y[t]) * q * r.alpha[t]
		}
	}
	up, low := math.Inf(-1), math.Inf(1) // max over I_up, min over I_low of −y∇
	for t := range l {
		a, v := r.alpha[t], -float64(y[t])*grad[t]
		sum += float64(y[t]) * a
		if (y[t] == 1 && a < c) || (y[t] == -1 && a > 0) {
			up = max(up, v)
		}
		if (y[t] == 1 && a > 0) || (y[t] == -1 && a < c) {
			low = min(low, v)
		}
		if a > 0 && a < c {
			free = max(free, math.Abs(float64(y[t])*grad[t]-r.rho))
		}
	}
	return up - low, math.Abs(sum), free
}

func svcDual(ds *dataset, y []float64) ([]int, []int8, []float64) {
	index := make([]int, ds.n)
	sign := make([]int8, ds.n)
	p := make([]float64, ds.n)
	for i := range index {
		index[i], p[i], sign[i] = i, -1, int8(math.Copysign(1, y[i]))
	}
	return index, sign, p
}

// The Go solver stops where libsvm's does: the violation is below Tol, the
// equality constraint holds, the box holds, and ρ is y∇ of the free
// variables.
func TestSMOSatisfiesKKT(t *testing.T) {
	for _, k := range []Kernel{Linear, RBF, Sigmoid} {
		for _, c := range []float64{0.5, 50} {
			for _, shrink := range []bool{true, false} {
				x, yb := classData(11, 250, 3)
				ds := scaled(&Scaler{Shift: make([]float64, 3), Scale: []float64{1, 1, 1}}, x, nil)
				y := make([]float64, len(yb))
				for i, v := range yb {
					y[i] = -1
					if v {
						y[i] = 1
					}
				}
				kf := kernelFunc{kind: k, gamma: 0.3, coef0: -0.5}
				index, sign, p := svcDual(ds, y)
				const tol = 1e-4
				r := solveSMO(newQMatrix(ds, kf, index, 100), index, sign, p, c, c, tol, shrink)
				viol, sum, free := kkt(ds, kf, index, sign, p, c, r)
				for _, a := range r.alpha {
					if a < 0 || a > c {
						t.Fatalf("%v C=%v: α = %v outside [0, C]", k, c, a)
					}
				}
				if viol > tol*(1+1e-6) || sum > 1e-9*c*float64(ds.n) || free > tol {
					t.Errorf("%v C=%v shrink=%v: violation %.3g, |yᵀα| %.3g, free-ρ %.3g", k, c, shrink, viol, sum, free)
				}
			}
		}
	}
}

// A cache of two rows recomputes what a full cache keeps, value for value,
// so the path and the answer are identical; shrinking changes the path but
// not the optimum beyond the tolerance.
func TestSMOCacheAndShrinking(t *testing.T) {
	x, yr := regData(12, 300, 4)
	ds := scaled(&Scaler{Shift: make([]float64, 4), Scale: []float64{1, 1, 1, 1}}, x, nil)
	q := DefaultParams()
	q.Gamma, q.C = 0.25, 10
	full := solveGo(taskSVR, ds, yr, q)
	q.CacheMB = 1e-9 // two rows
	tiny := solveGo(taskSVR, ds, yr, q)
	if full.rho != tiny.rho || len(full.coef) != len(tiny.coef) {
		t.Fatalf("two-row cache: ρ %v, %d SVs; full cache: ρ %v, %d SVs", tiny.rho, len(tiny.coef), full.rho, len(full.coef))
	}
	for i := range full.coef {
		if full.coef[i] != tiny.coef[i] || full.sv[i] != tiny.sv[i] {
			t.Fatalf("support vector %d differs", i)
		}
	}
	q.CacheMB, q.Shrinking = 100, false
	plain := solveGo(taskSVR, ds, yr, q)
	kf := kernelFunc{kind: RBF, gamma: q.Gamma}
	ef, ep := full.expansion(kf, ds), plain.expansion(kf, ds)
	for i := range ds.n {
		if d := math.Abs(ef.value(ds.row(i)) - ep.value(ds.row(i))); d > 10*q.Tol {
			t.Errorf("sample %d: shrinking changes f by %v", i, d)
		}
	}
}

func TestRowCacheEvictsLeastRecent(t *testing.T) {
	computed := []int{}
	c := newRowCache(5, 4*5*3/float64(1<<20), func(r int, dst []float32) {
		computed = append(computed, r)
		for j := range dst {
			dst[j] = float32(10*r + j)
		}
	})
	for _, r := range []int{0, 1, 2, 0, 3, 1, 0} { // capacity 3
		if got := c.get(r); got[4] != float32(10*r+4) {
			t.Fatalf("row %d holds %v", r, got)
		}
	}
	// 0, 1, 2 computed; 0 hit; 3 evicts 1; 1 evicts 2; 0 hit.
	want := []int{0, 1, 2, 3, 1}
	if len(computed) != len(want) {
		t.Fatalf("computed %v, want %v", computed, want)
	}
	for i := range want {
		if computed[i] != want[i] {
			t.Fatalf("computed %v, want %v", computed, want)
		}
	}
}

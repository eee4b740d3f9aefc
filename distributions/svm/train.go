package svm

import (
	"fmt"
	"math"
)

// task is the dual a training solves.
type task int

const (
	taskSVC task = iota // C-SVC, labels ±1
	taskSVR             // ε-SVR, real targets
)

// solved is a trained dual: the support vectors as rows of the dataset it
// was trained on, their coefficients and ρ.
type solved struct {
	sv   []int
	coef []float64
	rho  float64
}

// TrainClassifier fits a C-SVC separating the samples with y true (the
// positive class) from the others. It solves
//
//	min_{w,b,ξ} ½‖w‖² + C Σ_i ξ_i  s.t. y_i(w·φ(z_i) + b) ≥ 1 − ξ_i, ξ ≥ 0
//
// on the scaled vectors z = scaler(x) through its dual (Chang & Lin §2.1).
// A training set of one class gives the constant model of that class, as
// libsvm does. Errors name the bad input; nil p means DefaultParams().
func TrainClassifier(x []Vector, y []bool, p *Params) (*Classifier, error) {
	d, err := checkVectors(x)
	if err != nil {
		return nil, err
	}
	if len(y) != len(x) {
		return nil, fmt.Errorf("svm: %d labels for %d samples", len(y), len(x))
	}
	q, err := p.resolve(d)
	if err != nil {
		return nil, err
	}
	sc, err := FitScaler(q.Scaling, x)
	if err != nil {
		return nil, err
	}
	// Positives first, as libsvm orders a ±1 problem (svm_group_classes),
	// so both backends see the same sequence.
	order := make([]int, 0, len(x))
	for i, v := range y {
		if v {
			order = append(order, i)
		}
	}
	npos := len(order)
	for i, v := range y {
		if !v {
			order = append(order, i)
		}
	}
	ds := scaled(sc, x, order)
	k := kernelFunc{kind: q.Kernel, gamma: q.Gamma, coef0: q.Coef0}
	m := model{scaler: sc, params: q}
	if npos == 0 || npos == len(x) {
		rho := 1.0 // f ≡ −1
		if npos > 0 {
			rho = -1
		}
		m.e = newExpansion(k, d, nil, nil, rho)
		return &Classifier{m: m}, nil
	}
	labels := make([]float64, len(x))
	for i := range labels {
		labels[i] = -1
		if i < npos {
			labels[i] = 1
		}
	}
	s, err := solve(taskSVC, ds, labels, q)
	if err != nil {
		return nil, err
	}
	m.e = s.expansion(k, ds)
	return &Classifier{m: m}, nil
}

// TrainRegressor fits an ε-SVR to the targets y (finite, in any unit). It
// solves
//
//	min ½‖w‖² + C Σ_i (ξ_i + ξ*_i)
//	s.t. −ε − ξ*_i ≤ w·φ(z_i) + b − y_i ≤ ε + ξ_i, ξ, ξ* ≥ 0
//
// through its dual (Chang & Lin §2.3) with ε = Params.Epsilon. Errors name
// the bad input; nil p means DefaultParams().
func TrainRegressor(x []Vector, y []float64, p *Params) (*Regressor, error) {
	d, err := checkVectors(x)
	if err != nil {
		return nil, err
	}
	if len(y) != len(x) {
		return nil, fmt.Errorf("svm: %d targets for %d samples", len(y), len(x))
	}
	for i, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("svm: target %d is %v, want a finite number", i, v)
		}
	}
	q, err := p.resolve(d)
	if err != nil {
		return nil, err
	}
	sc, err := FitScaler(q.Scaling, x)
	if err != nil {
		return nil, err
	}
	ds := scaled(sc, x, nil)
	s, err := solve(taskSVR, ds, y, q)
	if err != nil {
		return nil, err
	}
	k := kernelFunc{kind: q.Kernel, gamma: q.Gamma, coef0: q.Coef0}
	return &Regressor{m: model{scaler: sc, params: q, e: s.expansion(k, ds)}}, nil
}

// scaled returns the rows of x in order (all when order is nil), scaled.
func scaled(sc *Scaler, x []Vector, order []int) *dataset {
	d := sc.Features()
	n := len(x)
	if order != nil {
		n = len(order)
	}
	ds := &dataset{n: n, d: d, x: make([]float64, n*d)}
	for r := range n {
		i := r
		if order != nil {
			i = order[r]
		}
		sc.applyTo(ds.row(r), x[i])
	}
	return ds
}

// solve trains the dual of t on ds with targets y (±1 for taskSVC) on the
// backend q names.
func solve(t task, ds *dataset, y []float64, q Params) (solved, error) {
	if q.Backend == LibSVM {
		s, _, err := solveLibsvm(t, ds, y, q, nil)
		return s, err
	}
	return solveGo(t, ds, y, q), nil
}

// solveGo is solve on the Go solver, set up as libsvm's solve_c_svc and
// solve_epsilon_svr set up theirs.
func solveGo(t task, ds *dataset, y []float64, q Params) solved {
	k := kernelFunc{kind: q.Kernel, gamma: q.Gamma, coef0: q.Coef0}
	n := ds.n
	var s solved
	if t == taskSVC {
		index := make([]int, n)
		sign := make([]int8, n)
		p := make([]float64, n)
		for i := range n {
			index[i], p[i], sign[i] = i, -1, 1
			if y[i] < 0 {
				sign[i] = -1
			}
		}
		r := solveSMO(newQMatrix(ds, k, index, q.CacheMB), index, sign, p, q.C*q.ClassWeight, q.C, q.Tol, q.Shrinking)
		for i, a := range r.alpha {
			if a = a * float64(sign[i]); math.Abs(a) > 0 {
				s.sv = append(s.sv, i)
				s.coef = append(s.coef, a)
			}
		}
		s.rho = r.rho
		return s
	}
	// ε-SVR: variables α_1…α_n (sign +1, p = ε − y) then α*_1…α*_n (sign
	// −1, p = ε + y), on the same n kernel rows.
	index := make([]int, 2*n)
	sign := make([]int8, 2*n)
	p := make([]float64, 2*n)
	for i := range n {
		index[i], sign[i], p[i] = i, 1, q.Epsilon-y[i]
		index[i+n], sign[i+n], p[i+n] = i, -1, q.Epsilon+y[i]
	}
	r := solveSMO(newQMatrix(ds, k, index, q.CacheMB), index, sign, p, q.C, q.C, q.Tol, q.Shrinking)
	for i := range n {
		if a := r.alpha[i] - r.alpha[i+n]; math.Abs(a) > 0 {
			s.sv = append(s.sv, i)
			s.coef = append(s.coef, a)
		}
	}
	s.rho = r.rho
	return s
}

// expansion copies the support vectors out of ds.
func (s solved) expansion(k kernelFunc, ds *dataset) expansion {
	sv := make([]float64, 0, len(s.sv)*ds.d)
	for _, i := range s.sv {
		sv = append(sv, ds.row(i)...)
	}
	return newExpansion(k, ds.d, sv, s.coef, s.rho)
}

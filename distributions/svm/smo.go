package svm

import "math"

// The Go solver is a port of libsvm's Solver (svm.cpp, version 3.24) for
// the dual problems of C-SVC and ε-SVR (Chang & Lin §2.1, §2.3):
//
//	min_α ½ αᵀQα + pᵀα   s.t. yᵀα = 0, 0 ≤ α_t ≤ C,
//
// with Q_ij = y_i y_j K(x_i, x_j) and y_t = ±1. It follows libsvm step for
// step: the working pair by second-order selection (Fan, Chen & Lin 2005,
// Chang & Lin Alg. 1 and eq. 4.4, with τ for non-positive curvature), the
// two-variable update clipped to the box, shrinking every min(l, 1000)
// iterations with gradient reconstruction from Ḡ (§5.1), ρ as the mean of
// y_t∇_t over the free variables or the middle of the bounds (§4.1.4), and
// kernel rows cached as float32. Its answers therefore match libsvm's up to
// the rounding of exp and tanh.

// smoTau replaces a non-positive curvature a_ij in the pair update
// (libsvm's TAU).
const smoTau = 1e-12

const (
	atLower int8 = iota
	atUpper
	free
)

// qmatrix is Q over variables t = 0…len−1, each on training vector
// index[t] with sign y[t]: Q_st = y_s y_t K(x_index[s], x_index[t]).
type qmatrix struct {
	cache *rowCache
	qd    []float64
}

func newQMatrix(s *dataset, k kernelFunc, index []int, cacheMB float64) *qmatrix {
	xsq := make([]float64, s.n)
	if k.kind == RBF {
		for i := range xsq {
			xsq[i] = dot(s.row(i), s.row(i))
		}
	}
	q := &qmatrix{
		cache: newRowCache(s.n, cacheMB, func(r int, dst []float32) {
			for j := range dst {
				dst[j] = float32(k.train(s, xsq, r, j))
			}
		}),
		qd: make([]float64, len(index)),
	}
	for t, i := range index {
		q.qd[t] = k.train(s, xsq, i, i)
	}
	return q
}

// smo is one solve; the per-variable arrays are indexed by position, which
// shrinking permutes (active[pos] is the variable at pos).
type smo struct {
	l      int
	q      *qmatrix
	y      []int8
	ysign  []float32
	index  []int
	qd     []float64
	p      []float64
	alpha  []float64
	status []int8
	g      []float64
	gbar   []float64
	active []int
	size   int // active size
	cp, cn float64
	eps    float64

	unshrink bool
	bufs     [2][]float32
	nextBuf  int
}

// smoResult is a solved dual in the variables' original order.
type smoResult struct {
	alpha []float64
	rho   float64
	obj   float64
	iter  int
}

// solveSMO minimises ½αᵀQα + pᵀα as described above, from α = 0, with
// upper bounds cp (y = +1) and cn (y = −1), stopping tolerance eps and, with
// shrink, the shrinking heuristic.
func solveSMO(q *qmatrix, index []int, y []int8, p []float64, cp, cn, eps float64, shrink bool) smoResult {
	l := len(y)
	s := &smo{
		l: l, q: q, y: append([]int8(nil), y...), ysign: make([]float32, l),
		index: append([]int(nil), index...), qd: append([]float64(nil), q.qd...),
		p: append([]float64(nil), p...), alpha: make([]float64, l),
		status: make([]int8, l), g: append([]float64(nil), p...), gbar: make([]float64, l),
		active: make([]int, l), size: l, cp: cp, cn: cn, eps: eps,
	}
	s.bufs[0], s.bufs[1] = make([]float32, l), make([]float32, l)
	for t := range l {
		s.ysign[t] = float32(y[t])
		s.active[t] = t
		s.updateStatus(t)
	}
	// α starts at 0, so G = p and Ḡ = 0 need no kernel rows.

	maxIter := max(10_000_000, 100*l)
	if l > math.MaxInt32/100 {
		maxIter = math.MaxInt32
	}
	counter := min(l, 1000) + 1
	iter := 0
	for iter < maxIter {
		if counter--; counter == 0 {
			counter = min(l, 1000)
			if shrink {
				s.shrink()
			}
		}
		i, j, qi, ok := s.selectWorkingSet()
		if !ok {
			s.reconstructGradient()
			s.size = l
			if i, j, qi, ok = s.selectWorkingSet(); !ok {
				break
			}
			counter = 1 // shrink at the next iteration
		}
		iter++
		s.step(i, j, qi)
	}
	if iter >= maxIter && s.size < l {
		s.reconstructGradient()
		s.size = l
	}

	r := smoResult{alpha: make([]float64, l), rho: s.rho(), iter: iter}
	for t := range l {
		r.obj += s.alpha[t] * (s.g[t] + s.p[t])
		r.alpha[s.active[t]] = s.alpha[t]
	}
	r.obj /= 2
	return r
}

func (s *smo) c(t int) float64 {
	if s.y[t] > 0 {
		return s.cp
	}
	return s.cn
}

func (s *smo) updateStatus(t int) {
	switch {
	case s.alpha[t] >= s.c(t):
		s.status[t] = atUpper
	case s.alpha[t] <= 0:
		s.status[t] = atLower
	default:
		s.status[t] = free
	}
}

// row returns Q_{i,·} over positions 0…n−1 in one of two alternating
// buffers, so the rows of a pair are valid together.
func (s *smo) row(i, n int) []float32 {
	k := s.q.cache.get(s.index[i])
	buf := s.bufs[s.nextBuf][:n]
	s.nextBuf = 1 - s.nextBuf
	yi := s.ysign[i]
	ys, idx := s.ysign[:n], s.index[:n]
	for t := range buf {
		buf[t] = yi * ys[t] * k[idx[t]]
	}
	return buf
}

func (s *smo) swap(i, j int) {
	s.y[i], s.y[j] = s.y[j], s.y[i]
	s.ysign[i], s.ysign[j] = s.ysign[j], s.ysign[i]
	s.index[i], s.index[j] = s.index[j], s.index[i]
	s.qd[i], s.qd[j] = s.qd[j], s.qd[i]
	s.p[i], s.p[j] = s.p[j], s.p[i]
	s.alpha[i], s.alpha[j] = s.alpha[j], s.alpha[i]
	s.status[i], s.status[j] = s.status[j], s.status[i]
	s.g[i], s.g[j] = s.g[j], s.g[i]
	s.gbar[i], s.gbar[j] = s.gbar[j], s.gbar[i]
	s.active[i], s.active[j] = s.active[j], s.active[i]
}

// selectWorkingSet returns i ∈ I_up maximising −y_i∇_i and j ∈ I_low
// minimising the second-order decrease −b_ij²/a_ij (Chang & Lin eq. 4.4),
// with Q_{i,·} over the active positions, or ok = false when
// m(α) − M(α) < eps.
func (s *smo) selectWorkingSet() (int, int, []float32, bool) {
	n := s.size
	y, st, g, qd := s.y[:n], s.status[:n], s.g[:n], s.qd[:n]
	gmax, gmax2 := math.Inf(-1), math.Inf(-1)
	gmaxIdx, gminIdx := -1, -1
	objDiffMin := math.Inf(1)
	for t := range n {
		if y[t] == 1 {
			if st[t] != atUpper && -g[t] >= gmax {
				gmax, gmaxIdx = -g[t], t
			}
		} else if st[t] != atLower && g[t] >= gmax {
			gmax, gmaxIdx = g[t], t
		}
	}
	i := gmaxIdx
	if i == -1 {
		// I_up is empty: gmax = −∞ admits no j.
		return 0, 0, nil, false
	}
	qi := s.row(i, n)
	qdi, yi := qd[i], float64(y[i])
	for j := range n {
		var gradDiff, quad float64
		if y[j] == 1 {
			if st[j] == atLower {
				continue
			}
			gradDiff = gmax + g[j]
			if g[j] >= gmax2 {
				gmax2 = g[j]
			}
			if gradDiff <= 0 {
				continue
			}
			quad = qdi + qd[j] - 2*yi*float64(qi[j])
		} else {
			if st[j] == atUpper {
				continue
			}
			gradDiff = gmax - g[j]
			if -g[j] >= gmax2 {
				gmax2 = -g[j]
			}
			if gradDiff <= 0 {
				continue
			}
			quad = qdi + qd[j] + 2*yi*float64(qi[j])
		}
		var objDiff float64
		if quad > 0 {
			objDiff = -(gradDiff * gradDiff) / quad
		} else {
			objDiff = -(gradDiff * gradDiff) / smoTau
		}
		if objDiff <= objDiffMin {
			gminIdx, objDiffMin = j, objDiff
		}
	}
	if gmax+gmax2 < s.eps || gminIdx == -1 {
		return 0, 0, nil, false
	}
	return gmaxIdx, gminIdx, qi, true
}

// step solves the two-variable subproblem of (i, j), clips it to the box
// and updates G and Ḡ; qi is Q_{i,·} over the active positions.
func (s *smo) step(i, j int, qi []float32) {
	qj := s.row(j, s.size)
	ci, cj := s.c(i), s.c(j)
	oldI, oldJ := s.alpha[i], s.alpha[j]
	a := s.alpha
	if s.y[i] != s.y[j] {
		quad := s.qd[i] + s.qd[j] + 2*float64(qi[j])
		if quad <= 0 {
			quad = smoTau
		}
		delta := (-s.g[i] - s.g[j]) / quad
		diff := a[i] - a[j]
		a[i] += delta
		a[j] += delta
		if diff > 0 {
			if a[j] < 0 {
				a[j], a[i] = 0, diff
			}
		} else if a[i] < 0 {
			a[i], a[j] = 0, -diff
		}
		if diff > ci-cj {
			if a[i] > ci {
				a[i], a[j] = ci, ci-diff
			}
		} else if a[j] > cj {
			a[j], a[i] = cj, cj+diff
		}
	} else {
		quad := s.qd[i] + s.qd[j] - 2*float64(qi[j])
		if quad <= 0 {
			quad = smoTau
		}
		delta := (s.g[i] - s.g[j]) / quad
		sum := a[i] + a[j]
		a[i] -= delta
		a[j] += delta
		if sum > ci {
			if a[i] > ci {
				a[i], a[j] = ci, sum-ci
			}
		} else if a[j] < 0 {
			a[j], a[i] = 0, sum
		}
		if sum > cj {
			if a[j] > cj {
				a[j], a[i] = cj, sum-cj
			}
		} else if a[i] < 0 {
			a[i], a[j] = 0, sum
		}
	}

	dai, daj := a[i]-oldI, a[j]-oldJ
	g := s.g[:s.size]
	qi, qj = qi[:len(g)], qj[:len(g)]
	for k := range g {
		g[k] += float64(qi[k])*dai + float64(qj[k])*daj
	}

	ui, uj := s.status[i] == atUpper, s.status[j] == atUpper
	s.updateStatus(i)
	s.updateStatus(j)
	if ui != (s.status[i] == atUpper) {
		s.addGbar(i, ci, ui)
	}
	if uj != (s.status[j] == atUpper) {
		s.addGbar(j, cj, uj)
	}
}

// addGbar adds C_t Q_{t,·} to Ḡ (Ḡ = Σ_{α_u = C_u} C_u Q_{u,·}), or
// subtracts it when t left the upper bound.
func (s *smo) addGbar(t int, ct float64, left bool) {
	q := s.row(t, s.l)
	if left {
		for k := range s.gbar {
			s.gbar[k] -= ct * float64(q[k])
		}
	} else {
		for k := range s.gbar {
			s.gbar[k] += ct * float64(q[k])
		}
	}
}

// reconstructGradient recomputes G of the shrunk variables from Ḡ and the
// free ones: G_t = Ḡ_t + p_t + Σ_{free u} α_u Q_tu.
func (s *smo) reconstructGradient() {
	if s.size == s.l {
		return
	}
	for t := s.size; t < s.l; t++ {
		s.g[t] = s.gbar[t] + s.p[t]
	}
	nFree := 0
	for t := range s.size {
		if s.status[t] == free {
			nFree++
		}
	}
	if nFree*s.l > 2*s.size*(s.l-s.size) {
		for i := s.size; i < s.l; i++ {
			qi := s.row(i, s.size)
			for j := range s.size {
				if s.status[j] == free {
					s.g[i] += s.alpha[j] * float64(qi[j])
				}
			}
		}
	} else {
		for i := range s.size {
			if s.status[i] != free {
				continue
			}
			qi := s.row(i, s.l)
			ai := s.alpha[i]
			for j := s.size; j < s.l; j++ {
				s.g[j] += ai * float64(qi[j])
			}
		}
	}
}

func (s *smo) beShrunk(t int, gmax1, gmax2 float64) bool {
	switch s.status[t] {
	case atUpper:
		if s.y[t] == 1 {
			return -s.g[t] > gmax1
		}
		return -s.g[t] > gmax2
	case atLower:
		if s.y[t] == 1 {
			return s.g[t] > gmax2
		}
		return s.g[t] > gmax1
	}
	return false
}

// shrink moves the bounded variables that cannot enter a violating pair
// behind the active ones (Chang & Lin §5.1), after unshrinking once when
// the violation first falls below 10·eps.
func (s *smo) shrink() {
	gmax1, gmax2 := math.Inf(-1), math.Inf(-1)
	for t := range s.size {
		if s.y[t] == 1 {
			if s.status[t] != atUpper && -s.g[t] >= gmax1 {
				gmax1 = -s.g[t]
			}
			if s.status[t] != atLower && s.g[t] >= gmax2 {
				gmax2 = s.g[t]
			}
		} else {
			if s.status[t] != atUpper && -s.g[t] >= gmax2 {
				gmax2 = -s.g[t]
			}
			if s.status[t] != atLower && s.g[t] >= gmax1 {
				gmax1 = s.g[t]
			}
		}
	}
	if !s.unshrink && gmax1+gmax2 <= s.eps*10 {
		s.unshrink = true
		s.reconstructGradient()
		s.size = s.l
	}
	for t := 0; t < s.size; t++ {
		if !s.beShrunk(t, gmax1, gmax2) {
			continue
		}
		s.size--
		for s.size > t {
			if !s.beShrunk(s.size, gmax1, gmax2) {
				s.swap(t, s.size)
				break
			}
			s.size--
		}
	}
}

// rho is b's negative: the mean of y_t∇_t over the free variables, or the
// middle of its bounds when none is free.
func (s *smo) rho() float64 {
	nFree := 0
	ub, lb, sumFree := math.Inf(1), math.Inf(-1), 0.0
	for t := range s.size {
		yg := float64(s.y[t]) * s.g[t]
		switch s.status[t] {
		case atUpper:
			if s.y[t] == -1 {
				ub = min(ub, yg)
			} else {
				lb = max(lb, yg)
			}
		case atLower:
			if s.y[t] == 1 {
				ub = min(ub, yg)
			} else {
				lb = max(lb, yg)
			}
		default:
			nFree++
			sumFree += yg
		}
	}
	if nFree > 0 {
		return sumFree / float64(nFree)
	}
	return (ub + lb) / 2
}

package utility

import (
	"fmt"
	"math"

	"github.com/plannerhq/planner/distributions"
)

// ExpectedUtility returns E[U(s + T)] for every start s in starts, where T is
// the runtime (seconds) with distribution d and U is c (3Sigma §3.1):
//
//	E[U(s)] = ∫ U(s + t) pdf(t) dt
//
// computed exactly for the piecewise-uniform density (see
// (*Runtime).ExpectedUtility). Results go to out[:len(starts)] when out has
// room, otherwise to a new slice. It errors if d violates the
// distributions.Piecewise contract or a start is NaN; use NewRuntime once
// and the method to value many curves against one distribution.
func ExpectedUtility(c Curve, d distributions.Piecewise, starts, out []float64) ([]float64, error) {
	r, err := NewRuntime(d)
	if err != nil {
		return nil, err
	}
	for i, s := range starts {
		if math.IsNaN(s) {
			return nil, fmt.Errorf("%w: start %d is NaN", ErrInvalid, i)
		}
	}
	return r.ExpectedUtility(c, starts, out), nil
}

// ExpectedUtility returns E[U(s + T)] = ∫ U(s + t) pdf(t) dt for every start
// s (seconds, plan clock) in starts, exactly for the piecewise-uniform
// density of r (3Sigma §3.1, Fig. 3(c)). Results go to out[:len(starts)]
// when cap(out) ≥ len(starts) (then nothing is allocated), otherwise to a
// new slice.
//
// For each start, in runtime coordinates a_k = X_k − s of the knots:
//
//   - the segments wholly at or before a_0 contribute Left_0 · Σ mass, and
//     those wholly after a_{N−1} contribute Right_{N−1} · Σ mass (prefix and
//     suffix sums, found from the previous start's position: a few steps
//     for sorted starts, a binary search otherwise);
//   - every other segment is integrated piece by piece: U is linear on each
//     piece, so a uniform mass m on [p, q] inside one piece contributes
//     m · U(s + (p + q)/2); a point mass m at p contributes m · U(s + p),
//     taking the Left value when p = a_k. A run of whole segments inside
//     one piece is valued at once from double-double prefix sums of m and
//     m·mid: ub·Σm + slope·Σ m·(mid − anchor).
//
// For a non-negative curve every term is non-negative and each linear piece
// is evaluated from its end nearer zero, so the result keeps its relative
// accuracy down to tiny probabilities (the tests hold it to 1e-9 against a
// brute-force integral; observed ~1e-12). The cost per start is
// O(len(knots)·log n) plus the segments straddling a knot. A NaN start
// gives NaN; the zero Runtime gives NaN everywhere.
func (r *Runtime) ExpectedUtility(c Curve, starts, out []float64) []float64 {
	if cap(out) >= len(starts) {
		out = out[:len(starts)]
	} else {
		out = make([]float64, len(starts))
	}
	n := len(r.m)
	if n == 0 {
		for i := range out {
			out[i] = math.NaN()
		}
		return out
	}
	if len(c.pieces) == 0 {
		clear(out)
		return out
	}
	nk := len(c.xs)
	xFirst, xLast := c.xs[0], c.xs[nk-1]
	uFirst, uLast := c.pieces[0].base, c.pieces[nk].base
	jL, jR := 0, 0 // hints carried between starts: sorted starts move them little
	for i, s := range starts {
		if math.IsNaN(s) {
			out[i] = math.NaN()
			continue
		}
		aFirst, aLast := xFirst-s, xLast-s
		jL = countAtMost(r.hi, aFirst, jL) // segments wholly at or before a_0
		jR = countAtMost(r.lo, aLast, jR)  // first segment wholly after a_{N−1}
		sum := 0.0
		if uFirst != 0 {
			sum += uFirst * r.massH[jL]
		}
		if uLast != 0 {
			sum += uLast * r.tail[jR]
		}
		if jL < jR {
			sum += r.middle(c, s, jL, jR)
		}
		out[i] = sum
	}
	return out
}

// countAtMost returns the number of entries ≤ x of the non-decreasing xs,
// starting the search at hint: a few linear steps, then a binary search.
func countAtMost(xs []float64, x float64, hint int) int {
	const probes = 4
	j := hint
	for k := 0; k < probes; k++ {
		switch {
		case j < len(xs) && xs[j] <= x:
			j++
		case j > 0 && xs[j-1] > x:
			j--
		default:
			return j
		}
	}
	lo, hi := 0, len(xs)
	if j < len(xs) && xs[j] <= x {
		lo = j
	} else {
		hi = j
	}
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if xs[h] <= x {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return lo
}

// runMin is the shortest run of whole segments inside one piece that is
// valued from the prefix sums instead of segment by segment; below it the
// loop is cheaper than the double-double arithmetic.
const runMin = 4

// middle integrates U(s + t) over segments jL ≤ j < jR, walking the pieces
// of c in step with the segments.
func (r *Runtime) middle(c Curve, s float64, jL, jR int) float64 {
	nk := len(c.xs)
	q := 0
	aq := c.xs[0] - s // right end of piece q in runtime coordinates
	p := c.pieces[0]
	ub, us, ua := p.base, p.slope, p.anchor-s
	sum := 0.0
	for j := jL; j < jR; {
		lo, hi, m := r.lo[j], r.hi[j], r.m[j]
		if lo == hi { // point mass: piece q holds (a_{q−1}, a_q]
			for q < nk && aq < lo {
				q++
				aq = pieceEnd(c, q, s)
				p = c.pieces[q]
				ub, us, ua = p.base, p.slope, p.anchor-s
			}
			if us == 0 {
				sum += m * ub
			} else {
				sum += m * (ub + us*(lo-ua))
			}
			j++
			continue
		}
		for q < nk && aq <= lo {
			q++
			aq = pieceEnd(c, q, s)
			p = c.pieces[q]
			ub, us, ua = p.base, p.slope, p.anchor-s
		}
		if hi <= aq {
			// Segments j… wholly inside piece q (point masses at a_q
			// included): U is linear there, so each contributes
			// m·U(s + mid).
			j2 := r.runEnd(j+1, jR, aq)
			if j2-j >= runMin {
				sum += r.runValue(j, j2, ub, us, ua)
			} else if us == 0 {
				for ; j < j2; j++ {
					sum += r.m[j] * ub
				}
			} else {
				for ; j < j2; j++ {
					sum += r.m[j] * (ub + us*(r.mid[j]-ua))
				}
			}
			j = j2
			continue
		}
		rho := m / (hi - lo) // density, probability per second
		t0 := lo
		for {
			t1 := math.Min(hi, aq)
			if t1 > t0 {
				if us == 0 {
					sum += rho * (t1 - t0) * ub
				} else {
					sum += rho * (t1 - t0) * (ub + us*(t0+(t1-t0)/2-ua))
				}
			}
			if hi <= aq || q == nk {
				break
			}
			t0 = aq
			q++
			aq = pieceEnd(c, q, s)
			p = c.pieces[q]
			ub, us, ua = p.base, p.slope, p.anchor-s
		}
		j++
	}
	return sum
}

// runEnd returns the first index k in [j, jR) with hi[k] > aq, or jR.
func (r *Runtime) runEnd(j, jR int, aq float64) int {
	// A few linear probes first: most runs are short.
	for k := 0; k < runMin && j < jR; k++ {
		if r.hi[j] > aq {
			return j
		}
		j++
	}
	lo, hi := j, jR
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if r.hi[h] <= aq {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return lo
}

// runValue returns Σ_{j1≤j<j2} m_j·(ub + us·(mid_j − ua)) from the
// double-double prefix sums:
//
//	ub·M + us·(P − ua·M),  M = Σ m_j,  P = Σ m_j·mid_j.
//
// P − ua·M = Σ m_j·(mid_j − ua) is formed in double-double, so the
// cancellation between P and ua·M costs no accuracy; for a non-negative
// curve both terms are non-negative (ua is the end of the piece nearer
// zero).
func (r *Runtime) runValue(j1, j2 int, ub, us, ua float64) float64 {
	mh, ml := ddAdd(r.massH[j2], r.massL[j2], -r.massH[j1], -r.massL[j1])
	v := ub * (mh + ml)
	if us == 0 {
		return v
	}
	ph, pl := ddAdd(r.momH[j2], r.momL[j2], -r.momH[j1], -r.momL[j1])
	// ua·M exactly enough: the product of ua and mh is exact via FMA.
	th := ua * mh
	tl := math.FMA(ua, mh, -th) + ua*ml
	dh, dl := ddAdd(ph, pl, -th, -tl)
	return v + us*(dh+dl)
}

// pieceEnd is the right end of piece q in runtime coordinates for start s.
func pieceEnd(c Curve, q int, s float64) float64 {
	if q < len(c.xs) {
		return c.xs[q] - s
	}
	return math.Inf(1)
}

package utility

import (
	"fmt"
	"math"

	"github.com/plannerhq/planner/distributions"
)

// Consumption returns the expected resource consumption per unit of
// resource of a job t seconds after its start (3Sigma §3.2), for each t in
// ts:
//
//	RC(t) = 1 − CDF(t) = P(T > t)   for t ≥ 0
//	RC(t) = 0                        for t < 0 (the job has not started)
//
// It is the coefficient of a pending job's option started at s in the
// capacity row of time t: RC(t − s). Results go to out[:len(ts)] when out
// has room, otherwise to a new slice; nothing else is allocated. A
// distributions.Piecewise is evaluated from its segments, summing tail
// masses from the right (O(len(segments) + len(ts)) for ascending ts); any
// other Dist through its Survival. It errors on a nil distribution, invalid
// segments, or a NaN time.
func Consumption(d distributions.Dist, ts, out []float64) ([]float64, error) {
	out = resize(out, len(ts))
	if err := checkTimes(ts); err != nil {
		return nil, err
	}
	if _, err := survivalInto(d, 0, ts, ascending(ts), out); err != nil {
		return nil, err
	}
	for k, t := range ts {
		if t < 0 {
			out[k] = 0
		} else {
			out[k] = clamp01(out[k])
		}
	}
	return out, nil
}

// RRC returns the expected remaining resource consumption per unit of
// resource of a running job that has run for elapsed seconds, t seconds
// from now, for each t in ts (3Sigma §3.2, DESIGN.md "Capacity"):
//
//	RRC(t, e) = (1 − CDF(e + t)) / (1 − CDF(e)) = P(T > e + t | T > e)
//
// t is measured from now (not from the job's start) and e = elapsed. For
// t ≤ 0 the value is 1: the job holds its nodes now. Values are clamped to
// [0, 1].
//
// Outlived jobs: when 1 − CDF(e) = 0 the job has run past every runtime its
// distribution allows, the ratio is undefined, and RRC returns 1 for every
// t — the job is assumed to keep its nodes over the whole horizon. Callers
// detect this case with Outlived and apply the under-estimate handling of
// 3Sigma §4.2 (extend the expected end by 2^n cycles), typically by passing
// a replacement distribution (e.g. a point mass at the extended end).
//
// Results go to out[:len(ts)] when out has room, otherwise to a new slice.
// It errors on a nil distribution, invalid segments, a NaN or negative
// elapsed, or a NaN time.
func RRC(d distributions.Dist, elapsed float64, ts, out []float64) ([]float64, error) {
	out = resize(out, len(ts))
	if err := checkTimes(ts); err != nil {
		return nil, err
	}
	if _, err := rrcChecked(d, elapsed, ts, ascending(ts), out); err != nil {
		return nil, err
	}
	return out, nil
}

// Outlived reports whether a job that has run for elapsed seconds has
// outlived its distribution: 1 − CDF(elapsed) = 0, i.e. elapsed ≥ the
// largest runtime d allows. RRC is then 1 for every t (see RRC).
func Outlived(d distributions.Dist, elapsed float64) (bool, error) {
	if err := checkElapsed(elapsed); err != nil {
		return false, err
	}
	se, err := survivalOne(d, elapsed)
	if err != nil {
		return false, err
	}
	return se <= 0, nil
}

// rrcChecked writes RRC(ts[k], elapsed) into out[k] for times already
// checked (asc: ts is ascending) and returns nz: out[nz:] is all zero. A
// Piecewise's segments are fetched and validated once; a *Runtime's not at
// all.
func rrcChecked(d distributions.Dist, elapsed float64, ts []float64, asc bool, out []float64) (nz int, err error) {
	if err := checkElapsed(elapsed); err != nil {
		return 0, err
	}
	var se float64
	switch d := d.(type) {
	case nil:
		return 0, fmt.Errorf("%w: nil distribution", ErrInvalid)
	case *Runtime:
		if d.Len() == 0 {
			return 0, errEmptyRuntime
		}
		if se = d.Survival(elapsed); se > 0 {
			nz = d.survivalInto(elapsed, ts, asc, out)
		}
	case distributions.Piecewise:
		segs := d.Segments()
		if err := validateSegments(segs); err != nil {
			return 0, err
		}
		if asc {
			// One walk down from the top gives S(e + t), then S(e).
			nz, se = segSurvivalWalk(segs, elapsed, ts, out)
		} else if se = segSurvival(segs, elapsed); se > 0 {
			nz = segSurvivalInto(segs, elapsed, ts, false, out)
		}
	default:
		if se = clamp01(d.Survival(elapsed)); se > 0 {
			for k, t := range ts {
				out[k] = d.Survival(elapsed + t)
			}
			nz = len(ts)
		}
	}
	if !(se > 0) { // outlived: hold the nodes over the whole horizon
		for k := range out {
			out[k] = 1
		}
		return len(out), nil
	}
	inv := 1 / se
	for k, t := range ts[:nz] {
		v := out[k] * inv
		switch {
		case t <= 0 || v > 1:
			v = 1
		case v < 0:
			v = 0
		}
		out[k] = v
	}
	return nz, nil
}

func checkElapsed(e float64) error {
	if math.IsNaN(e) || e < 0 {
		return fmt.Errorf("%w: elapsed time must be ≥ 0 seconds, got %g", ErrInvalid, e)
	}
	return nil
}

func checkTimes(ts []float64) error {
	for k, t := range ts {
		if math.IsNaN(t) {
			return fmt.Errorf("%w: slice time %d is NaN", ErrInvalid, k)
		}
	}
	return nil
}

// ascending reports whether ts is sorted ascending (ties allowed).
func ascending(ts []float64) bool {
	for k := 1; k < len(ts); k++ {
		if !(ts[k] >= ts[k-1]) {
			return false
		}
	}
	return true
}

func resize(out []float64, n int) []float64 {
	if cap(out) >= n {
		return out[:n]
	}
	return make([]float64, n)
}

// survivalOne returns P(T > x), clamped to [0, 1].
func survivalOne(d distributions.Dist, x float64) (float64, error) {
	switch d := d.(type) {
	case nil:
		return 0, fmt.Errorf("%w: nil distribution", ErrInvalid)
	case *Runtime:
		if d.Len() == 0 {
			return 0, errEmptyRuntime
		}
		return d.Survival(x), nil
	case distributions.Piecewise:
		segs := d.Segments()
		if err := validateSegments(segs); err != nil {
			return 0, err
		}
		return clamp01(segSurvival(segs, x)), nil
	default:
		return clamp01(d.Survival(x)), nil
	}
}

// survivalInto writes P(T > shift + ts[k]) into out[k] (not clamped) and
// returns nz: out[nz:] is all zero. asc says ts is ascending.
func survivalInto(d distributions.Dist, shift float64, ts []float64, asc bool, out []float64) (int, error) {
	switch d := d.(type) {
	case nil:
		return 0, fmt.Errorf("%w: nil distribution", ErrInvalid)
	case *Runtime:
		if d.Len() == 0 {
			return 0, errEmptyRuntime
		}
		return d.survivalInto(shift, ts, asc, out), nil
	case distributions.Piecewise:
		segs := d.Segments()
		if err := validateSegments(segs); err != nil {
			return 0, err
		}
		return segSurvivalInto(segs, shift, ts, asc, out), nil
	default:
		for k, t := range ts {
			out[k] = d.Survival(shift + t)
		}
		return len(ts), nil
	}
}

// segSurvival returns P(T > x) for valid segments, adding masses from the
// right.
func segSurvival(segs []distributions.Segment, x float64) float64 {
	acc := 0.0
	for j := len(segs) - 1; j >= 0; j-- {
		s := segs[j]
		if s.Lo > x || (s.Lo == x && s.Hi > s.Lo) {
			acc += s.Mass
			continue
		}
		if s.Hi > x {
			acc += s.Mass * ((s.Hi - x) / (s.Hi - s.Lo))
		}
		break
	}
	return acc
}

// segSurvivalInto writes P(T > shift + ts[k]) for valid segments and
// returns nz: out[nz:] is all zero. For ascending ts it walks once from the
// largest time down, adding masses from the right; otherwise it evaluates
// each time on its own (nz = len(ts)).
func segSurvivalInto(segs []distributions.Segment, shift float64, ts []float64, asc bool, out []float64) int {
	if !asc {
		for k, t := range ts {
			out[k] = segSurvival(segs, shift+t)
		}
		return len(ts)
	}
	nz, _ := segSurvivalWalk(segs, shift, ts, out)
	return nz
}

// segSurvivalWalk writes P(T > shift + ts[k]) for valid segments and
// ascending ts, walking once from the largest time down and adding masses
// from the right. It returns nz (out[nz:] is all zero) and
// s0 = P(T > shift): the walk's last stop when ts[0] ≥ 0, a separate scan
// otherwise.
func segSurvivalWalk(segs []distributions.Segment, shift float64, ts, out []float64) (nz int, s0 float64) {
	j := len(segs) - 1
	acc := 0.0 // Σ masses of segments j+1… wholly above x
	at := func(x float64) float64 {
		for j >= 0 && (segs[j].Lo > x || (segs[j].Lo == x && segs[j].Hi > segs[j].Lo)) {
			acc += segs[j].Mass
			j--
		}
		v := acc
		if j >= 0 && segs[j].Hi > x {
			s := segs[j]
			v += s.Mass * ((s.Hi - x) / (s.Hi - s.Lo))
		}
		return v
	}
	for k := len(ts) - 1; k >= 0; k-- {
		v := at(shift + ts[k])
		out[k] = v
		if v > 0 && nz == 0 {
			nz = k + 1
		}
	}
	if len(ts) == 0 || ts[0] >= 0 {
		return nz, at(shift)
	}
	return nz, segSurvival(segs, shift)
}

func clamp01(x float64) float64 {
	switch {
	case x < 0:
		return 0
	case x > 1:
		return 1
	}
	return x
}

package svm

import (
	"fmt"
	"math"
)

// Vector is one sample's features, in an order the caller fixes and keeps.
type Vector []float64

// Scaler is the per-feature affine map z_k = (x_k − Shift_k) / Scale_k
// fitted on a training set. A feature constant on the training set gets
// Scale 1, so it maps to 0 there.
type Scaler struct {
	Method Scaling
	Shift  []float64
	Scale  []float64
}

// FitScaler fits m on the rows of x (all of one length, finite), which must
// be the training set only: min-max maps [min, max] to [−1, 1], standard
// maps to (x − mean)/sd with the population sd; ScaleNone is the identity.
func FitScaler(m Scaling, x []Vector) (*Scaler, error) {
	d, err := checkVectors(x)
	if err != nil {
		return nil, err
	}
	s := &Scaler{Method: m, Shift: make([]float64, d), Scale: make([]float64, d)}
	for k := range s.Scale {
		s.Scale[k] = 1
	}
	n := float64(len(x))
	switch m {
	case ScaleNone:
	case ScaleMinMax:
		for k := range d {
			lo, hi := x[0][k], x[0][k]
			for _, v := range x[1:] {
				lo, hi = min(lo, v[k]), max(hi, v[k])
			}
			s.Shift[k] = lo/2 + hi/2
			if half := hi/2 - lo/2; half > 0 {
				s.Scale[k] = half
			}
		}
	case ScaleStandard:
		for k := range d {
			var mean float64
			for _, v := range x {
				mean += v[k]
			}
			mean /= n
			var ss float64
			for _, v := range x {
				ss += (v[k] - mean) * (v[k] - mean)
			}
			s.Shift[k] = mean
			if sd := math.Sqrt(ss / n); sd > 0 {
				s.Scale[k] = sd
			}
		}
	default:
		return nil, fmt.Errorf("svm: unknown scaling %d", int(m))
	}
	return s, nil
}

// Features is the number of features s was fitted on.
func (s *Scaler) Features() int { return len(s.Shift) }

// Apply returns the scaled copy of x. It panics when len(x) differs from
// Features(), a programming error.
func (s *Scaler) Apply(x Vector) Vector { return s.applyTo(make(Vector, len(x)), x) }

func (s *Scaler) applyTo(dst, x []float64) []float64 {
	if len(x) != len(s.Shift) {
		panic(fmt.Sprintf("svm: vector has %d features, the model %d", len(x), len(s.Shift)))
	}
	dst = dst[:len(x)]
	for k, v := range x {
		dst[k] = (v - s.Shift[k]) / s.Scale[k]
	}
	return dst
}

// checkVectors returns the common length d ≥ 1 of the rows of x, or an
// error naming the first bad sample.
func checkVectors(x []Vector) (int, error) {
	if len(x) == 0 {
		return 0, fmt.Errorf("svm: no samples")
	}
	d := len(x[0])
	if d == 0 {
		return 0, fmt.Errorf("svm: sample 0 has no features")
	}
	for i, v := range x {
		if len(v) != d {
			return 0, fmt.Errorf("svm: sample %d has %d features, sample 0 has %d", i, len(v), d)
		}
		for k, f := range v {
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return 0, fmt.Errorf("svm: sample %d feature %d is %v, want a finite number", i, k, f)
			}
		}
	}
	return d, nil
}

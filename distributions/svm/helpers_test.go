package svm

import (
	"math"
	"math/rand/v2"
)

// testBackends are the backends this build can train with.
func testBackends() []Backend {
	if haveLibsvm {
		return []Backend{LibSVM, SMO}
	}
	return []Backend{SMO}
}

// twoMoons-like seeded classification data: y = [x0² + x1 − x2/2 > 0.7 + noise].
func classData(seed uint64, n, d int) ([]Vector, []bool) {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := make([]Vector, n)
	y := make([]bool, n)
	for i := range x {
		v := make(Vector, d)
		for k := range v {
			v[k] = rng.NormFloat64()
		}
		x[i] = v
		s := v[0] * v[0]
		if d > 1 {
			s += v[1]
		}
		if d > 2 {
			s -= v[2] / 2
		}
		y[i] = s > 0.7+0.3*rng.NormFloat64()
	}
	return x, y
}

// regData is seeded regression data: y = sin(x0) + x1·x2/2 + noise.
func regData(seed uint64, n, d int) ([]Vector, []float64) {
	rng := rand.New(rand.NewPCG(seed, 2))
	x := make([]Vector, n)
	y := make([]float64, n)
	for i := range x {
		v := make(Vector, d)
		for k := range v {
			v[k] = rng.NormFloat64()
		}
		x[i] = v
		y[i] = math.Sin(v[0]) + 0.1*rng.NormFloat64()
		if d > 2 {
			y[i] += v[1] * v[2] / 2
		}
	}
	return x, y
}

func withBackend(p Params, b Backend) *Params {
	p.Backend = b
	return &p
}

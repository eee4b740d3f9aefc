package svm

import "math"

// dataset is n scaled vectors of d features, row-major.
type dataset struct {
	n, d int
	x    []float64
}

func (s *dataset) row(i int) []float64 { return s.x[i*s.d : (i+1)*s.d : (i+1)*s.d] }

// kernelFunc is K with its parameters.
type kernelFunc struct {
	kind         Kernel
	gamma, coef0 float64
}

func dot(a, b []float64) float64 {
	var s float64
	for k, v := range a {
		s += v * b[k]
	}
	return s
}

// train evaluates K(x_i, x_j) on a training set as libsvm's Kernel class
// does, with xsq[i] = ‖x_i‖²: RBF as exp(−γ(‖x_i‖² + ‖x_j‖² − 2 x_i·x_j)).
func (k kernelFunc) train(s *dataset, xsq []float64, i, j int) float64 {
	d := dot(s.row(i), s.row(j))
	switch k.kind {
	case Linear:
		return d
	case RBF:
		return math.Exp(-k.gamma * (xsq[i] + xsq[j] - 2*d))
	default:
		return math.Tanh(k.gamma*d + k.coef0)
	}
}

// eval evaluates K(x, z) for prediction as libsvm's k_function does: RBF
// from the squared distance summed feature by feature.
func (k kernelFunc) eval(x, z []float64) float64 {
	switch k.kind {
	case Linear:
		return dot(x, z)
	case RBF:
		var s float64
		for i, v := range x {
			d := v - z[i]
			s += d * d
		}
		return math.Exp(-k.gamma * s)
	default:
		return math.Tanh(k.gamma*dot(x, z) + k.coef0)
	}
}

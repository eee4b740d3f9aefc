package svm

import (
	"errors"
	"fmt"
	"math"
)

// Kernel is the kernel function K(x, z) of a support-vector machine, on
// scaled feature vectors.
type Kernel int

const (
	// RBF is the Gaussian kernel K(x, z) = exp(−γ‖x − z‖²), libsvm's default.
	RBF Kernel = iota
	// Linear is K(x, z) = x·z.
	Linear
	// Sigmoid is K(x, z) = tanh(γ x·z + r), r = Params.Coef0. It is not
	// positive semi-definite for every γ, r, so the dual may be non-convex;
	// the solvers then still stop at a point where no pair of variables
	// improves the objective (Chang & Lin §4.1.2, τ).
	Sigmoid
)

var kernelNames = [...]string{"rbf", "linear", "sigmoid"}

// String returns "rbf", "linear" or "sigmoid".
func (k Kernel) String() string {
	if k < 0 || int(k) >= len(kernelNames) {
		return fmt.Sprintf("Kernel(%d)", int(k))
	}
	return kernelNames[k]
}

// ParseKernel is the inverse of String.
func ParseKernel(s string) (Kernel, error) {
	for i, n := range kernelNames {
		if n == s {
			return Kernel(i), nil
		}
	}
	return 0, fmt.Errorf("svm: unknown kernel %q (want rbf, linear or sigmoid)", s)
}

// Scaling is the affine map fitted per feature on a training set and applied
// to every vector the model sees, in training and in prediction.
type Scaling int

const (
	// ScaleNone leaves features as given.
	ScaleNone Scaling = iota
	// ScaleMinMax maps each feature's training range [min, max] onto
	// [−1, 1], as libsvm's svm-scale does by default.
	ScaleMinMax
	// ScaleStandard maps each feature to (x − mean)/sd, with the training
	// set's mean and population standard deviation.
	ScaleStandard
)

var scalingNames = [...]string{"none", "minmax", "standard"}

// String returns "none", "minmax" or "standard".
func (s Scaling) String() string {
	if s < 0 || int(s) >= len(scalingNames) {
		return fmt.Sprintf("Scaling(%d)", int(s))
	}
	return scalingNames[s]
}

// ParseScaling is the inverse of String.
func ParseScaling(s string) (Scaling, error) {
	for i, n := range scalingNames {
		if n == s {
			return Scaling(i), nil
		}
	}
	return 0, fmt.Errorf("svm: unknown scaling %q (want none, minmax or standard)", s)
}

// Backend is the solver that trains a model.
type Backend int

const (
	// Auto is libsvm in a cgo build and SMO otherwise.
	Auto Backend = iota
	// LibSVM is the C library, through cgo.
	LibSVM
	// SMO is the Go port of libsvm's solver, in every build.
	SMO
)

var backendNames = [...]string{"auto", "libsvm", "smo"}

// String returns "auto", "libsvm" or "smo".
func (b Backend) String() string {
	if b < 0 || int(b) >= len(backendNames) {
		return fmt.Sprintf("Backend(%d)", int(b))
	}
	return backendNames[b]
}

// ParseBackend is the inverse of String.
func ParseBackend(s string) (Backend, error) {
	for i, n := range backendNames {
		if n == s {
			return Backend(i), nil
		}
	}
	return 0, fmt.Errorf("svm: unknown backend %q (want auto, libsvm or smo)", s)
}

// ErrNeedsCgo is returned when the LibSVM backend is asked for in a build
// without cgo.
var ErrNeedsCgo = errors.New("svm: needs the cgo build (libsvm)")

// Params are the settings of one training. Train reads them literally, so
// start from DefaultParams; a nil *Params means DefaultParams().
type Params struct {
	// Kernel is K; default RBF.
	Kernel Kernel
	// C > 0 weighs the slack (hinge or ε-insensitive loss) against the
	// margin ½‖w‖² in the primal; default 1.
	C float64
	// Gamma is γ of RBF and sigmoid, per squared scaled feature unit; 0
	// means 1/features, as libsvm's tools default. Negative is an error.
	Gamma float64
	// Coef0 is r of the sigmoid kernel; default 0.
	Coef0 float64
	// ClassWeight > 0 multiplies C for the positive class of a classifier
	// (C₊ = C·ClassWeight, C₋ = C; libsvm's -w1), so that errors on a rare
	// class cost more: n₋/n₊ weighs the classes equally. Default 1;
	// regression ignores it.
	ClassWeight float64
	// Epsilon ≥ 0 is the half-width of regression's ε-insensitive tube, in
	// the units of the target; default 0.1 (libsvm's p). Classification
	// ignores it.
	Epsilon float64
	// Tol > 0 stops the solver when the maximal violation of the dual's
	// optimality conditions, m(α) − M(α) (Chang & Lin eq. 4.6), is below
	// it; default 1e-3.
	Tol float64
	// CacheMB > 0 is the kernel row cache in MiB (float32 entries); default
	// 100.
	CacheMB float64
	// Shrinking turns on the shrinking heuristic (Chang & Lin §5.1);
	// default true. It changes the path, not the stopping condition.
	Shrinking bool
	// Scaling is the feature map fitted on the training set; default
	// ScaleMinMax, as the libsvm guide advises.
	Scaling Scaling
	// Backend is the solver; default Auto.
	Backend Backend
}

// DefaultParams returns libsvm's defaults (svm-train with no options, the
// probability estimates off) with min-max scaling to [−1, 1]:
// RBF, C = 1, γ = 1/features, r = 0, class weight 1, ε = 0.1, Tol = 1e-3,
// 100 MiB cache, shrinking on, the Auto backend.
func DefaultParams() Params {
	return Params{
		Kernel:      RBF,
		C:           1,
		ClassWeight: 1,
		Epsilon:     0.1,
		Tol:         1e-3,
		CacheMB:     100,
		Shrinking:   true,
		Scaling:     ScaleMinMax,
	}
}

// resolve checks p and returns it with Gamma filled for d features and
// Backend made concrete.
func (p *Params) resolve(d int) (Params, error) {
	var q Params
	if p == nil {
		q = DefaultParams()
	} else {
		q = *p
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	switch {
	case q.Kernel < RBF || q.Kernel > Sigmoid:
		return q, fmt.Errorf("svm: unknown kernel %d", int(q.Kernel))
	case !(q.C > 0) || !finite(q.C):
		return q, fmt.Errorf("svm: C must be a finite number > 0, got %v", q.C)
	case !(q.Gamma >= 0) || !finite(q.Gamma):
		return q, fmt.Errorf("svm: gamma must be a finite number ≥ 0, got %v", q.Gamma)
	case !finite(q.Coef0):
		return q, fmt.Errorf("svm: coef0 must be finite, got %v", q.Coef0)
	case !(q.ClassWeight > 0) || !finite(q.ClassWeight):
		return q, fmt.Errorf("svm: class weight must be a finite number > 0, got %v", q.ClassWeight)
	case !(q.Epsilon >= 0) || !finite(q.Epsilon):
		return q, fmt.Errorf("svm: epsilon must be a finite number ≥ 0, got %v", q.Epsilon)
	case !(q.Tol > 0) || !finite(q.Tol):
		return q, fmt.Errorf("svm: tolerance must be a finite number > 0, got %v", q.Tol)
	case !(q.CacheMB > 0) || !finite(q.CacheMB):
		return q, fmt.Errorf("svm: cache size must be a finite number of MiB > 0, got %v", q.CacheMB)
	case q.Scaling < ScaleNone || q.Scaling > ScaleStandard:
		return q, fmt.Errorf("svm: unknown scaling %d", int(q.Scaling))
	}
	if q.Gamma == 0 && d > 0 {
		q.Gamma = 1 / float64(d)
	}
	switch q.Backend {
	case Auto:
		q.Backend = defaultBackend
	case LibSVM:
		if !haveLibsvm {
			return q, ErrNeedsCgo
		}
	case SMO:
	default:
		return q, fmt.Errorf("svm: unknown backend %d", int(q.Backend))
	}
	return q, nil
}

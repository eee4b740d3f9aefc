//go:build !cgo

package svm

// Without cgo libsvm cannot be linked; Auto trains on the Go solver.
const (
	haveLibsvm     = false
	defaultBackend = SMO
)

func libsvmVersion() int { return 0 }

func solveLibsvm(task, *dataset, []float64, Params, *dataset) (solved, []float64, error) {
	return solved{}, nil, ErrNeedsCgo
}

// Package svm owns support-vector learning over libsvm: C-support vector
// classification of two classes and ε-support vector regression with
// linear, RBF and sigmoid kernels, the feature scaling fitted on a training
// set, seeded k-fold model selection over a grid, and the classification and
// regression metrics it is judged by.
//
// Training solves the dual problems of Chang & Lin, "LIBSVM: a library for
// support vector machines" (ACM TIST 2011), §2 and §4: with cgo, by libsvm
// itself (Debian's libsvm-dev); without it, or when Params.Backend asks, by
// a Go port of the same decomposition method (SMO with second-order working
// set selection, shrinking and a kernel row cache). Either way the trained
// model is copied out into Go memory and every C allocation is freed before
// Train returns, so a Classifier or Regressor owns no C resources, needs no
// Close, is safe for concurrent use, and predicts in Go the same way in
// either build.
//
// Everything is deterministic: training has no randomness, and the folds of
// cross-validation come from the *rand.Rand the caller passes in (libsvm's
// own svm_cross_validation, which shuffles with rand(), is not used).
// Trainings may run concurrently. The two backends agree to about 10⁻⁴ of
// the decision values' scale, not bit for bit, so output that must be the
// same in a cgo and a no-cgo build asks for Backend SMO.
package svm

//go:build cgo

package svm

import (
	"math"
	"math/rand/v2"
	"os"
	"syscall"
	"testing"
)

// agreeTol bounds |f_libsvm − f_smo| / max(1, max |f_libsvm|) on held-out
// points at the default Tol = 1e-3: ten times the stopping tolerance. The
// two solvers take the same steps until the rounding of exp or tanh (glibc
// against Go) flips a float32 kernel entry; from then on each still stops
// within Tol of the optimum. Measured at most 2.4e-4 over 30 seeds (RBF
// and sigmoid C-SVC, whose paths can part); linear C-SVC and ε-SVR agree
// to 1e-11.
const agreeTol = 10 * 1e-3

// predictTol bounds |f_go − svm_predict_values| / max(1, max |f|) for the
// same libsvm model: the same sums in another order (measured 2.5e-12).
const predictTol = 1e-10

func agreementProblem(seed uint64, t task) (train, test *dataset, y []float64, q Params) {
	rng := rand.New(rand.NewPCG(seed, 7))
	n, d := 200+rng.IntN(300), 1+rng.IntN(6)
	train = &dataset{n: n, d: d, x: make([]float64, n*d)}
	for i := range train.x {
		train.x[i] = 2*rng.Float64() - 1
	}
	y = make([]float64, n)
	for i := range y {
		r := train.row(i)
		v := math.Sin(3*r[0]) + r[d-1]*r[0] + 0.3*rng.NormFloat64()
		if t == taskSVC {
			v = math.Copysign(1, v)
		}
		y[i] = v
	}
	test = &dataset{n: 100, d: d, x: make([]float64, 100*d)}
	for i := range test.x {
		test.x[i] = 2*rng.Float64() - 1
	}
	q = DefaultParams()
	q.C = []float64{0.1, 1, 10, 100}[seed%4]
	q.Gamma = 1 / float64(d)
	q.Coef0 = []float64{0, -1}[seed%2]
	q.ClassWeight = []float64{1, 1, 4}[seed%3]
	return train, test, y, q
}

// The Go solver and libsvm give the same decision function on seeded
// problems of every task and kernel, and the Go prediction of a libsvm
// model is libsvm's own svm_predict_values.
func TestAgreesWithLibsvm(t *testing.T) {
	for _, tk := range []task{taskSVC, taskSVR} {
		for _, k := range []Kernel{Linear, RBF, Sigmoid} {
			name := map[task]string{taskSVC: "svc", taskSVR: "svr"}[tk] + "/" + k.String()
			t.Run(name, func(t *testing.T) {
				worst := 0.0
				for seed := range uint64(12) {
					ds, test, y, q := agreementProblem(seed, tk)
					q.Kernel = k
					sl, dec, err := solveLibsvm(tk, ds, y, q, test)
					if err != nil {
						t.Fatal(err)
					}
					kf := kernelFunc{kind: k, gamma: q.Gamma, coef0: q.Coef0}
					el, eg := sl.expansion(kf, ds), solveGo(tk, ds, y, q).expansion(kf, ds)
					scale := 1.0
					for _, v := range dec {
						scale = max(scale, math.Abs(v))
					}
					for i := range test.n {
						z := test.row(i)
						fl, fg := el.value(z), eg.value(z)
						if e := math.Abs(fl-dec[i]) / scale; e > predictTol {
							t.Fatalf("seed %d point %d: Go predicts %v, svm_predict_values %v", seed, i, fl, dec[i])
						}
						e := math.Abs(fl-fg) / scale
						worst = max(worst, e)
						if e > agreeTol {
							t.Errorf("seed %d point %d: libsvm f = %v, smo f = %v", seed, i, fl, fg)
						}
						if tk == taskSVC && math.Abs(fl) > agreeTol*scale && (fl > 0) != (fg > 0) {
							t.Errorf("seed %d point %d: classes differ, f = %v and %v", seed, i, fl, fg)
						}
					}
				}
				t.Logf("max relative difference %.3g", worst)
			})
		}
	}
}

// Training through libsvm returns every byte it took from the C heap: the
// problem, the nodes the model points into, the model and libsvm's kernel
// cache. The smallest per-training array (4 bytes a sample) leaked over
// the 80 trainings would be 320 KB; the bound leaves 64 KiB for the Go
// runtime, whose new threads take some C heap (up to 18 KB seen).
func TestLibsvmFreesMemory(t *testing.T) {
	x, y := classData(5, 1000, 3)
	xr, yr := regData(5, 1000, 3)
	p := withBackend(DefaultParams(), LibSVM)
	train := func() {
		if _, err := TrainClassifier(x, y, p); err != nil {
			t.Fatal(err)
		}
		if _, err := TrainRegressor(xr, yr, p); err != nil {
			t.Fatal(err)
		}
	}
	train() // the first call sets libsvm's print function
	before := cMallocInUse()
	const repeats = 40
	for range repeats {
		train()
	}
	grown := cMallocInUse() - before
	t.Logf("C heap grew by %d bytes over %d trainings", grown, 2*repeats)
	if bound := int64(64 << 10); grown > bound {
		t.Errorf("C heap grew by %d bytes over %d trainings (bound %d)", grown, 2*repeats, bound)
	}
}

// libsvm prints its progress ("optimization finished, #iter = …") to
// stdout unless told otherwise; training through the binding prints
// nothing.
func TestLibsvmIsSilent(t *testing.T) {
	out, err := os.CreateTemp(t.TempDir(), "stdout")
	if err != nil {
		t.Fatal(err)
	}
	saved, err := syscall.Dup(1)
	if err != nil {
		t.Fatal(err)
	}
	x, y := classData(6, 200, 2)
	cFlushStdout()
	if err := syscall.Dup2(int(out.Fd()), 1); err != nil {
		t.Fatal(err)
	}
	_, err1 := TrainClassifier(x, y, withBackend(DefaultParams(), LibSVM))
	_, err2 := TrainRegressor(x, make([]float64, len(x)), withBackend(DefaultParams(), LibSVM))
	cFlushStdout()
	if err := syscall.Dup2(saved, 1); err != nil {
		t.Fatal(err)
	}
	syscall.Close(saved)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	got, err := os.ReadFile(out.Name())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) > 0 {
		t.Errorf("libsvm printed %q", got)
	}
}

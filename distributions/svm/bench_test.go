package svm

import (
	"math/rand/v2"
	"testing"
)

// benchCases are the trainings Sailfish and ML-SJF need, at 3,000 samples of
// four features: Sailfish's sigmoid C-SVC, an RBF C-SVC, and ML-SJF's RBF
// and linear ε-SVRs, all at C = 10.
var benchCases = []struct {
	name   string
	t      task
	kernel Kernel
}{
	{"svc-sigmoid", taskSVC, Sigmoid},
	{"svc-rbf", taskSVC, RBF},
	{"svr-rbf", taskSVR, RBF},
	{"svr-linear", taskSVR, Linear},
}

const benchN = 3000

func benchParams(k Kernel, b Backend) *Params {
	p := DefaultParams()
	p.Kernel, p.Backend, p.C = k, b, 10
	return &p
}

func BenchmarkTrain(b *testing.B) {
	x, y := classData(100, benchN, 4)
	xr, yr := regData(100, benchN, 4)
	for _, be := range testBackends() {
		for _, bc := range benchCases {
			b.Run(be.String()+"/"+bc.name, func(b *testing.B) {
				p := benchParams(bc.kernel, be)
				ops := 0
				cpu := startCPU(b)
				for b.Loop() {
					ops++
					var err error
					if bc.t == taskSVC {
						_, err = TrainClassifier(x, y, p)
					} else {
						_, err = TrainRegressor(xr, yr, p)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				cpu.stop(ops)
			})
		}
	}
}

// BenchmarkPredict is one prediction of a model trained on 3,000 samples;
// the backends give the same kind of model, so only SMO's is measured.
func BenchmarkPredict(b *testing.B) {
	x, y := classData(100, benchN, 4)
	xr, yr := regData(100, benchN, 4)
	queries, _ := classData(101, 1000, 4)
	for _, bc := range benchCases {
		b.Run(bc.name, func(b *testing.B) {
			p := benchParams(bc.kernel, SMO)
			var f func(Vector) float64
			var nsv int
			if bc.t == taskSVC {
				c, err := TrainClassifier(x, y, p)
				if err != nil {
					b.Fatal(err)
				}
				f, nsv = c.Decision, c.SupportVectors()
			} else {
				r, err := TrainRegressor(xr, yr, p)
				if err != nil {
					b.Fatal(err)
				}
				f, nsv = r.Predict, r.SupportVectors()
			}
			i := 0
			cpu := startCPU(b)
			for b.Loop() {
				f(queries[i%len(queries)])
				i++
			}
			cpu.stop(i)
			b.ReportMetric(float64(nsv), "SVs")
		})
	}
}

// BenchmarkSelectMLSJF is ML-SJF's model selection for one job type of
// 1,000 logged runs: linear or RBF × C ∈ {1, …, 10⁴}, 5 folds (50
// trainings of 800 samples).
func BenchmarkSelectMLSJF(b *testing.B) {
	xr, yr := regData(100, 1000, 3)
	for i := range yr {
		yr[i] += 3 // positive targets for MAPE
	}
	for _, be := range testBackends() {
		b.Run(be.String(), func(b *testing.B) {
			base := DefaultParams()
			base.Backend = be
			ops := 0
			cpu := startCPU(b)
			for b.Loop() {
				ops++
				if _, err := SelectRegressor(xr, yr, &base, mlsjfGrid, 5, MAPE, rand.New(rand.NewPCG(1, 1))); err != nil {
					b.Fatal(err)
				}
			}
			cpu.stop(ops)
		})
	}
}

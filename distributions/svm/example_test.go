package svm_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/plannerhq/planner/distributions/svm"
)

// A long/short job classifier: a C-SVC on two features, trained and asked
// about two new jobs.
func ExampleTrainClassifier() {
	// Features: tasks in the job, input size in GB; long = runs over 10 min.
	x := []svm.Vector{{1, 0.5}, {2, 1}, {4, 2}, {3, 0.2}, {40, 30}, {60, 20}, {50, 45}, {80, 60}}
	long := []bool{false, false, false, false, true, true, true, true}
	p := svm.DefaultParams()
	p.Kernel = svm.Linear
	c, err := svm.TrainClassifier(x, long, &p)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("5 tasks, 1 GB long:", c.Classify(svm.Vector{5, 1}))
	fmt.Println("70 tasks, 40 GB long:", c.Classify(svm.Vector{70, 40}))
	// Output:
	// 5 tasks, 1 GB long: false
	// 70 tasks, 40 GB long: true
}

// Runtime prediction for one job type: ε-SVRs of linear or RBF kernel with
// C ∈ {1, 10, …, 10⁴}, chosen by 5-fold cross-validated MAPE, then judged
// on held-out jobs.
func ExampleSelectRegressor() {
	rng := rand.New(rand.NewPCG(1, 1))
	job := func() (svm.Vector, float64) {
		gb := 1 + 99*rng.Float64() // input size
		return svm.Vector{gb}, 30 + 2*gb*math.Log(gb)*(1+0.02*rng.NormFloat64())
	}
	var x, xt []svm.Vector
	var y, yt []float64
	for i := range 200 {
		v, s := job()
		if i < 150 {
			x, y = append(x, v), append(y, s)
		} else {
			xt, yt = append(xt, v), append(yt, s)
		}
	}
	grid := svm.Grid{Kernels: []svm.Kernel{svm.Linear, svm.RBF}, C: []float64{1, 10, 100, 1000, 10000}}
	sel, err := svm.SelectRegressor(x, y, nil, grid, 5, svm.MAPE, rand.New(rand.NewPCG(2, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := svm.TrainRegressor(x, y, &sel.Params)
	if err != nil {
		fmt.Println(err)
		return
	}
	pred := make([]float64, len(xt))
	for i, v := range xt {
		pred[i] = r.Predict(v)
	}
	mape, _ := svm.MAPE(yt, pred)
	fmt.Printf("kernel %v, %d grid points tried\n", sel.Params.Kernel, len(sel.Tried))
	fmt.Println("cross-validated and held-out MAPE below 5 %:", sel.Score < 0.05, mape < 0.05)
	// Output:
	// kernel rbf, 10 grid points tried
	// cross-validated and held-out MAPE below 5 %: true true
}

// The metrics of a classifier that calls every job short: high accuracy on
// an imbalanced set, nothing else.
func ExampleConfusion() {
	truth := []bool{true, true, false, false, false, false, false, false, false, false}
	c, _ := svm.NewConfusion(truth, make([]bool, len(truth)))
	fmt.Printf("accuracy %.2f precision %.2f recall %.2f F1 %.2f balanced %.2f\n",
		c.Accuracy(), c.Precision(), c.Recall(), c.F1(), c.BalancedAccuracy())
	// Output:
	// accuracy 0.80 precision 0.00 recall 0.00 F1 0.00 balanced 0.50
}

package svm

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestFolds(t *testing.T) {
	for _, tc := range []struct{ n, k int }{{10, 2}, {10, 3}, {101, 10}, {5, 5}} {
		f, err := Folds(tc.n, tc.k, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if err := checkFolds(tc.n, f); err != nil {
			t.Errorf("n=%d k=%d: %v", tc.n, tc.k, err)
		}
		lo, hi := tc.n, 0
		for _, fold := range f {
			lo, hi = min(lo, len(fold)), max(hi, len(fold))
			if !slices.IsSorted(fold) {
				t.Errorf("fold %v not sorted", fold)
			}
		}
		if len(f) != tc.k || hi-lo > 1 {
			t.Errorf("n=%d k=%d: %d folds of sizes %d…%d", tc.n, tc.k, len(f), lo, hi)
		}
	}
	a, _ := Folds(50, 5, rand.New(rand.NewPCG(7, 7)))
	b, _ := Folds(50, 5, rand.New(rand.NewPCG(7, 7)))
	c, _ := Folds(50, 5, rand.New(rand.NewPCG(8, 7)))
	if !slices.EqualFunc(a, b, slices.Equal) {
		t.Error("one seed gave two fold sets")
	}
	if slices.EqualFunc(a, c, slices.Equal) {
		t.Error("two seeds gave one fold set")
	}
	for _, k := range []int{1, 51} {
		if _, err := Folds(50, k, rand.New(rand.NewPCG(1, 1))); err == nil {
			t.Errorf("%d folds of 50 accepted", k)
		}
	}
}

func TestStratifiedFolds(t *testing.T) {
	y := make([]bool, 103)
	for i := range y {
		y[i] = i%4 == 0 // 26 positives
	}
	f, err := StratifiedFolds(y, 10, rand.New(rand.NewPCG(3, 3)))
	if err != nil {
		t.Fatal(err)
	}
	if err := checkFolds(len(y), f); err != nil {
		t.Fatal(err)
	}
	for _, fold := range f {
		pos := 0
		for _, i := range fold {
			if y[i] {
				pos++
			}
		}
		if pos < 2 || pos > 3 || len(fold) < 10 || len(fold) > 11 {
			t.Errorf("fold of %d holds %d positives, want 10–11 and 2–3", len(fold), pos)
		}
	}
}

func TestCheckFolds(t *testing.T) {
	for _, tc := range []struct {
		name  string
		folds [][]int
		want  string
	}{
		{"one fold", [][]int{{0, 1, 2}}, "1 folds"},
		{"empty fold", [][]int{{0, 1, 2}, {}}, "fold 1 is empty"},
		{"twice", [][]int{{0, 1}, {1, 2}}, "sample 1 is in two folds"},
		{"missing", [][]int{{0}, {2}}, "hold 2 of 3"},
		{"out of range", [][]int{{0, 1}, {2, 3}}, "holds sample 3 of 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := CrossValidateRegressor([]Vector{{0}, {1}, {2}}, []float64{0, 1, 2}, nil, tc.folds)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// An out-of-fold prediction is that of a model (scaler included) trained on
// the other folds alone: relabelling a fold, or moving one of its samples
// far away, leaves the predictions of the fold's other samples unchanged.
func TestCrossValidationHoldsOut(t *testing.T) {
	x, y := classData(21, 200, 3)
	folds, _ := StratifiedFolds(y, 5, rand.New(rand.NewPCG(2, 2)))
	base, err := CrossValidateClassifier(x, y, nil, folds)
	if err != nil {
		t.Fatal(err)
	}
	// Explicitly: fold 0 from a model on folds 1–4.
	var tx []Vector
	var ty []bool
	for i := range x {
		if !slices.Contains(folds[0], i) {
			tx, ty = append(tx, x[i]), append(ty, y[i])
		}
	}
	c, _ := TrainClassifier(tx, ty, nil)
	for _, i := range folds[0] {
		if c.Classify(x[i]) != base[i] {
			t.Fatalf("sample %d: out-of-fold class differs from the explicit model's", i)
		}
	}
	y2 := slices.Clone(y)
	x2 := slices.Clone(x)
	for _, i := range folds[0] {
		y2[i] = !y2[i]
	}
	moved := folds[0][0]
	x2[moved] = Vector{1e6, -1e6, 1e6} // would stretch a leaked min-max scaler
	got, err := CrossValidateClassifier(x2, y2, nil, folds)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range folds[0][1:] {
		if got[i] != base[i] {
			t.Errorf("sample %d: its fold's labels or features leaked into its prediction", i)
		}
	}
	for _, fold := range folds[1:] {
		for _, i := range fold {
			if got[i] != base[i] {
				return // the other folds did see the change, as they must
			}
		}
	}
	t.Error("the change to fold 0 reached no other fold's model")
}

func TestGridPoints(t *testing.T) {
	base := DefaultParams()
	base.Gamma, base.Coef0 = 0.5, -1
	tests := []struct {
		name string
		g    Grid
		want []string
	}{
		{"defaults", Grid{}, []string{"rbf 1 0.5 -1"}},
		{"kernels × C", Grid{Kernels: []Kernel{Linear, RBF}, C: []float64{1, 10}, Gamma: []float64{0.1, 1}, Coef0: []float64{0, 1}},
			[]string{"linear 1 0.5 -1", "linear 10 0.5 -1", "rbf 1 0.1 -1", "rbf 1 1 -1", "rbf 10 0.1 -1", "rbf 10 1 -1"}},
		{"sigmoid takes r", Grid{Kernels: []Kernel{Sigmoid}, Gamma: []float64{0.1}, Coef0: []float64{0, -2}},
			[]string{"sigmoid 1 0.1 0", "sigmoid 1 0.1 -2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, p := range tc.g.Points(base) {
				got = append(got, strings.Join([]string{p.Kernel.String(), ftoa(p.C), ftoa(p.Gamma), ftoa(p.Coef0)}, " "))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("points %q, want %q", got, tc.want)
			}
		})
	}
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// mlsjfGrid is ML-SJF's grid: linear or RBF, C ∈ {1, 10, …, 10⁴}.
var mlsjfGrid = Grid{Kernels: []Kernel{Linear, RBF}, C: []float64{1, 10, 100, 1000, 10000}}

// Runtimes that grow as n log n of the input size are curved in the
// scaled feature: RBF wins the 5-fold MAPE; the chosen score is the
// cross-validation of the chosen parameters on the same folds.
func TestSelectRegressorPicksRBF(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 1))
	var x []Vector
	var y []float64
	for range 150 {
		size := 1 + 99*rng.Float64()
		x = append(x, Vector{size})
		y = append(y, 5+size*math.Log(size)*(1+0.05*rng.NormFloat64()))
	}
	sel, err := SelectRegressor(x, y, nil, mlsjfGrid, 5, MAPE, rand.New(rand.NewPCG(5, 5)))
	if err != nil {
		t.Fatal(err)
	}
	if sel.Params.Kernel != RBF || len(sel.Tried) != 10 {
		t.Fatalf("chose %v of %d points", sel.Params.Kernel, len(sel.Tried))
	}
	bestLinear := math.Inf(1)
	for _, c := range sel.Tried {
		if c.Params.Kernel == Linear {
			bestLinear = min(bestLinear, c.Score)
		}
		if c.Score < sel.Score {
			t.Errorf("%v C=%v scored %v, better than the chosen %v", c.Params.Kernel, c.Params.C, c.Score, sel.Score)
		}
	}
	t.Logf("MAPE: rbf C=%v %.4f, best linear %.4f", sel.Params.C, sel.Score, bestLinear)
	if !(sel.Score < bestLinear) {
		t.Errorf("RBF MAPE %v not below linear's %v", sel.Score, bestLinear)
	}
	folds, _ := Folds(len(x), 5, rand.New(rand.NewPCG(5, 5)))
	pred, _ := CrossValidateRegressor(x, y, &sel.Params, folds)
	if m, _ := MAPE(y, pred); m != sel.Score {
		t.Errorf("recomputed CV MAPE %v, selection says %v", m, sel.Score)
	}
	again, _ := SelectRegressor(x, y, nil, mlsjfGrid, 5, MAPE, rand.New(rand.NewPCG(5, 5)))
	if again.Params != sel.Params || again.Score != sel.Score {
		t.Error("one seed gave two selections")
	}
}

// A ring is not linearly separable: RBF beats linear and sigmoid in
// balanced accuracy; on a set every point separates, the first C of the
// grid wins the tie whichever order the grid lists.
func TestSelectClassifier(t *testing.T) {
	x, y := classData(41, 300, 2)
	g := Grid{Kernels: []Kernel{Linear, Sigmoid, RBF}, C: []float64{1, 100}, Gamma: []float64{0.1, 1}}
	sel, err := SelectClassifier(x, y, nil, g, 10, Confusion.BalancedAccuracy, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("chose %v C=%v γ=%v, balanced accuracy %.3f", sel.Params.Kernel, sel.Params.C, sel.Params.Gamma, sel.Score)
	if sel.Params.Kernel != RBF || sel.Score < 0.85 || sel.Score > 1 {
		t.Errorf("chose %v with balanced accuracy %v", sel.Params.Kernel, sel.Score)
	}
	sep := []Vector{{-2}, {-1.5}, {-1}, {-0.5}, {0.5}, {1}, {1.5}, {2}}
	sy := []bool{false, false, false, false, true, true, true, true}
	for _, cs := range [][]float64{{1, 10}, {10, 1}} {
		s, err := SelectClassifier(sep, sy, nil, Grid{Kernels: []Kernel{Linear}, C: cs}, 4, Confusion.Accuracy, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		if s.Score != 1 || s.Params.C != cs[0] {
			t.Errorf("grid C %v: chose C=%v with accuracy %v", cs, s.Params.C, s.Score)
		}
	}
}

func TestSelectErrors(t *testing.T) {
	x := []Vector{{1}, {2}, {3}, {4}}
	_, err := SelectRegressor(x, []float64{1, 0, 1, 2}, nil, Grid{}, 2, MAPE, rand.New(rand.NewPCG(1, 1)))
	if err == nil || !strings.Contains(err.Error(), "MAPE is undefined") || !strings.Contains(err.Error(), "cross-validating rbf") {
		t.Errorf("zero target: %v", err)
	}
	_, err = SelectClassifier(x, []bool{true, false, true, false}, nil, Grid{}, 5, Confusion.F1, rand.New(rand.NewPCG(1, 1)))
	if err == nil || !strings.Contains(err.Error(), "5 folds of 4 samples") {
		t.Errorf("too many folds: %v", err)
	}
	_, err = SelectClassifier(x, []bool{true}, nil, Grid{}, 2, Confusion.F1, rand.New(rand.NewPCG(1, 1)))
	if err == nil || !strings.Contains(err.Error(), "1 labels for 4 samples") {
		t.Errorf("short labels: %v", err)
	}
	_, err = SelectRegressor(x, []float64{1, 2, 3, 4}, nil, Grid{C: []float64{-1}}, 2, MAE, rand.New(rand.NewPCG(1, 1)))
	if err == nil || !strings.Contains(err.Error(), "C must be") {
		t.Errorf("bad grid: %v", err)
	}
}

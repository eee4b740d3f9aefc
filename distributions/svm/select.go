package svm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Folds shuffles 0…n−1 with rng and deals them into k folds whose sizes
// differ by at most one; each fold is sorted. It needs 2 ≤ k ≤ n.
func Folds(n, k int, rng *rand.Rand) ([][]int, error) {
	if k < 2 || k > n {
		return nil, fmt.Errorf("svm: %d folds of %d samples, want 2 ≤ folds ≤ samples", k, n)
	}
	perm := rng.Perm(n)
	return deal(perm, k), nil
}

// StratifiedFolds is Folds keeping the classes' proportions: the positives
// and the negatives are shuffled apart and dealt in turn, so each fold's
// count of either class differs from another's by at most one, as libsvm's
// cross-validation does for classification.
func StratifiedFolds(y []bool, k int, rng *rand.Rand) ([][]int, error) {
	n := len(y)
	if k < 2 || k > n {
		return nil, fmt.Errorf("svm: %d folds of %d samples, want 2 ≤ folds ≤ samples", k, n)
	}
	var pos, neg []int
	for i, v := range y {
		if v {
			pos = append(pos, i)
		} else {
			neg = append(neg, i)
		}
	}
	rng.Shuffle(len(pos), func(i, j int) { pos[i], pos[j] = pos[j], pos[i] })
	rng.Shuffle(len(neg), func(i, j int) { neg[i], neg[j] = neg[j], neg[i] })
	return deal(append(pos, neg...), k), nil
}

func deal(order []int, k int) [][]int {
	folds := make([][]int, k)
	for r, i := range order {
		folds[r%k] = append(folds[r%k], i)
	}
	for _, f := range folds {
		slices.Sort(f)
	}
	return folds
}

// checkFolds checks that folds partition 0…n−1 into non-empty parts.
func checkFolds(n int, folds [][]int) error {
	if len(folds) < 2 {
		return fmt.Errorf("svm: %d folds, want at least 2", len(folds))
	}
	seen := make([]bool, n)
	count := 0
	for f, fold := range folds {
		if len(fold) == 0 {
			return fmt.Errorf("svm: fold %d is empty", f)
		}
		for _, i := range fold {
			if i < 0 || i >= n {
				return fmt.Errorf("svm: fold %d holds sample %d of %d", f, i, n)
			}
			if seen[i] {
				return fmt.Errorf("svm: sample %d is in two folds", i)
			}
			seen[i] = true
			count++
		}
	}
	if count != n {
		return fmt.Errorf("svm: folds hold %d of %d samples", count, n)
	}
	return nil
}

// trainRows returns the indices outside fold, ascending; out must be n long
// and false.
func trainRows(n int, fold []int, out []bool) []int {
	for _, i := range fold {
		out[i] = true
	}
	rows := make([]int, 0, n-len(fold))
	for i := range n {
		if !out[i] {
			rows = append(rows, i)
		}
	}
	for _, i := range fold {
		out[i] = false
	}
	return rows
}

func pick[T any](v []T, rows []int) []T {
	out := make([]T, len(rows))
	for r, i := range rows {
		out[r] = v[i]
	}
	return out
}

// CrossValidateClassifier returns each sample's out-of-fold class: for
// every fold, a classifier trained (scaler included) on the other folds
// with p predicts the fold. folds must partition 0…len(x)−1.
func CrossValidateClassifier(x []Vector, y []bool, p *Params, folds [][]int) ([]bool, error) {
	if len(y) != len(x) {
		return nil, fmt.Errorf("svm: %d labels for %d samples", len(y), len(x))
	}
	if err := checkFolds(len(x), folds); err != nil {
		return nil, err
	}
	pred := make([]bool, len(x))
	mark := make([]bool, len(x))
	for _, fold := range folds {
		rows := trainRows(len(x), fold, mark)
		c, err := TrainClassifier(pick(x, rows), pick(y, rows), p)
		if err != nil {
			return nil, err
		}
		for _, i := range fold {
			pred[i] = c.Classify(x[i])
		}
	}
	return pred, nil
}

// CrossValidateRegressor returns each sample's out-of-fold prediction, as
// CrossValidateClassifier does for classes.
func CrossValidateRegressor(x []Vector, y []float64, p *Params, folds [][]int) ([]float64, error) {
	if len(y) != len(x) {
		return nil, fmt.Errorf("svm: %d targets for %d samples", len(y), len(x))
	}
	if err := checkFolds(len(x), folds); err != nil {
		return nil, err
	}
	pred := make([]float64, len(x))
	mark := make([]bool, len(x))
	for _, fold := range folds {
		rows := trainRows(len(x), fold, mark)
		r, err := TrainRegressor(pick(x, rows), pick(y, rows), p)
		if err != nil {
			return nil, err
		}
		for _, i := range fold {
			pred[i] = r.Predict(x[i])
		}
	}
	return pred, nil
}

// Grid is the parameter sets model selection tries, each list defaulting to
// the base parameters' one value. Linear takes no γ or r, RBF no r.
type Grid struct {
	Kernels []Kernel
	C       []float64
	Gamma   []float64 // 0 means 1/features
	Coef0   []float64
}

// Points returns the grid's parameter sets on base, in order: kernel, then
// C, then γ, then r, each ascending as listed.
func (g Grid) Points(base Params) []Params {
	or := func(v []float64, d float64) []float64 {
		if len(v) == 0 {
			return []float64{d}
		}
		return v
	}
	kernels := g.Kernels
	if len(kernels) == 0 {
		kernels = []Kernel{base.Kernel}
	}
	var out []Params
	for _, k := range kernels {
		gammas, coefs := []float64{base.Gamma}, []float64{base.Coef0}
		if k != Linear {
			gammas = or(g.Gamma, base.Gamma)
		}
		if k == Sigmoid {
			coefs = or(g.Coef0, base.Coef0)
		}
		for _, c := range or(g.C, base.C) {
			for _, gm := range gammas {
				for _, r := range coefs {
					p := base
					p.Kernel, p.C, p.Gamma, p.Coef0 = k, c, gm, r
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// Candidate is one grid point and its cross-validated score.
type Candidate struct {
	Params Params
	Score  float64
}

// Selection is the outcome of model selection: the chosen parameters (γ
// and backend resolved) with their cross-validated score, and every point
// tried, in grid order.
type Selection struct {
	Params Params
	Score  float64
	Tried  []Candidate
}

// SelectClassifier picks from g on base (nil: DefaultParams()) the
// parameters whose k-fold cross-validation scores highest by score, such
// as Confusion.BalancedAccuracy, on the out-of-fold classes of all samples
// pooled. The folds are stratified, drawn once from rng, and shared by all
// points; ties go to the earlier point.
func SelectClassifier(x []Vector, y []bool, base *Params, g Grid, k int, score func(Confusion) float64, rng *rand.Rand) (*Selection, error) {
	d, err := checkVectors(x)
	if err != nil {
		return nil, err
	}
	if len(y) != len(x) {
		return nil, fmt.Errorf("svm: %d labels for %d samples", len(y), len(x))
	}
	folds, err := StratifiedFolds(y, k, rng)
	if err != nil {
		return nil, err
	}
	return selectBest(base, g, d, func(p *Params) (float64, error) {
		pred, err := CrossValidateClassifier(x, y, p, folds)
		if err != nil {
			return 0, err
		}
		c, err := NewConfusion(y, pred)
		return score(c), err
	})
}

// SelectRegressor picks from g on base (nil: DefaultParams()) the
// parameters whose k-fold cross-validation has the lowest loss, such as
// MAPE or MAE, on the out-of-fold predictions of all samples pooled. The
// folds are drawn once from rng and shared by all points; ties go to the
// earlier point.
func SelectRegressor(x []Vector, y []float64, base *Params, g Grid, k int, loss func(truth, pred []float64) (float64, error), rng *rand.Rand) (*Selection, error) {
	d, err := checkVectors(x)
	if err != nil {
		return nil, err
	}
	if len(y) != len(x) {
		return nil, fmt.Errorf("svm: %d targets for %d samples", len(y), len(x))
	}
	folds, err := Folds(len(x), k, rng)
	if err != nil {
		return nil, err
	}
	sel, err := selectBest(base, g, d, func(p *Params) (float64, error) {
		pred, err := CrossValidateRegressor(x, y, p, folds)
		if err != nil {
			return 0, err
		}
		l, err := loss(y, pred)
		return -l, err
	})
	if err != nil {
		return nil, err
	}
	sel.Score = -sel.Score
	for i := range sel.Tried {
		sel.Tried[i].Score = -sel.Tried[i].Score
	}
	return sel, nil
}

// selectBest evaluates every grid point (higher is better) and keeps the
// first best.
func selectBest(base *Params, g Grid, d int, eval func(*Params) (float64, error)) (*Selection, error) {
	b := DefaultParams()
	if base != nil {
		b = *base
	}
	points := g.Points(b)
	sel := &Selection{Score: math.Inf(-1)}
	for _, p := range points {
		q, err := p.resolve(d)
		if err != nil {
			return nil, err
		}
		s, err := eval(&q)
		if err != nil {
			return nil, fmt.Errorf("%w (cross-validating %s, C=%g, γ=%g, r=%g)", err, q.Kernel, q.C, q.Gamma, q.Coef0)
		}
		sel.Tried = append(sel.Tried, Candidate{Params: q, Score: s})
		if s > sel.Score || len(sel.Tried) == 1 {
			sel.Params, sel.Score = q, s
		}
	}
	return sel, nil
}

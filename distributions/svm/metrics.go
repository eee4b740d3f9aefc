package svm

import (
	"fmt"
	"math"
)

// Confusion counts a two-class prediction against the truth, the positive
// class being true. Its ratios are 0 where their denominator is 0 (no
// predicted positives for Precision, no positives for Recall), so they stay
// finite numbers that JSON can carry.
type Confusion struct {
	TP, FP, TN, FN int
}

// NewConfusion counts pred against truth, which must have one length.
func NewConfusion(truth, pred []bool) (Confusion, error) {
	if len(truth) != len(pred) {
		return Confusion{}, fmt.Errorf("svm: %d predictions for %d labels", len(pred), len(truth))
	}
	var c Confusion
	for i, t := range truth {
		switch {
		case t && pred[i]:
			c.TP++
		case t:
			c.FN++
		case pred[i]:
			c.FP++
		default:
			c.TN++
		}
	}
	return c, nil
}

// N is the number of samples counted.
func (c Confusion) N() int { return c.TP + c.FP + c.TN + c.FN }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Accuracy is (TP + TN) / N.
func (c Confusion) Accuracy() float64 { return ratio(c.TP+c.TN, c.N()) }

// Precision is TP / (TP + FP), of the positive class.
func (c Confusion) Precision() float64 { return ratio(c.TP, c.TP+c.FP) }

// Recall is TP / (TP + FN), the true positive rate.
func (c Confusion) Recall() float64 { return ratio(c.TP, c.TP+c.FN) }

// Specificity is TN / (TN + FP), the true negative rate.
func (c Confusion) Specificity() float64 { return ratio(c.TN, c.TN+c.FP) }

// F1 is the harmonic mean of Precision and Recall, 2TP / (2TP + FP + FN).
func (c Confusion) F1() float64 { return ratio(2*c.TP, 2*c.TP+c.FP+c.FN) }

// BalancedAccuracy is the mean recall of the classes present in the truth:
// (Recall + Specificity) / 2 when both occur. A constant prediction scores
// 0.5 on two classes, whatever their proportions.
func (c Confusion) BalancedAccuracy() float64 {
	pos, neg := c.TP+c.FN > 0, c.TN+c.FP > 0
	switch {
	case pos && neg:
		return (c.Recall() + c.Specificity()) / 2
	case pos:
		return c.Recall()
	case neg:
		return c.Specificity()
	}
	return 0
}

// checkRegression checks truth and pred for MAPE and MAE.
func checkRegression(truth, pred []float64) error {
	if len(truth) != len(pred) {
		return fmt.Errorf("svm: %d predictions for %d targets", len(pred), len(truth))
	}
	if len(truth) == 0 {
		return fmt.Errorf("svm: no targets to score")
	}
	for i := range truth {
		if math.IsNaN(truth[i]) || math.IsInf(truth[i], 0) {
			return fmt.Errorf("svm: target %d is %v, want a finite number", i, truth[i])
		}
		if math.IsNaN(pred[i]) || math.IsInf(pred[i], 0) {
			return fmt.Errorf("svm: prediction %d is %v, want a finite number", i, pred[i])
		}
	}
	return nil
}

// MAPE is the mean absolute percentage error as a fraction,
// (1/n) Σ |pred_i − truth_i| / |truth_i| (0.25 is 25 %). A zero target makes
// it undefined, an error.
func MAPE(truth, pred []float64) (float64, error) {
	if err := checkRegression(truth, pred); err != nil {
		return 0, err
	}
	var s float64
	for i, t := range truth {
		if t == 0 {
			return 0, fmt.Errorf("svm: target %d is 0, MAPE is undefined", i)
		}
		s += math.Abs(pred[i]-t) / math.Abs(t)
	}
	return s / float64(len(truth)), nil
}

// MAE is the mean absolute error (1/n) Σ |pred_i − truth_i|, in the units of
// the targets.
func MAE(truth, pred []float64) (float64, error) {
	if err := checkRegression(truth, pred); err != nil {
		return 0, err
	}
	var s float64
	for i, t := range truth {
		s += math.Abs(pred[i] - t)
	}
	return s / float64(len(truth)), nil
}

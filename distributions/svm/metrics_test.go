package svm

import (
	"math"
	"strings"
	"testing"
)

func TestConfusion(t *testing.T) {
	T, F := true, false
	tests := []struct {
		name                     string
		truth, pred              []bool
		want                     Confusion
		acc, prec, rec, f1, bacc float64
	}{
		{name: "perfect", truth: []bool{T, T, F, F}, pred: []bool{T, T, F, F},
			want: Confusion{TP: 2, TN: 2}, acc: 1, prec: 1, rec: 1, f1: 1, bacc: 1},
		{name: "mixed", truth: []bool{T, T, T, F, F, F, F, F}, pred: []bool{T, T, F, T, F, F, F, F},
			want: Confusion{TP: 2, FN: 1, FP: 1, TN: 4}, acc: 6.0 / 8, prec: 2.0 / 3, rec: 2.0 / 3, f1: 2.0 / 3,
			bacc: (2.0/3 + 4.0/5) / 2},
		// "Everything short": no long job is predicted, so precision,
		// recall and F1 of the positive class are 0 and balanced accuracy
		// is 0.5, though accuracy is high on an imbalanced set.
		{name: "all negative", truth: []bool{T, F, F, F, F, F, F, F, F, F}, pred: make([]bool, 10),
			want: Confusion{FN: 1, TN: 9}, acc: 0.9, prec: 0, rec: 0, f1: 0, bacc: 0.5},
		{name: "all positive", truth: []bool{T, F, F, F}, pred: []bool{T, T, T, T},
			want: Confusion{TP: 1, FP: 3}, acc: 0.25, prec: 0.25, rec: 1, f1: 0.4, bacc: 0.5},
		{name: "inverted", truth: []bool{T, F}, pred: []bool{F, T},
			want: Confusion{FN: 1, FP: 1}, acc: 0, prec: 0, rec: 0, f1: 0, bacc: 0},
		{name: "one class in truth", truth: []bool{F, F, F, F}, pred: []bool{F, T, F, F},
			want: Confusion{FP: 1, TN: 3}, acc: 0.75, prec: 0, rec: 0, f1: 0, bacc: 0.75},
		{name: "empty", want: Confusion{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := NewConfusion(tc.truth, tc.pred)
			if err != nil {
				t.Fatal(err)
			}
			if c != tc.want {
				t.Fatalf("confusion %+v, want %+v", c, tc.want)
			}
			for _, m := range []struct {
				name      string
				got, want float64
			}{
				{"accuracy", c.Accuracy(), tc.acc}, {"precision", c.Precision(), tc.prec},
				{"recall", c.Recall(), tc.rec}, {"F1", c.F1(), tc.f1}, {"balanced accuracy", c.BalancedAccuracy(), tc.bacc},
			} {
				if math.Abs(m.got-m.want) > 1e-15 {
					t.Errorf("%s = %v, want %v", m.name, m.got, m.want)
				}
			}
		})
	}
	if _, err := NewConfusion([]bool{true}, nil); err == nil {
		t.Error("length mismatch accepted")
	}
}

func TestRegressionMetrics(t *testing.T) {
	tests := []struct {
		name        string
		truth, pred []float64
		mape, mae   float64
		wantErr     string
	}{
		{name: "exact", truth: []float64{1, 2, 3}, pred: []float64{1, 2, 3}},
		{name: "over and under", truth: []float64{100, 200, 50, 10}, pred: []float64{110, 150, 50, 20},
			mape: (0.1 + 0.25 + 0 + 1) / 4, mae: (10 + 50 + 0 + 10) / 4.0},
		{name: "negative target", truth: []float64{-4}, pred: []float64{-3}, mape: 0.25, mae: 1},
		{name: "length", truth: []float64{1, 2}, pred: []float64{1}, wantErr: "1 predictions for 2 targets"},
		{name: "empty", wantErr: "no targets"},
		{name: "NaN prediction", truth: []float64{1}, pred: []float64{math.NaN()}, wantErr: "prediction 0 is NaN"},
		{name: "infinite target", truth: []float64{math.Inf(1)}, pred: []float64{1}, wantErr: "target 0 is +Inf"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mape, err1 := MAPE(tc.truth, tc.pred)
			mae, err2 := MAE(tc.truth, tc.pred)
			if tc.wantErr != "" {
				for _, err := range []error{err1, err2} {
					if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
						t.Errorf("err = %v, want %q", err, tc.wantErr)
					}
				}
				return
			}
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if math.Abs(mape-tc.mape) > 1e-15 || math.Abs(mae-tc.mae) > 1e-12 {
				t.Errorf("MAPE %v MAE %v, want %v %v", mape, mae, tc.mape, tc.mae)
			}
		})
	}
	// A zero target leaves MAPE undefined but not MAE.
	if _, err := MAPE([]float64{1, 0}, []float64{1, 1}); err == nil || !strings.Contains(err.Error(), "target 1 is 0") {
		t.Errorf("MAPE with a zero target: %v", err)
	}
	if v, err := MAE([]float64{1, 0}, []float64{1, 1}); err != nil || v != 0.5 {
		t.Errorf("MAE with a zero target = %v, %v", v, err)
	}
}

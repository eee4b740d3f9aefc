package svm

import (
	"math"
	"strings"
	"testing"
)

// hardMargin is a linear C-SVC with C large enough that no slack is paid,
// on unscaled features, solved tightly.
func hardMargin(b Backend) *Params {
	p := DefaultParams()
	p.Kernel, p.C, p.Tol, p.Scaling, p.Backend = Linear, 1e6, 1e-8, ScaleNone, b
	return &p
}

// On a linearly separable set the C-SVC with a large C is the hard-margin
// SVM: the hyperplane w·x + b = 0 of maximal margin 1/‖w‖, with
// y(w·x + b) = 1 on the support vectors.
func TestMaxMarginHyperplane(t *testing.T) {
	tests := []struct {
		name  string
		pos   []Vector
		neg   []Vector
		w     []float64
		b     float64
		nsv   int
		onSVs []Vector // points with |f| = 1
	}{
		{
			// The closest points of the two hulls are (2, 0) and (0, 0): the
			// hyperplane is x₀ = 1, margin 1, w = (1, 0), b = −1.
			name: "axis", pos: []Vector{{2, 0}, {3, 1}, {3, -1}, {4, 0}}, neg: []Vector{{0, 0}, {-1, 1}, {-1, -1}, {-2, 3}},
			w: []float64{1, 0}, b: -1, nsv: 2, onSVs: []Vector{{2, 0}, {0, 0}},
		},
		{
			// Any feasible w has w·(2, 2) ≥ 2 from (1, 1) and (−1, −1), so
			// ‖w‖ ≥ 1/√2 with equality at w = (½, ½), b = 0, which separates
			// every other point with room.
			name: "oblique", pos: []Vector{{1, 1}, {2, 3}, {3, 1}, {1, 4}}, neg: []Vector{{-1, -1}, {-2, -1}, {-1, -3}, {-3, -3}},
			w: []float64{0.5, 0.5}, b: 0, nsv: 2, onSVs: []Vector{{1, 1}, {-1, -1}},
		},
	}
	for _, tc := range tests {
		for _, be := range testBackends() {
			t.Run(tc.name+"/"+be.String(), func(t *testing.T) {
				// Interleave the classes so the order libsvm groups them in
				// is exercised.
				var x []Vector
				var y []bool
				for i := range tc.pos {
					x, y = append(x, tc.neg[i], tc.pos[i]), append(y, false, true)
				}
				c, err := TrainClassifier(x, y, hardMargin(be))
				if err != nil {
					t.Fatal(err)
				}
				w, b, ok := c.Linear()
				if !ok {
					t.Fatal("linear model has no hyperplane")
				}
				if !near(w, tc.w, 1e-6) || math.Abs(b-tc.b) > 1e-6 {
					t.Errorf("w = %v, b = %v; want %v, %v", w, b, tc.w, tc.b)
				}
				if c.SupportVectors() != tc.nsv {
					t.Errorf("%d support vectors, want %d", c.SupportVectors(), tc.nsv)
				}
				for _, v := range tc.onSVs {
					if f := c.Decision(v); math.Abs(math.Abs(f)-1) > 1e-6 {
						t.Errorf("f(%v) = %v, want ±1", v, f)
					}
				}
				for i, v := range x {
					if c.Classify(v) != y[i] {
						t.Errorf("training point %v misclassified", v)
					}
				}
			})
		}
	}
}

// An ε-SVR of a noiseless linear function y = w*·x + b* fits every
// training point within ε (the truth is feasible without slack, and for C
// above the hard problem's multipliers slack is never paid). With the
// corners of [−1, 1]² among the points, the error g = f − truth is linear
// with |g| ≤ ε at the corners, so each of w − w* and b − b* is within ε and
// |g| ≤ ε on the whole square.
func TestSVRRecoversLinearFunction(t *testing.T) {
	wTrue, bTrue := []float64{2, -3}, 5.0
	truth := func(v Vector) float64 { return wTrue[0]*v[0] + wTrue[1]*v[1] + bTrue }
	x := []Vector{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}}
	for i := range 46 {
		u := float64(i) / 46
		x = append(x, Vector{math.Cos(7*u) * u, math.Sin(11*u) * (1 - u)})
	}
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = truth(v)
	}
	const eps, slack = 0.1, 1e-6
	for _, be := range testBackends() {
		t.Run(be.String(), func(t *testing.T) {
			p := DefaultParams()
			p.Kernel, p.C, p.Epsilon, p.Tol, p.Scaling, p.Backend = Linear, 1000, eps, 1e-9, ScaleNone, be
			r, err := TrainRegressor(x, y, &p)
			if err != nil {
				t.Fatal(err)
			}
			w, b, _ := r.Linear()
			for k := range w {
				if math.Abs(w[k]-wTrue[k]) > eps+slack {
					t.Errorf("w[%d] = %v, want %v ± ε", k, w[k], wTrue[k])
				}
			}
			if math.Abs(b-bTrue) > eps+slack {
				t.Errorf("b = %v, want %v ± ε", b, bTrue)
			}
			for i, v := range x {
				if e := math.Abs(r.Predict(v) - y[i]); e > eps+slack {
					t.Errorf("training point %v: error %v > ε", v, e)
				}
			}
			for i := range 21 {
				for j := range 21 {
					v := Vector{-1 + float64(i)/10, -1 + float64(j)/10}
					if e := math.Abs(r.Predict(v) - truth(v)); e > eps+slack {
						t.Errorf("grid point %v: error %v > ε", v, e)
					}
				}
			}
			// The flattest function in the tube is no steeper than the truth.
			if n, n0 := math.Hypot(w[0], w[1]), math.Hypot(wTrue[0], wTrue[1]); n > n0+slack {
				t.Errorf("‖w‖ = %v > ‖w*‖ = %v", n, n0)
			}
		})
	}
}

// Nonlinear sanity per backend and kernel on seeded data: every kernel
// beats chance (balanced accuracy 0.5) and the mean (MAE ≈ 0.6), and RBF
// learns the curved boundary and the function far better than the others.
func TestNonlinearFits(t *testing.T) {
	x, y := classData(3, 600, 3)
	xt, yt := classData(4, 400, 3)
	xr, yr := regData(3, 600, 3)
	xrt, yrt := regData(4, 400, 3)
	for _, be := range testBackends() {
		for _, tc := range []struct {
			k       Kernel
			minBAcc float64
			maxMAE  float64
		}{
			{RBF, 0.9, 0.15},
			{Sigmoid, 0.75, 0.5},
			{Linear, 0.75, 0.5},
		} {
			t.Run(be.String()+"/"+tc.k.String(), func(t *testing.T) {
				p := DefaultParams()
				p.Kernel, p.Backend, p.C = tc.k, be, 10
				if tc.k == Sigmoid {
					p.C, p.Gamma = 1, 0.05
				}
				c, err := TrainClassifier(x, y, &p)
				if err != nil {
					t.Fatal(err)
				}
				pred := make([]bool, len(xt))
				for i, v := range xt {
					pred[i] = c.Classify(v)
				}
				cf, _ := NewConfusion(yt, pred)
				if cf.BalancedAccuracy() < tc.minBAcc {
					t.Errorf("held-out balanced accuracy %.3f < %.2f (%+v)", cf.BalancedAccuracy(), tc.minBAcc, cf)
				}
				r, err := TrainRegressor(xr, yr, &p)
				if err != nil {
					t.Fatal(err)
				}
				pr := make([]float64, len(xrt))
				for i, v := range xrt {
					pr[i] = r.Predict(v)
				}
				mae, _ := MAE(yrt, pr)
				t.Logf("balanced accuracy %.3f, MAE %.3f", cf.BalancedAccuracy(), mae)
				if mae > tc.maxMAE {
					t.Errorf("held-out MAE %.3f > %.2f", mae, tc.maxMAE)
				}
			})
		}
	}
}

func TestOneClassTrainingSet(t *testing.T) {
	x := []Vector{{1, 2}, {3, 4}, {5, 0}}
	for _, label := range []bool{true, false} {
		for _, be := range testBackends() {
			c, err := TrainClassifier(x, []bool{label, label, label}, withBackend(DefaultParams(), be))
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range []Vector{{1, 2}, {-100, 100}} {
				if c.Classify(v) != label {
					t.Errorf("%v, all %v: Classify(%v) = %v", be, label, v, !label)
				}
			}
			if c.SupportVectors() != 0 {
				t.Errorf("constant model has %d support vectors", c.SupportVectors())
			}
		}
	}
}

func TestTrainErrors(t *testing.T) {
	x := []Vector{{1}, {2}}
	bad := DefaultParams()
	bad.C = 0
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"labels", func() error { _, e := TrainClassifier(x, []bool{true}, nil); return e }(), "1 labels for 2 samples"},
		{"targets", func() error { _, e := TrainRegressor(x, []float64{1, 2, 3}, nil); return e }(), "3 targets for 2 samples"},
		{"NaN target", func() error { _, e := TrainRegressor(x, []float64{1, math.NaN()}, nil); return e }(), "target 1 is NaN"},
		{"ragged", func() error { _, e := TrainClassifier([]Vector{{1}, {1, 2}}, []bool{true, false}, nil); return e }(), "sample 1 has 2 features"},
		{"params", func() error { _, e := TrainRegressor(x, []float64{1, 2}, &bad); return e }(), "C must be"},
		{"no samples", func() error { _, e := TrainRegressor(nil, nil, nil); return e }(), "no samples"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", tc.err, tc.want)
			}
		})
	}
}

// Training twice on the same input gives the same model, bit for bit.
func TestDeterministic(t *testing.T) {
	x, y := classData(9, 300, 4)
	xr, yr := regData(9, 300, 4)
	for _, be := range testBackends() {
		p := withBackend(DefaultParams(), be)
		a, _ := TrainClassifier(x, y, p)
		b, _ := TrainClassifier(x, y, p)
		ra, _ := TrainRegressor(xr, yr, p)
		rb, _ := TrainRegressor(xr, yr, p)
		for i := range x {
			if a.Decision(x[i]) != b.Decision(x[i]) || ra.Predict(xr[i]) != rb.Predict(xr[i]) {
				t.Fatalf("%v: two trainings differ at sample %d", be, i)
			}
		}
	}
}

// The resolved parameters are reported back: γ = 1/features by default.
func TestParamsReported(t *testing.T) {
	x, y := classData(1, 50, 5)
	c, err := TrainClassifier(x, y, nil)
	if err != nil {
		t.Fatal(err)
	}
	if q := c.Params(); q.Gamma != 0.2 || q.Backend != defaultBackend {
		t.Errorf("params %+v", q)
	}
	if _, _, ok := c.Linear(); ok {
		t.Error("an RBF model reported a hyperplane")
	}
}

// On a set with one positive in ten, weighting the positive class by
// n₋/n₊ trades precision for recall of the rare class: recall rises, and
// balanced accuracy with it.
func TestClassWeight(t *testing.T) {
	x, y := classData(51, 2000, 3)
	xt, yt := classData(52, 1000, 3)
	// Keep the positives with x₀ > 1.2: a rare, harder class.
	rare := func(x []Vector, y []bool) ([]Vector, []bool) {
		var rx []Vector
		var ry []bool
		for i := range x {
			ry = append(ry, y[i] && x[i][0] > 1.2)
			rx = append(rx, x[i])
		}
		return rx, ry
	}
	x, y = rare(x, y)
	xt, yt = rare(xt, yt)
	npos := 0
	for _, v := range y {
		if v {
			npos++
		}
	}
	for _, be := range testBackends() {
		t.Run(be.String(), func(t *testing.T) {
			score := func(w float64) Confusion {
				p := DefaultParams()
				p.Backend, p.ClassWeight = be, w
				c, err := TrainClassifier(x, y, &p)
				if err != nil {
					t.Fatal(err)
				}
				pred := make([]bool, len(xt))
				for i, v := range xt {
					pred[i] = c.Classify(v)
				}
				cf, _ := NewConfusion(yt, pred)
				return cf
			}
			plain, weighted := score(1), score(float64(len(y)-npos)/float64(npos))
			t.Logf("%d positives of %d; recall %.3f → %.3f, balanced accuracy %.3f → %.3f",
				npos, len(y), plain.Recall(), weighted.Recall(), plain.BalancedAccuracy(), weighted.BalancedAccuracy())
			if !(weighted.Recall() > plain.Recall()+0.05) || !(weighted.BalancedAccuracy() > plain.BalancedAccuracy()) {
				t.Errorf("weighting the rare class: recall %.3f → %.3f, balanced accuracy %.3f → %.3f",
					plain.Recall(), weighted.Recall(), plain.BalancedAccuracy(), weighted.BalancedAccuracy())
			}
		})
	}
}

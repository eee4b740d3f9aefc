package threesigma

import (
	"errors"
	"math"
	"testing"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/utility"
)

// TestConditionalMoments: the keep value's conditional expectations
// equal those of the conditioned distribution (distributions.Conditional,
// then ExpectedUtility and Mean), and, for a uniform runtime, the closed
// forms.
func TestConditionalMoments(t *testing.T) {
	hist, err := distributions.NewPiecewiseUniform([]distributions.Segment{
		{Lo: 10, Hi: 40, Mass: 0.3}, {Lo: 50, Hi: 50, Mass: 0.2}, {Lo: 60, Hi: 200, Mass: 0.45}, {Lo: 300, Hi: 300, Mass: 0.05},
	})
	if err != nil {
		t.Fatal(err)
	}
	decay, err := utility.NewCurve(utility.Knot{X: 1000, Left: 100, Right: 100}, utility.Knot{X: 1120, Left: 10, Right: 10})
	if err != nil {
		t.Fatal(err)
	}
	step, err := utility.SLOStep(50, 1100)
	if err != nil {
		t.Fatal(err)
	}
	const start = 1000.0
	for _, tc := range []struct {
		name  string
		e     float64
		curve utility.Curve
	}{
		{"not started", 0, decay},
		{"inside a segment", 25, decay},
		{"at a segment's end", 40, decay},
		{"at a point mass", 50, decay},
		{"past the knots", 150, decay},
		{"step at the deadline", 60, step},
		{"zero curve", 70, utility.Curve{}},
		{"in the last mass", 299.5, decay},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt, err := utility.NewRuntime(hist)
			if err != nil {
				t.Fatal(err)
			}
			eu, mean, err := conditionalMoments(rt, tc.curve, start, tc.e)
			if err != nil {
				t.Fatal(err)
			}
			cd, err := distributions.Conditional(hist, tc.e)
			if err != nil {
				t.Fatal(err)
			}
			crt, err := utility.NewRuntime(cd.(distributions.Piecewise))
			if err != nil {
				t.Fatal(err)
			}
			wantEU := crt.ExpectedUtility(tc.curve, []float64{start}, nil)[0]
			if math.Abs(eu-wantEU) > 1e-9*math.Max(1, math.Abs(wantEU)) {
				t.Errorf("E[U | T > %v] = %.15g, conditioned distribution %.15g", tc.e, eu, wantEU)
			}
			if want := cd.Mean(); math.Abs(mean-want) > 1e-9*want {
				t.Errorf("E[T | T > %v] = %.15g, conditioned distribution %.15g", tc.e, mean, want)
			}
		})
	}
	// Uniform on [0, 100], e = 40: T | T > 40 is uniform on [40, 100],
	// mean 70; with U(x) = 1 until 1080 (start 1000), P(T ≤ 80 | T > 40)
	// = 40/60.
	uni, _ := distributions.NewPiecewiseUniform([]distributions.Segment{{Lo: 0, Hi: 100, Mass: 1}})
	until, _ := utility.SLOStep(1, 1080)
	eu, mean, err := conditionalMoments(uni, until, 1000, 40)
	if err != nil || math.Abs(eu-40.0/60) > 1e-12 || math.Abs(mean-70) > 1e-12 {
		t.Errorf("uniform: E[U] %v (want 2/3), mean %v (want 70), %v", eu, mean, err)
	}
	if _, _, err := conditionalMoments(uni, until, 1000, 100); !errors.Is(err, distributions.ErrBeyondSupport) {
		t.Errorf("elapsed at the end of the support: %v, want ErrBeyondSupport", err)
	}
}

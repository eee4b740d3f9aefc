package utility_test

import (
	"errors"
	"math"
	"testing"

	"github.com/plannerhq/planner/utility"
)

func TestOverestimateParse(t *testing.T) {
	for _, m := range []utility.Overestimate{utility.OverestimateAdaptive, utility.OverestimateOff, utility.OverestimateAlways} {
		got, err := utility.ParseOverestimate(m.String())
		if err != nil || got != m {
			t.Errorf("ParseOverestimate(%q) = %v, %v", m.String(), got, err)
		}
	}
	if _, err := utility.ParseOverestimate("sometimes"); !errors.Is(err, utility.ErrInvalid) {
		t.Error("unknown mode: no error")
	}
	if s := utility.Overestimate(7).String(); s != "Overestimate(7)" {
		t.Errorf("String of unknown mode = %q", s)
	}
}

func TestNeedsOverestimateHandling(t *testing.T) {
	tests := []struct {
		name             string
		d                segDist
		submit, deadline float64
		threshold        float64
		want             bool
	}{
		{"all history too slow", uniform(200, 400), 0, 100, utility.DefaultOverestimateThreshold, true},
		{"surely in time", uniform(10, 50), 0, 100, utility.DefaultOverestimateThreshold, false},
		// P(T ≤ 100) = 0.04 < 0.05.
		{"small chance below threshold", segDist{{Lo: 0, Hi: 100, Mass: 0.04}, {Lo: 100, Hi: 200, Mass: 0.96}}, 0, 100, 0.05, true},
		// P(T ≤ 100) = 0.06 ≥ 0.05.
		{"chance above threshold", segDist{{Lo: 0, Hi: 100, Mass: 0.06}, {Lo: 100, Hi: 200, Mass: 0.94}}, 0, 100, 0.05, false},
		{"window counts from submit", uniform(150, 150), 1000, 1150, 0.05, false},
		{"threshold zero never extends", uniform(200, 400), 0, 100, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := utility.NeedsOverestimateHandling(tc.d, tc.submit, tc.deadline, tc.threshold)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	// Not piecewise: P(T ≤ 100) = 1 − e^{−100/2000} ≈ 0.049 < 0.05.
	if got, err := utility.NeedsOverestimateHandling(expDist{mean: 2000}, 0, 100, 0.05); err != nil || !got {
		t.Errorf("exponential: got %v, %v; want true", got, err)
	}
	rt, _ := utility.NewRuntime(uniform(200, 400))
	if got, err := utility.NeedsOverestimateHandling(rt, 0, 100, 0.05); err != nil || !got {
		t.Errorf("prepared runtime: got %v, %v; want true", got, err)
	}
	for _, bad := range []float64{math.NaN(), -0.1, 1.5} {
		if _, err := utility.NeedsOverestimateHandling(uniform(0, 1), 0, 1, bad); !errors.Is(err, utility.ErrInvalid) {
			t.Errorf("threshold %g: no error", bad)
		}
	}
	if _, err := utility.NeedsOverestimateHandling(nil, 0, 1, 0.1); !errors.Is(err, utility.ErrInvalid) {
		t.Error("nil distribution: no error")
	}
}

func TestSLOCurve(t *testing.T) {
	spec := utility.SLOSpec{Value: 10, Submit: 0, Deadline: 100}
	slow, fast := uniform(200, 400), uniform(10, 50)
	tests := []struct {
		name         string
		mode         utility.Overestimate
		d            segDist
		wantExtended bool
	}{
		{"adaptive, over-estimated", utility.OverestimateAdaptive, slow, true},
		{"adaptive, fine", utility.OverestimateAdaptive, fast, false},
		{"off", utility.OverestimateOff, slow, false},
		{"always", utility.OverestimateAlways, fast, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, ext, err := utility.SLOCurve(tc.mode, spec, tc.d)
			if err != nil {
				t.Fatal(err)
			}
			if ext != tc.wantExtended {
				t.Fatalf("extended = %v, want %v", ext, tc.wantExtended)
			}
			if c.At(100) != 10 {
				t.Errorf("value at the deadline = %g, want 10", c.At(100))
			}
			after := c.At(150) // halfway through the default window (= 100 s)
			want := 0.0
			if ext {
				want = 0.5 * utility.DefaultPostDeadlineFraction * 10
			}
			if math.Abs(after-want) > closeTol {
				t.Errorf("value 50 s late = %g, want %g", after, want)
			}
		})
	}
	if _, _, err := utility.SLOCurve(utility.OverestimateAlways, utility.SLOSpec{Value: 1, Submit: 5, Deadline: 5}, slow); !errors.Is(err, utility.ErrInvalid) {
		t.Error("deadline at submit: no error")
	}
	if _, _, err := utility.SLOCurve(utility.Overestimate(9), spec, slow); !errors.Is(err, utility.ErrInvalid) {
		t.Error("unknown mode: no error")
	}
	if _, _, err := utility.SLOCurve(utility.OverestimateAlways, utility.SLOSpec{Value: 1, Deadline: 10, Post: 2}, slow); !errors.Is(err, utility.ErrInvalid) {
		t.Error("post above value: no error")
	}
}

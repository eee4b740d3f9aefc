package utility_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/plannerhq/planner/utility"
)

// naiveU evaluates the curve through knots straight from its definition,
// independently of the package's piece representation.
func naiveU(knots []utility.Knot, x float64) float64 {
	if len(knots) == 0 {
		return 0
	}
	if x <= knots[0].X {
		return knots[0].Left
	}
	for i := 0; i+1 < len(knots); i++ {
		a, b := knots[i], knots[i+1]
		if x > a.X && x <= b.X {
			return a.Right + (b.Left-a.Right)*(x-a.X)/(b.X-a.X)
		}
	}
	return knots[len(knots)-1].Right
}

// randomKnots draws 1–5 knots on roughly [lo, hi] with non-negative values
// and random jumps.
func randomKnots(r *rand.Rand, lo, hi float64) []utility.Knot {
	n := 1 + r.IntN(5)
	ks := make([]utility.Knot, n)
	x := lo + r.Float64()*(hi-lo)/4
	for i := range ks {
		v := 10 * r.Float64()
		w := v
		if r.IntN(2) == 0 {
			w = 10 * r.Float64()
		}
		if r.IntN(6) == 0 {
			v, w = 0, 0
		}
		ks[i] = utility.Knot{X: x, Left: v, Right: w}
		x += (hi - lo) / 4 * (0.01 + r.Float64())
	}
	return ks
}

func TestCurveAt(t *testing.T) {
	step, _ := utility.SLOStep(5, 100)
	decay, _ := utility.LinearDecay(8, 10, 50)
	ext, _ := utility.SLOExtended(10, 100, 2, 40)
	tests := []struct {
		name string
		c    utility.Curve
		x    float64
		want float64
	}{
		{"step before", step, 0, 5},
		{"step at deadline is inclusive", step, 100, 5},
		{"step just after", step, math.Nextafter(100, 200), 0},
		{"step far after", step, 1e9, 0},
		{"decay before start", decay, -5, 8},
		{"decay at start", decay, 10, 8},
		{"decay halfway", decay, 30, 4},
		{"decay at zero", decay, 50, 0},
		{"decay after", decay, 70, 0},
		{"extended at deadline", ext, 100, 10},
		{"extended just after deadline", ext, math.Nextafter(100, 200), 2},
		{"extended halfway down", ext, 120, 1},
		{"extended at window end", ext, 140, 0},
		{"zero curve", utility.Curve{}, 3, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.c.At(tc.x); math.Abs(got-tc.want) > closeTol*math.Max(1, math.Abs(tc.want)) {
				t.Errorf("At(%g) = %.17g, want %g", tc.x, got, tc.want)
			}
		})
	}
}

func TestCurveAtMatchesKnots(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 500; i++ {
		ks := randomKnots(r, -100, 1000)
		c, err := utility.NewCurve(ks...)
		if err != nil {
			t.Fatalf("NewCurve(%v): %v", ks, err)
		}
		for k := 0; k < 20; k++ {
			x := -200 + 1400*r.Float64()
			if k < len(ks) {
				x = ks[k].X
			}
			got, want := c.At(x), naiveU(ks, x)
			if math.Abs(got-want) > closeTol*math.Max(1, math.Abs(want)) {
				t.Fatalf("curve %v: At(%g) = %.17g, want %.17g", ks, x, got, want)
			}
		}
	}
}

func TestCurveConstructorsReject(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name string
		make func() (utility.Curve, error)
	}{
		{"no knots", func() (utility.Curve, error) { return utility.NewCurve() }},
		{"NaN knot", func() (utility.Curve, error) { return utility.NewCurve(utility.Knot{X: nan}) }},
		{"infinite value", func() (utility.Curve, error) { return utility.NewCurve(utility.Knot{X: 1, Left: inf}) }},
		{"unsorted knots", func() (utility.Curve, error) {
			return utility.NewCurve(utility.Knot{X: 2}, utility.Knot{X: 1})
		}},
		{"repeated knot", func() (utility.Curve, error) {
			return utility.NewCurve(utility.Knot{X: 1}, utility.Knot{X: 1})
		}},
		{"infinite slope", func() (utility.Curve, error) {
			return utility.NewCurve(utility.Knot{X: 0, Right: 1e300}, utility.Knot{X: 1e-300, Left: -1e300})
		}},
		{"step NaN value", func() (utility.Curve, error) { return utility.SLOStep(nan, 1) }},
		{"step negative value", func() (utility.Curve, error) { return utility.SLOStep(-1, 1) }},
		{"step NaN deadline", func() (utility.Curve, error) { return utility.SLOStep(1, nan) }},
		{"decay zero before start", func() (utility.Curve, error) { return utility.LinearDecay(1, 10, 5) }},
		{"decay empty window", func() (utility.Curve, error) { return utility.LinearDecay(1, 10, 10) }},
		{"decay infinite zero", func() (utility.Curve, error) { return utility.LinearDecay(1, 0, inf) }},
		{"extended post above value", func() (utility.Curve, error) { return utility.SLOExtended(1, 10, 2, 5) }},
		{"extended post equals value", func() (utility.Curve, error) { return utility.SLOExtended(1, 10, 1, 5) }},
		{"extended negative post", func() (utility.Curve, error) { return utility.SLOExtended(1, 10, -1, 5) }},
		{"extended zero window", func() (utility.Curve, error) { return utility.SLOExtended(1, 10, 0.5, 0) }},
		{"extended NaN window", func() (utility.Curve, error) { return utility.SLOExtended(1, 10, 0.5, nan) }},
		{"extended window lost in rounding", func() (utility.Curve, error) { return utility.SLOExtended(1, 1e20, 0.5, 1) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := tc.make(); !errors.Is(err, utility.ErrInvalid) {
				t.Error("no error")
			}
		})
	}
}

func TestCurveKnotsIsCopy(t *testing.T) {
	c, err := utility.SLOStep(1, 10)
	if err != nil {
		t.Fatal(err)
	}
	ks := c.Knots()
	ks[0].Left = 99
	if c.At(0) != 1 {
		t.Fatal("Knots returned the curve's own storage")
	}
	if !(utility.Curve{}).IsZero() || c.IsZero() {
		t.Fatal("IsZero wrong")
	}
}

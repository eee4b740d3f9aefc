package utility_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/utility"
)

// TestRuntimeDist checks the Dist methods of *Runtime against the test
// double's direct formulas and, for Quantile, against its own CDF.
func TestRuntimeDist(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		d := randomDist(r, 1+r.IntN(80), 1000)
		rt, err := utility.NewRuntime(d)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(rt.Segments(), []distributions.Segment(d)) || rt.Len() != len(d) {
			t.Fatalf("trial %d: Segments differ", trial)
		}
		if got, want := rt.Mean(), d.Mean(); math.Abs(got-want) > closeTol*want {
			t.Fatalf("trial %d: Mean = %.17g, want %.17g", trial, got, want)
		}
		if rt.Max() != d.Max() {
			t.Fatalf("trial %d: Max = %g, want %g", trial, rt.Max(), d.Max())
		}
		for k := 0; k < 60; k++ {
			x := -10 + 1300*r.Float64()
			if k < len(d) {
				x = d[k].Lo // edges and point masses
			}
			if got, want := rt.CDF(x), d.CDF(x); math.Abs(got-want) > closeTol {
				t.Fatalf("trial %d: CDF(%g) = %.17g, want %.17g", trial, x, got, want)
			}
			if got, want := rt.Survival(x), 1-d.CDF(x); math.Abs(got-want) > closeTol {
				t.Fatalf("trial %d: Survival(%g) = %.17g, want %.17g", trial, x, got, want)
			}
			p := r.Float64()
			q := rt.Quantile(p)
			// Smallest t with CDF(t) ≥ p: CDF(q) ≥ p and CDF just below q < p.
			if d.CDF(q) < p-closeTol || (q > 0 && d.CDF(q*(1-1e-9)-1e-9) > p+closeTol) {
				t.Fatalf("trial %d: Quantile(%g) = %g, CDF there %g", trial, p, q, d.CDF(q))
			}
		}
		if v := rt.Rand(r); v < d[0].Lo || v > d.Max() {
			t.Fatalf("trial %d: Rand = %g outside the support", trial, v)
		}
	}
}

func TestRuntimeDistEdges(t *testing.T) {
	rt, err := utility.NewRuntime(segDist{{Lo: 10, Hi: 10, Mass: 0.5}, {Lo: 20, Hi: 30, Mass: 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		got, want float64
	}{
		{"CDF below", rt.CDF(5), 0},
		{"CDF at the point mass", rt.CDF(10), 0.5},
		{"CDF inside", rt.CDF(25), 0.75},
		{"CDF above", rt.CDF(99), 1},
		{"Survival at the point mass", rt.Survival(10), 0.5},
		{"Survival inside", rt.Survival(25), 0.25},
		{"Quantile 0", rt.Quantile(0), 10},
		{"Quantile of the point mass", rt.Quantile(0.3), 10},
		{"Quantile inside", rt.Quantile(0.75), 25},
		{"Quantile 1", rt.Quantile(1), 30},
		{"Mean", rt.Mean(), 17.5},
		{"Max", rt.Max(), 30},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if math.Abs(tc.got-tc.want) > ulpTol {
				t.Errorf("got %.17g, want %g", tc.got, tc.want)
			}
		})
	}
	for _, v := range []float64{rt.CDF(math.NaN()), rt.Survival(math.NaN()), rt.Quantile(math.NaN())} {
		if !math.IsNaN(v) {
			t.Errorf("NaN in, %g out", v)
		}
	}
}

// TestZeroRuntime: a Runtime not built by NewRuntime must not panic.
func TestZeroRuntime(t *testing.T) {
	var rt utility.Runtime
	for _, v := range []float64{rt.CDF(1), rt.Survival(1), rt.Quantile(0.5), rt.Mean(), rt.Max()} {
		if !math.IsNaN(v) {
			t.Errorf("zero Runtime gave %g, want NaN", v)
		}
	}
	if rt.Segments() != nil {
		t.Error("zero Runtime has segments")
	}
	c, _ := utility.SLOStep(1, 1)
	if got := rt.ExpectedUtility(c, []float64{0}, nil); !math.IsNaN(got[0]) {
		t.Errorf("ExpectedUtility = %g, want NaN", got[0])
	}
	if _, err := utility.RRC(&rt, 0, []float64{0}, nil); !errors.Is(err, utility.ErrInvalid) {
		t.Error("RRC: no error")
	}
	if _, err := utility.Consumption(&rt, []float64{0}, nil); !errors.Is(err, utility.ErrInvalid) {
		t.Error("Consumption: no error")
	}
	if _, err := utility.Capacity([]int{1}, []utility.Running{{Nodes: []int{1}, Dist: &rt}}, []float64{0}, nil); !errors.Is(err, utility.ErrInvalid) {
		t.Error("Capacity: no error")
	}
}

// TestRRCRuntimeMatchesPiecewise: the prepared path and the segment path
// agree, for ascending and shuffled times.
func TestRRCRuntimeMatchesPiecewise(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for trial := 0; trial < 200; trial++ {
		d := randomDist(r, 1+r.IntN(80), 3600)
		rt, err := utility.NewRuntime(d)
		if err != nil {
			t.Fatal(err)
		}
		e := r.Float64() * d.Max() * 1.1
		ts := make([]float64, 120)
		for k := range ts {
			ts[k] = 60*float64(k) - 30
		}
		if trial%2 == 1 {
			r.Shuffle(len(ts), func(i, j int) { ts[i], ts[j] = ts[j], ts[i] })
		}
		a, err := utility.RRC(d, e, ts, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := utility.RRC(rt, e, ts, nil)
		if err != nil {
			t.Fatal(err)
		}
		ca, _ := utility.Consumption(d, ts, nil)
		cb, _ := utility.Consumption(rt, ts, nil)
		for k := range ts {
			if math.Abs(a[k]-b[k]) > closeTol || math.Abs(ca[k]-cb[k]) > subtractTol {
				t.Fatalf("trial %d, t=%g: RRC %.17g vs %.17g, consumption %.17g vs %.17g", trial, ts[k], a[k], b[k], ca[k], cb[k])
			}
		}
		oa, _ := utility.Outlived(d, e)
		ob, _ := utility.Outlived(rt, e)
		if oa != ob {
			t.Fatalf("trial %d: Outlived %v vs %v", trial, oa, ob)
		}
	}
}

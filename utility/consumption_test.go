package utility_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/plannerhq/planner/utility"
)

// expDist is an exponential runtime with the given mean: a Dist that is not
// Piecewise, to exercise the Survival path.
type expDist struct{ mean float64 }

func (e expDist) CDF(t float64) float64 { return 1 - e.Survival(t) }
func (e expDist) Survival(t float64) float64 {
	if t <= 0 {
		return 1
	}
	return math.Exp(-t / e.mean)
}
func (e expDist) Quantile(p float64) float64 { return -e.mean * math.Log1p(-p) }
func (e expDist) Mean() float64              { return e.mean }
func (e expDist) Max() float64               { return math.Inf(1) }
func (e expDist) Rand(r *rand.Rand) float64  { return e.mean * r.ExpFloat64() }

// directRRC is the formula of DESIGN.md, straight from the CDF.
func directRRC(cdf func(float64) float64, e, t float64) float64 {
	if t <= 0 {
		return 1
	}
	den := 1 - cdf(e)
	if den <= 0 {
		return 1
	}
	return math.Min(1, math.Max(0, (1-cdf(e+t))/den))
}

func TestRRCClosedForms(t *testing.T) {
	tests := []struct {
		name    string
		d       segDist
		elapsed float64
		ts      []float64
		want    []float64
	}{
		// Uniform [0, 100] after 50 s: the rest is uniform on (50, 100].
		{"uniform", uniform(0, 100), 50, []float64{0, 10, 25, 50, 60}, []float64{1, 0.8, 0.5, 0, 0}},
		{"not started yet", uniform(0, 100), 0, []float64{-5, 0, 25}, []float64{1, 1, 0.75}},
		// Point mass at 30 after 10 s: held until t = 20, free from then on.
		{"point", uniform(30, 30), 10, []float64{0, 19.5, 20, 30}, []float64{1, 1, 0, 0}},
		// Half the mass at 10, half uniform on [20, 40]; after 15 s only the
		// uniform part is left.
		{"mixed", segDist{{Lo: 10, Hi: 10, Mass: 0.5}, {Lo: 20, Hi: 40, Mass: 0.5}}, 15, []float64{0, 5, 15, 25}, []float64{1, 1, 0.5, 0}},
		// Outlived: the job ran past its whole distribution.
		{"outlived", uniform(0, 100), 100, []float64{0, 10, 1e6}, []float64{1, 1, 1}},
		{"outlived point", uniform(30, 30), 30, []float64{5}, []float64{1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := utility.RRC(tc.d, tc.elapsed, tc.ts, nil)
			if err != nil {
				t.Fatal(err)
			}
			for k := range tc.ts {
				if math.Abs(got[k]-tc.want[k]) > ulpTol {
					t.Errorf("RRC(%g, %g) = %.17g, want %g", tc.ts[k], tc.elapsed, got[k], tc.want[k])
				}
			}
			out, err := utility.Outlived(tc.d, tc.elapsed)
			if err != nil {
				t.Fatal(err)
			}
			if wantOut := tc.elapsed >= tc.d.Max(); out != wantOut {
				t.Errorf("Outlived = %v, want %v", out, wantOut)
			}
		})
	}
}

func TestRRCAgainstFormula(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for trial := 0; trial < 300; trial++ {
		d := randomDist(r, 1+r.IntN(80), 3600)
		e := r.Float64() * d.Max() * 1.1
		if trial%10 == 0 {
			e = d[r.IntN(len(d))].Lo // on a segment edge or point mass
		}
		ts := make([]float64, 120)
		for k := range ts {
			ts[k] = 60*float64(k) - 30 // one slice in the past
		}
		if trial%2 == 1 {
			r.Shuffle(len(ts), func(i, j int) { ts[i], ts[j] = ts[j], ts[i] })
		}
		got, err := utility.RRC(d, e, ts, make([]float64, len(ts)))
		if err != nil {
			t.Fatal(err)
		}
		// The direct formula subtracts from 1, so it is only accurate to a
		// few ulps of 1 divided by the denominator.
		tol := subtractTol / math.Max(1e-300, 1-d.CDF(e))
		for k, tt := range ts {
			if want := directRRC(d.CDF, e, tt); math.Abs(got[k]-want) > tol {
				t.Fatalf("trial %d: RRC(%g, %g) = %.17g, want %.17g", trial, tt, e, got[k], want)
			}
		}
		cons, err := utility.Consumption(d, ts, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k, tt := range ts {
			want := 1 - d.CDF(tt)
			if tt < 0 {
				want = 0
			}
			if math.Abs(cons[k]-want) > subtractTol {
				t.Fatalf("trial %d: Consumption(%g) = %.17g, want %.17g", trial, tt, cons[k], want)
			}
		}
	}
}

func TestRRCGenericDist(t *testing.T) {
	d := expDist{mean: 100}
	ts := []float64{-1, 0, 50, 100, 1000}
	got, err := utility.RRC(d, 300, ts, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, tt := range ts {
		want := 1.0
		if tt > 0 {
			want = math.Exp(-tt / 100) // memoryless
		}
		if math.Abs(got[k]-want) > closeTol {
			t.Errorf("RRC(%g) = %.17g, want %.17g", tt, got[k], want)
		}
	}
	cons, err := utility.Consumption(d, ts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cons[0] != 0 || cons[1] != 1 || math.Abs(cons[3]-math.Exp(-1)) > ulpTol {
		t.Errorf("Consumption = %v", cons)
	}
}

func TestRRCRejects(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name string
		d    utility.Running
		ts   []float64
	}{
		{"nil distribution", utility.Running{Dist: nil}, []float64{0}},
		{"invalid segments", utility.Running{Dist: segDist{{Lo: 0, Hi: 1, Mass: 0.5}}}, []float64{0}},
		{"NaN elapsed", utility.Running{Dist: uniform(0, 1), Elapsed: nan}, []float64{0}},
		{"negative elapsed", utility.Running{Dist: uniform(0, 1), Elapsed: -1}, []float64{0}},
		{"NaN time", utility.Running{Dist: uniform(0, 1)}, []float64{0, nan}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := utility.RRC(tc.d.Dist, tc.d.Elapsed, tc.ts, nil); !errors.Is(err, utility.ErrInvalid) {
				t.Error("RRC: no error")
			}
		})
	}
	if _, err := utility.Consumption(nil, []float64{0}, nil); !errors.Is(err, utility.ErrInvalid) {
		t.Error("Consumption(nil): no error")
	}
	if _, err := utility.Outlived(uniform(0, 1), nan); !errors.Is(err, utility.ErrInvalid) {
		t.Error("Outlived(NaN): no error")
	}
}

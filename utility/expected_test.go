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

// relTol is the relative error allowed against the brute-force integral:
// the package's sums have a few rounding errors per term, and the
// brute-force integral has its own.
const relTol = 1e-9

// Five-point Gauss–Legendre nodes and weights on [−1, 1]: exact for
// polynomials of degree ≤ 9, far more than the linear integrands here.
var glNodes = [5]float64{-0.9061798459386640, -0.5384693101056831, 0, 0.5384693101056831, 0.9061798459386640}
var glWeights = [5]float64{0.2369268850561891, 0.4786286704993665, 0.5688888888888889, 0.4786286704993665, 0.2369268850561891}

// bruteEU integrates U(s + t) against d numerically: point masses directly,
// each uniform segment split at every knot that falls inside it and each
// piece by Gauss–Legendre, using naiveU for U.
func bruteEU(knots []utility.Knot, d segDist, s float64) float64 {
	sum := 0.0
	for _, seg := range d {
		if seg.Mass == 0 {
			continue
		}
		if seg.Lo == seg.Hi {
			sum += seg.Mass * naiveU(knots, s+seg.Lo)
			continue
		}
		cuts := []float64{seg.Lo, seg.Hi}
		for _, k := range knots {
			if a := k.X - s; a > seg.Lo && a < seg.Hi {
				cuts = append(cuts, a)
			}
		}
		slices.Sort(cuts)
		rho := seg.Mass / (seg.Hi - seg.Lo)
		for i := 0; i+1 < len(cuts); i++ {
			a, b := cuts[i], cuts[i+1]
			h, c := (b-a)/2, (a+b)/2
			part := 0.0
			for g := range glNodes {
				part += glWeights[g] * naiveU(knots, s+c+h*glNodes[g])
			}
			sum += rho * h * part
		}
	}
	return sum
}

func TestExpectedUtilityClosedForms(t *testing.T) {
	step, _ := utility.SLOStep(2, 100)
	decay, _ := utility.LinearDecay(10, 0, 100)
	ext, _ := utility.SLOExtended(1, 100, 0.5, 50)
	tests := []struct {
		name  string
		c     utility.Curve
		d     segDist
		start float64
		want  float64
	}{
		// Step: V · P(T ≤ D − s).
		{"step uniform all in time", step, uniform(0, 60), 40, 2},
		{"step uniform half in time", step, uniform(0, 60), 70, 1},
		{"step uniform all late", step, uniform(0, 60), 100, 0},
		{"step uniform negative start", step, uniform(0, 60), -1e6, 2},
		{"step point exactly at deadline", step, uniform(30, 30), 70, 2},
		{"step point just late", step, uniform(30, 30), 70.5, 0},
		// Decay 10·(100 − x)/100 on [0, 100]: wholly linear → U(s + E[T]).
		{"decay uniform inside the ramp", decay, uniform(0, 20), 10, 8},
		// ∫_90^100 10(100 − x)/100 dx / 20 = 0.25.
		{"decay uniform across the zero", decay, uniform(0, 20), 90, 0.25},
		{"decay point", decay, uniform(25, 25), 25, 5},
		// 0.5 on time + 0.5 · 0.5 · (150 − 110)/50 = 0.7.
		{"extended uniform across the deadline", ext, uniform(80, 120), 0, 0.7},
		{"extended mixed point masses", ext, segDist{{Lo: 50, Hi: 50, Mass: 0.25}, {Lo: 100, Hi: 100, Mass: 0.25}, {Lo: 125, Hi: 125, Mass: 0.5}}, 0, 0.25 + 0.25 + 0.5*0.25},
		{"zero curve", utility.Curve{}, uniform(0, 1), 3, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := utility.ExpectedUtility(tc.c, tc.d, []float64{tc.start}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got[0]-tc.want) > closeTol*math.Max(1, tc.want) {
				t.Errorf("E[U(%g)] = %.17g, want %g", tc.start, got[0], tc.want)
			}
		})
	}
}

// TestSection23 replays the thought experiment of 3Sigma §2.3: one node, a
// best-effort job run first, then the SLO job (deadline 15 min), runtimes
// i.i.d. uniform. The SLO job's miss probability is
// 1 − E_{T1}[E[U(T1 + T2)]] with U the unit SLO step; E[U(s)] is piecewise
// linear in s (the runtime's CDF is), so Gauss–Legendre on the pieces of
// T1's support integrates it exactly.
func TestSection23(t *testing.T) {
	const minute = 60.0
	slo, err := utility.SLOStep(1, 15*minute)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name            string
		lo, hi          float64 // runtime of both jobs, uniform [lo, hi] seconds
		kinks           []float64
		wantMissBEFirst float64
	}{
		{"case A uniform 0-10 min", 0, 10 * minute, []float64{5 * minute}, 0.125},
		{"case B uniform 2.5-7.5 min", 2.5 * minute, 7.5 * minute, nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := uniform(tc.lo, tc.hi)
			// SLO first: it starts now.
			first, err := utility.ExpectedUtility(slo, d, []float64{0}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if first[0] != 1 {
				t.Errorf("SLO first: miss probability %g, want 0", 1-first[0])
			}
			// BE first: the SLO job starts at T1 ~ d.
			cuts := append(append([]float64{tc.lo}, tc.kinks...), tc.hi)
			var starts, weights []float64
			for i := 0; i+1 < len(cuts); i++ {
				h, c := (cuts[i+1]-cuts[i])/2, (cuts[i]+cuts[i+1])/2
				for g := range glNodes {
					starts = append(starts, c+h*glNodes[g])
					weights = append(weights, glWeights[g]*h/(tc.hi-tc.lo))
				}
			}
			eu, err := utility.ExpectedUtility(slo, d, starts, nil)
			if err != nil {
				t.Fatal(err)
			}
			meet := 0.0
			for i := range eu {
				meet += weights[i] * eu[i]
			}
			if miss := 1 - meet; math.Abs(miss-tc.wantMissBEFirst) > closeTol {
				t.Errorf("BE first: SLO miss probability %.15g, want %g", miss, tc.wantMissBEFirst)
			}
		})
	}
}

// TestExpectedUtilityBruteForce compares against bruteEU on seeded random
// distributions (up to 80 segments, point masses, light tails) and random
// non-negative curves with jumps, for sorted and shuffled starts.
func TestExpectedUtilityBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(20240601, 7))
	worst := 0.0
	for trial := 0; trial < 800; trial++ {
		n := 1 + r.IntN(80)
		d := randomDist(r, n, 3600)
		var c utility.Curve
		var err error
		switch trial % 4 {
		case 0, 1:
			c, err = utility.NewCurve(randomKnots(r, 0, 8000)...)
		case 2: // best-effort ramp, often longer than the whole support
			c, err = utility.LinearDecay(1+r.Float64(), 1000*r.Float64(), 1000+20000*r.Float64())
		case 3:
			c, err = utility.SLOExtended(10, 500+4000*r.Float64(), 5*r.Float64(), 100+8000*r.Float64())
		}
		if err != nil {
			t.Fatal(err)
		}
		ks := c.Knots()
		starts := make([]float64, 120)
		for i := range starts {
			starts[i] = -2000 + 60*float64(i) + r.Float64()*60
		}
		if trial%3 == 1 {
			r.Shuffle(len(starts), func(i, j int) { starts[i], starts[j] = starts[j], starts[i] })
		}
		rt, err := utility.NewRuntime(d)
		if err != nil {
			t.Fatal(err)
		}
		got := rt.ExpectedUtility(c, starts, nil)
		for i, s := range starts {
			want := bruteEU(ks, d, s)
			err := math.Abs(got[i] - want)
			if want != 0 {
				err /= math.Abs(want)
			}
			worst = math.Max(worst, err)
			if err > relTol {
				t.Fatalf("trial %d (%d segments, knots %v): E[U(%.17g)] = %.17g, brute force %.17g (rel err %.3g)",
					trial, n, ks, s, got[i], want, err)
			}
		}
	}
	t.Logf("worst relative error %.3g", worst)
}

// TestExpectedUtilityEdges puts knots exactly on segment edges and point
// masses (integers, so s + t and X − s are exact).
func TestExpectedUtilityEdges(t *testing.T) {
	d := segDist{
		{Lo: 0, Hi: 0, Mass: 0.125},  // instant job
		{Lo: 10, Hi: 20, Mass: 0.25}, // touching the next segment
		{Lo: 20, Hi: 20, Mass: 0.125},
		{Lo: 20, Hi: 40, Mass: 0.25},
		{Lo: 60, Hi: 60, Mass: 0.25},
	}
	ks := []utility.Knot{{X: 100, Left: 8, Right: 4}, {X: 120, Left: 2, Right: 1}, {X: 140, Left: 0, Right: 0}}
	c, err := utility.NewCurve(ks...)
	if err != nil {
		t.Fatal(err)
	}
	var starts []float64
	for s := 20.0; s <= 150; s++ {
		starts = append(starts, s)
	}
	got, err := utility.ExpectedUtility(c, d, starts, make([]float64, 0, len(starts)))
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range starts {
		if want := bruteEU(ks, d, s); math.Abs(got[i]-want) > closeTol*math.Max(1, want) {
			t.Errorf("start %g: got %.17g, want %.17g", s, got[i], want)
		}
	}
}

func TestExpectedUtilityReusesOut(t *testing.T) {
	c, _ := utility.SLOStep(1, 10)
	rt, err := utility.NewRuntime(uniform(0, 20))
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]float64, 8)
	got := rt.ExpectedUtility(c, []float64{0, 5}, buf)
	if &got[0] != &buf[0] || len(got) != 2 || got[0] != 0.5 || got[1] != 0.25 {
		t.Fatalf("got %v (own storage %v)", got, &got[0] == &buf[0])
	}
	if allocs := testing.AllocsPerRun(10, func() { rt.ExpectedUtility(c, []float64{0, 5}, buf) }); allocs != 0 {
		t.Errorf("%v allocations with a given out", allocs)
	}
	if got := rt.ExpectedUtility(c, []float64{math.NaN()}, nil); !math.IsNaN(got[0]) {
		t.Errorf("NaN start gave %g", got[0])
	}
	inf := math.Inf(1)
	if got := rt.ExpectedUtility(c, []float64{-inf, inf}, nil); got[0] != 1 || got[1] != 0 {
		t.Errorf("infinite starts gave %v, want [1 0]", got)
	}
}

func TestRuntimeRejects(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name string
		d    distributions.Piecewise
	}{
		{"nil", nil},
		{"no segments", segDist{}},
		{"NaN bound", segDist{{Lo: nan, Hi: 1, Mass: 1}}},
		{"NaN mass", segDist{{Lo: 0, Hi: 1, Mass: nan}}},
		{"negative runtime", segDist{{Lo: -1, Hi: 1, Mass: 1}}},
		{"Lo above Hi", segDist{{Lo: 2, Hi: 1, Mass: 1}}},
		{"negative mass", segDist{{Lo: 0, Hi: 1, Mass: 2}, {Lo: 1, Hi: 2, Mass: -1}}},
		{"overlap", segDist{{Lo: 0, Hi: 2, Mass: 0.5}, {Lo: 1, Hi: 3, Mass: 0.5}}},
		{"masses sum below 1", segDist{{Lo: 0, Hi: 2, Mass: 0.5}}},
	}
	c, _ := utility.SLOStep(1, 10)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := utility.NewRuntime(tc.d); !errors.Is(err, utility.ErrInvalid) {
				t.Error("NewRuntime: no error")
			}
			if _, err := utility.ExpectedUtility(c, tc.d, []float64{0}, nil); !errors.Is(err, utility.ErrInvalid) {
				t.Error("ExpectedUtility: no error")
			}
		})
	}
	if _, err := utility.ExpectedUtility(c, uniform(0, 1), []float64{nan}, nil); !errors.Is(err, utility.ErrInvalid) {
		t.Error("NaN start: no error")
	}
}

func TestRuntimeSurvival(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 100; trial++ {
		d := randomDist(r, 1+r.IntN(80), 1000)
		rt, err := utility.NewRuntime(d)
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 50; k++ {
			x := -10 + 1300*r.Float64()
			if k < len(d) {
				x = d[k].Lo
			}
			if got, want := rt.Survival(x), 1-d.CDF(x); math.Abs(got-want) > closeTol {
				t.Fatalf("trial %d: S(%g) = %.17g, want %.17g", trial, x, got, want)
			}
		}
	}
}

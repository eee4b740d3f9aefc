package estimate

import (
	"math"
	"testing"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/workloads"
)

// TestLogMoments: E[ln T] and Var[ln T] of a piecewise-uniform
// distribution with a point mass, against a midpoint rule.
func TestLogMoments(t *testing.T) {
	segs := []distributions.Segment{{Lo: 10, Hi: 40, Mass: 0.3}, {Lo: 40, Hi: 400, Mass: 0.5}, {Lo: 900, Hi: 900, Mass: 0.2}}
	d, err := distributions.NewPiecewiseUniform(segs)
	if err != nil {
		t.Fatal(err)
	}
	e1, e2 := 0.0, 0.0
	for _, s := range segs {
		if s.Lo == s.Hi {
			l := math.Log(s.Lo)
			e1, e2 = e1+s.Mass*l, e2+s.Mass*l*l
			continue
		}
		const n = 200000
		h := (s.Hi - s.Lo) / n
		for k := range n {
			l := math.Log(s.Lo + (float64(k)+0.5)*h)
			e1 += s.Mass / n * l
			e2 += s.Mass / n * l * l
		}
	}
	m, v := logMoments(d)
	if math.Abs(m-e1) > 1e-7 || math.Abs(v-(e2-e1*e1)) > 1e-7 {
		t.Errorf("log moments %v, %v; want %v, %v", m, v, e1, e2-e1*e1)
	}
}

// bruteForce is the posterior mean and variance of ln μ and the mean of
// μ on a grid: prior density N(m0, v0) of ln μ times the lognormal
// likelihood of every duration, ln x ~ N(ln μ − s2/2, s2).
func bruteForce(m0, v0 float64, x []float64, s2 float64) (mean, variance, muMean float64) {
	const n = 400000
	lo, hi := m0-12*math.Sqrt(v0), m0+12*math.Sqrt(v0)
	for _, xi := range x {
		lo, hi = math.Min(lo, math.Log(xi)-8), math.Max(hi, math.Log(xi)+8)
	}
	h := (hi - lo) / n
	z, s1, sq, sm := 0.0, 0.0, 0.0, 0.0
	for k := range n {
		u := lo + (float64(k)+0.5)*h
		lw := -(u - m0) * (u - m0) / (2 * v0)
		for _, xi := range x {
			r := math.Log(xi) - (u - s2/2)
			lw -= r * r / (2 * s2)
		}
		w := math.Exp(lw)
		z += w
		s1 += w * u
		sq += w * u * u
		sm += w * math.Exp(u)
	}
	mean = s1 / z
	return mean, sq/z - mean*mean, sm / z
}

// TestPosteriorAgainstBruteForce: the conjugate update's log mean and
// variance and the posterior's mean match the grid posterior of the same
// prior (the histogram's moments, widened by its NMAE) and likelihood.
func TestPosteriorAgainstBruteForce(t *testing.T) {
	hist, _ := distributions.NewPiecewiseUniform([]distributions.Segment{{Lo: 100, Hi: 200, Mass: 0.6}, {Lo: 200, Hi: 800, Mass: 0.4}})
	point, _ := distributions.NewPoint(300)
	tests := []struct {
		name  string
		prior Estimate
		x     []float64
		s2    float64
	}{
		{"wide histogram, pilots agree", Estimate{Dist: hist, Point: 250}, []float64{210, 260}, 0.04},
		{"stale history, many pilots", Estimate{Dist: hist, Point: 250, NMAE: 0.8}, []float64{900, 1100, 1000, 950, 1200}, 0.02},
		{"point prior floored", Estimate{Dist: point, Point: 300}, []float64{450}, 0.09},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var smp Sample
			for _, x := range tc.x {
				smp.Add(x)
			}
			m0, v0 := logMoments(tc.prior.Dist)
			e := math.Log1p(tc.prior.NMAE)
			v0 = math.Max(v0, math.Max(e*e, MinPriorLogVar))
			bm, bv, bmu := bruteForce(m0, v0, tc.x, tc.s2)
			m1, v1 := posteriorLog(tc.prior, smp, tc.s2)
			if math.Abs(m1-bm) > 1e-6 || math.Abs(v1-bv) > 1e-6 {
				t.Errorf("posterior of ln μ N(%v, %v), brute force N(%v, %v)", m1, v1, bm, bv)
			}
			post, err := Posterior(tc.prior, smp, tc.s2)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(post.Point-bmu) > 1e-6*bmu {
				t.Errorf("posterior mean %v, brute force %v", post.Point, bmu)
			}
			// The discretised posterior keeps its mean within 1%.
			if dm := post.Dist.Mean(); math.Abs(dm-bmu) > 0.01*bmu {
				t.Errorf("discretised posterior mean %v, want %v", dm, bmu)
			}
		})
	}
}

// TestPosteriorLimits: no tasks leave the prior; without history the
// pilots alone decide; many pilots outweigh any prior.
func TestPosteriorLimits(t *testing.T) {
	hist, _ := distributions.NewPiecewiseUniform([]distributions.Segment{{Lo: 100, Hi: 120, Mass: 1}})
	prior := Estimate{Dist: hist, Point: 110}
	if got, _ := Posterior(prior, Sample{}, 0.04); got.Point != 110 || got.Dist != prior.Dist {
		t.Errorf("no tasks: %+v", got)
	}
	var two Sample
	two.Add(500)
	two.Add(700)
	none, _ := Point(DefaultRuntime)
	none.NMAE = math.Inf(1)
	got, _ := Posterior(none, two, 0.04)
	// Data alone: ln μ ~ N(ȳ + s²/2, s²/n), mean exp(ȳ + s²/2 + s²/(2n)).
	want := math.Exp(two.LogMean() + 0.02 + 0.01)
	if math.Abs(got.Point-want) > 1e-9*want {
		t.Errorf("without history: %v, want %v", got.Point, want)
	}
	var many Sample
	for range 400 {
		many.Add(1000)
	}
	got, _ = Posterior(prior, many, 0.01)
	if math.Abs(got.Point-1000*math.Exp(0.005)) > 0.02*1000 {
		t.Errorf("400 pilots at 1,000 s against a prior at 110 s: %v", got.Point)
	}
}

// TestSpread: the pooled log variance weights each job by its tasks − 1
// and mixes SpreadWeight of it with a job's own pilots.
func TestSpread(t *testing.T) {
	var s Spread
	if s.LogVar() != DefaultTaskLogVar {
		t.Errorf("empty spread %v", s.LogVar())
	}
	s.Learn([]workloads.Job{
		{TaskNodes: 1, TaskDurations: []float64{10, 20}},
		{TaskNodes: 1, TaskDurations: []float64{5, 5, 5, 5}},
		{TaskDurations: []float64{1, 100}}, // a gang job's record: not learned
	})
	v1 := math.Pow(math.Log(2), 2) / 2 // two tasks: (ln 20 − ln 10)² / 2
	if want := v1 / 4; math.Abs(s.LogVar()-want) > 1e-12 {
		t.Errorf("pooled %v, want %v", s.LogVar(), want)
	}
	var own Sample
	own.Add(10)
	own.Add(40)
	ov := math.Pow(math.Log(4), 2) / 2
	if want := (SpreadWeight*s.LogVar() + ov) / (SpreadWeight + 1); math.Abs(s.For(own)-want) > 1e-12 {
		t.Errorf("For %v, want %v", s.For(own), want)
	}
}

// TestFromPredictorNMAE: 3σPredict's estimate carries its expert's NMAE;
// without history the default is marked as unbounded error.
func TestFromPredictorNMAE(t *testing.T) {
	p, err := NewSigma()
	if err != nil {
		t.Fatal(err)
	}
	e := &FromPredictor{P: p}
	job := &workloads.Job{Features: workloads.Features{User: "u", Name: "n", SubmitHour: -1, SubmitDay: -1}}
	if est, _ := e.Estimate(job); !math.IsInf(est.NMAE, 1) || est.Point != DefaultRuntime {
		t.Errorf("without history: %+v", est)
	}
	for _, r := range []float64{100, 200, 100, 200, 100} {
		p.Observe(job.Features, r)
	}
	est, _ := e.Estimate(job)
	if !(est.NMAE > 0 && est.NMAE < 1) {
		t.Errorf("NMAE %v after alternating runtimes", est.NMAE)
	}
}

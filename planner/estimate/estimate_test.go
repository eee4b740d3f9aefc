package estimate

import (
	"math"
	"testing"

	"github.com/plannerhq/planner/workloads"
)

// TestSyntheticEstimator: the estimate is the truncated normal of the
// job's shifted runtime, the same for the same (seed, job), a point with
// CoV 0 or PointOnly, and the shifts average to the configured shift.
func TestSyntheticEstimator(t *testing.T) {
	job := func(id int, r float64) *workloads.Job { return &workloads.Job{ID: id, Runtime: r} }
	e := SyntheticEstimator{S: Synthetic{Shift: 0.3, ShiftSD: SyntheticShiftSD, CoV: 0.2, Seed: 5}}
	a, err := e.Estimate(job(1, 1000))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := e.Estimate(job(1, 1000))
	if a.Point != b.Point || a.Dist.Mean() != b.Dist.Mean() {
		t.Errorf("same job, different estimates: %v / %v", a.Point, b.Point)
	}
	if n := len(a.Dist.Segments()); n != SyntheticSegments {
		t.Errorf("%d segments, want %d", n, SyntheticSegments)
	}
	// σ of the estimate: 20% of the runtime (the shifted mean is ≥ 3σ above
	// 0, so truncation is negligible).
	q16, q84 := a.Dist.Quantile(0.1587), a.Dist.Quantile(0.8413)
	if sd := (q84 - q16) / 2; math.Abs(sd-200) > 15 {
		t.Errorf("σ ≈ %.1f s, want 200", sd)
	}
	pt, _ := SyntheticEstimator{S: e.S, PointOnly: true}.Estimate(job(1, 1000))
	if len(pt.Dist.Segments()) != 1 || math.Abs(pt.Point-a.Point) > 2 {
		t.Errorf("point estimate %v (%d segments), distribution mean %v", pt.Point, len(pt.Dist.Segments()), a.Point)
	}
	// Mean shift over many jobs: 0.3 within 3 standard errors (0.1/√2000).
	sum := 0.0
	const n = 2000
	for id := range n {
		est, err := SyntheticEstimator{S: Synthetic{Shift: 0.3, ShiftSD: SyntheticShiftSD, Seed: 5}}.Estimate(job(id, 1000))
		if err != nil {
			t.Fatal(err)
		}
		sum += est.Point/1000 - 1
	}
	if m := sum / n; math.Abs(m-0.3) > 3*0.1/math.Sqrt(n) {
		t.Errorf("mean shift %.4f, want 0.3", m)
	}
	if err := (Synthetic{CoV: -1}).Validate(); err == nil {
		t.Error("negative CoV accepted")
	}
}

// TestSampleLimited: a feature value stops learning after Limit runtimes.
func TestSampleLimited(t *testing.T) {
	p, err := NewSampleLimited(3)
	if err != nil {
		t.Fatal(err)
	}
	f := workloads.Features{User: "u", SubmitHour: -1, SubmitDay: -1}
	for _, r := range []float64{100, 100, 100, 5000, 5000, 5000, 5000} {
		p.Observe(f, r)
	}
	if c := p.P.P.Count(); c != 3 {
		t.Errorf("observed %d runtimes, want 3", c)
	}
	if _, point, ok := p.Predict(f); !ok || point != 100 {
		t.Errorf("estimate %v (ok %v), want 100 from the first three runtimes", point, ok)
	}
	if _, err := NewSampleLimited(0); err == nil {
		t.Error("limit 0 accepted")
	}
}

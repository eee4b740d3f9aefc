package experiments

import (
	"testing"

	"github.com/plannerhq/planner/workloads"
)

// TestGoogleLikeEstimateErrors holds the Google-like generator to the
// calibration of 3sigma §2.1 / Fig. 2(d) for the Google trace: 8–12% of jobs
// off by a factor of two or more, most within ±25%.
func TestGoogleLikeEstimateErrors(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		p := workloads.DefaultGoogleParams()
		p.Seed = seed
		w, err := workloads.GenerateGoogle(p)
		if err != nil {
			t.Fatal(err)
		}
		prof, err := EvaluatePredictor(w)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("seed %d: %d jobs, %.1f%% off by ≥2×, %.1f%% within ±25%%, %.1f%% within ±5%%",
			seed, prof.N, 100*prof.FactorOfTwo, 100*prof.Within25, 100*prof.Within5)
		if prof.FactorOfTwo < 0.08 || prof.FactorOfTwo > 0.12 {
			t.Errorf("seed %d: %.1f%% of jobs off by a factor ≥ 2, want 8–12%%", seed, 100*prof.FactorOfTwo)
		}
		if prof.Within25 < 0.5 {
			t.Errorf("seed %d: only %.1f%% within ±25%%, want most", seed, 100*prof.Within25)
		}
	}
}

package distributions

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// predictBenchJobs returns n jobs drawn from users × names × hours × resources of
// the given sizes (2 apps, 2 days), with lognormal runtimes that depend on
// the name, from a fixed seed.
func predictBenchJobs(n, users, names, hours, resources int) ([][]Feature, []float64) {
	r := rand.New(rand.NewPCG(1, 2))
	fss := make([][]Feature, n)
	xs := make([]float64, n)
	for i := range n {
		name := r.IntN(names)
		fss[i] = JobAttrs{
			User:       "user" + strconv.Itoa(r.IntN(users)),
			Name:       "job" + strconv.Itoa(name),
			App:        "app" + strconv.Itoa(name%2),
			SubmitHour: r.IntN(hours),
			SubmitDay:  r.IntN(2),
			Resources:  "nodes=" + strconv.Itoa(1<<r.IntN(resources)),
		}.Features()
		xs[i] = 60 * float64(name+1) * math.Exp(0.8*r.NormFloat64())
	}
	return fss, xs
}

func benchPredictor(b *testing.B, fss [][]Feature, xs []float64) *Predictor {
	p, err := NewPredictor(nil)
	if err != nil {
		b.Fatal(err)
	}
	for i := range fss {
		if err := p.Observe(fss[i], xs[i]); err != nil {
			b.Fatal(err)
		}
	}
	return p
}

// BenchmarkPredict measures one Predict of a 9-feature job against a
// predictor with history for ~55 feature values (10^4 past jobs, full
// 80-bin histograms), snapshots cached (goal: well under 1 ms; no
// allocations).
func BenchmarkPredict(b *testing.B) {
	fss, xs := predictBenchJobs(10000, 3, 5, 4, 2)
	p := benchPredictor(b, fss, xs)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = p.Predict(fss[i%len(fss)])
	}
	b.ReportMetric(float64(p.Len()), "feature-values")
}

// BenchmarkPredictLarge is BenchmarkPredict with ~55,000 feature values
// (10^5 jobs from 200 users, 300 names, 24 hours), where lookups miss cache.
func BenchmarkPredictLarge(b *testing.B) {
	fss, xs := predictBenchJobs(100000, 200, 300, 24, 4)
	p := benchPredictor(b, fss, xs)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = p.Predict(fss[i%len(fss)])
	}
	b.ReportMetric(float64(p.Len()), "feature-values")
}

// BenchmarkObservePredict measures the simulator's pattern: one completed
// job observed, then one prediction, which usually has to rebuild the
// chosen feature value's snapshot (O(MaxBins)).
func BenchmarkObservePredict(b *testing.B) {
	fss, xs := predictBenchJobs(20000, 3, 5, 4, 2)
	p := benchPredictor(b, fss[:10000], xs[:10000])
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := 10000 + i%10000
		_ = p.Observe(fss[j], xs[j])
		_ = p.Predict(fss[j])
	}
}

// BenchmarkPredictorObserve measures one Observe of a 9-feature job.
func BenchmarkPredictorObserve(b *testing.B) {
	fss, xs := predictBenchJobs(20000, 3, 5, 4, 2)
	p := benchPredictor(b, fss[:10000], xs[:10000])
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := 10000 + i%10000
		_ = p.Observe(fss[j], xs[j])
	}
}

// BenchmarkPredictorMarshal measures encoding ~55 feature values.
func BenchmarkPredictorMarshal(b *testing.B) {
	fss, xs := predictBenchJobs(10000, 3, 5, 4, 2)
	p := benchPredictor(b, fss, xs)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, _ = p.MarshalBinary()
	}
}

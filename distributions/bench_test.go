package distributions

import (
	"math/rand/v2"
	"testing"
)

// benchValues returns n lognormal runtimes (median ~20 min) from a fixed
// seed, the shape real job histories have.
func benchValues(n int) []float64 {
	r := rand.New(rand.NewPCG(1, 2))
	ln := LogNormal{Mu: 7, Sigma: 1.2}
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = ln.Rand(r)
	}
	return xs
}

// BenchmarkHistogramUpdate measures one Update into a full 80-bin histogram
// (goal: ≤ 200 ns/op, no allocations). Every benchmark here also reports
// cpu-ns/op, the benchmark thread's CPU time, which stays meaningful when
// the machine is shared.
func BenchmarkHistogramUpdate(b *testing.B) {
	xs := benchValues(1 << 16)
	h := NewHistogram(DefaultMaxBins)
	for _, x := range xs[:1000] {
		_ = h.Update(x)
	}
	b.ReportAllocs()
	c := startCPU(b)
	for i := 0; i < b.N; i++ {
		_ = h.Update(xs[i&(len(xs)-1)])
	}
	c.stop()
}

// BenchmarkHistogramUpdateInteger measures Update with whole-second
// runtimes, where many values land exactly on an existing centroid.
func BenchmarkHistogramUpdateInteger(b *testing.B) {
	xs := benchValues(1 << 16)
	for i := range xs {
		xs[i] = float64(int(xs[i]))
	}
	h := NewHistogram(DefaultMaxBins)
	for _, x := range xs[:1000] {
		_ = h.Update(x)
	}
	b.ReportAllocs()
	c := startCPU(b)
	for i := 0; i < b.N; i++ {
		_ = h.Update(xs[i&(len(xs)-1)])
	}
	c.stop()
}

func fullHistogram(seed uint64) *Histogram {
	r := rand.New(rand.NewPCG(seed, 7))
	ln := LogNormal{Mu: 7, Sigma: 1.2}
	h := NewHistogram(DefaultMaxBins)
	for range 10000 {
		_ = h.Update(ln.Rand(r))
	}
	return h
}

// BenchmarkHistogramCDF measures one CDF query on a full 80-bin histogram.
func BenchmarkHistogramCDF(b *testing.B) {
	h := fullHistogram(1)
	xs := benchValues(1 << 10)
	b.ReportAllocs()
	c := startCPU(b)
	s := 0.0
	for i := 0; i < b.N; i++ {
		s += h.CDF(xs[i&(len(xs)-1)])
	}
	c.stop()
	sink = s
}

// BenchmarkSnapshotCDF measures one CDF query on a frozen Snapshot of a full
// 80-bin histogram (O(log B)).
func BenchmarkSnapshotCDF(b *testing.B) {
	p, _ := fullHistogram(1).Snapshot()
	xs := benchValues(1 << 10)
	b.ReportAllocs()
	c := startCPU(b)
	s := 0.0
	for i := 0; i < b.N; i++ {
		s += p.CDF(xs[i&(len(xs)-1)])
	}
	c.stop()
	sink = s
}

// BenchmarkHistogramQuantile measures one Quantile query on a full 80-bin
// histogram.
func BenchmarkHistogramQuantile(b *testing.B) {
	h := fullHistogram(1)
	b.ReportAllocs()
	c := startCPU(b)
	s := 0.0
	for i := 0; i < b.N; i++ {
		s += h.Quantile(float64(i&1023) / 1024)
	}
	c.stop()
	sink = s
}

// BenchmarkHistogramMerge measures merging two full 80-bin histograms
// (including the copy of the receiver, which a real caller would not need).
func BenchmarkHistogramMerge(b *testing.B) {
	a, o := fullHistogram(1), fullHistogram(2)
	b.ReportAllocs()
	t := startCPU(b)
	for i := 0; i < b.N; i++ {
		c := a.Clone()
		_ = c.Merge(o)
	}
	t.stop()
}

// BenchmarkHistogramMarshalBinary measures encoding a full 80-bin histogram.
func BenchmarkHistogramMarshalBinary(b *testing.B) {
	h := fullHistogram(1)
	b.ReportAllocs()
	c := startCPU(b)
	for i := 0; i < b.N; i++ {
		_, _ = h.MarshalBinary()
	}
	c.stop()
}

var sink float64

package estimate

import (
	"math"
	"testing"
)

// TestSample: the running sums give the mean, the log mean and the
// unbiased log variance computed directly; short durations count as
// MinRuntime and non-finite ones are skipped.
func TestSample(t *testing.T) {
	d := []float64{12, 30, 7.5, 101, 44}
	var s Sample
	for _, x := range d {
		s.Add(x)
	}
	s.Add(math.NaN())
	s.Add(math.Inf(1))
	mean, lm := 0.0, 0.0
	for _, x := range d {
		mean += x / float64(len(d))
		lm += math.Log(x) / float64(len(d))
	}
	v := 0.0
	for _, x := range d {
		v += (math.Log(x) - lm) * (math.Log(x) - lm) / float64(len(d)-1)
	}
	if s.N != len(d) || math.Abs(s.Mean()-mean) > 1e-12 || math.Abs(s.LogMean()-lm) > 1e-12 || math.Abs(s.LogVar()-v) > 1e-12 {
		t.Errorf("sample %+v: mean %v, log mean %v, log var %v; want %v, %v, %v", s, s.Mean(), s.LogMean(), s.LogVar(), mean, lm, v)
	}
	var short Sample
	short.Add(0.2)
	if short.Mean() != MinRuntime || short.LogVar() != 0 {
		t.Errorf("one short duration: mean %v, log var %v", short.Mean(), short.LogVar())
	}
	if (Sample{}).Mean() != 0 {
		t.Error("empty sample has a mean")
	}
}

package estimate

import "math"

// Sample summarises the task durations seen of one job (seconds, on
// preferred nodes of speed 1): their count, sum and the sums of their
// logarithms and squared logarithms, which is all the hybrid predictor's
// likelihood needs (Hybrid). The zero value is an empty sample.
type Sample struct {
	N                 int
	Sum, SumLog, Sum2 float64
}

// Add records one duration; durations below MinRuntime count as
// MinRuntime, and a duration that is not finite is skipped.
func (s *Sample) Add(d float64) {
	if math.IsNaN(d) || math.IsInf(d, 0) {
		return
	}
	d = math.Max(d, MinRuntime)
	l := math.Log(d)
	s.N++
	s.Sum += d
	s.SumLog += l
	s.Sum2 += l * l
}

// Mean is the mean duration (0 for an empty sample).
func (s Sample) Mean() float64 {
	if s.N == 0 {
		return 0
	}
	return s.Sum / float64(s.N)
}

// LogMean is the mean of the durations' logarithms (0 when empty).
func (s Sample) LogMean() float64 {
	if s.N == 0 {
		return 0
	}
	return s.SumLog / float64(s.N)
}

// LogVar is the unbiased sample variance of the durations' logarithms,
// Σ(ln d − ȳ)² / (N − 1); 0 with fewer than two durations.
func (s Sample) LogVar() float64 {
	if s.N < 2 {
		return 0
	}
	m := s.LogMean()
	return math.Max(0, (s.Sum2-float64(s.N)*m*m)/float64(s.N-1))
}

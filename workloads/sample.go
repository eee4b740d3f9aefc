package workloads

import (
	"math"
	"math/rand/v2"
)

// h2 samples a two-phase hyperexponential distribution with balanced means
// (p₁/λ₁ = p₂/λ₂): mean m and squared coefficient of variation c² ≥ 1.
//
//	p₁ = (1 + √((c²−1)/(c²+1)))/2,  p₂ = 1 − p₁,  λᵢ = 2pᵢ/m.
//
// c² = 1 is the exponential distribution.
type h2 struct {
	p1, rate1, rate2 float64
}

func newH2(mean, scv float64) h2 {
	p1 := (1 + math.Sqrt((scv-1)/(scv+1))) / 2
	return h2{p1: p1, rate1: 2 * p1 / mean, rate2: 2 * (1 - p1) / mean}
}

func (h h2) sample(rng *rand.Rand) float64 {
	if rng.Float64() < h.p1 {
		return rng.ExpFloat64() / h.rate1
	}
	return rng.ExpFloat64() / h.rate2
}

// boundedPareto samples a Pareto distribution with tail index alpha
// truncated to [lo, hi] by inversion of its CDF
// F(x) = (1 − (lo/x)^α) / (1 − (lo/hi)^α).
func boundedPareto(rng *rand.Rand, alpha, lo, hi float64) float64 {
	u := rng.Float64()
	k := 1 - math.Pow(lo/hi, alpha)
	return lo / math.Pow(1-u*k, 1/alpha)
}

// logUniform samples x with ln x uniform on [ln lo, ln hi].
func logUniform(rng *rand.Rand, lo, hi float64) float64 {
	return math.Exp(math.Log(lo) + rng.Float64()*(math.Log(hi)-math.Log(lo)))
}

// weighted picks index i with probability w[i]/Σw given the cumulative
// weights cum (cum[i] = w[0]+…+w[i]).
func weighted(rng *rand.Rand, cum []float64) int {
	u := rng.Float64() * cum[len(cum)-1]
	lo, hi := 0, len(cum)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if cum[mid] > u {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// zipfWeights returns cumulative weights 1/k^s for ranks k = 1…n.
func zipfWeights(n int, s float64) []float64 {
	cum := make([]float64, n)
	acc := 0.0
	for k := range n {
		acc += 1 / math.Pow(float64(k+1), s)
		cum[k] = acc
	}
	return cum
}

// FloorMS rounds seconds down to whole milliseconds, so files carry short
// decimals and ordering is preserved.
func FloorMS(s float64) float64 { return math.Floor(s*1000) / 1000 }

// RoundMS rounds seconds to the nearest millisecond.
func RoundMS(s float64) float64 { return math.Round(s*1000) / 1000 }

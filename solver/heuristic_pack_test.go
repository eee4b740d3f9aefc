package solver

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// sortedOrder is the comparison sort greedyOrder must agree with: key
// descending by cmp.Compare (NaN below every number, −0 equal to +0), ties
// by item index.
func sortedOrder(keys []float64) []int32 {
	order := make([]int32, len(keys))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := cmp.Compare(keys[b], keys[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return order
}

// TestGreedyOrderMatchesSort: the radix-sorted order equals the comparison
// sort's on keys with many ties, signed zeros, infinities, NaN, subnormals
// and the values the heuristics use (densities, values × log-normal noise).
func TestGreedyOrderMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64, 1, -1, 2 + 1e-15}
	draws := []struct {
		name string
		draw func() float64
	}{
		{"ties", func() float64 { return float64(rng.IntN(5)) }},
		{"special", func() float64 { return special[rng.IntN(len(special))] }},
		{"noise", func() float64 { return rng.Float64() * 1000 * math.Exp(0.5*rng.NormFloat64()) }},
		{"signed", func() float64 { return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20)) }},
		{"mixed", func() float64 {
			if rng.IntN(4) == 0 {
				return special[rng.IntN(len(special))]
			}
			return float64(rng.IntN(3)) + 1e-6*rng.Float64()
		}},
	}
	for _, d := range draws {
		for _, n := range []int{0, 1, 2, 3, 17, 256, 257, 3450} {
			for rep := 0; rep < 5; rep++ {
				keys := make([]float64, n)
				for i := range keys {
					keys[i] = d.draw()
				}
				got := greedyOrder(n, func(it int32) float64 { return keys[it] })
				if want := sortedOrder(keys); !slices.Equal(got, want) {
					t.Fatalf("%s, n=%d: radix order differs from the comparison sort\ngot  %v\nwant %v", d.name, n, got, want)
				}
			}
		}
	}
}

// BenchmarkGreedyOrder3450 sorts as many items as the 300-job rack
// instances have, with the noisy keys of a sampled order.
func BenchmarkGreedyOrder3450(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	keys := make([]float64, 3450)
	for i := range keys {
		keys[i] = rng.Float64() * math.Exp(0.35*rng.NormFloat64())
	}
	key := func(it int32) float64 { return keys[it] }
	b.Run("radix", func(b *testing.B) {
		for b.Loop() {
			greedyOrder(len(keys), key)
		}
	})
	b.Run("comparison", func(b *testing.B) {
		for b.Loop() {
			sortedOrder(keys)
		}
	})
}

package distributions

import (
	"encoding/binary"
	"math"
	"testing"
)

// checkHistogramInvariants checks what every reachable histogram satisfies:
// sorted bins within [min, max], counts conserved, segments summing to 1,
// CDF monotone and equal to the integral of the segments, no NaN.
func checkHistogramInvariants(t *testing.T, h *Histogram) {
	t.Helper()
	if h.Len() > h.MaxBins() {
		t.Fatalf("%d bins > max %d", h.Len(), h.MaxBins())
	}
	if h.Count() == 0 {
		if h.Len() != 0 || h.CDF(1) != 0 || h.Segments() != nil {
			t.Fatal("empty histogram with bins or mass")
		}
		return
	}
	sum := 0.0
	for i, b := range h.Bins() {
		if !(b.Count > 0) || !(b.Centroid >= h.Min() && b.Centroid <= h.Max()) {
			t.Fatalf("bin %d = %+v outside [%v, %v]", i, b, h.Min(), h.Max())
		}
		if i > 0 && !(b.Centroid > h.bins[i-1].Centroid) {
			t.Fatalf("bins not strictly increasing at %d", i)
		}
		sum += b.Count
	}
	checkCostCache(t, h)
	if math.Abs(sum-h.Count()) > countTolerance*h.Count() {
		t.Fatalf("bins sum to %v, count %v", sum, h.Count())
	}
	checkSegmentsN(t, 500, h)
	prev := 0.0
	for _, x := range ksPointsN(500, h.Min(), h.Max(), h) {
		c, s := h.CDF(x), h.Survival(x)
		if math.IsNaN(c) || math.IsNaN(s) || c < prev || c > 1 || math.Abs(c+s-1) > exactTol {
			t.Fatalf("CDF(%v) = %v, Survival %v, previous CDF %v", x, c, s, prev)
		}
		prev = c
	}
	for _, q := range []float64{0, 0.001, 0.25, 0.5, 0.75, 0.999, 1} {
		x := h.Quantile(q)
		if !(x >= h.Min() && x <= h.Max()) {
			t.Fatalf("Quantile(%v) = %v outside [%v, %v]", q, x, h.Min(), h.Max())
		}
		if h.CDF(x) < q-1e-9 {
			t.Fatalf("CDF(Quantile(%v)) = %v", q, h.CDF(x))
		}
	}
	if m := h.Mean(); !(m >= h.Min()*(1-1e-12) && m <= h.Max()*(1+1e-12)) {
		t.Fatalf("Mean %v outside [%v, %v]", m, h.Min(), h.Max())
	}
}

// checkCostCache checks the cached pair costs and, when known, the cached
// cheapest pair against a fresh computation.
func checkCostCache(t *testing.T, h *Histogram) {
	t.Helper()
	if h.Len() > 0 && len(h.cost) != h.Len()-1 {
		t.Fatalf("%d cached costs for %d bins", len(h.cost), h.Len())
	}
	for i, c := range h.cost {
		if want := pairCost(h.bins[i], h.bins[i+1], h.rule); math.Float64bits(c) != math.Float64bits(want) {
			t.Fatalf("cached cost %d = %v, want %v", i, c, want)
		}
	}
	if h.minKnown && h.minAt != argminFirst(h.cost) {
		t.Fatalf("cached cheapest pair %d, scan says %d", h.minAt, argminFirst(h.cost))
	}
}

// maxFuzzOps bounds the ops run per fuzz input.
const maxFuzzOps = 2000

// FuzzHistogramUpdateMerge drives two small histograms with a byte script
// of 9-byte ops (op, float64 bits) — updates with arbitrary bit patterns
// (NaN, ±Inf, negatives, subnormals are rejected or accepted by the rule),
// weighted updates and merges — and checks counts are conserved (exactly
// with whole weights), the cached pair costs after every op, and the
// invariants at the end.
func FuzzHistogramUpdateMerge(f *testing.F) {
	le := binary.LittleEndian
	op := func(code byte, v float64) []byte {
		b := make([]byte, 9)
		b[0] = code
		le.PutUint64(b[1:], math.Float64bits(v))
		return b
	}
	var seed []byte
	for i, v := range []float64{1, 5, 5, 2.5, 1e9, 0, 3, math.NaN(), -1, math.Inf(1), 7, 1e-300} {
		seed = append(seed, op(byte(i%5), v)...)
	}
	f.Add(uint8(3), seed)
	f.Add(uint8(80), append(op(0, 10), op(2, 0)...))
	f.Add(uint8(1), append(op(0, 10), op(1, 20)...))
	f.Add(uint8(5), append(op(0x80, 10), append(op(0x85, 20), op(2, 0)...)...))
	f.Fuzz(func(t *testing.T, maxBins uint8, script []byte) {
		rule := WeightedGap
		if maxBins&0x80 != 0 {
			rule = PaperGap
		}
		a, _ := NewHistogramRule(int(maxBins&0x7f), rule)
		b, _ := NewHistogramRule(int(maxBins&0x7f)/2, rule)
		wantA, wantB := 0.0, 0.0
		frac := false
		if len(script) > maxFuzzOps*9 { // keep each input fast; long scripts add nothing new
			script = script[:maxFuzzOps*9]
		}
		for len(script) >= 9 {
			code, v := script[0], math.Float64frombits(le.Uint64(script[1:9]))
			script = script[9:]
			valid := v >= 0 && v <= math.MaxFloat64
			switch code % 5 {
			case 0:
				if (a.Update(v) == nil) != valid {
					t.Fatalf("Update(%v) accepted=%v", v, !valid)
				}
				if valid {
					wantA++
				}
			case 1:
				if (b.Update(v) == nil) != valid {
					t.Fatalf("Update(%v) accepted=%v", v, !valid)
				}
				if valid {
					wantB++
				}
			case 2:
				if err := a.Merge(b); err != nil {
					t.Fatal(err)
				}
				wantA += wantB
			case 3:
				w := float64(code%7) + 1 // whole weights keep counts exact
				if code >= 0x80 {
					w = 0.1 + float64(code%7)/3 // fractional: counts agree up to rounding
					frac = true
				}
				if err := a.UpdateWeighted(v, w); (err == nil) != valid {
					t.Fatalf("UpdateWeighted(%v, %v): %v", v, w, err)
				}
				if valid {
					wantA += w
				}
			case 4:
				if err := b.Merge(a); err != nil {
					t.Fatal(err)
				}
				wantB += wantA
			}
			checkCostCache(t, a)
			checkCostCache(t, b)
		}
		tol := 0.0
		if frac {
			tol = countTolerance
		}
		if math.Abs(a.Count()-wantA) > tol*wantA || math.Abs(b.Count()-wantB) > tol*wantB {
			t.Fatalf("counts %v, %v; want %v, %v", a.Count(), b.Count(), wantA, wantB)
		}
		checkHistogramInvariants(t, a)
		checkHistogramInvariants(t, b)
	})
}

package distributions

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestPredictEvalBucket(t *testing.T) {
	tests := []struct {
		pct  float64
		want int // bucket index: 0 lower tail, 10 the 0% decile, 20 upper tail
	}{
		{-100, 0},
		{-95.0001, 0},
		{-95, 1},
		{-85.0001, 1},
		{-85, 2},
		{-5, 10},
		{0, 10},
		{4.999, 10},
		{5, 11},
		{94.999, 19},
		{95, 20},
		{1e9, 20},
	}
	for _, tc := range tests {
		if got := errorBucket(tc.pct); got != tc.want {
			t.Errorf("errorBucket(%v) = %d, want %d", tc.pct, got, tc.want)
		}
	}
}

// TestPredictEvalProfile checks a hand-built set of pairs (actual 100 s
// unless noted): errors 0, +50, +100, −50, −100, +20, +4, +96, −44 percent,
// and one job with actual runtime 0.
func TestPredictEvalProfile(t *testing.T) {
	est := []float64{100, 150, 200, 50, 0, 120, 104, 196, 56, 7}
	act := []float64{100, 100, 100, 100, 100, 100, 100, 100, 100, 0}
	p, err := ProfileEstimateErrors(est, act)
	if err != nil {
		t.Fatal(err)
	}
	if p.N != 9 || p.Skipped != 1 {
		t.Fatalf("N %d skipped %d, want 9 and 1", p.N, p.Skipped)
	}
	wantCounts := map[string]int{"< -95%": 1, "-50%": 1, "-40%": 1, "+0%": 2, "+20%": 1, "+50%": 1, "≥ +95%": 2}
	if len(p.Buckets) != 21 {
		t.Fatalf("%d buckets, want 21", len(p.Buckets))
	}
	total := 0
	for i, b := range p.Buckets {
		if b.Count != wantCounts[b.Label] {
			t.Errorf("bucket %d %q count %d, want %d", i, b.Label, b.Count, wantCounts[b.Label])
		}
		if b.Share != float64(b.Count)/9 {
			t.Errorf("bucket %q share %v", b.Label, b.Share)
		}
		if i > 0 && b.LoPct != p.Buckets[i-1].HiPct {
			t.Errorf("bucket %q starts at %v, previous ends at %v", b.Label, b.LoPct, p.Buckets[i-1].HiPct)
		}
		total += b.Count
	}
	if total != 9 {
		t.Errorf("buckets hold %d jobs, want 9", total)
	}
	first, mid, last := p.Buckets[0], p.Buckets[10], p.Buckets[20]
	if first.Label != "< -95%" || !math.IsInf(first.LoPct, -1) || mid.Label != "+0%" || mid.LoPct != -5 || mid.HiPct != 5 ||
		last.Label != "≥ +95%" || !math.IsInf(last.HiPct, 1) {
		t.Errorf("bucket bounds: %+v %+v %+v", first, mid, last)
	}
	// Factor of two: 200, 50 and 0 (not 196, which is in the tail at +96%).
	if p.FactorOfTwo != 3.0/9 || p.Within5 != 2.0/9 || p.Within25 != 3.0/9 {
		t.Errorf("factor of two %v, within 5%% %v, within 25%% %v; want 3/9, 2/9, 3/9", p.FactorOfTwo, p.Within5, p.Within25)
	}
	// Above +95%: 200 and 196; below −55%: only 0 (50 is at −50%).
	if p.Above95 != 2.0/9 || p.Below55 != 1.0/9 {
		t.Errorf("above +95%% %v, below -55%% %v; want 2/9, 1/9", p.Above95, p.Below55)
	}
	var sb strings.Builder
	if err := p.WriteTable(&sb); err != nil || !strings.Contains(sb.String(), "≥ +95%") || !strings.Contains(sb.String(), "off by 2× or more") {
		t.Errorf("WriteTable: %v\n%s", err, sb.String())
	}
}

func TestPredictEvalInvalid(t *testing.T) {
	tests := []struct {
		name     string
		est, act []float64
	}{
		{"length mismatch", []float64{1}, nil},
		{"negative estimate", []float64{-1}, []float64{1}},
		{"NaN actual", []float64{1}, []float64{math.NaN()}},
		{"Inf estimate", []float64{math.Inf(1)}, []float64{1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ProfileEstimateErrors(tc.est, tc.act); !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v, want ErrInvalid", err)
			}
		})
	}
	var e EstimateErrors
	if p := e.Profile(); p.N != 0 || p.FactorOfTwo != 0 || len(p.Buckets) != 21 {
		t.Fatalf("empty profile %+v", p)
	}
}

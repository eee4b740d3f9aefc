package datalake

import (
	"fmt"
	"math"
	"testing"
)

// TestShares checks every §2.3 share of the issue on the lake's truth,
// for seeds 1–3: within Tolerance of the paper's figure, or beyond its
// bound.
func TestShares(t *testing.T) {
	for _, seed := range seeds {
		s := lake(t, seed).Shares()
		for _, tg := range Targets {
			t.Run(fmt.Sprintf("seed%d/%s", seed, tg.Name), func(t *testing.T) {
				v, err := s.Get(tg.Name)
				if err != nil {
					t.Fatal(err)
				}
				if !tg.Met(v) {
					t.Errorf("%s = %.3f, want %s", tg.Name, v, describe(tg))
				}
			})
		}
	}
}

func describe(tg Target) string {
	switch {
	case tg.Above:
		return fmt.Sprintf("> %.2f", tg.Value)
	case tg.AtMost:
		return fmt.Sprintf("≤ %.2f", tg.Value)
	}
	return fmt.Sprintf("%.2f ± %.2f", tg.Value, Tolerance)
}

func TestSharesGetKnowsEveryTarget(t *testing.T) {
	var s Shares
	for _, tg := range Targets {
		if _, err := s.Get(tg.Name); err != nil {
			t.Error(err)
		}
	}
	if _, err := s.Get("nope"); err == nil {
		t.Error("Get accepted an unknown name")
	}
}

func TestTargetMet(t *testing.T) {
	tests := []struct {
		name string
		tg   Target
		v    float64
		want bool
	}{
		{"within", Target{Value: 0.68}, 0.72, true},
		{"below", Target{Value: 0.68}, 0.62, false},
		{"above bound", Target{Value: 0.5, Above: true}, 0.51, true},
		{"at bound", Target{Value: 0.5, Above: true}, 0.5, false},
		{"at most", Target{Value: 0.3, AtMost: true}, 0.3, true},
		{"over at most", Target{Value: 0.3, AtMost: true}, 0.31, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.tg.Met(tt.v); got != tt.want {
				t.Errorf("Met(%v) = %v, want %v", tt.v, got, tt.want)
			}
		})
	}
}

func TestSpearman(t *testing.T) {
	tests := []struct {
		name  string
		pairs [][2]float64
		want  float64
	}{
		{"monotone", [][2]float64{{1, 10}, {2, 20}, {3, 25}, {4, 100}}, 1},
		{"reversed", [][2]float64{{1, 4}, {2, 3}, {3, 2}, {4, 1}}, -1},
		// ranks x 1,2,3,4,5; y 2,1,4,3,5: 1 − 6·Σd²/(n(n²−1)) = 1 − 6·4/120
		{"no ties", [][2]float64{{1, 2}, {2, 1}, {3, 4}, {4, 3}, {5, 5}}, 0.8},
		// y ties take mean rank 1.5: Pearson of (1,2,3) and (1.5,1.5,3)
		{"ties", [][2]float64{{1, 0}, {2, 0}, {3, 7}}, math.Sqrt(3) / 2},
		{"constant", [][2]float64{{1, 5}, {2, 5}, {3, 5}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Spearman(tt.pairs); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("Spearman = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestZipfExponent(t *testing.T) {
	for _, s := range []float64{0.8, 1, 1.5} {
		var v []float64
		for r := 1; r <= 2000; r++ {
			v = append(v, 1e5/math.Pow(float64(r), s))
		}
		if got := ZipfExponent(v); math.Abs(got-s) > 1e-9 {
			t.Errorf("ZipfExponent of exact s=%v: %v", s, got)
		}
	}
	if got := ZipfExponent([]float64{100, 1, 0}); got != 0 {
		t.Errorf("too few values: %v, want 0", got)
	}
}

func TestComponentShares(t *testing.T) {
	// 0–1–2 and 3–4; 5 alone; an edge to a job outside the set is ignored
	jobs := []int{0, 1, 2, 3, 4, 5}
	edges := [][2]int{{0, 1}, {2, 1}, {3, 4}, {9, 5}}
	big, in10 := ComponentShares(jobs, edges)
	if big != 0.5 || in10 != 0 {
		t.Errorf("got largest %v, ≥10 %v; want 0.5, 0", big, in10)
	}
	var chain [][2]int
	var ids []int
	for i := range 12 {
		ids = append(ids, i)
		if i > 0 {
			chain = append(chain, [2]int{i - 1, i})
		}
	}
	ids = append(ids, 99)
	big, in10 = ComponentShares(ids, chain)
	if want := 12.0 / 13; big != want || in10 != want {
		t.Errorf("chain of 12 and one alone: %v, %v; want %v both", big, in10, want)
	}
}

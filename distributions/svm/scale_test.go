package svm

import (
	"math"
	"strings"
	"testing"
)

func TestFitScaler(t *testing.T) {
	train := []Vector{{0, 5, 10}, {4, 5, -10}, {2, 5, 0}, {1, 5, 20}}
	t.Run("minmax", func(t *testing.T) {
		s, err := FitScaler(ScaleMinMax, train)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct{ in, want Vector }{
			{Vector{0, 5, -10}, Vector{-1, 0, -1}},
			{Vector{4, 5, 20}, Vector{1, 0, 1}},
			{Vector{2, 6, 5}, Vector{0, 1, 0}},
			{Vector{8, 5, 50}, Vector{3, 0, 3}}, // outside the training range
		} {
			if got := s.Apply(tc.in); !near(got, tc.want, 1e-15) {
				t.Errorf("Apply(%v) = %v, want %v", tc.in, got, tc.want)
			}
		}
	})
	t.Run("standard", func(t *testing.T) {
		s, err := FitScaler(ScaleStandard, train)
		if err != nil {
			t.Fatal(err)
		}
		var mean, sq [3]float64
		for _, v := range train {
			z := s.Apply(v)
			for k := range z {
				mean[k] += z[k] / 4
				sq[k] += z[k] * z[k] / 4
			}
		}
		want := [3]float64{1, 0, 1} // the constant feature maps to 0
		for k := range 3 {
			if math.Abs(mean[k]) > 1e-15 || math.Abs(sq[k]-want[k]) > 1e-12 {
				t.Errorf("feature %d: scaled mean %v, mean square %v", k, mean[k], sq[k])
			}
		}
	})
	t.Run("none", func(t *testing.T) {
		s, err := FitScaler(ScaleNone, train)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Apply(Vector{3, -2, 7}); !near(got, Vector{3, -2, 7}, 0) {
			t.Errorf("identity gave %v", got)
		}
	})
	for _, tc := range []struct {
		name string
		x    []Vector
		want string
	}{
		{"empty", nil, "no samples"},
		{"no features", []Vector{{}}, "sample 0 has no features"},
		{"ragged", []Vector{{1, 2}, {1}}, "sample 1 has 1 features, sample 0 has 2"},
		{"NaN", []Vector{{1, 2}, {1, math.NaN()}}, "sample 1 feature 1 is NaN"},
		{"Inf", []Vector{{math.Inf(-1)}}, "sample 0 feature 0 is -Inf"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := FitScaler(ScaleMinMax, tc.x); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
	t.Run("wrong length panics", func(t *testing.T) {
		s, _ := FitScaler(ScaleMinMax, train)
		defer func() {
			if r := recover(); r == nil || !strings.Contains(r.(string), "2 features, the model 3") {
				t.Errorf("recovered %v", r)
			}
		}()
		s.Apply(Vector{1, 2})
	})
}

func near(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			return false
		}
	}
	return true
}

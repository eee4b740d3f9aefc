package slearn

import "testing"

// TestSampler follows Fig. 3 with T = 2: warm-up at 3%, 2%, 4% for two
// jobs each, then the share of the lowest score, trying 1% (5%) when 2%
// (4%) beats 3% by more than 10%.
func TestSampler(t *testing.T) {
	s := newSampler(2)
	var warm []int
	for range 6 {
		warm = append(warm, s.next())
	}
	if want := []int{3, 3, 2, 2, 4, 4}; !equal(warm, want) {
		t.Fatalf("warm-up shares %v, want %v", warm, want)
	}
	tests := []struct {
		name   string
		scores map[int][]float64
		want   int
	}{
		{"no job completed yet", nil, 3},
		{"3% best", map[int][]float64{2: {5}, 3: {4}, 4: {6}}, 3},
		{"2% best by a margin: try 1%", map[int][]float64{2: {3}, 3: {4}, 4: {6}}, 1},
		{"2% best within the margin", map[int][]float64{2: {3.9}, 3: {4}, 4: {6}}, 2},
		{"4% best by a margin: try 5%", map[int][]float64{2: {5}, 3: {4}, 4: {3}}, 5},
		{"1% best", map[int][]float64{1: {2}, 2: {3}, 3: {4}, 4: {6}}, 1},
		// A share's score is the mean of its last T = 2 jobs: 9 is gone.
		{"window of the last T", map[int][]float64{2: {9, 1, 1}, 3: {4}, 4: {6}}, 1},
		{"ties to the lower share", map[int][]float64{2: {4}, 3: {4}, 4: {4}}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSampler(2)
			s.asked = 6
			for share, xs := range tc.scores {
				for _, x := range xs {
					s.done(share, x)
				}
			}
			if got := s.next(); got != tc.want {
				t.Errorf("share %d, want %d", got, tc.want)
			}
		})
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

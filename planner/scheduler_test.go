package planner

import "testing"

// TestPreferredRuntime: a run's runtime brought back to preferred nodes of
// speed 1 — divided by the slowdown it took, multiplied by its speed.
func TestPreferredRuntime(t *testing.T) {
	tests := []struct {
		name string
		c    Completion
		want float64
	}{
		{"plain", Completion{Runtime: 100, Slowdown: 1}, 100},
		{"slowed", Completion{Runtime: 150, Slowed: true, Slowdown: 1.5}, 100},
		{"slowdown not taken", Completion{Runtime: 150, Slowdown: 1.5}, 150},
		{"fast nodes", Completion{Runtime: 50, Slowdown: 1, Speed: 2}, 100},
		{"slow nodes, slowed", Completion{Runtime: 300, Slowed: true, Slowdown: 1.5, Speed: 0.5}, 100},
		{"no speed given", Completion{Runtime: 100}, 100},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.c.PreferredRuntime(); got != tc.want {
				t.Errorf("PreferredRuntime = %v, want %v", got, tc.want)
			}
		})
	}
}

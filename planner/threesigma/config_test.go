package threesigma

import (
	"testing"
	"time"
)

// TestWorkLimitDefaults: a config keeps the work limit it is given, and
// without one leaves it to the backend (zero), whatever the timeout.
func TestWorkLimitDefaults(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		want int64
	}{
		{"deterministic, no timeout", Config{Mode: SolveDeterministic}, 0},
		{"deterministic, 1 s", Config{Mode: SolveDeterministic, SolveTimeout: time.Second}, 0},
		{"deterministic, explicit limit", Config{Mode: SolveDeterministic, SolveTimeout: time.Second, WorkLimit: 7}, 7},
		{"wall, 1 s", Config{SolveTimeout: time.Second}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.cfg.withDefaults().WorkLimit; got != tc.want {
				t.Errorf("work limit %d, want %d", got, tc.want)
			}
		})
	}
}

package threesigma

import (
	"testing"
	"time"
)

func TestWorkLimitFor(t *testing.T) {
	for _, tc := range []struct {
		name    string
		timeout time.Duration
		want    int64
	}{
		{"below the base: one move per chain", 10 * time.Millisecond, 2},
		{"at the base", workBaseTime, 2},
		{"100 ms", 100 * time.Millisecond, 400},
		{"1 s", time.Second, 18400},
		{"5 s", 5 * time.Second, 98400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := WorkLimitFor(tc.timeout); got != tc.want {
				t.Errorf("WorkLimitFor(%v) = %d, want %d", tc.timeout, got, tc.want)
			}
		})
	}
}

// TestWorkLimitDefaults: a deterministic config takes its work limit from
// the timeout unless one is given; a wall-clock config keeps the default.
func TestWorkLimitDefaults(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		want int64
	}{
		{"deterministic, no timeout", Config{Mode: SolveDeterministic}, DefaultWorkLimit},
		{"deterministic, 1 s", Config{Mode: SolveDeterministic, SolveTimeout: time.Second}, WorkLimitFor(time.Second)},
		{"deterministic, explicit limit wins", Config{Mode: SolveDeterministic, SolveTimeout: time.Second, WorkLimit: 7}, 7},
		{"wall, 1 s", Config{SolveTimeout: time.Second}, DefaultWorkLimit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.cfg.withDefaults().WorkLimit; got != tc.want {
				t.Errorf("work limit %d, want %d", got, tc.want)
			}
		})
	}
}

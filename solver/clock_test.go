package solver_test

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plannerhq/planner/solver"
)

// jumpingClock returns a clock that moves an hour ahead at every read.
func jumpingClock() func() time.Time {
	base := time.Now()
	var reads atomic.Int64
	return func() time.Time { return base.Add(time.Duration(reads.Add(1)) * time.Hour) }
}

// deterministicUnderJumpingClock solves m twice in deterministic mode with
// solve, once under the real clock and once under jumpingClock, and fails
// unless the answers are the same: the wall clock may bound and measure a
// deterministic solve, never decide it.
func deterministicUnderJumpingClock(t *testing.T, m *solver.Model, solve func(*solver.Model, *solver.Settings) (*solver.Result, error)) {
	t.Helper()
	s := &solver.Settings{Deterministic: true, TimeLimit: time.Minute}
	want, err := solve(m, s)
	if err != nil || want.X == nil {
		t.Fatalf("real clock: %v, answer %v", err, want != nil && want.X != nil)
	}
	restore := solver.SetWallClockForTest(jumpingClock())
	got, err := solve(m, s)
	restore()
	if err != nil || got.X == nil {
		t.Fatalf("jumping clock: %v, answer %v", err, got != nil && got.X != nil)
	}
	if !slices.Equal(got.X, want.X) {
		t.Errorf("the answer depends on the clock: objective %.4f under a jumping clock, %.4f under the real one", got.Objective, want.Objective)
	}
}

// TestDeterministicIgnoresClock: the greedy backend.
func TestDeterministicIgnoresClock(t *testing.T) {
	deterministicUnderJumpingClock(t, rackModel(t, 60, 3), func(m *solver.Model, s *solver.Settings) (*solver.Result, error) {
		return solver.GreedySolver{}.Solve(context.Background(), m, s)
	})
}

package solver

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestRelaxWatched: an LP that answers by its deadline is passed through;
// one that overruns its wait is abandoned then.
func TestRelaxWatched(t *testing.T) {
	m := &Model{}
	m.AddVar("x", Continuous, 0, 1, 1)
	want := &lpRelaxation{X: []float64{1}, Objective: 1, Optimal: true}
	tests := []struct {
		name    string
		takes   time.Duration
		wantErr error
	}{
		{"in time", 0, nil},
		{"overrun", 2 * time.Second, errLPAbandoned},
	}
	for _, tc := range tests {
		relax := func(ctx context.Context, _ *Model, _ *Settings) (*lpRelaxation, error) {
			time.Sleep(tc.takes) // a C call does not watch ctx
			return want, nil
		}
		start := time.Now()
		lp, err := relaxWatched(context.Background(), relax, m, DefaultSettings(), start.Add(40*time.Millisecond), start.Add(50*time.Millisecond))()
		if !errors.Is(err, tc.wantErr) || (err == nil && lp != want) {
			t.Errorf("%s: got %v, %v", tc.name, lp, err)
		}
		if took := time.Since(start); took > time.Second {
			t.Errorf("%s: relaxWatched returned after %v for a 50 ms deadline", tc.name, took)
		}
	}
}

package solver

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestRelaxWatched: an LP that answers in time is passed through; one that
// has not answered by the end of its wait is abandoned then, and the call
// returns without waiting for it.
func TestRelaxWatched(t *testing.T) {
	m := &Model{}
	m.AddVar("x", Continuous, 0, 1, 1)
	want := &lpRelaxation{X: []float64{1}, Objective: 1, Optimal: true}
	tests := []struct {
		name string
		// wait is how long relaxWatched waits for the LP; the LP that
		// overruns blocks until the test ends.
		wait    time.Duration
		blocks  bool
		wantErr error
	}{
		// A wait far longer than an unblocked LP takes, on any machine.
		{"in time", time.Minute, false, nil},
		{"overrun", 50 * time.Millisecond, true, errLPAbandoned},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			release := make(chan struct{})
			defer close(release)
			relax := func(ctx context.Context, _ *Model, _ *Settings) (*lpRelaxation, error) {
				if tc.blocks {
					<-release // a C call does not watch ctx
				}
				return want, nil
			}
			type answer struct {
				lp  *lpRelaxation
				err error
			}
			done := make(chan answer, 1)
			go func() {
				start := time.Now()
				lp, err := relaxWatched(context.Background(), relax, m, DefaultSettings(), start.Add(tc.wait-10*time.Millisecond), start.Add(tc.wait))()
				done <- answer{lp, err}
			}()
			select {
			case a := <-done:
				if !errors.Is(a.err, tc.wantErr) || (a.err == nil && a.lp != want) {
					t.Errorf("got %v, %v; want %v", a.lp, a.err, tc.wantErr)
				}
			case <-time.After(tc.wait + ReturnSlack):
				t.Fatalf("relaxWatched has not returned %v after its %v wait", ReturnSlack, tc.wait)
			}
		})
	}
}

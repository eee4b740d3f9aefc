package threesigma

import (
	"context"

	"github.com/plannerhq/planner/planner"
)

var _ planner.FallbackScheduler = (*ThreeSigma)(nil)

// Fallback decides a cycle at st by the fallback rule alone, as the last
// stage does when no earlier one decided (planner.FallbackScheduler).
// The stages recover their own panics; a driver's RunCycle asks Fallback
// when Schedule panicked outside them (pilot sampling, the cycle's
// layout or statistics). A hybrid's pilots are not sampled: their
// sampling may be what failed.
func (s *ThreeSigma) Fallback(ctx context.Context, st *planner.State) *planner.Decision {
	c, err := s.newCycle(ctx, st)
	if err != nil {
		return nil
	}
	c.fallback()
	c.fillStats()
	return c.dec
}

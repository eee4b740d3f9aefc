package plannertest

import (
	"context"
	"fmt"

	"github.com/plannerhq/planner/planner"
)

// Panicking is s with a panic injected into Schedule at the cycles for
// which at (the count of Schedule calls, from 1) is true, for tests of a
// driver's recovery (planner.RunCycle). It has s's fallback rule when s
// has one (planner.FallbackScheduler); it hides s's other optional
// interfaces.
func Panicking(s planner.Scheduler, at func(cycle int) bool) planner.Scheduler {
	p := &panicking{Scheduler: s, at: at}
	if fb, ok := s.(planner.FallbackScheduler); ok {
		return panickingFallback{p, fb}
	}
	return p
}

type panicking struct {
	planner.Scheduler
	at    func(int) bool
	calls int
}

// Schedule panics at the chosen cycles, else is s's.
func (p *panicking) Schedule(ctx context.Context, st *planner.State) (*planner.Decision, error) {
	p.calls++
	if p.at(p.calls) {
		panic(fmt.Sprintf("fault injected in cycle %d of %s", p.calls, p.Name()))
	}
	return p.Scheduler.Schedule(ctx, st)
}

type panickingFallback struct {
	*panicking
	fb planner.FallbackScheduler
}

// Fallback is s's.
func (p panickingFallback) Fallback(ctx context.Context, st *planner.State) *planner.Decision {
	return p.fb.Fallback(ctx, st)
}

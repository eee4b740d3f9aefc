package solver

import (
	"context"
	"time"
)

// portfolioCBCMinTime is the least time worth handing CBC as an improver:
// below it CBC (measured here) does not get past its preprocessing.
const portfolioCBCMinTime = 250 * time.Millisecond

// portfolioEngine is the default backend. In order, each stage reporting
// its incumbent as soon as it has one (so a kill at the deadline keeps it):
//
//  1. greedy construction without the LP: an answer within milliseconds;
//  2. the LP relaxation (CLP): the bound, reported at once;
//  3. structured rounding and repair guided by the LP answer;
//  4. local improvement of the best answer until the deadline or, in
//     deterministic mode, the work limit (stages 1–4 are roundingEngine);
//  5. CBC warm-started from the best answer with the time that remains, if
//     at least portfolioCBCMinTime — never in deterministic mode, where its
//     answer would depend on the clock.
//
// CBC is never on the critical path: at 300 pending jobs it was measured
// finding no solution at all within 1 s (SOLVERS.md).
func portfolioEngine(ctx context.Context, m *Model, s *Settings, inc func([]float64)) (*Result, error) {
	relax := func(ctx context.Context, m *Model, s *Settings) (*lpRelaxation, error) {
		lp, err := relaxCLP(ctx, m, s)
		if err == nil && lp.Optimal {
			reportBound(ctx, lp.Objective)
		}
		return lp, err
	}
	res, err := roundingEngine(relax)(ctx, m, s, inc)
	// A time-limited first stage leaves no time worth CBC's, and it may
	// have abandoned a CLP call that still runs on its own thread: COIN is
	// not re-entrant, so CBC must not start beside it.
	if err != nil || res.Status == Infeasible || s.Deterministic || res.TimeLimited {
		return res, err
	}
	cbc, ok := cgoEngines()[CBCName]
	d, hasDeadline := ctx.Deadline()
	if !ok || !hasDeadline || wallUntil(d) < portfolioCBCMinTime {
		return res, nil
	}
	cs := *s
	cs.Start = res.X
	cs.TimeLimit = wallUntil(d)
	r, err := cbc(ctx, m, &cs, inc)
	if err != nil || r == nil || r.X == nil {
		return res, nil // the improver failing leaves the answer we have
	}
	m.Snap(r.X)
	if m.CheckFeasible(r.X) == nil && (res.X == nil || better(m, m.ObjectiveValue(r.X), res.Objective)) {
		res.X, res.Objective, res.Status = r.X, m.ObjectiveValue(r.X), Feasible
	}
	res.Nodes += r.Nodes
	res.TimeLimited = res.TimeLimited || r.TimeLimited
	return res, nil
}

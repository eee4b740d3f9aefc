//go:build ignore

package solver

import (
	"context"
	"math"
	"time"
)

// portfolioCBCMinTime is the least time worth handing CBC as an improver:
// below it CBC (measured here) does not get past its preprocessing.
const portfolioCBCMinTime = 250 * time.Millisecond

// defaultImproveMoves bounds local improvement in deterministic mode when
// Settings.WorkLimit is zero.
const defaultImproveMoves = 200_000

// clpEngine is the "clp" backend: the LP relaxation (CLP, primal simplex)
// gives the bound, and structured rounding and repair of the LP answer gives
// a feasible integer answer.
func clpEngine(ctx context.Context, m *Model, s *Settings, inc func([]float64)) (*Result, error) {
	lp, err := relaxCLP(ctx, m, s)
	if err != nil {
		return nil, err
	}
	res := &Result{Status: NoSolution, Bound: math.NaN(), TimeLimited: lp.TimeLimited}
	if lp.Infeasible {
		res.Status = Infeasible
		return res, nil
	}
	if lp.Optimal {
		res.Bound = lp.Objective
	}
	if x := roundAndRepair(m, lp.X); x != nil {
		res.X, res.Status = x, Feasible
	}
	return res, nil
}

// portfolioEngine is the default backend. In order, each stage reporting its
// incumbent as soon as it has one (so a kill at the deadline keeps it):
//
//  1. greedy rounding without the LP: an answer within milliseconds;
//  2. the LP relaxation (CLP): the bound, reported at once;
//  3. structured rounding and repair guided by the LP answer;
//  4. local improvement of the best answer until it is a local optimum, the
//     deadline, or (deterministic mode) the work limit;
//  5. CBC warm-started from the best answer, with the time that remains if
//     at least portfolioCBCMinTime (never in deterministic mode: CBC's run
//     time at this size is unpredictable, and its answer would depend on it).
//
// CBC is never on the critical path: at 300 pending jobs it was measured
// finding no solution at all within 1 s (SOLVERS.md).
func portfolioEngine(ctx context.Context, m *Model, s *Settings, inc func([]float64)) (*Result, error) {
	res := &Result{Status: NoSolution, Bound: math.NaN()}
	var best []float64
	bestObj := 0.0
	take := func(x []float64) {
		if x == nil || m.CheckFeasible(x) != nil {
			return
		}
		if obj := m.ObjectiveValue(x); best == nil || better(m, obj, bestObj) {
			best, bestObj = x, obj
			if inc != nil {
				inc(x)
			}
		}
	}
	take(roundAndRepair(m, nil))

	lp, err := relaxCLP(ctx, m, s)
	if err != nil {
		return nil, err
	}
	res.TimeLimited = lp.TimeLimited
	if lp.Infeasible {
		res.Status = Infeasible
		return res, nil
	}
	if lp.Optimal {
		res.Bound = lp.Objective
		reportBound(ctx, lp.Objective)
	}
	if lp.X != nil {
		take(roundAndRepair(m, lp.X))
	}
	if best != nil {
		moves := int64(math.MaxInt64)
		if s.Deterministic {
			moves = s.WorkLimit
			if moves <= 0 {
				moves = defaultImproveMoves
			}
		}
		x, n := improve(ctx, m, best, moves, take)
		take(x)
		res.Nodes += n
	}
	if cbc, ok := cgoEngines()[CBC]; ok && !s.Deterministic {
		if d, ok := ctx.Deadline(); ok && time.Until(d) >= portfolioCBCMinTime {
			cs := *s
			cs.Start = best
			cs.TimeLimit = time.Until(d)
			if r, err := cbc(ctx, m, &cs, take); err == nil && r != nil {
				take(r.X)
				res.Nodes += r.Nodes
				res.TimeLimited = res.TimeLimited || r.TimeLimited
			}
		}
	}
	if best != nil {
		res.X, res.Objective, res.Status = best, bestObj, Feasible
	}
	return res, nil
}

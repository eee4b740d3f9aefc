package solver

import (
	"context"
	"math"
	"time"
)

// greedyFinishMargin is how long before its limit an in-process solve
// stops its constructions: a construction in flight and the final check
// of the answer finish in that time (the process backends get the same
// margin from the worker).
const greedyFinishMargin = 30 * time.Millisecond

// greedyAnalysisGrace is how far past its limit an in-process solve may
// still be analysing a large model before it gives up without an answer.
// The rest of the 50 ms the wall-clock bound allows is for the steps after
// the analysis that do not look at the clock: a first construction and the
// check of its answer (the infeasibility proof is skipped then).
const greedyAnalysisGrace = 15 * time.Millisecond

// GreedySolver is the pure-Go heuristic backend "greedy": greedy
// constructions in a few fixed orders, large gangs first among them, and
// the best of them (solveInProcess without the LP). It needs no C library,
// runs in process and looks at the clock between constructions (a large
// model under a short limit can end without an answer), proves nothing
// (Bound is NaN) and reports Feasible, NoSolution, or Infeasible only when
// a row cannot be met within the column bounds.
type GreedySolver struct{}

var _ Solver = GreedySolver{}

// Name returns "greedy".
func (GreedySolver) Name() string { return GreedyName }

// Solve runs the greedy constructions under s (nil: DefaultSettings).
func (GreedySolver) Solve(ctx context.Context, m *Model, s *Settings) (*Result, error) {
	return solveInProcess(ctx, GreedyName, m, s, nil)
}

// outOfTime is the result of a solve whose time ran out before it had an
// answer.
func outOfTime() *Result {
	return &Result{Status: NoSolution, Bound: math.NaN(), TimeLimited: true}
}

// relaxFunc solves the LP relaxation of a model.
type relaxFunc = func(ctx context.Context, m *Model, s *Settings) (*lpRelaxation, error)

// substituted returns relax solving, in place of a model rm of h's
// structure, the LP of rm with its options substituted out
// (heuristic_substitute.go) when there are any, its answer mapped back to
// rm's columns.
func (h *heuristic) substituted(relax relaxFunc) relaxFunc {
	return func(ctx context.Context, rm *Model, s *Settings) (*lpRelaxation, error) {
		sub := h.substitute(rm)
		if sub == nil {
			return relax(ctx, rm, s)
		}
		traceMark("parent", "substituted")
		lp, err := relax(ctx, sub.lp, s)
		if lp != nil && lp.X != nil {
			lp.X = sub.expand(h, rm, lp.X)
		}
		return lp, err
	}
}

// provedInfeasible reports whether some row cannot be met by any point
// within the column bounds (its activity range, from the bounds, misses its
// right-hand side by more than FeasTol): a proof of infeasibility that
// costs one pass over the rows.
func provedInfeasible(m *Model) bool {
	for i := range m.Rows {
		r := &m.Rows[i]
		lo, hi := 0.0, 0.0
		for k, j := range r.Index {
			a, v := r.Coef[k], &m.Vars[j]
			if a == 0 {
				continue
			}
			l, u := v.Lower, v.Upper
			if v.Kind == Binary {
				l, u = math.Max(l, 0), math.Min(u, 1)
			}
			if v.Kind != Continuous {
				l, u = math.Ceil(l-IntTol), math.Floor(u+IntTol)
			}
			if l > u {
				return true
			}
			if a > 0 {
				lo, hi = lo+a*l, hi+a*u
			} else {
				lo, hi = lo+a*u, hi+a*l
			}
		}
		tol := FeasTol * math.Max(1, math.Abs(r.RHS))
		if (r.Sense != GE && lo > r.RHS+tol) || (r.Sense != LE && hi < r.RHS-tol) {
			return true
		}
	}
	return false
}

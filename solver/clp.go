package solver

import (
	"context"
	"math"
	"time"
)

// clpSolver is the "clp" backend: greedy constructions, the LP relaxation
// (CLP) for a bound and a guide, and constructions in the orders the LP
// answer suggests (rounding and repair). Only the LP runs in a child
// process — CLP cannot be stopped from Go, and its limit counts processor
// time — so the rest sees the clock, and the answer is never below the
// greedy constructions made before the LP (solveInProcess).
type clpSolver struct{}

var _ Solver = clpSolver{}

func (clpSolver) Name() string { return CLPName }

func (clpSolver) Solve(ctx context.Context, m *Model, s *Settings) (*Result, error) {
	return solveInProcess(ctx, CLPName, m, s, relaxInWorker)
}

// relaxInWorker solves the LP relaxation of m with CLP in a child process
// (the clp row's worker engine, lpEngine), killed at ctx's deadline.
func relaxInWorker(ctx context.Context, m *Model, s *Settings) (*lpRelaxation, error) {
	a, err := runInWorker(ctx, CLPName, m, &Settings{Deterministic: s.Deterministic}, wallNow())
	if err != nil {
		return nil, err
	}
	if a.failure != nil {
		return nil, a.failure
	}
	lp := &lpRelaxation{Objective: math.NaN(), TimeLimited: a.killed}
	if f := a.final; f != nil {
		lp.TimeLimited = lp.TimeLimited || f.TimeLimited
		switch f.Status {
		case Optimal:
			lp.X, lp.Objective, lp.Optimal = f.X, f.Objective, true
		case Infeasible:
			lp.Infeasible = true
		case Feasible:
			lp.X = f.X
		}
	}
	return lp, nil
}

// lpReserve is how much of its search time a solve keeps from the LP for
// the guided constructions after it, in constructions' time: the unguided
// constructions measured before the LP, times this (there are five guided
// orders and two unguided ones), and at least lpMinReserve.
const (
	lpReserve    = 3
	lpMinReserve = 10 * time.Millisecond
)

// solveInProcess is the body of the in-process backends. In order, each
// step keeping the best answer so far, so that the answer is never below
// the first one:
//
//  1. the analysis of m (heuristic_structure.go), abandoned without an
//     answer when it is not done by the limit + greedyAnalysisGrace;
//  2. greedy constructions in the unguided orders (baseOrders) and
//     Settings.Start when it is feasible: the first answer (about 100 ms
//     at 1,000 pending jobs on the rack instances, 450 ms at 4,000:
//     BenchmarkFirstAnswer). Alone — the greedy backend — they are the
//     floor of a cycle whose LP comes too late: on the Google-like
//     workload (256 nodes, 5 h, seeds 1–3) 3sigma then misses 13.8% of
//     its SLOs with 1,025 machine-hours of goodput;
//  3. with relax (the clp backend): the LP relaxation of the reduced model
//     (heuristic.reduced) with the options substituted out
//     (heuristic_substitute.go), its bound, its own answer where it is
//     feasible, and constructions in the orders and rack splits it
//     guides: 9.9% and 1,626 machine-hours on the same runs (BENCHMARKS.md,
//     "Solver effort judged end to end"). Nothing on top of it moved SLO
//     misses or goodput beyond the spread across seeds on any workload
//     measured, so nothing is.
//
// With a time limit, the constructions stop at limit − min(limit/10,
// greedyFinishMargin) (a construction cut short is still feasible) and the
// LP at lpReserve constructions' time before that; in deterministic mode
// every step runs to its end, and the limit is only a guard (GuardStopped).
// The solve ends when its steps are done: it never waits for its limit.
func solveInProcess(ctx context.Context, name string, m *Model, s *Settings, relax relaxFunc) (*Result, error) {
	if s == nil {
		s = DefaultSettings()
	}
	start := wallNow() // the limit counts from the call, checks included
	if err := m.Validate(); err != nil {
		return nil, err
	}
	search, analysis := ctx, ctx
	if s.TimeLimit > 0 {
		var cancel context.CancelFunc
		search, cancel = context.WithDeadline(ctx, start.Add(s.TimeLimit-min(s.TimeLimit/10, greedyFinishMargin)))
		defer cancel()
		if !s.Deterministic {
			analysis, cancel = context.WithDeadline(ctx, start.Add(s.TimeLimit+greedyAnalysisGrace))
			defer cancel()
		}
	}
	res := &Result{Backend: name, Status: NoSolution, Bound: math.NaN()}
	defer func() {
		res.GuardStopped = s.Deterministic && search.Err() != nil
		res.Wall = wallSince(start)
	}()
	traceMark("parent", "start")
	h := newHeuristicUntil(m, analysis.Done())
	if h == nil {
		res.TimeLimited = true
		return res, nil
	}
	h.stop = search.Done()
	traceMark("parent", "analysed")
	b := h.newIncumbent()
	t0 := wallNow()
	h.construction(search, nil, true, b)
	b.offerSnapped(s.Start)
	traceMark("parent", "first-answer")
	// Without an answer, a proof of infeasibility (a pass over the rows),
	// skipped when the time is over (an infeasible model then ends without
	// an answer, not proved infeasible).
	if b.x == nil && search.Err() == nil && provedInfeasible(m) {
		res.Status = Infeasible
		return res, nil
	}
	if relax != nil && search.Err() == nil {
		lpCtx, cancel := search, context.CancelFunc(func() {})
		if d, ok := search.Deadline(); ok && !s.Deterministic {
			reserve := max(lpMinReserve, lpReserve*wallSince(t0))
			lpCtx, cancel = context.WithDeadline(search, d.Add(-reserve))
		}
		var lp *lpRelaxation
		var err error
		if lpCtx.Err() == nil {
			rm, _ := h.reduced()
			lp, err = h.substituted(relax)(lpCtx, rm, s)
		} else {
			lp = &lpRelaxation{TimeLimited: true}
		}
		cancel()
		traceMark("parent", "lp")
		switch {
		case err != nil && b.x == nil:
			return nil, err
		case err != nil:
			// The answer stands without the LP (an unbounded LP, a worker
			// that failed): no bound, no guide.
			res.TimeLimited = lpCtx.Err() != nil
		case lp.Infeasible:
			res.Status = Infeasible
			return res, nil
		default:
			res.TimeLimited = lp.TimeLimited
			if lp.Optimal {
				res.Bound = lp.Objective
			}
			if lp.X != nil && len(lp.X) == h.n {
				b.offerSnapped(lp.X) // the LP's own answer, where it is feasible
				h.construction(search, lp.X, false, b)
			}
		}
	}
	traceMark("parent", "constructed")
	res.TimeLimited = res.TimeLimited || search.Err() != nil
	if b.x != nil {
		x := make([]float64, len(b.x)) // not nil for a model without columns
		copy(x, b.x)
		m.Snap(x)
		// A heuristic bug must not reach a caller as an answer.
		if m.CheckFeasible(x) == nil {
			res.X, res.Objective, res.Status = x, m.ObjectiveValue(x), Feasible
		}
	}
	res.finish(m)
	return res, nil
}

package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"
)

// GreedyName is the registry name of the pure-Go heuristic backend.
const GreedyName = "greedy"

// greedyFinishMargin is how long before its limit the in-process greedy
// stops searching: a construction or a batch of moves in flight, and the
// final check of the answer, finish in that time (the process backends get
// the same margin from the worker).
const greedyFinishMargin = 30 * time.Millisecond

// greedyAnalysisGrace is how far past its limit the in-process greedy may
// still be analysing a large model before it gives up without an answer.
// The rest of the 50 ms the wall-clock bound allows is for the steps after
// the analysis that do not look at the clock: a first construction and the
// check of its answer (the infeasibility proof is skipped then). On the
// rack instances the analysis takes about 25 ms at 300 jobs and 80 ms at
// 1,000, and those two steps about 5 ms and 20 ms.
const greedyAnalysisGrace = 15 * time.Millisecond

// greedyDefaultMoves bounds the local improvement of a deterministic greedy
// solve when Settings.WorkLimit is zero.
const greedyDefaultMoves = 200_000

// finishMargin is how long before its context's deadline a heuristic
// engine stops searching, so that its last answer is out before a caller
// that kills at the deadline does (a loaded machine can hold a goroutine
// off its core for this long).
const finishMargin = 10 * time.Millisecond

// finishEarly returns ctx with its deadline moved finishMargin earlier
// (unless that leaves less than finishMargin, or the solve is deterministic).
func finishEarly(ctx context.Context, s *Settings) (context.Context, context.CancelFunc) {
	if d, ok := ctx.Deadline(); ok && !s.Deterministic && wallUntil(d) > 2*finishMargin {
		return context.WithDeadline(ctx, d.Add(-finishMargin))
	}
	return ctx, func() {}
}

// lpShare is the most of the time left that roundingEngine lets the LP
// take: a loaded machine can slow CLP past the whole budget (seen in this
// package's tests), and an LP cut off then still leaves time to sample and
// improve without a guide rather than ending on the first greedy answer.
const lpShare = 0.75

// greedySamples is the number of randomised constructions (sampleOrder) a
// deterministic solve, or one without a deadline, makes before improving.
const greedySamples = 48

// sampleShare: with a deadline, sampling stops once it has used this share
// of the time that was left when it started (and after at least
// minSamples), leaving the rest to the local search. Sampling finds value
// fast, but at 300 jobs the local search is still improving when a 1 s
// solve ends: on the validation instances (300 jobs, seeds 6–10, against
// a 60 s reference; BENCHMARKS.md) a quarter of the time beat half of it,
// 98.96% against 98.34–98.47% of the reference in process (a tenth:
// 98.92%), with the default instances unchanged or better. At 100 jobs
// sampling usually ends earlier, on sampleStall.
const (
	sampleShare = 0.25
	minSamples  = 4
	// sampleStall ends a timed stream's sampling after so many samples
	// without a better answer: on small models every sample is the same
	// packing, and the time is better left to the local search (or not
	// spent at all). On the rack instances, with the local search's core,
	// 256 beat 64 (mean share of the best known in 1 s solves through the
	// worker, five rounds of seeds 1–5 alternated: 99.21% → 99.32%; 16 and
	// 32: 99.09–99.15%; no stall, the budget alone: 99.14–99.25%). Sampling
	// then takes 100–160 ms of a 1 s solve at 100 jobs (was about 40) and
	// reaches its budget at 300 jobs (about 360 ms, was about 100).
	sampleStall = 256
)

// lnsStall ends a local search that has no move limit and no deadline after
// so many moves without a better answer.
const lnsStall = 50_000

// GreedySolver is the pure-Go heuristic backend "greedy": greedy
// construction (several orders, large gangs first among them) and then
// ruin-and-recreate local improvement until the time or work limit. It
// needs no C library, runs in process (it looks at the clock during its
// analysis of the model and between moves; a large model under a short
// limit can end without an answer), proves nothing (Bound is NaN) and
// reports Feasible, NoSolution, or Infeasible only when a row cannot be met
// within the column bounds.
type GreedySolver struct{}

var _ Solver = GreedySolver{}

// Name returns "greedy".
func (GreedySolver) Name() string { return GreedyName }

// Solve runs greedyEngine under s (nil: DefaultSettings) and verifies the answer.
func (GreedySolver) Solve(ctx context.Context, m *Model, s *Settings) (*Result, error) {
	if s == nil {
		s = DefaultSettings()
	}
	start := wallNow() // the limit counts from the call, checks included
	if err := m.Validate(); err != nil {
		return nil, err
	}
	analysis := ctx
	if s.TimeLimit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, start.Add(s.TimeLimit-min(s.TimeLimit/10, greedyFinishMargin)))
		defer cancel()
		if !s.Deterministic {
			analysis, cancel = context.WithDeadline(analysis, start.Add(s.TimeLimit+greedyAnalysisGrace))
			defer cancel()
		}
	}
	res, err := greedyRun(ctx, analysis.Done(), m, s, nil)
	if err != nil {
		return nil, fmt.Errorf("solver: %s: %w", GreedyName, err)
	}
	res.Backend = GreedyName
	res.GuardStopped = s.Deterministic && ctx.Err() != nil
	if res.X != nil {
		m.Snap(res.X)
		if err := m.CheckFeasible(res.X); err != nil {
			// A heuristic bug must not reach a caller as an answer.
			res.X, res.Status = nil, NoSolution
		} else {
			res.Objective = m.ObjectiveValue(res.X)
		}
	}
	res.Gap = math.NaN()
	res.Wall = wallSince(start)
	return res, nil
}

// greedyEngine is the "greedy" engine: roundAndRepair without a guide (and
// Settings.Start when it is feasible and better), then improve until ctx is
// done — or, in deterministic mode, for Settings.WorkLimit moves
// (greedyDefaultMoves when zero).
//
// The engine's analysis of m runs to its end: in a worker the kill at the
// deadline bounds it, and the engine's context ends early by design (its
// margins), when a first answer can still arrive in time.
func greedyEngine(ctx context.Context, m *Model, s *Settings, inc func([]float64)) (*Result, error) {
	return greedyRun(ctx, nil, m, s, inc)
}

// greedyRun is greedyEngine with the analysis of m abandoned (no answer)
// when analysisDone closes; the search stops with ctx. Only the in-process
// GreedySolver needs the former: nothing kills it at its deadline.
func greedyRun(ctx context.Context, analysisDone <-chan struct{}, m *Model, s *Settings, inc func([]float64)) (*Result, error) {
	if s == nil {
		s = DefaultSettings()
	}
	ctx, cancel := finishEarly(ctx, s)
	defer cancel()
	h := newSeededHeuristic(analysisDone, m, s)
	if h == nil {
		return outOfTime(), nil
	}
	return h.solve(ctx, s, nil, inc, nil), nil
}

// newSeededHeuristic is newHeuristic for a solve under s: its randomised
// choices seeded by s.Seed (s may be nil: the built-in seed). It returns
// nil when done closes before the analysis ends.
func newSeededHeuristic(done <-chan struct{}, m *Model, s *Settings) *heuristic {
	h := newHeuristicUntil(m, done)
	if h != nil && s != nil {
		h.seed = s.Seed
	}
	return h
}

// outOfTime is the result of a solve whose time ran out before it had an
// answer.
func outOfTime() *Result {
	return &Result{Status: NoSolution, Bound: math.NaN(), TimeLimited: true}
}

// searchSeed is the seed of h's randomised choices: h.seed, or lnsSeed
// when that is 0.
func (h *heuristic) searchSeed() uint64 {
	if h.seed == 0 {
		return lnsSeed
	}
	return h.seed
}

// roundingEngine returns an engine that solves the LP relaxation with relax
// (CLP's relaxCLP in cgo builds), reports its bound, and then does what
// greedyEngine does with the LP answer as a guide: the guided and unguided
// constructions, the better one improved. It is the heuristic core of the
// default backend, sharing one analysis of the model between the stages.
//
// The LP is that of the reduced model (heuristic.reduced): options that do
// not fit even into an empty plan are fixed at zero first. Its bound is
// still valid for m and, on the rack instances, up to 6% tighter; and its
// answer no longer spends capacity on gangs that can never start, which
// made the rounding from it markedly better (SOLVERS.md's "large jobs
// taken fractionally").
//
// relax is given that LP with the options substituted out
// (heuristic.substituted): a third of the rows, solved 2–4× faster, the
// same optimum.
func roundingEngine(relax relaxFunc) engine {
	return func(ctx context.Context, m *Model, s *Settings, inc func([]float64)) (*Result, error) {
		if s == nil {
			s = DefaultSettings()
		}
		ctx, cancel := finishEarly(ctx, s)
		defer cancel()
		traceMark("child", "engine-start")
		h := newSeededHeuristic(nil, m, s) // bounded by the worker's kill, as in greedyEngine
		traceMark("child", "analysed")
		// An answer before the LP's, in case the LP takes the whole budget.
		// With a deadline the LP starts first and this answer is built
		// beside it (the LP is single-threaded), in deterministic mode
		// before it; either way it is the same answer.
		first := func() []float64 {
			x0 := h.roundAndRepair(nil)
			if x0 != nil && inc != nil {
				inc(append([]float64(nil), x0...))
			}
			traceMark("child", "first-answer")
			return x0
		}
		// Apart from that, no search runs beside the LP: on a machine running parallel
		// simulations it would only slow the LP down, and the guided
		// constructions after it are what find the value.
		var x0 []float64
		var lp *lpRelaxation
		var err error
		var rm *Model
		relax := h.substituted(relax)
		if d, ok := ctx.Deadline(); ok && !s.Deterministic {
			rm, _ = h.reduced()
			traceMark("child", "reduced")
			left := wallUntil(d)
			now := wallNow()
			wait := relaxWatched(ctx, relax, rm, s, now.Add(time.Duration(lpShare*float64(left))),
				now.Add(time.Duration(lpWaitShare*float64(left))))
			x0 = first()
			lp, err = wait()
		} else {
			x0 = first()
			rm, _ = h.reduced()
			traceMark("child", "reduced")
			lp, err = relax(ctx, rm, s)
		}
		traceMark("child", "lp")
		if err != nil {
			if x0 == nil {
				return nil, err
			}
			// The answer stands without the LP (no bound, no guide).
			lp = &lpRelaxation{TimeLimited: ctx.Err() != nil || errors.Is(err, errLPAbandoned)}
		}
		if lp.Infeasible {
			return &Result{Status: Infeasible, Bound: math.NaN()}, nil
		}
		var guide []float64
		if lp.X != nil && len(lp.X) == h.n {
			guide = lp.X
			h.rc = lp.itemRC
			if lp.Optimal {
				h.relaxWith = h.relaxFixing(relax, rm, s)
			}
		}
		res := h.solve(ctx, s, guide, inc, x0)
		if lp.Optimal {
			res.Bound = lp.Objective
		}
		res.TimeLimited = res.TimeLimited || lp.TimeLimited
		return res, nil
	}
}

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
		traceMark("child", "substituted")
		lp, err := relax(ctx, sub.lp, s)
		if lp != nil && lp.X != nil {
			lp.X = sub.expand(h, rm, lp.X)
			if lp.Optimal {
				lp.itemRC = sub.itemReducedCosts(h, rm, lp.Duals)
			}
		}
		return lp, err
	}
}

// relaxFunc solves the LP relaxation of a model.
type relaxFunc = func(ctx context.Context, m *Model, s *Settings) (*lpRelaxation, error)

// lpWaitShare is how much of the time left roundingEngine waits for the
// LP at most (wall clock). CLP is told lpShare, but its limit counts
// processor time, so on a loaded machine it ran on up to the worker's kill
// and the search after it never ran. An LP that answers late but before
// this point still guides the constructions (measured under load: 97% of the
// best known against 88% unguided); one that does not is abandoned.
const lpWaitShare = 0.9

// errLPAbandoned: the LP had not answered by its wall-clock limit.
var errLPAbandoned = errors.New("solver: LP relaxation abandoned at its wall-clock limit")

// relaxWatched starts relax under a context with deadline lpDeadline and
// returns a function that waits for its answer until waitUntil, returning
// errLPAbandoned if there is none by then; an abandoned LP finishes on its
// own thread while the search goes on without a guide.
func relaxWatched(ctx context.Context, relax relaxFunc,
	m *Model, s *Settings, lpDeadline, waitUntil time.Time) func() (*lpRelaxation, error) {
	type answer struct {
		lp  *lpRelaxation
		err error
	}
	wait := watched(ctx, lpDeadline, waitUntil, func(ctx context.Context) answer {
		lp, err := relax(ctx, m, s)
		return answer{lp, err}
	})
	return func() (*lpRelaxation, error) {
		a, ok := wait()
		if !ok {
			return nil, errLPAbandoned
		}
		return a.lp, a.err
	}
}

// watched starts f on its own goroutine under a context with the given
// deadline and returns a function that waits for its result until
// waitUntil: the result and true, or the zero value and false when f has
// not returned by then (it then finishes on its own).
func watched[T any](ctx context.Context, deadline, waitUntil time.Time, f func(context.Context) T) func() (T, bool) {
	fctx, cancel := context.WithDeadline(ctx, deadline)
	done := make(chan T, 1)
	go func() {
		defer cancel()
		done <- f(fctx)
	}()
	return func() (T, bool) {
		late := time.NewTimer(wallUntil(waitUntil))
		defer late.Stop()
		select {
		case v := <-done:
			return v, true
		case <-late.C:
			var zero T
			return zero, false
		}
	}
}

// solve is the shared body of the heuristic engines: construct (guided by
// guide when non-nil), take also Settings.Start and extra when feasible,
// keep the best, improve it.
func (h *heuristic) solve(ctx context.Context, s *Settings, guide []float64, inc func([]float64), extra []float64) *Result {
	m := h.m
	h.stop = ctx.Done()
	res := &Result{Status: NoSolution, Bound: math.NaN()}
	// The proof costs a pass over the rows (12 ms at 1,000 jobs on the rack
	// instances): skipped when the time is already over, as after a long
	// analysis under a short limit (an infeasible model then ends without
	// an answer, not proved infeasible).
	if ctx.Err() == nil && provedInfeasible(m) {
		res.Status = Infeasible
		return res
	}
	b := h.newIncumbent(inc)
	b.offer(extra, true)
	// With an extra answer (the unguided construction, done already) only
	// the guided orders are new.
	h.construction(ctx, guide, guide == nil || extra == nil, b)
	traceMark("child", "constructed")
	b.offerSnapped(s.Start)
	if b.x == nil {
		res.TimeLimited = ctx.Err() != nil
		return res
	}
	if ctx.Err() != nil {
		// No time left (a large model under a short limit): the best
		// construction stands, without the set-up of sampling and search
		// (about 40 ms at 1,000 jobs on the rack instances).
		b.flush()
		res.X, res.Status, res.TimeLimited = b.x, Feasible, true
		res.Objective = m.ObjectiveValue(b.x)
		return res
	}
	var streams [][]float64
	second := h.secondGuide(ctx, s, b.x)
	if h.simple {
		streams = h.sample(ctx, s, greedySamples, b)
	}
	traceMark("child", "sampled")
	b.flush()
	best := b.x
	moves := int64(0)
	if s.Deterministic {
		moves = s.WorkLimit
		if moves <= 0 {
			moves = greedyDefaultMoves
		}
	}
	// Each local-search chain starts from the best of its sampling stream
	// when that is close to the best overall: two different starts. The
	// second chain takes the other side of the LP's most valuable open
	// choice instead when there is one, close enough (branchStart). The
	// chains search with the second guides (secondGuide) — the second
	// chain on the side of the weightiest open choice the best answer
	// took, the first on the other — each starting from the best
	// construction its guide makes when that is better still.
	starts := make([]chainStart, len(streams))
	for w, x := range streams {
		starts[w].x = x
	}
	g, late := second()
	traceMark("child", "second-guide")
	if len(starts) > 1 {
		if alt := h.branchStart(ctx, best); alt != nil && h.closeEnough(alt, best) {
			starts[1].x = alt
		}
		starts[1].take(h, g.keep)
		starts[0].take(h, g.flip)
	}
	traceMark("child", "branched")
	x, n := h.improveFrom(ctx, best, starts, moves, inc)
	res.X, res.Status, res.Nodes = x, Feasible, n
	res.Objective = m.ObjectiveValue(x)
	// An abandoned second guide may leave CLP running on its own thread:
	// reported as time-limited, so that CBC does not start beside it.
	res.TimeLimited = ctx.Err() != nil || (moves > 0 && n >= moves) || late
	return res
}

// sample offers to b randomised constructions (sampleOrder, seeded: the
// same model gives the same samples) and returns the best of each stream
// (nil for a stream without one). Without a
// deadline, or in deterministic mode, it makes count of them; with one, it
// stops after using sampleShare of the time left (at least minSamples).
func (h *heuristic) sample(ctx context.Context, s *Settings, count int, b *incumbent) [][]float64 {
	start := wallNow()
	d, timed := ctx.Deadline()
	timed = timed && !s.Deterministic
	var budget time.Duration
	if timed {
		budget = time.Duration(float64(wallUntil(d)) * sampleShare)
	}
	nw := h.workers(timed)
	found := make([]*incumbent, nw)
	h.parallel(nw, func(w int, hw *heuristic) {
		bw := hw.newIncumbent(nil)
		found[w] = bw
		noise := make([]float64, len(hw.items))
		// Sample i is drawn from its own seeded source, so it is the same
		// whichever worker makes it.
		stale := 0 // samples of this stream since it last improved
		for i := w; ctx.Err() == nil; i += nw {
			if timed && i >= minSamples && (wallSince(start) >= budget || stale >= sampleStall) {
				break
			}
			if !timed && i >= count {
				break
			}
			rng := rand.New(rand.NewPCG(hw.searchSeed(), 0x5a00+uint64(i)))
			stale++
			sigmas := sampleNoise
			if i%2 == 1 {
				sigmas = sampleNoiseWide
			}
			if st := hw.constructOrder(hw.sampleOrder(hw.guide, rng, i, noise, sigmas)); st != nil {
				hadX, before := bw.x != nil, bw.obj
				if bw.offerState(st); !hadX || bw.obj > before {
					stale = 0
				}
			}
		}
	})
	streams := make([][]float64, len(found))
	for w, bw := range found {
		if bw.x != nil {
			b.offer(bw.x, false)
			streams[w] = bw.x
		}
	}
	return streams
}

// heurWorkers is the number of independent streams a solve splits its
// sampling and its local search into. It is fixed, so that a deterministic
// answer does not depend on the machine; with a deadline the streams run
// in parallel when GOMAXPROCS allows (the cores a cycle's solve has to
// itself), and with GOMAXPROCS = 1 a timed solve uses one stream.
const heurWorkers = 2

// workers is the number of streams to use.
func (h *heuristic) workers(timed bool) int {
	if timed {
		return max(1, min(heurWorkers, runtime.GOMAXPROCS(0)))
	}
	return heurWorkers
}

// parallel runs f for workers 0..n−1 concurrently, worker 0 on h and the
// others on clones of h (sharing its read-only analysis), and waits.
func (h *heuristic) parallel(n int, f func(w int, hw *heuristic)) {
	if n == 1 {
		f(0, h)
		return
	}
	var wg sync.WaitGroup
	for w := 1; w < n; w++ {
		hw := h.clone()
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(w, hw)
		}()
	}
	f(0, h)
	wg.Wait()
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

package service

import (
	"context"
	"math"
	"time"

	"github.com/plannerhq/planner/planner"
)

// cycle runs one planning cycle at now (seconds since the epoch) with
// planner.RunCycle, as the simulator does (experiments.Sim), on the
// service's books (journalBooks): the scheduler Observes the completions
// reported since the last cycle and Trains on new history; when a job is
// pending it Schedules on the state at now; the decision is checked with
// Decision.Validate against that state; what still holds of it is
// enacted (written to the log, published to the decisions feed) and the
// scheduler is told with Applied. The caller holds cycleMu. It returns
// the cycle's summary, nil when nothing was pending.
func (s *Service) cycle(ctx context.Context, now float64) *CycleView {
	b := &journalBooks{s: s, t0: time.Now()}
	c := planner.RunCycle(ctx, s.sched, b, now, planner.CycleOptions{Log: s.log, SkipIdle: true})
	switch {
	case b.stopped:
		return nil
	case c.Skipped:
		s.metrics.cycles.WithLabelValues("idle").Inc()
		s.maybeSnapshot()
		return nil
	}
	view, d, out := &b.view, c.Decision, b.out
	if out == nil {
		// The service never repairs a decision, as the simulator does not:
		// a Schedule error, or a decision that breaks the contract on the
		// state the scheduler was given, is refused whole and the scheduler
		// told so (RunCycle).
		outcome := "failed"
		if c.Err != nil {
			view.Failure = c.Err.Error()
			s.log.Error().Err(c.Err).Float64("t", now).Str("scheduler", s.sched.Name()).Msg("the scheduler failed; nothing decided this cycle")
		} else {
			outcome = "invalid"
			view.fill(d)
			view.Invalid = c.Invalid.Error()
			s.log.Error().Err(c.Invalid).Float64("t", now).Str("scheduler", s.sched.Name()).Msg("the scheduler's decision breaks the cluster contract; refused whole")
		}
		s.metrics.cycles.WithLabelValues(outcome).Inc()
		res := c.Result
		view.Refused = len(res.Refused)
		view.CycleMS = ms(time.Since(b.t0))
		o, jerr := s.submit(func(ss *state) (*record, answer, error) {
			ss.cycle = b.n
			ss.addCycle(*view)
			return nil, func(ss *state) any { return ss.enacted(res) }, nil
		})
		out = &enacted{res: res}
		if jerr == nil {
			out = o.(*enacted)
		}
	}
	s.logDecisions(now, out)
	s.observeCycle(d, *view, time.Since(b.t0), c.Err == nil && c.Invalid == nil)
	s.metrics.setGauges(out.gauges)
	s.maybeSnapshot()
	return view
}

// journalBooks are the service's books as one cycle reads and changes
// them (planner.Books): through the journal, which holds the state's
// lock for each step, so that the cycle never holds it while the
// scheduler plans and requests go on meanwhile. The view is a copy
// (Ledger.Snapshot); Apply enacts what still holds of the decision on
// the books as they are by then.
type journalBooks struct {
	s  *Service
	t0 time.Time // the cycle's start, for its wall time
	n  uint64    // the cycle's number
	// view is the cycle's summary, out what Apply enacted (nil: the
	// decision was refused whole, Apply not called).
	view    CycleView
	out     *enacted
	stopped bool // the service stops: no cycle
}

// View takes the state at now and what the scheduler must be told before
// it plans (completions, history), and tells it.
func (b *journalBooks) View(now float64) *planner.State {
	s := b.s
	var (
		items []schedItem
		st    *planner.State
	)
	if _, err := s.submit(func(ss *state) (*record, answer, error) {
		items, ss.sched = ss.sched, nil
		st = ss.books.Snapshot(now)
		b.n = ss.cycle + 1
		return nil, nil, nil
	}); err != nil {
		b.stopped = true
		return &planner.State{Now: now} // nothing pending: RunCycle skips it
	}
	for _, it := range items {
		if it.completion != nil {
			s.sched.Observe(*it.completion)
		} else {
			s.sched.Train(it.history)
		}
	}
	b.view = CycleView{Cycle: b.n, Time: s.tl.format(now), TimeS: now, Pending: len(st.Pending), Running: len(st.Running)}
	return st
}

// Apply enacts what still holds of a valid decision: the record of it is
// written to the log, which applies it to the books, and the cycle's
// summary is kept.
func (b *journalBooks) Apply(now float64, d *planner.Decision) *planner.ApplyResult {
	s, view := b.s, &b.view
	view.fill(d)
	shortest := s.shortestEstimates(d)
	o, jerr := s.submit(func(ss *state) (*record, answer, error) {
		rec, res := ss.enact(b.n, now, d)
		for i := range rec.Starts {
			rec.Starts[i].ShortestS = shortest[rec.Starts[i].Job]
		}
		view.Started, view.Preempted, view.Refused = len(rec.Starts), len(rec.Preempts), len(res.Refused)
		view.CycleMS = ms(time.Since(b.t0))
		rec.Stats = *view
		ss.plan, ss.planCycle = d.Plan, b.n
		ss.cycle = b.n
		ans := func(ss *state) any { return ss.enacted(res) }
		if len(rec.Starts)+len(rec.Preempts) == 0 {
			ss.addCycle(*view)
			return nil, ans, nil
		}
		return &record{Decision: rec}, ans, nil
	})
	if jerr != nil {
		s.log.Error().Err(jerr).Float64("t", now).Msg("the cycle's decision was not enacted")
		b.out = &enacted{res: planner.RefuseAll(now, d, jerr)}
	} else {
		b.out = o.(*enacted)
	}
	return b.out.res
}

// shortestEstimates are, per job the decision starts, the shortest
// runtime the scheduler's estimate allows (planner.EstimateReporter),
// which the decision feed publishes so that a driver can tell a start too
// late for any expected runtime; nil for a scheduler without estimates.
// The cycle's goroutine owns the scheduler, so it asks here.
func (s *Service) shortestEstimates(d *planner.Decision) map[int]float64 {
	er, ok := s.sched.(planner.EstimateReporter)
	if !ok {
		return nil
	}
	out := make(map[int]float64, len(d.Start))
	for _, pl := range d.Start {
		if v, ok := er.ShortestRuntime(pl.JobID); ok {
			out[pl.JobID] = v
		}
	}
	return out
}

// fill copies the decision's statistics into the summary.
func (v *CycleView) fill(d *planner.Decision) {
	s := &d.Stats
	v.Solved, v.TimeLimited, v.Fallback = s.Solved, s.TimeLimited, s.Fallback
	v.FailedStage, v.Failure, v.Panicked = s.FailedStage, s.Failure, s.Panicked
	v.Objective, v.Options, v.Vars, v.Rows, v.HeldNodes = s.Objective, s.Options, s.Vars, s.Rows, s.HeldNodes
	v.SolveMS = ms(s.Solve)
	if !finite(v.Objective) {
		v.Objective = 0 // JSON has no Inf or NaN
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// enacted is what a cycle's thread needs of the state after its decision
// was enacted, taken by the journal: the result for Applied, the lines to
// log and the gauges.
type enacted struct {
	res    *planner.ApplyResult
	lines  []decisionLine
	gauges gauges
}

// decisionLine is an enacted start or preemption, named as the client
// names its job.
type decisionLine struct {
	job, class string
	nodes      int
	preempt    bool
	alloc      map[string]int
}

func (st *state) enacted(res *planner.ApplyResult) *enacted {
	e := &enacted{res: res, gauges: st.gauges()}
	for _, id := range res.Preempted {
		if js := st.byID[id]; js != nil {
			e.lines = append(e.lines, decisionLine{job: js.key, preempt: true})
		}
	}
	for _, pl := range res.Started {
		if js := st.byID[pl.JobID]; js != nil {
			alloc := make(map[string]int)
			for r, k := range pl.Alloc {
				if k > 0 {
					alloc[st.cluster.PartitionName(r)] = k
				}
			}
			e.lines = append(e.lines, decisionLine{job: js.key, class: js.job.Class.String(), nodes: js.job.Nodes, alloc: alloc})
		}
	}
	return e
}

// logDecisions writes a line per enacted decision at info, with the
// client's job id, and one per refusal at warn.
func (s *Service) logDecisions(now float64, e *enacted) {
	for _, l := range e.lines {
		if l.preempt {
			s.log.Info().Float64("t", now).Str("job", l.job).Msg("preempt")
		} else {
			s.log.Info().Float64("t", now).Str("job", l.job).Str("class", l.class).Int("nodes", l.nodes).
				Interface("alloc", l.alloc).Msg("start")
		}
	}
	for _, ref := range e.res.Refused {
		s.log.Warn().Float64("t", now).Int("job", ref.JobID).Bool("preempt", ref.Preempt).AnErr("reason", ref.Err).Msg("refused")
	}
}

// observeCycle updates the metrics of a cycle that ran Schedule.
func (s *Service) observeCycle(d *planner.Decision, v CycleView, total time.Duration, planned bool) {
	m := s.metrics
	if planned {
		m.cycles.WithLabelValues("planned").Inc()
	}
	m.cycle.Observe(total.Seconds())
	if d.Stats.Solve > 0 {
		m.solve.Observe(d.Stats.Solve.Seconds())
	}
	if d.Stats.Fallback {
		m.fallbacks.Inc()
	}
	if d.Stats.TimeLimited {
		m.timeLimited.Inc()
	}
	if d.Stats.FailedStage != "" {
		m.stageFailures.Inc()
	}
	m.decisions.WithLabelValues("start").Add(float64(v.Started))
	m.decisions.WithLabelValues("preempt").Add(float64(v.Preempted))
	m.refused.Add(float64(v.Refused))
}

// maybeSnapshot rewrites the predictor's snapshot when it learnt something
// and the last one is older than Config.SnapshotEvery.
func (s *Service) maybeSnapshot() {
	if s.learned.Load() == 0 || (s.cfg.SnapshotEvery > 0 && s.cfg.Wall().Sub(s.lastSnapshot) < s.cfg.SnapshotEvery) {
		return
	}
	s.lastSnapshot = s.cfg.Wall()
	if _, err := s.submitOp(&op{run: noRecord, snap: true}); err != nil {
		s.log.Warn().Err(err).Msg("predictor snapshot not written; the log keeps what it learnt")
	}
}

// loop runs a cycle at every interval boundary of the wall clock until
// ctx is done. A cycle always finishes: its solve is bounded by its own
// limit, and ctx only stops the waiting between cycles.
func (s *Service) loop(ctx context.Context) {
	iv := s.cfg.Interval.Seconds()
	for {
		now := s.clock.now()
		next := (math.Floor(now/iv) + 1) * iv
		timer := time.NewTimer(time.Duration((next - now) * 1e9))
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-timer.C:
		}
		s.cycleMu.Lock()
		t0 := time.Now()
		s.cycle(context.WithoutCancel(ctx), s.clock.now())
		took := time.Since(t0)
		s.cycleMu.Unlock()
		if took > s.cfg.Interval {
			s.metrics.overruns.Inc()
			s.log.Warn().Dur("took", took).Dur("interval", s.cfg.Interval).Msg("a cycle overran its interval; the next boundary is skipped")
		}
	}
}

// maxAdvance bounds the cycle boundaries one move of the virtual clock
// may pass (a week of one-minute cycles), so that one request cannot
// keep the service busy for long.
const maxAdvance = 10_080

// advance moves the virtual clock to t, running the cycle of every
// boundary k·interval it passes (t included), each at its own time, as the
// simulator does: a boundary with nothing pending runs no cycle.
func (s *Service) advance(ctx context.Context, t float64) ([]CycleView, *apiError) {
	s.cycleMu.Lock()
	defer s.cycleMu.Unlock()
	cur := s.vclock.now()
	switch {
	case !finite(t) || t < cur:
		return nil, badField("now", "%s is before the clock (%s)", s.tl.format(t), s.tl.format(cur))
	case math.Abs(t) > 1e9*2:
		return nil, badField("now", "more than %g s from the epoch", 2e9)
	}
	iv := s.cfg.Interval.Seconds()
	last := int64(math.Floor(t / iv))
	if last-s.nextK+1 > maxAdvance {
		return nil, badField("now", "passes %d cycle boundaries; move the clock by at most %d at a time", last-s.nextK+1, maxAdvance)
	}
	cycles := []CycleView{}
	for ; s.nextK <= last; s.nextK++ {
		b := float64(s.nextK) * iv
		s.vclock.set(b)
		if v := s.cycle(ctx, b); v != nil {
			cycles = append(cycles, *v)
		}
	}
	s.vclock.set(max(t, s.vclock.now()))
	now := s.vclock.now()
	if _, err := s.submit(func(*state) (*record, answer, error) {
		return &record{Clock: &clockRec{Now: now}}, nil, nil
	}); err != nil {
		return cycles, &apiError{status: 503, msg: err.Error()}
	}
	return cycles, nil
}

package experiments

import "time"

// cycleLog keeps a run's CycleRecords as the run goes, for
// SimResult.Cycles. A run that decides at every arrival and completion
// has 10⁷ cycles (about 2 GB of records), so they are kept in chunks of
// fixed size (nothing is copied as they grow) of a form without pointers
// (the garbage collector does not scan them at each of its cycles), the
// strings of their stats (FailedStage, Failure) apart, for the few cycles
// that have them.
type cycleLog struct {
	chunks [][]cycleEntry
	n      int
	notes  []cycleNote
}

// cycleChunk is the records of one chunk (2.4 MB).
const cycleChunk = 1 << 14

// cycleEntry is a CycleRecord without its stats' strings.
type cycleEntry struct {
	now, objective, lost float64
	wall, cycle, solve   time.Duration

	options, vars, rows, held               int
	started, preempt, busy, free            int
	pendingJobs, pendingNodes, runningJobs  int
	solved, timeLimited, fallback, panicked bool
}

// cycleNote is the strings of cycle i's stats.
type cycleNote struct {
	i              int
	stage, failure string
}

// add appends c.
func (l *cycleLog) add(c *CycleRecord) {
	if l.n%cycleChunk == 0 {
		l.chunks = append(l.chunks, make([]cycleEntry, 0, cycleChunk))
	}
	s := &c.Stats
	k := len(l.chunks) - 1
	l.chunks[k] = append(l.chunks[k], cycleEntry{now: c.Now, objective: s.Objective, lost: c.PreemptedNodeSeconds,
		wall: c.Wall, cycle: s.Cycle, solve: s.Solve,
		options: s.Options, vars: s.Vars, rows: s.Rows, held: s.HeldNodes,
		started: c.Started, preempt: c.Preempt, busy: c.BusyNodes, free: c.FreeNodes,
		pendingJobs: c.PendingJobs, pendingNodes: c.PendingNodes, runningJobs: c.RunningJobs,
		solved: s.Solved, timeLimited: s.TimeLimited, fallback: s.Fallback, panicked: s.Panicked})
	if s.FailedStage != "" || s.Failure != "" {
		l.notes = append(l.notes, cycleNote{i: l.n, stage: s.FailedStage, failure: s.Failure})
	}
	l.n++
}

// records are the records added, in order (a new slice; nil when none).
func (l *cycleLog) records() []CycleRecord {
	if l.n == 0 {
		return nil
	}
	out := make([]CycleRecord, 0, l.n)
	for _, ch := range l.chunks {
		for i := range ch {
			e := &ch[i]
			out = append(out, CycleRecord{Now: e.now, Wall: e.wall, Started: e.started, Preempt: e.preempt,
				PreemptedNodeSeconds: e.lost, BusyNodes: e.busy, FreeNodes: e.free,
				PendingJobs: e.pendingJobs, PendingNodes: e.pendingNodes, RunningJobs: e.runningJobs})
			s := &out[len(out)-1].Stats
			s.Cycle, s.Solve, s.Objective = e.cycle, e.solve, e.objective
			s.Solved, s.TimeLimited, s.Fallback, s.Panicked = e.solved, e.timeLimited, e.fallback, e.panicked
			s.Options, s.Vars, s.Rows, s.HeldNodes = e.options, e.vars, e.rows, e.held
		}
	}
	for _, nt := range l.notes {
		out[nt.i].Stats.FailedStage, out[nt.i].Stats.Failure = nt.stage, nt.failure
	}
	return out
}

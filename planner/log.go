package planner

import (
	"time"

	"github.com/rs/zerolog"
)

// LogCycle writes what a driver did in one cycle to log, the same for
// every driver (CONVENTIONS 20): at debug, one line for the cycle
// (simulated or wall-clock time t, pending and running jobs, free nodes,
// what the solve did, the decision's size, wall times) and one line per
// start and preemption; at warn, a stage of the scheduler that failed for
// another reason than a solve without an answer (a bug, or a panic
// recovered), since that cycle was decided by the fallback. wall is the
// cycle's wall time as the driver measured it.
func LogCycle(log zerolog.Logger, st *State, d *Decision, wall time.Duration) {
	s := &d.Stats
	if s.FailedStage != "" && (s.Panicked || s.FailedStage != "solve") {
		log.Warn().Float64("t", st.Now).Str("stage", s.FailedStage).Bool("panic", s.Panicked).
			Str("error", s.Failure).Msg("a stage of the cycle failed; the fallback decided")
	}
	e := log.Debug()
	if e == nil { // debug is off: nothing more to write
		return
	}
	free := 0
	for _, f := range st.Free {
		free += f
	}
	e.Float64("t", st.Now).Int("pending", len(st.Pending)).Int("running", len(st.Running)).
		Int("free_nodes", free).Int("started", len(d.Start)).Int("preempted", len(d.Preempt)).
		Bool("solved", s.Solved).Bool("time_limited", s.TimeLimited).Bool("fallback", s.Fallback).
		Str("failed_stage", s.FailedStage).Float64("objective", s.Objective).
		Int("options", s.Options).Int("vars", s.Vars).Int("rows", s.Rows).Int("held_nodes", s.HeldNodes).
		Float64("solve_ms", ms(s.Solve)).Float64("cycle_ms", ms(wall)).Msg("cycle")
	for _, id := range d.Preempt {
		log.Debug().Float64("t", st.Now).Int("job", id).Msg("preempt")
	}
	for _, pl := range d.Start {
		log.Debug().Float64("t", st.Now).Int("job", pl.JobID).Ints("alloc", pl.Alloc).Msg("start")
	}
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

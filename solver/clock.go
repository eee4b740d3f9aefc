package solver

import "time"

// The solver package reads the wall clock only through wallNow, and only
// for what a hard wall-clock limit needs (DESIGN.md, "Solve under a hard
// wall-clock limit"): how long a solve has left, when a timed stage ends
// and when a worker is killed, how long a solve took, how often incumbents
// are reported, trace timestamps. No answer of a deterministic solve
// depends on it (TestDeterministicIgnoresClock runs one under a clock that
// jumps an hour per read). The planning cycle's own time — the simulated
// or the service's clock — is passed in by the planner and never reaches
// the solver. Timers (time.NewTimer, context deadlines) run on real time
// whatever wallNow says: replace it only around in-process deterministic
// solves.

// wallNow is the solver's wall clock; tests may replace it.
var wallNow = time.Now

// wallSince is the wall time elapsed since t.
func wallSince(t time.Time) time.Duration { return wallNow().Sub(t) }

// wallUntil is the wall time left until t (negative once t has passed).
func wallUntil(t time.Time) time.Duration { return t.Sub(wallNow()) }

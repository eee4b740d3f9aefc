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

// donePoll looks at a done channel every pollWork units of work (nonzeros
// or columns gone through: well under a millisecond), for the steps that
// must give up at a deadline without a look per item.
type donePoll struct {
	done <-chan struct{}
	work int // since the last look
}

// pollWork is how much work donePoll does between looks.
const pollWork = 1 << 16

// stop counts w more units of work and reports whether done has closed,
// looking at it once pollWork units have gone by.
func (p *donePoll) stop(w int) bool {
	if p.work += w; p.work < pollWork {
		return false
	}
	p.work = 0
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

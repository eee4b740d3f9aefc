package experiments

import (
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"time"
)

// Progress reports a batch of simulations — runs (schedulers × points ×
// seeds) × simulated time — on a writer: runs done of the total, simulated
// time done of the total, elapsed wall time and an ETA. On a terminal it
// rewrites one line; elsewhere it prints a line every tenth of the work or
// every progressLineEvery, whichever comes first. It is safe for
// concurrent use by the runs of a batch. Its clock is passed in: progress
// is about the wall time of the batch, never part of a result.
type Progress struct {
	w     io.Writer
	label string
	tty   bool
	now   func() time.Time

	mu      sync.Mutex
	start   time.Time
	runs    int // runs expected (Expect), less those Skip-ped
	done    int // runs finished
	known   int // runs whose simulated length is known (begun)
	simDone float64
	simSeen float64 // Σ simulated length of the runs begun
	// last line: when, and at which tenth of the work.
	lastAt    time.Time
	lastTenth int
	lastDone  int
	width     int // of the terminal line last written
}

// progressLineEvery bounds the silence between two progress lines when
// the output is not a terminal; progressRedraw the rate of redraws on one.
const (
	progressLineEvery = time.Minute
	progressRedraw    = 200 * time.Millisecond
)

// NewProgress reports on w as label ("simulate", "sweep"); tty asks for
// one rewritten line; now is the wall clock.
func NewProgress(w io.Writer, label string, tty bool, now func() time.Time) *Progress {
	start := now()
	return &Progress{w: w, label: label, tty: tty, now: now, start: start, lastAt: start}
}

// Expect adds n runs to the batch.
func (p *Progress) Expect(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.runs += n
	p.mu.Unlock()
}

// Skip takes n expected runs out of the batch (a sweep's runs reused from
// its store): they cost nothing and would distort the ETA.
func (p *Progress) Skip(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.runs -= n
	p.mu.Unlock()
}

// RunProgress is one run of a batch.
type RunProgress struct {
	p      *Progress
	limit  float64
	now    float64
	closed bool
}

// Begin starts a run that simulates up to limit seconds.
func (p *Progress) Begin(limit float64) *RunProgress {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	r := &RunProgress{p: p, limit: limit}
	p.known++
	p.simSeen += limit
	return r
}

// At reports that the run has simulated up to t seconds.
func (r *RunProgress) At(t float64) { r.advance(t, false) }

// End marks the run finished (whether or not it reached its limit).
func (r *RunProgress) End() { r.advance(math.Inf(1), true) }

// advance moves the run to t (at most its limit), and ends it when end.
func (r *RunProgress) advance(t float64, end bool) {
	if r == nil {
		return
	}
	p := r.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if r.closed {
		return
	}
	t = min(t, r.limit)
	p.simDone += t - r.now
	r.now = t
	if end {
		r.closed = true
		p.done++
	}
	p.report(false)
}

// Close prints the final line (and ends a terminal's line).
func (p *Progress) Close() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.report(true)
	if p.tty {
		fmt.Fprintln(p.w)
	}
}

// fraction is the share of the batch's simulated time done: runs not begun
// yet are taken to be as long as the mean of those begun.
func (p *Progress) fraction() (done, total float64) {
	total = p.simSeen
	if p.known > 0 && p.runs > p.known {
		total += float64(p.runs-p.known) * p.simSeen / float64(p.known)
	}
	return p.simDone, total
}

// report writes a line if one is due (always when final). p.mu is held.
func (p *Progress) report(final bool) {
	now := p.now()
	done, total := p.fraction()
	f := 0.0
	if total > 0 {
		f = min(1, done/total)
	}
	tenth := int(f * 10)
	switch {
	case final && (p.tty || tenth != p.lastTenth || p.done != p.lastDone):
	case final:
		return // the last line said it all
	case p.tty && now.Sub(p.lastAt) < progressRedraw:
		return
	case !p.tty && tenth <= p.lastTenth && now.Sub(p.lastAt) < progressLineEvery:
		return
	}
	p.lastAt, p.lastTenth, p.lastDone = now, tenth, p.done
	elapsed := now.Sub(p.start)
	line := fmt.Sprintf("%s: %d/%d runs done, %.0f%% of %s simulated, elapsed %s",
		p.label, p.done, p.runs, 100*f, simulatedHours(total), roundDuration(elapsed))
	if f > 0.01 && f < 1 {
		eta := time.Duration(float64(elapsed) * (1 - f) / f)
		line += ", ETA " + roundDuration(eta)
	}
	if p.tty {
		pad := ""
		if n := p.width - len(line); n > 0 {
			pad = strings.Repeat(" ", n)
		}
		p.width = len(line)
		fmt.Fprint(p.w, "\r"+line+pad)
		return
	}
	fmt.Fprintln(p.w, line)
}

// simulatedHours is a simulated length in hours.
func simulatedHours(seconds float64) string {
	return fmt.Sprintf("%.1f h", seconds/3600)
}

// roundDuration rounds to seconds (tenths below ten seconds).
func roundDuration(d time.Duration) string {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

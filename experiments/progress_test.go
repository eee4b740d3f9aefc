package experiments

import (
	"context"
	"strings"
	"testing"
	"time"
)

// fakeClock advances by step at every reading.
type fakeClock struct {
	t    time.Time
	step time.Duration
}

func (c *fakeClock) now() time.Time { c.t = c.t.Add(c.step); return c.t }

func TestProgressLines(t *testing.T) {
	var b strings.Builder
	clk := &fakeClock{t: time.Unix(0, 0), step: time.Second}
	p := NewProgress(&b, "simulate", false, clk.now)
	p.Expect(2)
	r1 := p.Begin(3600)
	for s := 360.0; s <= 3600; s += 360 {
		r1.At(s)
	}
	r1.End()
	r2 := p.Begin(3600)
	r2.At(1800)
	r2.End()
	p.Close()
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	// A line per tenth of the work reached (the second run jumps from 75%
	// to its end).
	if len(lines) != 7 {
		t.Fatalf("%d lines:\n%s", len(lines), b.String())
	}
	// The run not begun yet is taken to be as long as the first: 2 h in
	// all, so a tenth of the work is done at 720 s of the first run.
	if want := "simulate: 0/2 runs done, 10% of 2.0 h simulated, elapsed 2s, ETA 18s"; lines[0] != want {
		t.Errorf("line %q, want %q", lines[0], want)
	}
	if want := "simulate: 2/2 runs done, 100% of 2.0 h simulated"; !strings.HasPrefix(lines[len(lines)-1], want) {
		t.Errorf("last line %q, want %q…", lines[len(lines)-1], want)
	}
}

func TestProgressTerminal(t *testing.T) {
	var b strings.Builder
	clk := &fakeClock{t: time.Unix(0, 0), step: time.Second}
	p := NewProgress(&b, "sweep", true, clk.now)
	p.Expect(3)
	p.Skip(1) // reused
	r := p.Begin(100)
	r.At(50)
	r.End()
	p.Close()
	out := b.String()
	if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") || !strings.Contains(out, "\r") {
		t.Errorf("a terminal gets one rewritten line, got %q", out)
	}
	if !strings.Contains(out, "1/2 runs done") {
		t.Errorf("skipped runs still counted: %q", out)
	}
}

// TestRunReportsProgress: a comparison tells its progress every run, and
// reaches 100%.
func TestRunReportsProgress(t *testing.T) {
	var b strings.Builder
	clk := &fakeClock{t: time.Unix(0, 0), step: time.Millisecond}
	p := NewProgress(&b, "simulate", false, clk.now)
	p.Expect(2)
	in := randomInput(1, 40, 3600)
	if _, err := Run(context.Background(), in, testRegistry(), RunConfig{Schedulers: []string{"prio", "prio-preempt"},
		Sim: SimConfig{Interval: 60}, Progress: p}); err != nil {
		t.Fatal(err)
	}
	p.Close()
	if !strings.Contains(b.String(), "2/2 runs done, 100%") {
		t.Errorf("progress:\n%s", b.String())
	}
}

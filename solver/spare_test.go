package solver

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestSpareWorker: a solve takes the spare worker when it is alive, starts
// a fresh one when the spare has died, and leaves a spare behind.
func TestSpareWorker(t *testing.T) {
	if !haveCLP() {
		t.Skip("no worker engine in this build")
	}
	m := &Model{Maximize: true}
	x := m.AddVar("x", Binary, 0, 1, 1)
	y := m.AddVar("y", Binary, 0, 1, 2)
	m.AddRow("cap", []int{x, y}, []float64{1, 1}, LE, 1)
	solve := func() {
		t.Helper()
		res, err := solveInWorker(context.Background(), lpEngineName, m, &Settings{TimeLimit: 5 * time.Second}, wallNow())
		if err != nil || res.X == nil || res.Objective != 2 {
			t.Fatalf("solve: %+v, %v", res, err)
		}
	}
	replenishSpare()
	spare.mu.Lock()
	w := spare.w
	spare.mu.Unlock()
	if w == nil {
		t.Fatal("no spare worker started")
	}
	if got, err := takeWorker(); err != nil || got != w {
		t.Fatalf("takeWorker did not return the spare: %v", err)
	}
	w.stdin.Close() // the spare exits quietly without a request
	select {
	case err := <-w.exited:
		if err != nil {
			t.Errorf("a spare without a request exited with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a spare without a request did not exit")
	}
	w.results.Close()

	// A dead spare is replaced.
	replenishSpare()
	spare.mu.Lock()
	w = spare.w
	spare.mu.Unlock()
	w.cmd.Process.Kill()
	<-w.dead
	solve()
	// The solve leaves a spare behind (started as it returns).
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		spare.mu.Lock()
		ok := spare.w != nil && spare.w != w
		spare.mu.Unlock()
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no spare after a solve")
		}
	}
	solve()
}

// TestTakeWorkerUntilDeadline: a solve whose deadline passes before a
// worker has started does not wait for it; the worker, when it starts,
// becomes the spare.
func TestTakeWorkerUntilDeadline(t *testing.T) {
	if !haveCLP() {
		t.Skip("no worker engine in this build")
	}
	spare.mu.Lock()
	old := spare.w
	spare.w = nil
	spare.mu.Unlock()
	if old != nil {
		old.cmd.Process.Kill()
		old.stdin.Close()
		old.results.Close()
	}
	start := time.Now()
	w, err := takeWorkerUntil(context.Background(), wallNow().Add(-time.Second))
	if w != nil {
		// The start won the race with the deadline: nothing to check.
		w.cmd.Process.Kill()
		w.stdin.Close()
		w.results.Close()
		t.Skip("the worker started before the past deadline was seen")
	}
	if !errors.Is(err, errNoWorkerInTime) {
		t.Fatalf("error %v, want errNoWorkerInTime", err)
	}
	if d := time.Since(start); d > ReturnSlack {
		t.Errorf("gave up after %v", d)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		spare.mu.Lock()
		ok := spare.w != nil
		spare.mu.Unlock()
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the worker started late did not become the spare")
		}
	}
}

package solver

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

// idleWorkers empties the idle workers and returns them.
func idleWorkers() []*workerProc {
	spare.mu.Lock()
	defer spare.mu.Unlock()
	ws := spare.idle
	spare.idle = nil
	return ws
}

// closeWorkers closes ws (they exit) and waits for them.
func closeWorkers(t *testing.T, ws []*workerProc) {
	t.Helper()
	for _, w := range ws {
		w.stdin.Close()
		select {
		case <-w.dead:
		case <-time.After(10 * time.Second):
			t.Fatal("an idle worker whose input was closed did not exit")
		}
		w.results.Close()
	}
}

// TestSpareWorker: a solve takes an idle worker when one is alive, starts
// a fresh one when the idle one has died, and leaves its worker idle.
func TestSpareWorker(t *testing.T) {
	if _, ok := lookup(CLPName); !ok {
		t.Skip("no worker engine in this build")
	}
	closeWorkers(t, idleWorkers())
	m := &Model{Maximize: true}
	x := m.AddVar("x", Binary, 0, 1, 1)
	y := m.AddVar("y", Binary, 0, 1, 2)
	m.AddRow("cap", []int{x, y}, []float64{1, 1}, LE, 1)
	solve := func() {
		t.Helper()
		res, err := solveInWorker(context.Background(), CLPName, m, &Settings{TimeLimit: 5 * time.Second}, wallNow())
		if err != nil || res.X == nil || res.Objective != 2 {
			t.Fatalf("solve: %+v, %v", res, err)
		}
	}
	replenishSpare()
	spare.mu.Lock()
	if len(spare.idle) != 1 {
		spare.mu.Unlock()
		t.Fatalf("%d idle workers after replenishSpare, want 1", len(spare.idle))
	}
	w := spare.idle[0]
	spare.mu.Unlock()
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
	w = spare.idle[0]
	spare.mu.Unlock()
	w.cmd.Process.Kill()
	<-w.dead
	solve()
	spare.mu.Lock()
	ok := len(spare.idle) == 1 && spare.idle[0] != w
	spare.mu.Unlock()
	if !ok {
		t.Fatal("the solve's worker is not idle after it")
	}
	solve()
	closeWorkers(t, idleWorkers())
}

// TestWorkerReused: solves one after another run in one worker process,
// and its answers are a fresh worker's.
func TestWorkerReused(t *testing.T) {
	if _, ok := lookup(CLPName); !ok {
		t.Skip("no worker engine in this build")
	}
	closeWorkers(t, idleWorkers())
	m := &Model{Maximize: true}
	var vars []int
	for i := range 30 {
		vars = append(vars, m.AddVar(fmt.Sprintf("x%d", i), Binary, 0, 1, float64(1+i%7)))
	}
	for r := range 5 {
		cols, coef := []int{}, []float64{}
		for i, v := range vars {
			if (i+r)%3 != 0 {
				cols, coef = append(cols, v), append(coef, float64(1+(i*r)%4))
			}
		}
		m.AddRow(fmt.Sprintf("cap%d", r), cols, coef, LE, 9)
	}
	var pids []int
	var answers [][]float64
	for range 3 {
		a, err := runInWorker(context.Background(), CLPName, m, &Settings{Deterministic: true}, wallNow())
		if err != nil || a.final == nil || a.failure != nil || len(a.final.X) != len(vars) {
			t.Fatalf("solve: %+v, %v", a, err)
		}
		answers = append(answers, a.final.X)
		spare.mu.Lock()
		if len(spare.idle) == 0 {
			spare.mu.Unlock()
			t.Fatal("no idle worker after a solve")
		}
		pids = append(pids, spare.idle[len(spare.idle)-1].cmd.Process.Pid)
		spare.mu.Unlock()
	}
	if pids[0] != pids[1] || pids[1] != pids[2] {
		t.Errorf("worker processes %v, want one", pids)
	}
	for i := 1; i < len(answers); i++ {
		if !slices.Equal(answers[i], answers[0]) {
			t.Errorf("solve %d in a reused worker: %v, fresh: %v", i+1, answers[i], answers[0])
		}
	}
	// CloseIdleWorkers leaves none idle and waits for their exit.
	spare.mu.Lock()
	idle := slices.Clone(spare.idle)
	spare.mu.Unlock()
	CloseIdleWorkers()
	for _, w := range idle {
		select {
		case <-w.dead:
		default:
			t.Error("CloseIdleWorkers returned before a worker exited")
		}
	}
	if ws := idleWorkers(); len(ws) != 0 {
		t.Errorf("%d idle workers after CloseIdleWorkers", len(ws))
	}
}

// TestTakeWorkerUntilDeadline: a solve whose deadline passes before a
// worker has started does not wait for it; the worker, when it starts,
// becomes the spare.
func TestTakeWorkerUntilDeadline(t *testing.T) {
	if _, ok := lookup(CLPName); !ok {
		t.Skip("no worker engine in this build")
	}
	closeWorkers(t, idleWorkers())
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
		ok := len(spare.idle) > 0
		spare.mu.Unlock()
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the worker started late is not idle")
		}
	}
}

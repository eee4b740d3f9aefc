package solver

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"
)

// Hard wall-clock limits.
//
// CBC's preprocessing and root LP do not look at the clock (a 0.5 s limit was
// measured taking 1.8 s), and a cgo call cannot be abandoned. So every C
// backend runs in a child process — this same executable, re-executed with
// WorkerEnv set — that streams each improved incumbent back as soon as it has
// one; the parent keeps the best verified answer and kills the child at the
// deadline. The child also isolates CBC's aborts (a C++ exception ends the
// child, not the simulation) and lets parallel simulations solve in parallel
// although CBC is not re-entrant within one process.

// WorkerEnv is the environment variable that turns the executable into a
// solver worker. Every main package and every test binary that solves with a
// process backend calls RunWorkerIfRequested first thing.
const WorkerEnv = "PLANNER_SOLVER_WORKER"

const (
	// workerFinishMargin is how long before the parent's deadline the child
	// aims to have sent its final answer.
	workerFinishMargin = 40 * time.Millisecond
	// workerKillGrace is how long after the deadline the parent waits for a
	// final answer already on its way before it kills the child. Together
	// with the kill itself (< 5 ms) it keeps Solve within limit + 50 ms.
	workerKillGrace = 5 * time.Millisecond
	// pipeBuffer is the pipe buffer asked for between parent and worker
	// (growPipe).
	pipeBuffer = 1 << 20
	// incumbentInterval throttles incumbent frames: an engine that improves
	// thousands of times a second sends at most one frame per interval, and
	// the latest one is flushed at the end of each interval.
	incumbentInterval = 20 * time.Millisecond
	// keepIncumbents is how many of the newest incumbents the parent keeps
	// for verification at the end; they arrive in improving order, so the
	// newest is the best unless it fails the check.
	keepIncumbents = 4
	// stderrKeep is how much of the child's standard error is kept for error messages.
	stderrKeep = 4 << 10
)

// RunWorkerIfRequested turns this process into a solver worker when WorkerEnv
// is set: it reads requests on standard input, one after another, writes
// their answers on file descriptor 3, and exits when its input ends.
// Otherwise it returns at once.
func RunWorkerIfRequested() {
	if os.Getenv(WorkerEnv) != "1" {
		return
	}
	traceMark("child", "main")
	out := os.NewFile(3, "solver-results")
	if err := serveWorker(os.Stdin, out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// frameSender writes answer frames to the parent, serialised and
// throttled. The first write error sticks: later frames are dropped and
// the final one returns it.
type frameSender struct {
	mu       sync.Mutex
	w        io.Writer
	e        wireEnc
	err      error
	lastSent time.Time
	pending  []float64 // newest incumbent not yet sent
	done     bool      // the final frame is sent: later incumbents are dropped
}

// send writes the frame encoded in f.e, whole.
func (f *frameSender) send() error {
	if f.err == nil {
		_, f.err = f.w.Write(f.e.b)
	}
	f.e.b = f.e.b[:0]
	return f.err
}

func (f *frameSender) incumbent(x []float64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.done {
		return
	}
	if wallSince(f.lastSent) < incumbentInterval {
		f.pending = append(f.pending[:0], x...)
		return
	}
	f.sendIncumbentLocked(x)
}

func (f *frameSender) sendIncumbentLocked(x []float64) {
	at := f.e.begin(msgIncumbent)
	f.e.floats(x)
	f.e.end(at)
	f.send()
	f.lastSent = wallNow()
	f.pending = f.pending[:0]
}

func (f *frameSender) flushPending() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.pending) > 0 {
		f.sendIncumbentLocked(f.pending)
	}
}

func (f *frameSender) final(res *Result, err error) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.done = true
	if len(f.pending) > 0 {
		f.sendIncumbentLocked(f.pending)
	}
	if err != nil {
		at := f.e.begin(msgError)
		f.e.str(err.Error())
		f.e.end(at)
	} else {
		at := f.e.begin(msgFinal)
		f.e.result(res)
		f.e.end(at)
	}
	return f.send()
}

// serveWorker answers requests one after another until its input ends:
// a worker that sent its final answer waits for the parent's next request
// (the parent keeps an LP worker idle, runInWorker), so the process
// start-up (about 10 ms of processor time and 800 page faults on this
// project's machines) is paid once, not per solve.
func serveWorker(in *os.File, out *os.File) error {
	for {
		req, err := readRequest(in)
		if errors.Is(err, errNoRequest) {
			return nil // an idle worker whose parent has closed it or gone
		}
		if err != nil {
			return err
		}
		if err := serveRequest(req, out); err != nil {
			return err
		}
	}
}

// serveRequest runs one request's engine and sends its answers on w.
func serveRequest(req *workerRequest, w io.Writer) error {
	traceMark("child", "request-read")
	send := &frameSender{w: w}
	row, ok := lookup(req.Engine)
	if !ok || row.worker == nil {
		return send.final(nil, fmt.Errorf("%w %q in a worker of this build", ErrUnknown, req.Engine))
	}
	ctx := context.Background()
	if req.Deadline != 0 && !req.Settings.Deterministic {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, time.Unix(0, req.Deadline).Add(-workerFinishMargin))
		defer cancel()
	}
	stop := make(chan struct{})
	flushed := make(chan struct{})
	go func() { // flush a throttled incumbent once its interval has passed
		defer close(flushed)
		t := time.NewTicker(incumbentInterval)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				send.flushPending()
			}
		}
	}()
	s := req.Settings
	if s.TimeLimit > 0 && req.Deadline != 0 && !s.Deterministic {
		s.TimeLimit = max(wallUntil(time.Unix(0, req.Deadline))-workerFinishMargin, time.Millisecond)
	}
	res, err := row.worker(ctx, req.Model, &s, send.incumbent)
	traceMark("child", "engine-done")
	close(stop)
	<-flushed // no frame of this request after its final one
	if err != nil && ctx.Err() != nil && (errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)) {
		// Running out of time is an outcome, not a failure: the parent
		// keeps whatever incumbents were sent.
		res, err = outOfTime(), nil
	}
	err = send.final(res, err)
	traceMark("child", "final-sent")
	return err
}

// workerAnswer is what a worker sent before it ended or was killed; none
// of it is verified.
type workerAnswer struct {
	final   *Result     // the engine's final frame (status, objective, bound, nodes, time-limited, X); nil without one
	recent  [][]float64 // the newest incumbents (at most keepIncumbents), oldest first
	bound   float64     // the final frame's bound, NaN for none
	killed  bool        // killed at the deadline or when ctx ended
	failure error       // the engine's error, or a worker that exited in error without a final answer
}

// runInWorker runs the worker engine of backend name (backendRow.worker)
// on m in a child process until the deadline (start + s.TimeLimit, or
// ctx's deadline when earlier; start being when the caller's Solve began),
// killing the child if it is still running then, and returns what it sent.
func runInWorker(ctx context.Context, name string, m *Model, s *Settings, start time.Time) (*workerAnswer, error) {
	traceMark("parent", "start")
	req := &workerRequest{Engine: name, Settings: *s, Model: m}
	var deadline time.Time
	if s.TimeLimit > 0 {
		deadline = start.Add(s.TimeLimit)
		req.Deadline = deadline.UnixNano()
	}
	if d, ok := ctx.Deadline(); ok && (deadline.IsZero() || d.Before(deadline)) {
		deadline = d
		req.Deadline = d.UnixNano()
	}

	w, err := takeWorkerUntil(ctx, deadline)
	if errors.Is(err, errNoWorkerInTime) {
		return &workerAnswer{bound: math.NaN(), killed: true}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("solver: %s: %w", name, err)
	}
	cmd, stderr, exited := w.cmd, w.stderr, w.exited
	traceMark("parent", "child-started")
	// The request is encoded chunk by chunk as the child reads it. A large
	// model's request is abandoned at the deadline: the rest is not sent,
	// and the child waits for it until it is killed like any other at the
	// deadline (an incomplete request would be reported as its failure).
	requestCtx, stopRequest := context.WithCancel(context.Background())
	defer stopRequest()
	if !deadline.IsZero() {
		var stop context.CancelFunc
		requestCtx, stop = context.WithDeadline(requestCtx, deadline)
		defer stop()
	}
	// written gets the request's write error once it is out (nil: the
	// whole request). A write error shows up as a worker that exits
	// early. The worker's input stays open for its next request.
	written := make(chan error, 1)
	go func() {
		err := writeRequestUntil(w.stdin, req, requestCtx.Done())
		if errors.Is(err, errRequestAbandoned) {
			<-w.dead
		}
		traceMark("parent", "request-written")
		written <- err
	}()

	events := make(chan workerEvent, 16)
	go readWorkerEvents(w.results, len(m.Vars), events)

	a := &workerAnswer{bound: math.NaN()}
	var timer <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(wallUntil(deadline) + workerKillGrace)
		defer t.Stop()
		timer = t.C
	}
	kill := func() {
		cmd.Process.Kill()
		a.killed = true
	}
loop:
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				break loop // the child closed its end: exited or crashed
			}
			switch ev.kind {
			case msgIncumbent:
				// Verification is the caller's, at the end: checking every
				// frame of a busy search kept the parent from its deadline.
				if len(a.recent) == keepIncumbents {
					a.recent = append(a.recent[:0], a.recent[1:]...)
				}
				a.recent = append(a.recent, ev.x)
			case msgFinal:
				a.final = &ev.res
				if !math.IsNaN(ev.res.Bound) {
					a.bound = ev.res.Bound
				}
				break loop
			case msgError:
				a.failure = fmt.Errorf("solver: %s: %s", name, ev.err)
				break loop
			}
		case <-timer:
			kill()
			break loop
		case <-ctx.Done():
			kill()
			break loop
		}
	}
	traceMark("parent", "answers-in")
	// A worker that sent its final answer in time, its request written
	// whole, waits for the next one: it is kept idle (keepIdle) when the
	// backend's row allows it (backendRow.reuse: clp's LP only).
	if row, _ := lookup(name); a.final != nil && !a.killed && row != nil && row.reuse {
		if err := <-written; err == nil {
			keepIdle(w)
			return a, nil
		}
	}
	// This worker ends: the next solve gets a spare started now.
	defer func() { go replenishSpare() }()
	defer w.results.Close()
	defer func() { go func() { <-written; w.stdin.Close() }() }()
	// Reap the child without waiting on it past the deadline: a child that
	// is still running now gets killed.
	select {
	case werr := <-exited:
		if a.failure == nil && a.final == nil && !a.killed && werr != nil {
			a.failure = fmt.Errorf("solver: %s worker failed: %v: %s", name, werr, stderr.lastLine())
		}
	case <-time.After(time.Millisecond):
		cmd.Process.Kill()
		go func() { <-exited }()
	}
	return a, nil
}

// solveInWorker runs backend name on m in a child process (runInWorker) and
// returns the best verified answer it reported by the deadline.
func solveInWorker(ctx context.Context, name string, m *Model, s *Settings, start time.Time) (*Result, error) {
	a, err := runInWorker(ctx, name, m, s, start)
	if err != nil {
		return nil, err
	}
	best := &Result{Backend: name, Status: NoSolution, Bound: a.bound,
		TimeLimited: a.killed, GuardStopped: a.killed && s.Deterministic}
	// The final answer first, so that it wins ties: incumbents of equal
	// value can arrive in either order from parallel searches, and a
	// deterministic solve must return the engine's own choice.
	cands := [][]float64{nil}
	finalOptimal := false
	if f := a.final; f != nil {
		cands[0], finalOptimal = f.X, f.Status == Optimal
		best.Nodes = f.Nodes
		best.TimeLimited = best.TimeLimited || f.TimeLimited
		if f.Status == Infeasible {
			best.Status = Infeasible
		}
	}
	for i := len(a.recent) - 1; i >= 0; i-- {
		cands = append(cands, a.recent[i])
	}
	if best.pick(m, cands) == 0 && finalOptimal {
		// A feasible answer cannot beat a proven optimum.
		best.Status = Optimal
	}
	traceMark("parent", "verified")
	best.Wall = wallSince(start)
	traceMark("parent", "done")
	best.finish(m)
	if a.failure != nil && best.X == nil {
		return nil, a.failure
	}
	return best, nil
}

// workerProc is a started worker process waiting for its request.
type workerProc struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	results *os.File // the read end of the child's answers
	stderr  *tailBuffer
	exited  chan error // receives cmd.Wait's error once
	dead    chan struct{}
}

// startWorker starts this executable as a worker (WorkerEnv set).
func startWorker() (*workerProc, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("locating the worker executable: %w", err)
	}
	results, resultsW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	w := &workerProc{cmd: exec.Command(exe), results: results, stderr: &tailBuffer{max: stderrKeep},
		exited: make(chan error, 1), dead: make(chan struct{})}
	w.cmd.Env = append(os.Environ(), WorkerEnv+"=1")
	w.cmd.ExtraFiles = []*os.File{resultsW}
	w.cmd.Stderr = w.stderr
	if traceOn {
		w.cmd.Stderr = io.MultiWriter(os.Stderr, w.stderr)
	}
	growPipe(resultsW)
	stdinR, stdinW, err := os.Pipe()
	if err == nil {
		growPipe(stdinW)
		w.stdin, w.cmd.Stdin = stdinW, stdinR
		err = w.cmd.Start()
		stdinR.Close()
	}
	resultsW.Close()
	if err != nil {
		results.Close()
		if stdinW != nil {
			stdinW.Close()
		}
		return nil, fmt.Errorf("starting the worker: %w", err)
	}
	go func() {
		w.exited <- w.cmd.Wait()
		close(w.dead)
	}()
	return w, nil
}

// spare holds the idle workers: one started ahead of the next solve, and
// those that answered a solve and wait for the next request. Start-up
// (exec, dynamic linking of the C libraries, the Go runtime) then costs a
// solve nothing. An idle worker exits quietly when the parent closes its
// input (or exits). Every solve takes an idle worker, or starts one when
// there is none, and gives it back when it answered (keepIdle), else
// starts the next spare. The deadline of a solve is in its request, so an
// idle worker is as good as a fresh one, and killed at the deadline in
// the same way.
var spare struct {
	mu   sync.Mutex
	idle []*workerProc // newest last
}

// maxIdle is how many idle workers are kept: one per solve that runs at
// once in this project's runs (--parallel 2 on 2 cores), and a spare.
const maxIdle = 3

// takeWorker returns the newest idle worker that is alive, else a new one.
func takeWorker() (*workerProc, error) {
	for {
		spare.mu.Lock()
		var w *workerProc
		if n := len(spare.idle); n > 0 {
			w, spare.idle = spare.idle[n-1], spare.idle[:n-1]
		}
		spare.mu.Unlock()
		if w == nil {
			return startWorker()
		}
		select {
		case <-w.dead:
			w.results.Close()
			w.stdin.Close()
		default:
			return w, nil
		}
	}
}

// keepIdle gives w back for the next solve, or closes it (it exits) when
// maxIdle workers are idle already.
func keepIdle(w *workerProc) {
	spare.mu.Lock()
	if len(spare.idle) < maxIdle {
		spare.idle = append(spare.idle, w)
		spare.mu.Unlock()
		return
	}
	spare.mu.Unlock()
	w.stdin.Close()
	w.results.Close()
}

// errNoWorkerInTime: the deadline passed (or the context ended) before a
// worker had started.
var errNoWorkerInTime = errors.New("solver: no worker started before the deadline")

// takeWorkerUntil is takeWorker, given up at the deadline (zero: none) or
// when ctx ends: with no spare ready, starting a worker on a loaded
// machine took 200–300 ms, past a short limit. A worker that starts
// after that is kept idle for the next solve.
func takeWorkerUntil(ctx context.Context, deadline time.Time) (*workerProc, error) {
	type started struct {
		w   *workerProc
		err error
	}
	ch := make(chan started, 1)
	go func() {
		w, err := takeWorker()
		ch <- started{w, err}
	}()
	var timeout <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(wallUntil(deadline))
		defer t.Stop()
		timeout = t.C
	}
	select {
	case st := <-ch:
		return st.w, st.err
	case <-timeout:
	case <-ctx.Done():
	}
	go func() { // the worker, unused, is kept idle for the next solve
		if st := <-ch; st.w != nil {
			keepIdle(st.w)
		}
	}()
	return nil, errNoWorkerInTime
}

// CloseIdleWorkers closes the idle solver workers and waits until they
// have exited, so that the processor time they used is in the process's
// children's (getrusage RUSAGE_CHILDREN), which the benchmarks read. The
// next solve starts a worker.
func CloseIdleWorkers() {
	spare.mu.Lock()
	ws := spare.idle
	spare.idle = nil
	spare.mu.Unlock()
	for _, w := range ws {
		w.stdin.Close()
	}
	for _, w := range ws {
		<-w.dead
		w.results.Close()
	}
}

// replenishSpare starts a spare worker if none is idle.
func replenishSpare() {
	spare.mu.Lock()
	defer spare.mu.Unlock()
	if len(spare.idle) > 0 {
		return
	}
	if w, err := startWorker(); err == nil {
		spare.idle = append(spare.idle, w)
	}
}

type workerEvent struct {
	kind byte
	x    []float64
	res  Result
	err  string
}

// maxErrorFrame bounds the message of an error frame.
const maxErrorFrame = 1 << 20

// readWorkerEvents sends the answer frames of a model of nvars columns
// read from r to out, up to the final or error frame, and closes out. A
// malformed frame, or an answer of the wrong length, ends it as if the
// worker had ended there.
func readWorkerEvents(r io.Reader, nvars int, out chan<- workerEvent) {
	defer close(out)
	br := bufio.NewReaderSize(r, 1<<16)
	maxBody := uint64(8*nvars) + maxErrorFrame
	for {
		kind, d, err := readFrame(br, maxBody)
		if err != nil {
			return
		}
		ev := workerEvent{kind: kind}
		switch kind {
		case msgIncumbent:
			ev.x = d.floats()
		case msgFinal:
			ev.res = d.result()
			if len(ev.res.X) == 0 && nvars > 0 {
				ev.res.X = nil // no answer (sent as an empty list)
			}
		case msgError:
			ev.err = d.str()
		default:
			return
		}
		if d.close() != nil {
			return
		}
		if ev.x != nil && len(ev.x) != nvars || ev.res.X != nil && len(ev.res.X) != nvars {
			return
		}
		out <- ev
		if kind == msgFinal || kind == msgError {
			return
		}
	}
}

// pick sets r's answer to the best feasible candidate, judged by objective
// value with earlier candidates winning ties, verifying (Snap and
// CheckFeasible) only as many as it must. It returns the index of the
// candidate taken, or −1 when none is feasible. Candidates of the wrong
// length are skipped (an empty one is the answer of a model without
// columns).
func (r *Result) pick(m *Model, cands [][]float64) int {
	order := make([]int, 0, len(cands))
	obj := make([]float64, len(cands))
	for i, x := range cands {
		if x != nil && len(x) == len(m.Vars) {
			obj[i] = m.ObjectiveValue(x)
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return better(m, obj[order[a]], obj[order[b]]) })
	for _, i := range order {
		x := make([]float64, len(cands[i])) // not nil for a model without columns
		copy(x, cands[i])
		m.Snap(x)
		if m.CheckFeasible(x) != nil {
			continue
		}
		r.X, r.Objective = x, m.ObjectiveValue(x)
		if r.Status == NoSolution {
			r.Status = Feasible
		}
		return i
	}
	return -1
}

// better reports whether objective a beats b in m's sense.
func better(m *Model, a, b float64) bool {
	if m.Maximize {
		return a > b
	}
	return a < b
}

// finish fills Gap and normalises the status once the answer is final.
func (r *Result) finish(m *Model) {
	r.Gap = math.NaN()
	if r.X != nil && !math.IsNaN(r.Bound) {
		r.Gap = math.Abs(r.Bound-r.Objective) / math.Max(math.Abs(r.Objective), 1e-9)
		if r.Gap <= 1e-9 {
			r.Status = Optimal
		}
	}
	if r.X == nil && r.Status != Infeasible {
		r.Status = NoSolution
	}
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = t.buf[over:]
	}
	return len(p), nil
}

func (t *tailBuffer) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(bytes.ToValidUTF8(t.buf, nil))), "\n")
	if l := strings.TrimSpace(lines[len(lines)-1]); l != "" {
		return l
	}
	return "no message"
}

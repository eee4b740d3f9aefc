package solver

import (
	"bytes"
	"errors"
	"math"
	"os"
	"reflect"
	"testing"
	"time"
)

func TestWireRequestRoundTrip(t *testing.T) {
	m := &Model{Name: "m", Maximize: true}
	a := m.AddVar("a", Binary, 0, 1, 2.5)
	b := m.AddVar("", Integer, 0, math.Inf(1), -1)
	c := m.AddVar("c", Continuous, -3, 4, 0)
	m.AddRow("r0", []int{a, b}, []float64{1, 2}, LE, 3)
	m.AddRow("", []int{c}, []float64{-1e-300}, EQ, 0)
	m.AddRow("r2", []int{}, []float64{}, GE, -1)
	req := &workerRequest{Engine: "cbc", Deadline: 12345,
		Settings: Settings{TimeLimit: time.Second, Deterministic: true, WorkLimit: 7, Threads: 2, RelGap: 1e-4, Start: []float64{1, 2, 3}},
		Model:    m}
	var buf bytes.Buffer
	if err := writeRequest(&buf, req); err != nil {
		t.Fatal(err)
	}
	got, err := readRequest(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, req) {
		t.Fatalf("round trip changed the request:\n got %+v\nwant %+v", got, req)
	}
}

func TestWireRejectsTruncatedRequest(t *testing.T) {
	m := &Model{}
	m.AddVar("x", Binary, 0, 1, 1)
	var buf bytes.Buffer
	if err := writeRequest(&buf, &workerRequest{Engine: "clp", Model: m}); err != nil {
		t.Fatal(err)
	}
	for n := 0; n < buf.Len(); n++ {
		if _, err := readRequest(bytes.NewReader(buf.Bytes()[:n])); err == nil {
			t.Fatalf("a request cut at byte %d of %d was accepted", n, buf.Len())
		}
	}
}

func TestWireRejectsColumnIndexOutOfRange(t *testing.T) {
	m := &Model{}
	x := m.AddVar("x", Binary, 0, 1, 1)
	m.AddRow("r", []int{x}, []float64{1}, LE, 1)
	var buf bytes.Buffer
	if err := writeRequest(&buf, &workerRequest{Engine: "clp", Model: m}); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	// The row's only index is the 12 bytes before its one coefficient (8)
	// and the coefficient count (8): overwrite it with 1 (one column only).
	b[len(b)-20] = 1
	if _, err := readRequest(bytes.NewReader(b)); err == nil {
		t.Fatal("a request naming column 1 of 1 was accepted")
	}
}

// TestWorkerFinalWithoutAnswer: a final frame without an answer (no
// solution, time limited) reaches the parent; it used to be dropped as a
// malformed answer, so a time-limited solve lost its TimeLimited flag.
func TestWorkerFinalWithoutAnswer(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	send := &frameSender{w: w}
	if err := send.final(&Result{Status: NoSolution, Bound: math.NaN(), TimeLimited: true}, nil); err != nil {
		t.Fatal(err)
	}
	w.Close()
	events := make(chan workerEvent, 4)
	readWorkerEvents(r, 3, events)
	ev, ok := <-events
	if !ok || ev.kind != msgFinal || !ev.res.TimeLimited || ev.res.X != nil {
		t.Fatalf("got %+v (ok %v), want a time-limited final without an answer", ev, ok)
	}
}

// TestWireAnswersRoundTrip: the answer frames a worker sends reach the
// parent as sent, in order, up to the final (or error) frame; a stream cut
// anywhere yields only the frames whole before the cut.
func TestWireAnswersRoundTrip(t *testing.T) {
	final := Result{Status: Optimal, Objective: 7.5, Bound: 8, Nodes: 12, TimeLimited: true, X: []float64{1, 0, 2}}
	tests := []struct {
		name string
		err  error
		want []workerEvent
	}{
		{"final", nil, []workerEvent{{kind: msgIncumbent, x: []float64{1, 0, 0}}, {kind: msgIncumbent, x: []float64{0, 1, math.Inf(1)}}, {kind: msgFinal, res: final}}},
		{"error", errors.New("engine ✗ failed"), []workerEvent{{kind: msgIncumbent, x: []float64{1, 0, 0}}, {kind: msgIncumbent, x: []float64{0, 1, math.Inf(1)}}, {kind: msgError, err: "engine ✗ failed"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			send := &frameSender{w: &buf}
			send.incumbent([]float64{1, 0, 0})
			send.pending = []float64{0, 1, math.Inf(1)} // throttled: sent before the final frame
			res := final
			if err := send.final(&res, tc.err); err != nil {
				t.Fatal(err)
			}
			send.incumbent([]float64{9, 9, 9}) // after the final frame: dropped
			if got := readEvents(buf.Bytes(), 3); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v\nwant %+v", got, tc.want)
			}
			// A stream cut inside a frame loses that frame and the rest.
			whole, n := 0, 0
			for cut := 0; cut <= buf.Len(); cut++ {
				got := readEvents(buf.Bytes()[:cut], 3)
				if len(got) < whole || len(got) > whole+1 {
					t.Fatalf("cut at %d: %d events after %d", cut, len(got), whole)
				}
				if len(got) > whole {
					whole, n = len(got), n+1
				}
				if len(got) > 0 && !reflect.DeepEqual(got, tc.want[:len(got)]) {
					t.Fatalf("cut at %d: got %+v", cut, got)
				}
			}
			if n != len(tc.want) {
				t.Fatalf("%d frames completed, want %d", n, len(tc.want))
			}
		})
	}
}

// TestWireRejectsMalformedAnswers: a frame with a bad magic word, an
// unknown kind, an answer of the wrong length or bytes after its body ends
// the stream there.
func TestWireRejectsMalformedAnswers(t *testing.T) {
	frame := func(kind byte, body func(e *wireEnc)) []byte {
		var e wireEnc
		at := e.begin(kind)
		body(&e)
		e.end(at)
		return e.b
	}
	good := frame(msgIncumbent, func(e *wireEnc) { e.floats([]float64{1, 2}) })
	tests := []struct {
		name  string
		frame []byte
	}{
		{"bad magic", append([]byte{0}, good[1:]...)},
		{"unknown kind", frame(2, func(e *wireEnc) { e.floats([]float64{1, 2}) })},
		{"wrong length", frame(msgIncumbent, func(e *wireEnc) { e.floats([]float64{1, 2, 3}) })},
		{"bytes after the body", frame(msgIncumbent, func(e *wireEnc) { e.floats([]float64{1, 2}); e.u8(0) })},
		{"length beyond the bound", frame(msgError, func(e *wireEnc) { e.str(string(make([]byte, maxErrorFrame+16))) })},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stream := append(append(append([]byte{}, good...), tc.frame...), good...)
			if got := readEvents(stream, 2); len(got) != 1 {
				t.Fatalf("%d events, want the one before the malformed frame", len(got))
			}
		})
	}
}

// readEvents is readWorkerEvents over b.
func readEvents(b []byte, nvars int) []workerEvent {
	events := make(chan workerEvent, 16)
	go readWorkerEvents(bytes.NewReader(b), nvars, events)
	var got []workerEvent
	for ev := range events {
		got = append(got, ev)
	}
	return got
}

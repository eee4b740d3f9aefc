package solver

import (
	"bufio"
	"bytes"
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
	send := &frameSender{w: &wireWriter{w: bufio.NewWriter(w)}}
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

package solver

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"time"
)

// The worker protocol (worker.go) moves a model to the child process and
// answers back as little-endian binary frames. It is private to one build of
// the binary (parent and child are the same executable), so it has a magic
// word but no versioning.

const wireMagic uint32 = 0x504c5357 // "PLSW"

// Message kinds sent by the worker.
const (
	msgIncumbent byte = 1 // a feasible answer: []float64
	msgFinal     byte = 3 // the engine's Result
	msgError     byte = 4 // the engine failed: string
)

type wireWriter struct {
	w     *bufio.Writer
	buf   [8]byte
	chunk []byte
	err   error
}

// wireChunk is how many values the streaming writer and reader convert at
// a time.
const wireChunk = 4096

func (e *wireWriter) u8(v byte) {
	if e.err == nil {
		e.err = e.w.WriteByte(v)
	}
}

func (e *wireWriter) u64(v uint64) {
	if e.err == nil {
		binary.LittleEndian.PutUint64(e.buf[:], v)
		_, e.err = e.w.Write(e.buf[:])
	}
}

func (e *wireWriter) f64(v float64) { e.u64(math.Float64bits(v)) }

func (e *wireWriter) str(s string) {
	e.u64(uint64(len(s)))
	if e.err == nil {
		_, e.err = e.w.WriteString(s)
	}
}

// floats writes len(v) and then v, converted in chunks: a 28,000-column
// answer is one frame of 224 KB, and a call per value was measurable.
func (e *wireWriter) floats(v []float64) {
	e.u64(uint64(len(v)))
	for len(v) > 0 && e.err == nil {
		k := min(len(v), wireChunk)
		e.chunk = e.chunk[:0]
		for _, x := range v[:k] {
			e.chunk = binary.LittleEndian.AppendUint64(e.chunk, math.Float64bits(x))
		}
		_, e.err = e.w.Write(e.chunk)
		v = v[k:]
	}
}

func (e *wireWriter) flush() error {
	if e.err == nil {
		e.err = e.w.Flush()
	}
	return e.err
}

type wireReader struct {
	r   *bufio.Reader
	buf [8]byte
	err error
}

// maxWireLen bounds every length read from the pipe so that a corrupt frame
// cannot make the reader allocate without limit.
const maxWireLen = 1 << 31

func (d *wireReader) u8() byte {
	if d.err != nil {
		return 0
	}
	b, err := d.r.ReadByte()
	d.err = err
	return b
}

func (d *wireReader) u64() uint64 {
	if d.err != nil {
		return 0
	}
	_, d.err = io.ReadFull(d.r, d.buf[:])
	return binary.LittleEndian.Uint64(d.buf[:])
}

func (d *wireReader) f64() float64 { return math.Float64frombits(d.u64()) }

func (d *wireReader) n() int {
	n := d.u64()
	if d.err == nil && n > maxWireLen {
		d.err = fmt.Errorf("solver: worker frame length %d out of range", n)
		return 0
	}
	return int(n)
}

func (d *wireReader) str() string {
	n := d.n()
	if d.err != nil {
		return ""
	}
	b := make([]byte, n)
	_, d.err = io.ReadFull(d.r, b)
	return string(b)
}

func (d *wireReader) floats() []float64 {
	n := d.n()
	if d.err != nil {
		return nil
	}
	v := make([]float64, n)
	var chunk [8 * wireChunk]byte
	for i := 0; i < n && d.err == nil; i += wireChunk {
		k := min(n-i, wireChunk)
		if _, d.err = io.ReadFull(d.r, chunk[:8*k]); d.err != nil {
			return nil
		}
		for q := range k {
			v[i+q] = math.Float64frombits(binary.LittleEndian.Uint64(chunk[8*q:]))
		}
	}
	return v
}

// workerRequest is what the parent sends: the engine to run, its settings
// and the model.
type workerRequest struct {
	Engine   string
	Settings Settings
	// Deadline is the wall-clock instant (Unix nanoseconds; zero for none) by
	// which the engine must have sent its final answer. Wall-clock time is
	// shared by parent and child, monotonic time is not.
	Deadline int64
	Model    *Model
}

// A request is the magic word, the length of its body and the body. The
// parent encodes the body in chunks of about requestChunk bytes, each
// written to the pipe as soon as it is full (the child reads the body whole
// while the rest is being encoded, then decodes it): the 300-job rack model
// is 1.1M nonzeros, and encoding and decoding it value by value through
// buffered pipe I/O took about 100 ms of a 1 s solve. Encoding a whole
// 1,000-job request (45 MB) in memory instead made the parent collect its
// garbage during the solve, which held the parent's deadline timer off
// both cores for up to 130 ms. Row indices travel as 32-bit integers.

// requestChunk is the size of the chunks a request is written in: the
// pipe's buffer (pipeBuffer).
const requestChunk = 1 << 20

// errRequestAbandoned: writeRequestUntil stopped because its done channel
// closed.
var errRequestAbandoned = errors.New("solver: worker request abandoned at the deadline")

// requestBodyLen is the length of req's body on the wire.
func requestBodyLen(req *workerRequest) int {
	m := req.Model
	n := 8 + len(req.Engine) + 8 + 8 + 1 + 8 + 8 + 8 + 8 + 8*len(req.Settings.Start) +
		8 + len(m.Name) + 1 + 8 + 8
	for j := range m.Vars {
		n += 8 + len(m.Vars[j].Name) + 1 + 24
	}
	for i := range m.Rows {
		r := &m.Rows[i]
		n += 8 + len(r.Name) + 1 + 8 + 8 + 4*len(r.Index) + 8 + 8*len(r.Coef)
	}
	return n
}

// writeRequest writes req to w.
func writeRequest(w io.Writer, req *workerRequest) error { return writeRequestUntil(w, req, nil) }

// writeRequestUntil writes req to w, encoding it chunk by chunk; it stops
// with errRequestAbandoned, the request unfinished, when done closes first.
func writeRequestUntil(w io.Writer, req *workerRequest, done <-chan struct{}) error {
	m := req.Model
	bodyLen := requestBodyLen(req)
	e := wireEnc{b: make([]byte, 16, min(16+bodyLen, 2*requestChunk))}
	binary.LittleEndian.PutUint64(e.b, uint64(wireMagic))
	binary.LittleEndian.PutUint64(e.b[8:], uint64(bodyLen))
	written := -16 // bytes of the body written so far
	flush := func() error {
		written += len(e.b)
		_, err := w.Write(e.b)
		e.b = e.b[:0]
		return err
	}
	e.str(req.Engine)
	e.u64(uint64(req.Deadline))
	s := &req.Settings
	e.u64(uint64(s.TimeLimit))
	e.bool(s.Deterministic)
	e.u64(uint64(s.WorkLimit))
	e.u64(uint64(s.Threads))
	e.f64(s.RelGap)
	e.floats(s.Start)
	e.str(m.Name)
	e.bool(m.Maximize)
	e.u64(uint64(len(m.Vars)))
	for j := range m.Vars {
		if len(e.b) >= requestChunk {
			if err := flush(); err != nil {
				return err
			}
		}
		v := &m.Vars[j]
		e.str(v.Name)
		e.u8(byte(v.Kind))
		e.f64(v.Lower)
		e.f64(v.Upper)
		e.f64(v.Obj)
	}
	e.u64(uint64(len(m.Rows)))
	poll := donePoll{done: done}
	for i := range m.Rows {
		r := &m.Rows[i]
		if poll.stop(len(r.Index)) {
			return errRequestAbandoned
		}
		if len(e.b) >= requestChunk {
			if err := flush(); err != nil {
				return err
			}
		}
		e.str(r.Name)
		e.u8(byte(r.Sense))
		e.f64(r.RHS)
		e.u64(uint64(len(r.Index)))
		for _, j := range r.Index {
			e.b = binary.LittleEndian.AppendUint32(e.b, uint32(j))
		}
		e.floats(r.Coef)
	}
	if err := flush(); err != nil {
		return err
	}
	if written != bodyLen {
		return fmt.Errorf("solver: worker request body of %d bytes, announced as %d (bug)", written, bodyLen)
	}
	return nil
}

// errNoRequest: the input ended before a request began.
var errNoRequest = errors.New("solver: no worker request")

func readRequest(r io.Reader) (*workerRequest, error) {
	var head [16]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		if err == io.EOF {
			return nil, errNoRequest
		}
		return nil, fmt.Errorf("solver: reading worker request: %w", err)
	}
	if binary.LittleEndian.Uint64(head[:]) != uint64(wireMagic) {
		return nil, errors.New("solver: worker request has a bad magic word")
	}
	n := binary.LittleEndian.Uint64(head[8:])
	if n > 1<<40 {
		return nil, fmt.Errorf("solver: worker request length %d out of range", n)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, fmt.Errorf("solver: reading worker request: %w", err)
	}
	d := &wireDec{b: body}
	req := &workerRequest{Model: &Model{}}
	req.Engine = d.str()
	req.Deadline = int64(d.u64())
	s := &req.Settings
	s.TimeLimit = time.Duration(d.u64())
	s.Deterministic = d.u8() == 1
	s.WorkLimit = int64(d.u64())
	s.Threads = int(d.u64())
	s.RelGap = d.f64()
	s.Start = d.floats()
	if len(s.Start) == 0 {
		s.Start = nil
	}
	m := req.Model
	m.Name = d.str()
	m.Maximize = d.u8() == 1
	nv := d.n(25) // each column takes at least 25 bytes
	if d.err == nil {
		m.Vars = make([]Var, nv)
	}
	for j := 0; j < nv && d.err == nil; j++ {
		v := &m.Vars[j]
		v.Name = d.str()
		v.Kind = VarKind(d.u8())
		v.Lower, v.Upper, v.Obj = d.f64(), d.f64(), d.f64()
	}
	nr := d.n(33)
	if d.err == nil {
		m.Rows = make([]Row, nr)
	}
	for i := 0; i < nr && d.err == nil; i++ {
		row := &m.Rows[i]
		row.Name = d.str()
		row.Sense = Sense(d.u8())
		row.RHS = d.f64()
		row.Index = d.indices(nv)
		row.Coef = d.floats()
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = fmt.Errorf("%d bytes after the model", len(d.b))
	}
	if d.err != nil {
		return nil, fmt.Errorf("solver: reading worker request: %w", d.err)
	}
	return req, nil
}

// wireEnc appends values to b in the wire format.
type wireEnc struct{ b []byte }

func (e *wireEnc) u8(v byte)     { e.b = append(e.b, v) }
func (e *wireEnc) u64(v uint64)  { e.b = binary.LittleEndian.AppendUint64(e.b, v) }
func (e *wireEnc) f64(v float64) { e.u64(math.Float64bits(v)) }

func (e *wireEnc) bool(v bool) {
	if v {
		e.u8(1)
	} else {
		e.u8(0)
	}
}

func (e *wireEnc) str(s string) {
	e.u64(uint64(len(s)))
	e.b = append(e.b, s...)
}

func (e *wireEnc) floats(v []float64) {
	e.u64(uint64(len(v)))
	for _, x := range v {
		e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(x))
	}
}

// wireDec reads values from the front of b; the first error sticks and
// every later read returns zero values.
type wireDec struct {
	b   []byte
	err error
}

func (d *wireDec) take(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n > len(d.b) {
		d.err = io.ErrUnexpectedEOF
		return nil
	}
	p := d.b[:n]
	d.b = d.b[n:]
	return p
}

func (d *wireDec) u8() byte {
	if p := d.take(1); p != nil {
		return p[0]
	}
	return 0
}

func (d *wireDec) u64() uint64 {
	if p := d.take(8); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

func (d *wireDec) f64() float64 { return math.Float64frombits(d.u64()) }

// n reads a count of items of at least size bytes each, checked against
// what is left of the body.
func (d *wireDec) n(size int) int {
	n := d.u64()
	if d.err == nil && n > uint64(len(d.b)/size) {
		d.err = fmt.Errorf("length %d out of range", n)
		return 0
	}
	return int(n)
}

func (d *wireDec) str() string { return string(d.take(d.n(1))) }

func (d *wireDec) floats() []float64 {
	p := d.take(8 * d.n(8))
	if p == nil {
		return nil
	}
	v := make([]float64, len(p)/8)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(p[8*i:]))
	}
	return v
}

// indices reads 32-bit column indices, each below nv.
func (d *wireDec) indices(nv int) []int {
	p := d.take(4 * d.n(4))
	if p == nil {
		return nil
	}
	v := make([]int, len(p)/4)
	for i := range v {
		j := binary.LittleEndian.Uint32(p[4*i:])
		if int64(j) >= int64(nv) {
			d.err = fmt.Errorf("column index %d out of range (%d columns)", j, nv)
			return nil
		}
		v[i] = int(j)
	}
	return v
}

package solver

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"time"
)

// The worker protocol (worker.go). Every message on the worker's pipes,
// the request to the child and each answer back, is a frame: a 16-byte
// header — the magic word (u32), the kind (u32), the length of the body in
// bytes (u64) — and the body. Values are little-endian: u8; u64; f64 as its
// IEEE bits; bool as a u8 0 or 1; a string or a []float64 as a u64 count
// and the items; column indices as u32. wireEnc writes it and wireDec reads
// it, both ways. It is private to one build of the binary (parent and child
// are the same executable), so it has a magic word but no versioning.

const wireMagic uint32 = 0x504c5357 // "PLSW"

// frameHeader is the length of a frame's header.
const frameHeader = 16

// Frame kinds.
const (
	msgRequest   byte = 0 // parent → worker: a workerRequest
	msgIncumbent byte = 1 // worker → parent: a feasible answer, []float64
	msgFinal     byte = 3 // worker → parent: the engine's Result
	msgError     byte = 4 // worker → parent: the engine failed, string
)

// wireEnc appends values to b in the wire format.
type wireEnc struct{ b []byte }

func (e *wireEnc) u8(v byte)     { e.b = append(e.b, v) }
func (e *wireEnc) u32(v uint32)  { e.b = binary.LittleEndian.AppendUint32(e.b, v) }
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

func (e *wireEnc) indices(v []int) {
	e.u64(uint64(len(v)))
	for _, j := range v {
		e.b = binary.LittleEndian.AppendUint32(e.b, uint32(j))
	}
}

// header appends the header of a frame of kind with an n-byte body.
func (e *wireEnc) header(kind byte, n int) {
	e.u32(wireMagic)
	e.u32(uint32(kind))
	e.u64(uint64(n))
}

// begin appends the header of a frame of kind and returns where it
// starts; end(at) sets its length once the body is appended.
func (e *wireEnc) begin(kind byte) int {
	at := len(e.b)
	e.header(kind, 0)
	return at
}

func (e *wireEnc) end(at int) {
	binary.LittleEndian.PutUint64(e.b[at+8:], uint64(len(e.b)-at-frameHeader))
}

// result appends what a final frame carries of r: status, objective,
// bound, nodes, time-limited and X.
func (e *wireEnc) result(r *Result) {
	e.u8(byte(r.Status))
	e.f64(r.Objective)
	e.f64(r.Bound)
	e.u64(uint64(r.Nodes))
	e.bool(r.TimeLimited)
	e.floats(r.X)
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

func (d *wireDec) bool() bool { return d.u8() == 1 }

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

// result reads what wireEnc.result wrote.
func (d *wireDec) result() Result {
	var r Result
	r.Status = Status(d.u8())
	r.Objective = d.f64()
	r.Bound = d.f64()
	r.Nodes = int64(d.u64())
	r.TimeLimited = d.bool()
	r.X = d.floats()
	return r
}

// close returns the first error of the body's reads, or an error when
// bytes are left after them.
func (d *wireDec) close() error {
	if d.err == nil && len(d.b) != 0 {
		d.err = fmt.Errorf("%d bytes after the frame's body", len(d.b))
	}
	return d.err
}

// readFrame reads one frame from r, its body at most max bytes. It returns
// io.EOF when r ends before a frame begins.
func readFrame(r io.Reader, max uint64) (kind byte, body *wireDec, err error) {
	var head [frameHeader]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return 0, nil, err
	}
	if binary.LittleEndian.Uint32(head[:]) != wireMagic {
		return 0, nil, errors.New("bad magic word")
	}
	k := binary.LittleEndian.Uint32(head[4:])
	n := binary.LittleEndian.Uint64(head[8:])
	if k > math.MaxUint8 {
		return 0, nil, fmt.Errorf("frame kind %d out of range", k)
	}
	if n > max {
		return 0, nil, fmt.Errorf("frame length %d out of range", n)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return 0, nil, err
	}
	return byte(k), &wireDec{b: b}, nil
}

// workerRequest is what the parent sends: the backend whose worker engine
// is to run (backendRow.worker), its settings and the model.
type workerRequest struct {
	Engine   string
	Settings Settings
	// Deadline is the wall-clock instant (Unix nanoseconds; zero for none) by
	// which the engine must have sent its final answer. Wall-clock time is
	// shared by parent and child, monotonic time is not.
	Deadline int64
	Model    *Model
}

// The parent encodes a request's body in chunks of about requestChunk
// bytes, each written to the pipe as soon as it is full (the child reads
// the body whole while the rest is being encoded, then decodes it): the
// 300-job rack model is 1.1M nonzeros, and encoding and decoding it value
// by value through buffered pipe I/O took about 100 ms of a 1 s solve.
// Encoding a whole 1,000-job request (45 MB) in memory instead made the
// parent collect its garbage during the solve, which held the parent's
// deadline timer off both cores for up to 130 ms. Row indices travel as
// 32-bit integers.

// requestChunk is the size of the chunks a request is written in: the
// pipe's buffer (pipeBuffer).
const requestChunk = 1 << 20

// maxRequest bounds the body of a request the worker reads.
const maxRequest = 1 << 40

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
	e := wireEnc{b: make([]byte, 0, min(frameHeader+bodyLen, 2*requestChunk))}
	e.header(msgRequest, bodyLen)
	written := -frameHeader // bytes of the body written so far
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
		e.indices(r.Index)
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

// readRequest reads the next request from r.
func readRequest(r io.Reader) (*workerRequest, error) {
	kind, d, err := readFrame(r, maxRequest)
	if err == io.EOF {
		return nil, errNoRequest
	}
	if err == nil && kind != msgRequest {
		err = fmt.Errorf("a frame of kind %d", kind)
	}
	if err != nil {
		return nil, fmt.Errorf("solver: reading worker request: %w", err)
	}
	req := &workerRequest{Model: &Model{}}
	req.Engine = d.str()
	req.Deadline = int64(d.u64())
	s := &req.Settings
	s.TimeLimit = time.Duration(d.u64())
	s.Deterministic = d.bool()
	s.WorkLimit = int64(d.u64())
	s.Threads = int(d.u64())
	s.RelGap = d.f64()
	s.Start = d.floats()
	if len(s.Start) == 0 {
		s.Start = nil
	}
	m := req.Model
	m.Name = d.str()
	m.Maximize = d.bool()
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
	if err := d.close(); err != nil {
		return nil, fmt.Errorf("solver: reading worker request: %w", err)
	}
	return req, nil
}

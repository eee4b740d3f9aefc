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
	msgBound     byte = 2 // a proven bound: float64
	msgFinal     byte = 3 // the engine's Result
	msgError     byte = 4 // the engine failed: string
)

type wireWriter struct {
	w   *bufio.Writer
	buf [8]byte
	err error
}

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

func (e *wireWriter) floats(v []float64) {
	e.u64(uint64(len(v)))
	for _, x := range v {
		e.f64(x)
	}
}

func (e *wireWriter) ints(v []int) {
	e.u64(uint64(len(v)))
	for _, x := range v {
		e.u64(uint64(x))
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
	for i := range v {
		v[i] = d.f64()
	}
	return v
}

func (d *wireReader) ints() []int {
	n := d.n()
	if d.err != nil {
		return nil
	}
	v := make([]int, n)
	for i := range v {
		v[i] = int(d.u64())
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

func writeRequest(w io.Writer, req *workerRequest) error {
	e := &wireWriter{w: bufio.NewWriterSize(w, 1<<16)}
	e.u64(uint64(wireMagic))
	e.str(req.Engine)
	e.u64(uint64(req.Deadline))
	s := &req.Settings
	e.u64(uint64(s.TimeLimit))
	if s.Deterministic {
		e.u8(1)
	} else {
		e.u8(0)
	}
	e.u64(uint64(s.WorkLimit))
	e.u64(uint64(s.Threads))
	e.f64(s.RelGap)
	e.floats(s.Start)
	m := req.Model
	e.str(m.Name)
	if m.Maximize {
		e.u8(1)
	} else {
		e.u8(0)
	}
	e.u64(uint64(len(m.Vars)))
	for _, v := range m.Vars {
		e.str(v.Name)
		e.u8(byte(v.Kind))
		e.f64(v.Lower)
		e.f64(v.Upper)
		e.f64(v.Obj)
	}
	e.u64(uint64(len(m.Rows)))
	for _, r := range m.Rows {
		e.str(r.Name)
		e.u8(byte(r.Sense))
		e.f64(r.RHS)
		e.ints(r.Index)
		e.floats(r.Coef)
	}
	return e.flush()
}

func readRequest(r io.Reader) (*workerRequest, error) {
	d := &wireReader{r: bufio.NewReaderSize(r, 1<<16)}
	if magic := d.u64(); d.err == nil && magic != uint64(wireMagic) {
		return nil, errors.New("solver: worker request has a bad magic word")
	}
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
	nv := d.n()
	if d.err == nil {
		m.Vars = make([]Var, nv)
	}
	for j := 0; j < nv && d.err == nil; j++ {
		v := &m.Vars[j]
		v.Name = d.str()
		v.Kind = VarKind(d.u8())
		v.Lower, v.Upper, v.Obj = d.f64(), d.f64(), d.f64()
	}
	nr := d.n()
	if d.err == nil {
		m.Rows = make([]Row, nr)
	}
	for i := 0; i < nr && d.err == nil; i++ {
		row := &m.Rows[i]
		row.Name = d.str()
		row.Sense = Sense(d.u8())
		row.RHS = d.f64()
		row.Index = d.ints()
		row.Coef = d.floats()
	}
	if d.err != nil {
		return nil, fmt.Errorf("solver: reading worker request: %w", d.err)
	}
	return req, nil
}

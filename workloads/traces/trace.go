package traces

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/plannerhq/planner/workloads"
)

// Formats are the trace formats Read knows, in the order the CLI lists them.
var Formats = []string{FormatSWF, FormatGoogle2011, FormatAlibaba2018, FormatMustang, FormatBatsim, FormatSacct}

// TaskFormats are the formats whose records carry per-task durations
// (Record.TaskDurations), which Options.Tasks imports as tasks.
var TaskFormats = []string{FormatGoogle2011, FormatAlibaba2018}

// Format names (also the Header.Generator of imported workloads).
const (
	FormatSWF         = "swf"
	FormatGoogle2011  = "google2011"
	FormatAlibaba2018 = "alibaba2018"
	FormatMustang     = "mustang"
	FormatBatsim      = "batsim"
	FormatSacct       = "sacct"
)

// Record is one job of a trace as a parser reads it, before the import
// pipeline fits it to a cluster and window.
type Record struct {
	// Submit is the submit time in seconds on the trace's own time axis.
	Submit float64
	// Runtime is the job's runtime in seconds (> 0).
	Runtime float64
	// Size is the job's width as the trace counts it (processors, tasks,
	// instances or nodes; ≥ 1).
	Size int
	// Requested is the user's requested time in seconds, 0 when unknown.
	Requested float64
	// Features are the predictor features, submit hour and day included.
	Features workloads.Features
	// TaskDurations are per-task durations in seconds, when the trace has
	// them.
	TaskDurations []float64
	// Kind is an optional label (e.g. "dag" for Alibaba DAG jobs).
	Kind string
	// SourceID is the job's id in the trace (workloads.Job.SourceID),
	// empty when the trace has none.
	SourceID string
	// Wait is the wait the trace recorded (seconds; SWF field 3, sacct's
	// Start − Submit), −1 when unknown. The import does not use it: it is
	// the trace's own schedule, for comparison.
	Wait float64
	// Meta is an extension object for the job (workloads.Job.Meta), nil
	// for none.
	Meta []byte
}

// Trace is a parsed trace: its records in the order read and what the
// parser counted.
type Trace struct {
	Format string
	// Source names the file or directory read.
	Source  string
	Records []Record
	// MaxProcs is the machine's width from the trace's header (SWF
	// MaxProcs), 0 when the trace does not say.
	MaxProcs int
	// Lines is the number of input lines read (header lines included).
	Lines int
	// Skipped is the number of bad lines skipped (ParseOptions.SkipBad).
	Skipped int
	// Filtered counts the jobs left out, by reason ("failed", …).
	Filtered map[string]int
}

// FilteredTotal is the number of jobs left out for any reason.
func (t *Trace) FilteredTotal() int {
	n := 0
	for _, v := range t.Filtered {
		n += v
	}
	return n
}

// FilterReasons are the reasons of Filtered, sorted by count (largest
// first), then by name.
func (t *Trace) FilterReasons() []string {
	keys := make([]string, 0, len(t.Filtered))
	for k := range t.Filtered {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		return cmp.Or(cmp.Compare(t.Filtered[b], t.Filtered[a]), cmp.Compare(a, b))
	})
	return keys
}

func (t *Trace) filter(reason string) { t.Filtered = countFiltered(t.Filtered, reason) }

// countFiltered adds one to m[reason], making m when it is nil.
func countFiltered(m map[string]int, reason string) map[string]int {
	if m == nil {
		m = make(map[string]int)
	}
	m[reason]++
	return m
}

// ParseOptions control parsing.
type ParseOptions struct {
	// SkipBad skips malformed lines (counting them in Trace.Skipped)
	// instead of failing on the first one.
	SkipBad bool
	// Progress, when set, is called every ProgressLines lines read and,
	// by Read and ReadGoogle2011, once more when the whole input is read
	// (Progress.Done).
	Progress func(Progress)

	// track counts what Progress is told, over every file of one read.
	track *tracker
}

// Progress is how far a read has got, for ParseOptions.Progress.
type Progress struct {
	// File is the file being read.
	File string
	// Lines is the number of lines read so far, over all files.
	Lines int
	// Bytes is how much of the input has been read, as stored (the
	// compressed bytes of a gzip file), of TotalBytes, the size of every
	// file the read takes; both are 0 when the input is a reader rather
	// than files (ParseSWF and the other parsers called directly).
	Bytes, TotalBytes int64
	// Done is set on the last call, after the whole input is read.
	Done bool
}

// ProgressLines is how often (in lines) ParseOptions.Progress is called.
const ProgressLines = 10_000

// tracker is the progress of one read, shared by its files.
type tracker struct {
	fn func(Progress)
	p  Progress
}

// startProgress sets up the progress of a read over input of total bytes
// (when opts.Progress is set).
func (o *ParseOptions) startProgress(total int64) {
	if o.Progress != nil {
		o.track = &tracker{fn: o.Progress, p: Progress{TotalBytes: total}}
	}
}

// doneProgress reports that the whole input is read.
func (o *ParseOptions) doneProgress() {
	if t := o.track; t != nil {
		t.p.Done = true
		t.fn(t.p)
	}
}

// line counts one line of file, telling Progress every ProgressLines.
func (t *tracker) line(file string) {
	t.p.Lines++
	if t.p.Lines%ProgressLines == 0 {
		t.p.File = file
		t.fn(t.p)
	}
}

// countingReader adds the bytes read through it to *n.
type countingReader struct {
	r io.Reader
	n *int64
}

func (c countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	*c.n += int64(n)
	return n, err
}

// maxLineBytes bounds one input line; trace lines are well under 1 KiB.
const maxLineBytes = 1 << 20

// ParseError is a bad line of a trace file, or a failed read at a line.
type ParseError struct {
	File string
	Line int
	Err  error
	// read: the input could not be read at Line (a line too long, a
	// damaged gzip stream); ParseOptions.SkipBad does not skip those.
	read bool
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }

// Skippable reports whether the error is a malformed line, one that
// ParseOptions.SkipBad skips and counts, rather than a failed read.
func (e *ParseError) Skippable() bool { return !e.read }

// Unwrap returns the problem.
func (e *ParseError) Unwrap() error { return e.Err }

// lines reads a file line by line, counting lines, reporting progress and
// handling bad lines: bad either returns a *ParseError or, with SkipBad,
// counts the line as skipped.
type lines struct {
	name  string
	sc    *bufio.Scanner
	n     int
	opts  *ParseOptions
	trace *Trace
}

func newLines(r io.Reader, name string, opts *ParseOptions, t *Trace) *lines {
	if opts.Progress != nil && opts.track == nil {
		opts.startProgress(0) // a parser called on a reader: lines only
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	return &lines{name: name, sc: sc, opts: opts, trace: t}
}

// utf8BOM is the byte order mark U+FEFF some tools write at a file's start.
var utf8BOM = []byte("\uFEFF")

// next returns the next line without its line end ("\r" tolerated) and,
// on the first line, without a UTF-8 byte order mark.
func (l *lines) next() ([]byte, bool) {
	if !l.sc.Scan() {
		return nil, false
	}
	l.n++
	l.trace.Lines++
	if l.opts.track != nil {
		l.opts.track.line(l.name)
	}
	b := bytes.TrimSuffix(l.sc.Bytes(), []byte("\r"))
	if l.n == 1 {
		b = bytes.TrimPrefix(b, utf8BOM)
	}
	return b, true
}

// err is the read error after next returned false, as a *ParseError.
func (l *lines) err() error {
	if err := l.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return &ParseError{File: l.name, Line: l.n + 1, Err: fmt.Errorf("line longer than %d bytes", maxLineBytes), read: true}
		}
		return &ParseError{File: l.name, Line: l.n + 1, Err: err, read: true}
	}
	return nil
}

// each calls fn with every non-blank line (its white space trimmed at
// both ends) until the input ends; a line fn rejects goes to bad, so it
// is skipped with SkipBad and otherwise ends the read with file and line.
// The result is the first such error or the read error.
func (l *lines) each(fn func(line []byte) error) error {
	for {
		b, ok := l.next()
		if !ok {
			return l.err()
		}
		s := bytes.TrimSpace(b)
		if len(s) == 0 {
			continue
		}
		if err := fn(s); err != nil {
			if e := l.bad(err); e != nil {
				return e
			}
		}
	}
}

// bad handles a malformed current line: nil (skip it) with SkipBad,
// otherwise the error with file and line.
func (l *lines) bad(err error) error {
	if l.opts.SkipBad {
		l.trace.Skipped++
		return nil
	}
	return &ParseError{File: l.name, Line: l.n, Err: err}
}

// Read parses the trace at path in format (one of Formats): a file, plain
// or gzip-compressed, for swf, alibaba2018, mustang, batsim and sacct; the cluster-data
// directory (job_events/ and task_events/) for google2011.
func Read(format, path string, opts ParseOptions) (*Trace, error) {
	if format == FormatGoogle2011 {
		return ReadGoogle2011(path, opts)
	}
	var parse func(io.Reader, string, ParseOptions) (*Trace, error)
	switch format {
	case FormatSWF:
		parse = ParseSWF
	case FormatAlibaba2018:
		parse = ParseAlibaba2018
	case FormatMustang:
		parse = ParseMustang
	case FormatBatsim:
		parse = ParseBatsim
	case FormatSacct:
		parse = ParseSacct
	default:
		return nil, fmt.Errorf("unknown trace format %q (want %s)", format, strings.Join(Formats, ", "))
	}
	var t *Trace
	if st, err := os.Stat(path); err == nil {
		opts.startProgress(st.Size())
	}
	err := withFile(path, &opts, func(r io.Reader) error {
		var err error
		t, err = parse(r, path, opts)
		return err
	})
	if err != nil {
		return nil, err
	}
	opts.doneProgress()
	return t, nil
}

// withFile opens path, decompressing it when it starts with the gzip magic
// bytes, and hands the contents to read; the bytes read from the file
// count in the progress of opts.
func withFile(path string, opts *ParseOptions, read func(io.Reader) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return fmt.Errorf("%s is a directory, want a trace file", path)
	}
	var in io.Reader = f
	if opts.track != nil {
		in = countingReader{f, &opts.track.p.Bytes}
	}
	br := bufio.NewReaderSize(in, 256<<10)
	var r io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	if err := read(r); err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			return err
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

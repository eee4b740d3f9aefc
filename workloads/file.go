package workloads

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// A workload file is JSON Lines (UTF-8, one JSON object per line, "\n"
// line ends; a "\r" before it is tolerated):
//
//	line 1:        the Header, e.g.
//	               {"version":1,"generator":"google","params":{…},"seed":1,
//	                "cluster":{"partition_nodes":[32,…],"slowdown":1.5},
//	                "window_s":18000,"jobs":1500,"history_jobs":3000}
//	               (the cluster also has "name", "partition_names" and
//	               "partition_speeds" when they are not the defaults:
//	               no name, r0…, speed 1; see Cluster)
//	next lines:    history_jobs Job objects with "history":true (Submit < 0)
//	then:          jobs Job objects of the window (0 ≤ Submit < window_s)
//
// A job line is the JSON of Job (field names in its struct tags) plus the
// optional "history" marker, e.g.
//
//	{"id":0,"submit_s":4.2,"class":"slo","nodes":4,"runtime_s":640.5,
//	 "deadline_s":1029,"value":1000,"preferred":[0,1,2,4,5,7],
//	 "features":{"user":"user03","name":"job012","app":"app1",
//	 "submit_hour":0,"submit_day":0,"resources":"nodes=4"},"kind":"short"}
//
// Unknown fields are errors, so a typo does not silently drop data; what
// the format has no field for goes in the "meta" object of the header or
// of a job line (any JSON object), which is carried through to the outputs.

// FormatVersion is the version of the workload file format that Write
// produces and Read accepts.
const FormatVersion = 1

// MaxLineBytes bounds one line of a workload file; Read rejects longer lines
// instead of buffering without limit.
const MaxLineBytes = 16 << 20

// Header is the first line of a workload file: where the workload came from
// and the cluster it was made for.
type Header struct {
	Version int `json:"version"`
	// Generator names the generator or importer ("google", "swf", …).
	Generator string `json:"generator"`
	// Params are the generator's parameters as it marshals them (for the
	// generators of Generators: Params, see ParamsOf); kept verbatim so a
	// file says how to regenerate it.
	Params json.RawMessage `json:"params,omitempty"`
	Seed   uint64          `json:"seed"`
	// Cluster is the cluster the workload was made for: every job fits it.
	Cluster Cluster `json:"cluster"`
	// WindowS is the length of the workload's window in seconds: window
	// jobs are submitted in [0, WindowS); load is measured over it.
	WindowS float64 `json:"window_s"`
	// Jobs and HistoryJobs are the number of job lines of each kind that
	// follow; Write fills them in and Read checks them, so a truncated file
	// is an error.
	Jobs        int `json:"jobs"`
	HistoryJobs int `json:"history_jobs"`
	// Meta is an extension object (a JSON object, up to MaxMetaBytes) for
	// what the format has no field for — a trace's own header, a site's
	// notes; kept verbatim and carried to the run's results.json.
	Meta json.RawMessage `json:"meta,omitempty"`
}

// Workload is a header, the pre-training history (jobs that completed
// before the window, Submit < 0, for a runtime predictor) and the jobs of
// the window (0 ≤ Submit < WindowS), each sorted by submit time.
type Workload struct {
	Header  Header
	History []Job
	Jobs    []Job
}

// fileJob is one job line: a Job plus the history marker.
type fileJob struct {
	Job
	// History marks a pre-training job (not part of the window).
	History bool `json:"history,omitempty"`
}

// Write writes w as JSON Lines: the header, then one line per history job
// (with "history":true), then one line per window job. It validates w first
// and writes nothing when w is invalid. The header's job counts are taken
// from the slices. The output is a pure function of w, so Read then Write
// reproduces a file byte for byte.
func Write(out io.Writer, w *Workload) error {
	if w == nil {
		return errors.New("workload: nil workload")
	}
	if err := w.Validate(); err != nil {
		return err
	}
	bw := bufio.NewWriter(out)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	h := w.Header
	h.Jobs, h.HistoryJobs = len(w.Jobs), len(w.History)
	if err := enc.Encode(&h); err != nil {
		return fmt.Errorf("workload: header: %w", err)
	}
	for i := range w.History {
		if err := enc.Encode(&fileJob{Job: w.History[i], History: true}); err != nil {
			return fmt.Errorf("workload: history job %d: %w", w.History[i].ID, err)
		}
	}
	for i := range w.Jobs {
		if err := enc.Encode(&fileJob{Job: w.Jobs[i]}); err != nil {
			return fmt.Errorf("workload: job %d: %w", w.Jobs[i].ID, err)
		}
	}
	return bw.Flush()
}

// Read parses a workload file written by Write (or by hand in the same
// format) and validates it. Unknown fields, trailing data, blank lines, a
// history job after a window job, a job count that disagrees with the
// header, and every rule of Validate are errors that name the line
// (*LineError, matching ErrInvalid for rule violations). Read never panics
// on any input.
func Read(r io.Reader) (*Workload, error) { return read(r, false) }

// ReadHeader reads and validates the header line of a workload file, as
// Read does, and stops there: the job lines are neither read nor checked.
func ReadHeader(r io.Reader) (*Header, error) {
	w, err := read(r, true)
	if err != nil {
		return nil, err
	}
	return &w.Header, nil
}

// read is Read; with headerOnly it returns after the header line.
func read(r io.Reader, headerOnly bool) (*Workload, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLineBytes)
	line := 0
	var w Workload
	var v *validator
	inWindow := false
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if len(bytes.TrimSpace(b)) == 0 {
			return nil, lineErr(line, errors.New("blank line"))
		}
		if line == 1 {
			if err := decodeStrict(b, &w.Header); err != nil {
				return nil, lineErr(line, fmt.Errorf("header: %w", err))
			}
			if err := validateHeader(&w.Header); err != nil {
				return nil, lineErr(line, err)
			}
			if headerOnly {
				return &w, nil
			}
			v = newValidator(&w.Header)
			continue
		}
		var fj fileJob
		if err := decodeStrict(b, &fj); err != nil {
			return nil, lineErr(line, err)
		}
		if fj.History && inWindow {
			return nil, lineErr(line, invalidf("history job after window jobs (history comes first)"))
		}
		inWindow = !fj.History
		if err := v.check(&fj.Job, fj.History); err != nil {
			return nil, lineErr(line, err)
		}
		if fj.History {
			if len(w.History) >= w.Header.HistoryJobs {
				return nil, lineErr(line, invalidf("more history jobs than the header's %d", w.Header.HistoryJobs))
			}
			w.History = append(w.History, fj.Job)
		} else {
			if len(w.Jobs) >= w.Header.Jobs {
				return nil, lineErr(line, invalidf("more jobs than the header's %d", w.Header.Jobs))
			}
			w.Jobs = append(w.Jobs, fj.Job)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, lineErr(line+1, fmt.Errorf("line longer than %d bytes", MaxLineBytes))
		}
		return nil, fmt.Errorf("workload: reading line %d: %w", line+1, err)
	}
	if line == 0 {
		return nil, lineErr(1, invalidf("empty input, want a header line"))
	}
	if len(w.Jobs) != w.Header.Jobs || len(w.History) != w.Header.HistoryJobs {
		return nil, fmt.Errorf("workload: file ends after line %d with %d jobs and %d history jobs, header says %d and %d (truncated?): %w",
			line, len(w.Jobs), len(w.History), w.Header.Jobs, w.Header.HistoryJobs, ErrInvalid)
	}
	return &w, nil
}

// decodeStrict decodes exactly one JSON object from b into v, rejecting
// unknown fields and trailing data.
func decodeStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("bad JSON: %w", plainJSONError(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("bad JSON: trailing data after the object")
	}
	return nil
}

// plainJSONError says in the file's terms what the decoder reports in
// Go's: a value of the wrong type names the field and the JSON kinds
// (`"id" holds a JSON string, want a number`, not "cannot unmarshal string
// into Go struct field fileJob.Job.id of type int"), and a line that ends
// inside its object says so instead of "unexpected EOF".
func plainJSONError(err error) error {
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &typ) && typ.Type != nil:
		field := typ.Field
		if i := strings.LastIndexByte(field, '.'); i >= 0 {
			field = field[i+1:]
		}
		if field == "" {
			return fmt.Errorf("found a JSON %s, want %s", typ.Value, jsonKind(typ.Type.Kind()))
		}
		return fmt.Errorf("%q holds a JSON %s, want %s", field, typ.Value, jsonKind(typ.Type.Kind()))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("the line ends inside its object")
	}
	return err
}

// jsonKind names the JSON value a Go value of kind k decodes from.
func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "another kind of value"
}

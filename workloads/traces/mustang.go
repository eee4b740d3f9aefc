package traces

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/plannerhq/planner/workloads"
)

// Mustang columns, in file order.
const (
	mustUser = iota
	mustGroup
	mustSubmit
	mustStart
	mustEnd
	mustLimit
	mustStatus
	mustNodes
	mustTasks
	mustFields
)

var mustangHeader = []string{"user_ID", "group_ID", "submit_time", "start_time", "end_time",
	"wallclock_limit", "job_status", "node_count", "tasks_requested"}

// ParseMustang reads the LANL Mustang job trace: CSV with the columns
// user_ID, group_ID, submit_time, start_time, end_time, wallclock_limit,
// job_status, node_count, tasks_requested (a header line with these names
// is optional; it is the first non-blank line). Times are timestamps "2006-01-02 15:04:05" with an optional
// "T" and zone offset ("-06:00", "Z"; none means UTC) or Unix seconds;
// wallclock_limit is minutes (a plain number, as Slurm stores time limits)
// or "[D-]HH:MM:SS", empty when unknown. Kept: status COMPLETED (any case),
// node_count ≥ 1 and end > start; other statuses are counted by name
// ("cancelled", "failed", "timeout", …). The width is node_count, the
// runtime end − start, the requested time the limit in seconds; the submit
// hour and day are those of the timestamp in its own zone.
func ParseMustang(r io.Reader, name string, opts ParseOptions) (*Trace, error) {
	t := &Trace{Format: FormatMustang, Source: name}
	first := true // the first non-blank line may be the header
	err := newLines(r, name, &opts, t).each(func(b []byte) error {
		f, err := splitCSV(b, mustFields)
		header := first && err == nil && strings.EqualFold(strings.TrimSpace(f[0]), mustangHeader[0])
		first = false
		if header {
			return nil
		}
		var rec Record
		var status string
		if err == nil {
			rec, status, err = parseMustangFields(f)
		}
		if err != nil {
			return err
		}
		switch {
		case status != "completed":
			t.filter(status)
		case rec.Size <= 0:
			t.filter("zero size")
		case rec.Runtime <= 0:
			t.filter("zero runtime")
		default:
			t.Records = append(t.Records, rec)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// splitCSV splits one CSV line into exactly n fields (quotes allowed).
func splitCSV(b []byte, n int) ([]string, error) {
	cr := csv.NewReader(bytes.NewReader(b))
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	f, err := cr.Read()
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("bad CSV: %v", err)
	}
	if len(f) != n {
		return nil, fmt.Errorf("want %d comma-separated fields, got %d", n, len(f))
	}
	return f, nil
}

func parseMustangFields(f []string) (rec Record, status string, err error) {
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	submit, err := parseTimestamp(f[mustSubmit])
	if err != nil {
		return rec, "", fmt.Errorf("submit_time: %v", err)
	}
	start, err := parseTimestamp(f[mustStart])
	if err != nil {
		return rec, "", fmt.Errorf("start_time: %v", err)
	}
	end, err := parseTimestamp(f[mustEnd])
	if err != nil {
		return rec, "", fmt.Errorf("end_time: %v", err)
	}
	limit, err := parseLimit(f[mustLimit])
	if err != nil {
		return rec, "", fmt.Errorf("wallclock_limit: %v", err)
	}
	nodes, err := parseCount(f[mustNodes])
	if err != nil {
		return rec, "", fmt.Errorf("node_count: %v", err)
	}
	if _, err := parseCount(f[mustTasks]); err != nil && f[mustTasks] != "" {
		return rec, "", fmt.Errorf("tasks_requested: %v", err)
	}
	// Slurm writes "CANCELLED by <uid>": the first word is the state.
	words := strings.Fields(strings.ToLower(f[mustStatus]))
	if len(words) == 0 {
		return rec, "", errors.New("job_status is empty")
	}
	status = words[0]
	rec = Record{
		Submit:    float64(submit.Unix()),
		Runtime:   end.Sub(start).Seconds(),
		Size:      nodes,
		Requested: limit,
	}
	res := "nodes=" + strconv.Itoa(nodes)
	if limit > 0 {
		res += ",time=" + strconv.FormatInt(int64(limit), 10)
	}
	rec.Features = workloads.Features{
		User:       prefixed("u", f[mustUser]),
		App:        prefixed("g", f[mustGroup]),
		Resources:  res,
		SubmitHour: submit.Hour(),
		SubmitDay:  int(submit.Weekday()),
	}
	return rec, status, nil
}

func prefixed(p, v string) string {
	if v == "" {
		return ""
	}
	return p + v
}

// timestampLayouts are the timestamp forms parseTimestamp accepts.
var timestampLayouts = []string{
	"2006-01-02 15:04:05Z07:00", "2006-01-02T15:04:05Z07:00",
	"2006-01-02 15:04:05Z0700", "2006-01-02T15:04:05Z0700",
	"2006-01-02 15:04:05", "2006-01-02T15:04:05",
}

// timestampRange bounds accepted times (Unix seconds, years 1970–2100).
const timestampRange = 4102444800

// parseTimestamp reads a timestamp (see ParseMustang) or Unix seconds.
func parseTimestamp(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, errors.New("empty")
	}
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		if !(v >= 0 && v <= timestampRange) {
			return time.Time{}, fmt.Errorf("%q out of range", s)
		}
		return time.Unix(int64(v), 0).UTC(), nil
	}
	for _, layout := range timestampLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			if u := t.Unix(); u < 0 || u > timestampRange {
				return time.Time{}, fmt.Errorf("%q out of range", s)
			}
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a timestamp", s)
}

// parseLimit reads a time limit in minutes or [D-]HH:MM:SS and returns
// seconds; empty is 0 (unknown).
func parseLimit(s string) (float64, error) {
	if s == "" {
		return 0, nil
	}
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		if !(v >= 0 && v <= 1e8) {
			return 0, fmt.Errorf("%q out of range", s)
		}
		return math.Round(v * 60), nil
	}
	days := 0
	hms := s
	if d, rest, ok := strings.Cut(s, "-"); ok {
		n, err := strconv.Atoi(d)
		if err != nil || n < 0 || n > 10000 {
			return 0, fmt.Errorf("%q is not a time limit", s)
		}
		days, hms = n, rest
	}
	parts := strings.Split(hms, ":")
	if len(parts) != 3 {
		return 0, fmt.Errorf("%q is not a time limit (want minutes or [D-]HH:MM:SS)", s)
	}
	secs := 0
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || (i > 0 && n > 59) || n > 1_000_000 {
			return 0, fmt.Errorf("%q is not a time limit", s)
		}
		secs = secs*60 + n
	}
	return float64(days*86400 + secs), nil
}

// parseCount reads a non-negative integer count, also written as a float
// ("4.0", as data-frame exports write integer columns with gaps).
func parseCount(s string) (int, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v >= 0 && v <= 1<<31) || v != math.Trunc(v) {
		return 0, fmt.Errorf("%q is not a count", s)
	}
	return int(v), nil
}

package traces

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // SWF headers name time zones; the import must not depend on the host's zoneinfo

	"github.com/plannerhq/planner/workloads"
)

// SWF fields (1-based in the format's description, 0-based here).
const (
	swfJob = iota
	swfSubmit
	swfWait
	swfRun
	swfProcs
	swfCPU
	swfMem
	swfReqProcs
	swfReqTime
	swfReqMem
	swfStatus
	swfUser
	swfGroup
	swfApp
	swfQueue
	swfPartition
	swfPreceding
	swfThink
	swfFields
)

// ParseSWF reads a trace in the Standard Workload Format of the Parallel
// Workloads Archive: ";" header lines (MaxProcs, UnixStartTime, TimeZone,
// TimeZoneString are used), then one job per line of 18 whitespace-
// separated numbers, −1 meaning unknown. Kept: run time > 0, processors
// > 0 (allocated, else requested), and a status (field 11) that says the
// run completed, or none: 1 (completed) or −1 (not recorded). The other
// statuses are filtered out and counted by reason (Trace.Filtered):
// 0 "failed", 5 "cancelled", 2–4 "partial run (status N)" (pieces of a
// checkpointed or swapped job, whose own line carries the whole run), and
// any code outside the format's set (some logs use their own, which their
// header notes explain) as "status N (not an SWF code)": its run is not
// known to have completed. The job's width is its allocated processors
// (field 5), or the requested ones (field 8) when unknown; its requested
// time is field 9. Blank lines are ignored; any other malformed line is
// an error naming file and line.
func ParseSWF(r io.Reader, name string, opts ParseOptions) (*Trace, error) {
	p := swfParser{t: &Trace{Format: FormatSWF, Source: name}}
	err := newLines(r, name, &opts, p.t).each(func(s []byte) error {
		if s[0] != ';' {
			p.started = true
			return p.job(s)
		}
		if p.started {
			return nil // comments between jobs carry no header fields
		}
		return p.header(s)
	})
	if err != nil {
		return nil, err
	}
	return p.t, nil
}

// swfParser is the state of one SWF read.
type swfParser struct {
	t       *Trace
	start   int64 // UnixStartTime
	tzOff   int   // TimeZone, seconds east of UTC
	loc     *time.Location
	started bool // a job line was read: the header is over
	f       [swfFields]float64
}

// header reads one ";Key: value" header line; other comments are ignored.
func (p *swfParser) header(s []byte) error {
	key, val, ok := strings.Cut(string(s[1:]), ":")
	if !ok {
		return nil
	}
	key, val = strings.TrimSpace(key), strings.TrimSpace(val)
	var err error
	switch key {
	case "MaxProcs":
		p.t.MaxProcs, err = strconv.Atoi(val)
		if err == nil && p.t.MaxProcs < 0 {
			err = fmt.Errorf("must be ≥ 0")
		}
	case "UnixStartTime":
		p.start, err = strconv.ParseInt(val, 10, 64)
		if err == nil && (p.start < -1<<40 || p.start > 1<<40) {
			err = fmt.Errorf("out of range")
		}
	case "TimeZone":
		p.tzOff, err = strconv.Atoi(val)
		if err == nil && (p.tzOff < -14*3600 || p.tzOff > 14*3600) {
			err = fmt.Errorf("out of range")
		}
	case "TimeZoneString":
		// An unknown zone name falls back to TimeZone or UTC: it only
		// affects the hour and day features.
		if z, zerr := time.LoadLocation(val); zerr == nil && val != "" && val != "Local" {
			p.loc = z
		}
	}
	if err != nil {
		p.t.MaxProcs = max(p.t.MaxProcs, 0)
		// In words, not as strconv's "strconv.Atoi: parsing …".
		var num *strconv.NumError
		switch {
		case errors.As(err, &num) && errors.Is(num.Err, strconv.ErrRange):
			err = errors.New("out of range")
		case errors.As(err, &num):
			err = errors.New("not a whole number")
		}
		return fmt.Errorf("header %s: bad value %q: %v", key, val, err)
	}
	return nil
}

// job reads one job line: a record, or a count of why it was filtered.
func (p *swfParser) job(s []byte) error {
	f, t := &p.f, p.t
	if err := parseSWFLine(s, f); err != nil {
		return err
	}
	if reason := swfStatusFilter(f[swfStatus]); reason != "" {
		t.filter(reason)
		return nil
	}
	size := int(f[swfProcs])
	if size <= 0 {
		size = int(f[swfReqProcs])
	}
	switch {
	case size <= 0:
		t.filter("zero size")
		return nil
	case f[swfRun] <= 0:
		t.filter("zero runtime")
		return nil
	case f[swfSubmit] < 0:
		t.filter("unknown submit time")
		return nil
	}
	rec := Record{Submit: f[swfSubmit], Runtime: f[swfRun], Size: size, Wait: f[swfWait],
		SourceID: strconv.FormatFloat(f[swfJob], 'f', -1, 64)}
	if f[swfReqTime] > 0 {
		rec.Requested = f[swfReqTime]
	}
	rec.Features = swfFeatures(f, size)
	wall := time.Unix(p.start+int64(f[swfSubmit]), 0)
	if p.loc != nil {
		wall = wall.In(p.loc)
	} else {
		wall = wall.In(time.FixedZone("", p.tzOff))
	}
	rec.Features.SubmitHour, rec.Features.SubmitDay = wall.Hour(), int(wall.Weekday())
	t.Records = append(t.Records, rec)
	return nil
}

// swfStatusFilter is why a job of status st is filtered out, "" when it
// is kept (see ParseSWF).
func swfStatusFilter(st float64) string {
	switch st {
	case 1, -1:
		return ""
	case 0:
		return "failed"
	case 5:
		return "cancelled"
	case 2, 3, 4:
		return fmt.Sprintf("partial run (status %v)", st)
	}
	return fmt.Sprintf("status %s (not an SWF code)", strconv.FormatFloat(st, 'g', -1, 64))
}

// swfMaxValue bounds every SWF number but the status: times of centuries, processor
// counts of millions; larger values are corrupt lines, and the bound keeps
// conversions to int exact.
const swfMaxValue = 1 << 40

// parseSWFLine parses the 18 fields of a job line into f.
func parseSWFLine(s []byte, f *[swfFields]float64) error {
	fields := bytes.Fields(s)
	if len(fields) != swfFields {
		return fmt.Errorf("want %d fields, got %d", swfFields, len(fields))
	}
	for i, b := range fields {
		v, err := strconv.ParseFloat(string(b), 64)
		if err != nil || !workloads.Finite(v) {
			return fmt.Errorf("field %d: %q is not a number", i+1, b)
		}
		if i != swfStatus && (v < -1 || v > swfMaxValue) { // any status is a code (swfStatusFilter)
			return fmt.Errorf("field %d: %v out of range [-1, 2^40]", i+1, v)
		}
		f[i] = v
	}
	return nil
}

// swfFeatures maps an SWF job's fields to predictor features (see doc.go).
func swfFeatures(f *[swfFields]float64, size int) workloads.Features {
	id := func(prefix string, v float64) string {
		if v < 0 {
			return ""
		}
		return prefix + strconv.FormatInt(int64(v), 10)
	}
	var site []string
	for _, s := range []string{id("g", f[swfGroup]), id("q", f[swfQueue]), id("p", f[swfPartition])} {
		if s != "" {
			site = append(site, s)
		}
	}
	procs := int64(f[swfReqProcs])
	if procs <= 0 {
		procs = int64(size)
	}
	res := "procs=" + strconv.FormatInt(procs, 10)
	if f[swfReqTime] > 0 {
		res += ",time=" + strconv.FormatInt(int64(math.Round(f[swfReqTime])), 10)
	}
	return workloads.Features{
		User:      id("u", f[swfUser]),
		Name:      id("app", f[swfApp]),
		App:       strings.Join(site, ","),
		Resources: res,
	}
}

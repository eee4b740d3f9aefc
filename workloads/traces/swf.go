package traces

import (
	"bytes"
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
// separated numbers, −1 meaning unknown. Kept: status 1 (completed) or −1
// (unknown), run time > 0 and processors > 0 (allocated, else requested);
// status 0 is counted as "failed", 5 as "cancelled", 2–4 as "partial
// (status N)". The job's width is its allocated processors (field 5), or
// the requested ones (field 8) when unknown; its requested time is
// field 9. Blank lines are ignored; any other malformed line is an error
// naming file and line.
func ParseSWF(r io.Reader, name string, opts ParseOptions) (*Trace, error) {
	t := &Trace{Format: FormatSWF, Source: name}
	l := newLines(r, name, &opts, t)
	var (
		start   int64 // UnixStartTime
		tzOff   = 0   // TimeZone, seconds east of UTC
		loc     *time.Location
		started bool // a job line was read: the header is over
	)
	var f [swfFields]float64
	for {
		b, ok := l.next()
		if !ok {
			break
		}
		s := bytes.TrimSpace(b)
		if len(s) == 0 {
			continue
		}
		if s[0] == ';' {
			if started {
				continue // comments between jobs carry no header fields
			}
			key, val, ok := strings.Cut(string(s[1:]), ":")
			if !ok {
				continue
			}
			key, val = strings.TrimSpace(key), strings.TrimSpace(val)
			var err error
			switch key {
			case "MaxProcs":
				t.MaxProcs, err = strconv.Atoi(val)
				if err == nil && t.MaxProcs < 0 {
					err = fmt.Errorf("must be ≥ 0")
				}
			case "UnixStartTime":
				start, err = strconv.ParseInt(val, 10, 64)
				if err == nil && (start < -1<<40 || start > 1<<40) {
					err = fmt.Errorf("out of range")
				}
			case "TimeZone":
				tzOff, err = strconv.Atoi(val)
				if err == nil && (tzOff < -14*3600 || tzOff > 14*3600) {
					err = fmt.Errorf("out of range")
				}
			case "TimeZoneString":
				// An unknown zone name falls back to TimeZone or UTC: it only
				// affects the hour and day features.
				if z, zerr := time.LoadLocation(val); zerr == nil && val != "" && val != "Local" {
					loc = z
				}
			}
			if err != nil {
				t.MaxProcs = max(t.MaxProcs, 0)
				if e := l.bad(fmt.Errorf("header %s: bad value %q: %v", key, val, err)); e != nil {
					return nil, e
				}
			}
			continue
		}
		started = true
		if err := parseSWFLine(s, &f); err != nil {
			if e := l.bad(err); e != nil {
				return nil, e
			}
			continue
		}
		switch st := int(f[swfStatus]); st {
		case 1, -1:
		case 0:
			t.filter("failed")
			continue
		case 5:
			t.filter("cancelled")
			continue
		default:
			t.filter(fmt.Sprintf("partial (status %d)", st))
			continue
		}
		size := int(f[swfProcs])
		if size <= 0 {
			size = int(f[swfReqProcs])
		}
		if size <= 0 {
			t.filter("zero size")
			continue
		}
		if f[swfRun] <= 0 {
			t.filter("zero runtime")
			continue
		}
		if f[swfSubmit] < 0 {
			t.filter("unknown submit time")
			continue
		}
		rec := Record{Submit: f[swfSubmit], Runtime: f[swfRun], Size: size}
		if f[swfReqTime] > 0 {
			rec.Requested = f[swfReqTime]
		}
		rec.Features = swfFeatures(&f, size)
		wall := time.Unix(start+int64(f[swfSubmit]), 0)
		if loc != nil {
			wall = wall.In(loc)
		} else {
			wall = wall.In(time.FixedZone("", tzOff))
		}
		rec.Features.SubmitHour, rec.Features.SubmitDay = wall.Hour(), int(wall.Weekday())
		t.Records = append(t.Records, rec)
	}
	if err := l.err(); err != nil {
		return nil, err
	}
	return t, nil
}

// swfMaxValue bounds every SWF number: times of centuries, processor
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
		if err != nil || !finite(v) {
			return fmt.Errorf("field %d: %q is not a number", i+1, b)
		}
		if v < -1 || v > swfMaxValue {
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

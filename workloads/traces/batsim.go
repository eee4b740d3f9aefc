package traces

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/plannerhq/planner/workloads"
)

// maxJSONTraceBytes bounds a JSON trace (a Batsim workload, sacct --json)
// read whole.
const maxJSONTraceBytes = 1 << 30

// batsimWorkload is Batsim's workload JSON: the platform's resources and
// the jobs with the profiles they name.
type batsimWorkload struct {
	NbRes    *int                       `json:"nb_res"`
	Jobs     []json.RawMessage          `json:"jobs"`
	Profiles map[string]json.RawMessage `json:"profiles"`
}

// batsimJob is the fields of a Batsim job the import reads; the others go
// to Record.Meta.
type batsimJob struct {
	ID       json.RawMessage `json:"id"`
	Subtime  *float64        `json:"subtime"`
	Res      *int            `json:"res"`
	Walltime *float64        `json:"walltime"`
	Profile  string          `json:"profile"`
	User     json.RawMessage `json:"user"`
}

// batsimProfile is the part of a Batsim profile the import reads.
type batsimProfile struct {
	Type  string   `json:"type"`
	Delay *float64 `json:"delay"`
}

// ParseBatsim reads a Batsim workload (JSON): "nb_res", the platform's
// resources (MaxProcs), and "jobs", each with "id" (a string or a
// number, kept as SourceID), "subtime" (s), "res" (resources, the
// width), "walltime" (s, the requested time; −1 or absent: none) and
// "profile", the name of an entry of "profiles". A job's runtime is its
// profile's "delay" (a "delay" profile, the one type whose runtime the
// workload states); jobs of other profile types are filtered out by type.
// A job's other fields are kept in Record.Meta, and a "user" field (a
// string or a number) is the user feature. Submit hour and day are of
// subtime read as seconds after 1970-01-01 00:00 UTC (a Batsim workload
// has no calendar).
func ParseBatsim(r io.Reader, name string, _ ParseOptions) (*Trace, error) {
	t := &Trace{Format: FormatBatsim, Source: name}
	b, err := io.ReadAll(io.LimitReader(r, maxJSONTraceBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxJSONTraceBytes {
		return nil, fmt.Errorf("%s: more than %d bytes", name, maxJSONTraceBytes)
	}
	t.Lines = bytes.Count(b, []byte("\n")) + 1
	var w batsimWorkload
	if err := json.Unmarshal(b, &w); err != nil {
		return nil, fmt.Errorf("%s: not a Batsim workload: %w", name, err)
	}
	switch {
	case w.Jobs == nil:
		return nil, fmt.Errorf("%s: not a Batsim workload: no \"jobs\" array", name)
	case w.NbRes != nil && *w.NbRes < 0:
		return nil, fmt.Errorf("%s: nb_res must be ≥ 0, got %d", name, *w.NbRes)
	case w.NbRes != nil:
		t.MaxProcs = *w.NbRes
	}
	delays := make(map[string]float64, len(w.Profiles))
	types := make(map[string]string, len(w.Profiles))
	for pname, raw := range w.Profiles {
		var p batsimProfile
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, fmt.Errorf("%s: profile %q: %w", name, pname, err)
		}
		types[pname] = p.Type
		if p.Type == "delay" {
			if p.Delay == nil || !workloads.Finite(*p.Delay) {
				return nil, fmt.Errorf("%s: delay profile %q has no finite \"delay\"", name, pname)
			}
			delays[pname] = *p.Delay
		}
	}
	for i, raw := range w.Jobs {
		rec, reason, err := batsimRecord(raw, delays, types)
		if err != nil {
			return nil, fmt.Errorf("%s: job %d: %w", name, i+1, err)
		}
		if reason != "" {
			t.filter(reason)
			continue
		}
		t.Records = append(t.Records, rec)
	}
	return t, nil
}

// batsimRecord is one Batsim job as a record, or why it is filtered.
func batsimRecord(raw json.RawMessage, delays map[string]float64, types map[string]string) (Record, string, error) {
	var j batsimJob
	if err := json.Unmarshal(raw, &j); err != nil {
		return Record{}, "", err
	}
	id, err := jsonScalar(j.ID)
	switch {
	case err != nil || id == "":
		return Record{}, "", errors.New(`"id" must be a string or a number`)
	case j.Subtime == nil || !workloads.Finite(*j.Subtime) || math.Abs(*j.Subtime) > swfMaxValue:
		return Record{}, "", fmt.Errorf("job %s: \"subtime\" must be a finite number of seconds", id)
	case j.Res == nil || *j.Res > swfMaxValue:
		return Record{}, "", fmt.Errorf("job %s: \"res\" must be a count of resources", id)
	case j.Walltime != nil && !workloads.Finite(*j.Walltime):
		return Record{}, "", fmt.Errorf("job %s: \"walltime\" must be finite", id)
	}
	typ, known := types[j.Profile]
	delay, isDelay := delays[j.Profile]
	switch {
	case !known:
		return Record{}, "", fmt.Errorf("job %s: profile %q is not in \"profiles\"", id, j.Profile)
	case !isDelay:
		return Record{}, fmt.Sprintf("profile type %q (no runtime)", typ), nil
	case *j.Res <= 0:
		return Record{}, "zero size", nil
	case delay <= 0:
		return Record{}, "zero runtime", nil
	case *j.Subtime < 0:
		return Record{}, "unknown submit time", nil
	}
	rec := Record{Submit: *j.Subtime, Runtime: delay, Size: *j.Res, SourceID: id, Wait: -1}
	res := "res=" + strconv.Itoa(*j.Res)
	if j.Walltime != nil && *j.Walltime > 0 {
		rec.Requested = *j.Walltime
		res += ",walltime=" + strconv.FormatInt(int64(math.Round(*j.Walltime)), 10)
	}
	user, _ := jsonScalar(j.User)
	wall := time.Unix(int64(*j.Subtime), 0).UTC()
	rec.Features = workloads.Features{User: user, Name: j.Profile, Resources: res,
		SubmitHour: wall.Hour(), SubmitDay: int(wall.Weekday())}
	if rec.Meta, err = extraFields(raw, "id", "subtime", "res", "walltime", "profile", "user"); err != nil {
		return Record{}, "", err
	}
	return rec, "", nil
}

// jsonScalar is a JSON string's text or a JSON number's digits; "" for
// none (absent or null).
func jsonScalar(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	if raw[0] == '"' {
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return "", err
	}
	return n.String(), nil
}

// extraFields is the object raw without the keys known, as compact JSON
// with its keys sorted; nil when nothing is left.
func extraFields(raw json.RawMessage, known ...string) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	for k := range m {
		if slices.Contains(known, k) {
			delete(m, k)
		}
	}
	if len(m) == 0 {
		return nil, nil
	}
	return json.Marshal(m) // map keys sorted: the same input gives the same bytes
}

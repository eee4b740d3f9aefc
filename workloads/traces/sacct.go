package traces

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/plannerhq/planner/workloads"
)

// SacctCommand is the sacct command whose output ParseSacct reads (add
// --starttime/--endtime for the span, --allusers for every user):
const SacctCommand = "sacct --parsable2 --allocations --format=JobIDRaw,User,Partition,Submit,Start,End,Elapsed,Timelimit,NNodes,AllocCPUS,State,JobName,Account"

// SacctColumns are the columns of SacctCommand, in its order.
var SacctColumns = []string{"JobIDRaw", "User", "Partition", "Submit", "Start", "End", "Elapsed",
	"Timelimit", "NNodes", "AllocCPUS", "State", "JobName", "Account"}

// sacctRequired are the columns a sacct header must name.
var sacctRequired = []string{"JobIDRaw", "Submit", "Start", "NNodes", "State"}

// sacctTime is the layout of sacct's timestamps (the site's local time).
const sacctTime = "2006-01-02T15:04:05"

// ParseSacct reads Slurm's accounting history: the "|"-separated output
// of SacctCommand, with its header line (the columns in any order; at
// least JobIDRaw, Submit, Start, NNodes and State, and End or Elapsed) or
// without (--noheader: SacctColumns' order); or, when the input starts
// with "{", the JSON of `sacct --json` (Slurm 20.11 and later; numbers
// plain or as {"set","infinite","number"} objects). Kept: allocations
// (not steps, "123.batch": give --allocations) in state COMPLETED with a
// start, at least one node and a runtime > 0 (Elapsed, else End −
// Start); the others are counted by state ("cancelled", "failed",
// "timeout", …), "job step", "never started", "zero size", "zero
// runtime". Timestamps are the site's wall clock, read as UTC, so the
// submit hour and day features are the site's. The record's SourceID is
// JobIDRaw, Requested the time limit (0 when UNLIMITED), Wait Start −
// Submit; the features are the user, the job name, "p=PARTITION,a=ACCOUNT"
// and "nodes=N,cpus=C,time=T".
func ParseSacct(r io.Reader, name string, opts ParseOptions) (*Trace, error) {
	br := newPeekReader(r)
	if first, _ := br.firstByte(); first == '{' {
		return parseSacctJSON(br, name)
	}
	p := sacctParser{t: &Trace{Format: FormatSacct, Source: name}}
	err := newLines(br, name, &opts, p.t).each(p.line)
	if err != nil {
		return nil, err
	}
	return p.t, nil
}

// sacctParser is the state of one read of sacct's text output.
type sacctParser struct {
	t    *Trace
	cols map[string]int // column name → index, once known
	n    int            // columns per line
}

func (p *sacctParser) line(s []byte) error {
	f := strings.Split(string(s), "|")
	if p.cols == nil {
		p.cols = map[string]int{}
		if f[0] == "JobIDRaw" || f[0] == "JobID" {
			for i, c := range f {
				p.cols[c] = i
			}
			p.n = len(f)
			for _, c := range sacctRequired {
				if _, ok := p.cols[c]; !ok {
					return fmt.Errorf("sacct header has no %s column (run %s)", c, SacctCommand)
				}
			}
			_, end := p.cols["End"]
			_, el := p.cols["Elapsed"]
			if !end && !el {
				return fmt.Errorf("sacct header has neither End nor Elapsed (run %s)", SacctCommand)
			}
			if _, ok := p.cols["JobIDRaw"]; !ok {
				p.cols["JobIDRaw"] = p.cols["JobID"]
			}
			return nil
		}
		for i, c := range SacctColumns {
			p.cols[c] = i
		}
		p.n = len(SacctColumns)
	}
	if len(f) != p.n {
		return fmt.Errorf("want %d |-separated fields, got %d", p.n, len(f))
	}
	get := func(c string) string {
		if i, ok := p.cols[c]; ok {
			return strings.TrimSpace(f[i])
		}
		return ""
	}
	j := sacctJob{id: get("JobIDRaw"), user: get("User"), partition: get("Partition"), name: get("JobName"),
		account: get("Account"), state: get("State"), elapsed: -1, limit: -1}
	var err error
	if j.submit, err = parseSacctTime(get("Submit")); err != nil {
		return fmt.Errorf("Submit: %w", err)
	}
	if j.start, err = parseSacctTime(get("Start")); err != nil {
		return fmt.Errorf("Start: %w", err)
	}
	if j.end, err = parseSacctTime(get("End")); err != nil {
		return fmt.Errorf("End: %w", err)
	}
	if v := get("Elapsed"); v != "" {
		if j.elapsed, err = ParseSlurmDuration(v); err != nil {
			return fmt.Errorf("Elapsed: %w", err)
		}
	}
	if v := get("Timelimit"); v != "" {
		if j.limit, err = ParseSlurmDuration(v); err != nil {
			return fmt.Errorf("Timelimit: %w", err)
		}
	}
	if j.nodes, err = sacctInt(get("NNodes")); err != nil {
		return fmt.Errorf("NNodes: %w", err)
	}
	if v := get("AllocCPUS"); v != "" {
		if j.cpus, err = sacctInt(v); err != nil {
			return fmt.Errorf("AllocCPUS: %w", err)
		}
	}
	p.t.add(j)
	return nil
}

// sacctJob is one allocation as sacct reports it: times in Unix seconds
// (math.NaN when unknown), elapsed and limit in seconds (−1 unknown, 0 an
// unlimited limit).
type sacctJob struct {
	id, user, partition, name, account, state string
	submit, start, end                        float64
	elapsed, limit                            float64
	nodes, cpus                               int
}

// add keeps j as a record of t or counts why not (ParseSacct).
func (t *Trace) add(j sacctJob) {
	state, _, _ := strings.Cut(j.state, " ") // "CANCELLED by 1000"
	run := j.elapsed
	if run < 0 && !math.IsNaN(j.end) && !math.IsNaN(j.start) {
		run = j.end - j.start
	}
	switch {
	case strings.Contains(j.id, "."):
		t.filter("job step")
		return
	case state != "COMPLETED":
		t.filter(strings.ToLower(strings.TrimSuffix(state, "+")))
		return
	case math.IsNaN(j.start):
		t.filter("never started")
		return
	case math.IsNaN(j.submit):
		t.filter("unknown submit time")
		return
	case j.nodes <= 0:
		t.filter("zero size")
		return
	case run <= 0:
		t.filter("zero runtime")
		return
	}
	rec := Record{Submit: j.submit, Runtime: run, Size: j.nodes, SourceID: j.id, Wait: max(j.start-j.submit, 0)}
	if j.limit > 0 {
		rec.Requested = j.limit
	}
	res := "nodes=" + strconv.Itoa(j.nodes)
	if j.cpus > 0 {
		res += ",cpus=" + strconv.Itoa(j.cpus)
	}
	if j.limit > 0 {
		res += ",time=" + strconv.FormatInt(int64(math.Round(j.limit)), 10)
	}
	var site []string
	if j.partition != "" {
		site = append(site, "p="+j.partition)
	}
	if j.account != "" {
		site = append(site, "a="+j.account)
	}
	wall := time.Unix(int64(j.submit), 0).UTC()
	rec.Features = workloads.Features{User: j.user, Name: j.name, App: strings.Join(site, ","), Resources: res,
		SubmitHour: wall.Hour(), SubmitDay: int(wall.Weekday())}
	t.Records = append(t.Records, rec)
}

// parseSacctTime reads a sacct timestamp as Unix seconds; "Unknown",
// "None" and "" are NaN.
func parseSacctTime(v string) (float64, error) {
	switch v {
	case "", "Unknown", "None", "N/A":
		return math.NaN(), nil
	}
	tm, err := time.ParseInLocation(sacctTime, v, time.UTC)
	if err != nil {
		return 0, fmt.Errorf("%q is not a time like 2024-03-01T12:00:00", v)
	}
	return float64(tm.Unix()), nil
}

// sacctInt reads a count ≥ 0 ("" is 0).
func sacctInt(v string) (int, error) {
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > swfMaxValue {
		return 0, fmt.Errorf("%q is not a count", v)
	}
	return n, nil
}

// ParseSlurmDuration reads a Slurm time in seconds: "MM", "MM:SS",
// "HH:MM:SS", "D-HH", "D-HH:MM" or "D-HH:MM:SS" (fractions of a second
// after a "."); "UNLIMITED", "INFINITE" and "Partition_Limit" are 0 (no
// limit of the job's own).
func ParseSlurmDuration(v string) (float64, error) {
	switch v {
	case "UNLIMITED", "INFINITE", "Partition_Limit", "NONE", "INVALID":
		return 0, nil
	}
	bad := fmt.Errorf("%q is not a Slurm time ([D-]HH:MM:SS)", v)
	days := 0.0
	rest := v
	if d, r, ok := strings.Cut(v, "-"); ok {
		n, err := strconv.ParseUint(d, 10, 32)
		if err != nil {
			return 0, bad
		}
		days, rest = float64(n), r
	}
	parts := strings.Split(rest, ":")
	if len(parts) > 3 || rest == "" {
		return 0, bad
	}
	var nums []float64
	for i, s := range parts {
		if i < len(parts)-1 || !strings.Contains(s, ".") {
			n, err := strconv.ParseUint(s, 10, 32)
			if err != nil {
				return 0, bad
			}
			nums = append(nums, float64(n))
			continue
		}
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || x < 0 || !workloads.Finite(x) {
			return 0, bad
		}
		nums = append(nums, x)
	}
	var secs float64
	switch {
	case days > 0 || strings.Contains(v, "-"): // D-HH[:MM[:SS]]
		secs = days * 86400
		for i, n := range nums {
			secs += n * []float64{3600, 60, 1}[i]
		}
	case len(nums) == 1: // MM
		secs = nums[0] * 60
	case len(nums) == 2: // MM:SS
		secs = nums[0]*60 + nums[1]
	default: // HH:MM:SS
		secs = nums[0]*3600 + nums[1]*60 + nums[2]
	}
	return secs, nil
}

// sacctJSON is the part of `sacct --json` the import reads.
type sacctJSON struct {
	Jobs []struct {
		JobID     flexNum `json:"job_id"`
		User      string  `json:"user"`
		Partition string  `json:"partition"`
		Name      string  `json:"name"`
		Account   string  `json:"account"`
		Time      struct {
			Elapsed    flexNum `json:"elapsed"`
			Submission flexNum `json:"submission"`
			Start      flexNum `json:"start"`
			End        flexNum `json:"end"`
			Limit      flexNum `json:"limit"` // minutes
		} `json:"time"`
		State struct {
			Current stringOrList `json:"current"`
		} `json:"state"`
		Nodes flexNum `json:"allocation_nodes"`
		TRES  struct {
			Allocated []struct {
				Type  string  `json:"type"`
				Count flexNum `json:"count"`
			} `json:"allocated"`
		} `json:"tres"`
	} `json:"jobs"`
}

// parseSacctJSON reads `sacct --json` (see ParseSacct).
func parseSacctJSON(r io.Reader, name string) (*Trace, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxJSONTraceBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxJSONTraceBytes {
		return nil, fmt.Errorf("%s: more than %d bytes", name, maxJSONTraceBytes)
	}
	var in sacctJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return nil, fmt.Errorf("%s: not sacct --json output: %w", name, err)
	}
	t := &Trace{Format: FormatSacct, Source: name, Lines: bytes.Count(b, []byte("\n")) + 1}
	for _, j := range in.Jobs {
		sj := sacctJob{id: j.JobID.text(), user: j.User, partition: j.Partition, name: j.Name, account: j.Account,
			state: strings.Join(j.State.Current, ","), submit: j.Time.Submission.time(), start: j.Time.Start.time(),
			end: j.Time.End.time(), elapsed: -1, limit: -1, nodes: int(j.Nodes.v)}
		if j.Time.Elapsed.set {
			sj.elapsed = j.Time.Elapsed.v
		}
		switch {
		case j.Time.Limit.infinite:
			sj.limit = 0
		case j.Time.Limit.set:
			sj.limit = 60 * j.Time.Limit.v
		}
		for _, tr := range j.TRES.Allocated {
			if tr.Type == "cpu" {
				sj.cpus = int(tr.Count.v)
			}
			if tr.Type == "node" && sj.nodes == 0 {
				sj.nodes = int(tr.Count.v)
			}
		}
		if len(j.State.Current) > 1 {
			sj.state = j.State.Current[0]
		}
		t.add(sj)
	}
	return t, nil
}

// flexNum is a Slurm JSON number: plain, or {"set","infinite","number"}
// (Slurm 23.02 and later).
type flexNum struct {
	v             float64
	set, infinite bool
}

func (n *flexNum) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return nil
	}
	if len(b) > 0 && b[0] == '{' {
		var o struct {
			Set      bool    `json:"set"`
			Infinite bool    `json:"infinite"`
			Number   float64 `json:"number"`
		}
		if err := json.Unmarshal(b, &o); err != nil {
			return err
		}
		*n = flexNum{v: o.Number, set: o.Set, infinite: o.Infinite}
		return nil
	}
	if err := json.Unmarshal(b, &n.v); err != nil {
		return errors.New("want a number or {set, infinite, number}")
	}
	if !workloads.Finite(n.v) || math.Abs(n.v) > swfMaxValue {
		return errors.New("number out of range")
	}
	n.set = true
	return nil
}

// time is n as Unix seconds, NaN when not set or 0 (Slurm's "unknown").
func (n flexNum) time() float64 {
	if !n.set || n.infinite || n.v <= 0 {
		return math.NaN()
	}
	return n.v
}

// text is n's integer as a string ("" when not set).
func (n flexNum) text() string {
	if !n.set {
		return ""
	}
	return strconv.FormatFloat(n.v, 'f', -1, 64)
}

// stringOrList is a JSON string or array of strings (sacct's job state
// is a string before Slurm 23.02, a list after).
type stringOrList []string

func (s *stringOrList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var v string
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		*s = []string{v}
		return nil
	}
	var v []string
	if err := json.Unmarshal(b, &v); err != nil {
		return errors.New("want a string or a list of strings")
	}
	*s = v
	return nil
}

// peekReader lets a parser look at the first non-space byte of its input
// before reading it all.
type peekReader struct {
	head []byte
	r    io.Reader
}

func newPeekReader(r io.Reader) *peekReader { return &peekReader{r: r} }

// firstByte is the first byte that is not white space (or a UTF-8 byte
// order mark), reading ahead as needed.
func (p *peekReader) firstByte() (byte, error) {
	buf := make([]byte, 512)
	for {
		s := bytes.TrimLeft(bytes.TrimPrefix(p.head, utf8BOM), " \t\r\n")
		if len(s) > 0 {
			return s[0], nil
		}
		n, err := p.r.Read(buf)
		p.head = append(p.head, buf[:n]...)
		if err != nil {
			return 0, err
		}
	}
}

func (p *peekReader) Read(b []byte) (int, error) {
	if len(p.head) > 0 {
		n := copy(b, p.head)
		p.head = p.head[n:]
		return n, nil
	}
	return p.r.Read(b)
}

package datalake

import (
	"fmt"
	"strconv"
)

// Times are seconds from the start of the window to schedule (week 3):
// the window is [0, Week), the history weeks 1–2 are [−2 Week, 0), and
// the lead-in before them starts at WorldStart.
const (
	Hour = 3600.0
	Day  = 24 * Hour
	Week = 7 * Day
	// LeadIn is how long the lake runs before week 1, so that the jobs of
	// week 1 read outputs the log holds (the paper analyses days 31–60 of
	// a log that also holds days 1–30).
	LeadIn = 3 * Day
	// HistoryStart is the start of week 1.
	HistoryStart = -2 * Week
	// WorldStart is when the lake starts: data older than it is
	// bootstrap data, present and written by no job.
	WorldStart = HistoryStart - LeadIn
	// WindowEnd is the end of week 3; no job is submitted after it.
	WindowEnd = Week
	// ValueWindow is how long after a job completes its outputs' downloads
	// count as its job-local value (§6.3: one week).
	ValueWindow = Week
	// PollWindow is the longest a polling job takes to notice its inputs
	// (Table 1: submitted within 15 minutes of its inputs).
	PollWindow = 15 * 60.0
)

// Kind is a template's kind: how its jobs are submitted (Table 1).
type Kind int

const (
	// Hourly templates are periodic: a job on the clock every hour.
	Hourly Kind = iota
	// Daily templates are periodic: a job on the clock every day.
	Daily
	// Aperiodic templates are recurring but submitted at random times
	// (manual or event-driven triggers).
	Aperiodic
	// Polling templates are submitted when their inputs appear: instance n
	// waits for instance n of every upstream template.
	Polling
	// AdHoc templates are one-off scripts, submitted once or twice.
	AdHoc
)

var kindNames = [...]string{"hourly", "daily", "aperiodic", "polling", "adhoc"}

func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// ParseKind is the inverse of Kind.String.
func ParseKind(s string) (Kind, error) {
	for i, n := range kindNames {
		if n == s {
			return Kind(i), nil
		}
	}
	return 0, fmt.Errorf("unknown template kind %q (want hourly, daily, aperiodic, polling or adhoc)", s)
}

// MarshalText writes the kind's name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Recurring reports whether jobs of the kind recur (every kind but AdHoc).
func (k Kind) Recurring() bool { return k != AdHoc }

// Periodic reports whether jobs of the kind are submitted on the clock.
func (k Kind) Periodic() bool { return k == Hourly || k == Daily }

// DepKind is the kind of a dependency (Table 1, §6.3).
type DepKind int

const (
	// Hard: the job needs the input at submission and fails without it.
	Hard DepKind = iota
	// PollingDep: the job is submitted only once the input exists.
	PollingDep
	// Soft: the job reads whatever the upstream wrote within a lookback
	// and runs without it.
	Soft
)

var depKindNames = [...]string{"hard", "polling", "soft"}

func (k DepKind) String() string {
	if k >= 0 && int(k) < len(depKindNames) {
		return depKindNames[k]
	}
	return "DepKind(" + strconv.Itoa(int(k)) + ")"
}

// ParseDepKind is the inverse of DepKind.String.
func ParseDepKind(s string) (DepKind, error) {
	for i, n := range depKindNames {
		if n == s {
			return DepKind(i), nil
		}
	}
	return 0, fmt.Errorf("unknown dependency kind %q (want hard, polling or soft)", s)
}

// MarshalText writes the dependency kind's name.
func (k DepKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Status is how a job ended.
type Status int

const (
	// Completed jobs ran and wrote their outputs.
	Completed Status = iota
	// FailedMissingInput jobs found a hard input missing at submission:
	// they never ran and wrote nothing.
	FailedMissingInput
)

var statusNames = [...]string{"completed", "failed-missing-input"}

func (s Status) String() string {
	if s >= 0 && int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "Status(" + strconv.Itoa(int(s)) + ")"
}

// ParseStatus is the inverse of Status.String.
func ParseStatus(s string) (Status, error) {
	for i, n := range statusNames {
		if n == s {
			return Status(i), nil
		}
	}
	return 0, fmt.Errorf("unknown job status %q (want completed or failed-missing-input)", s)
}

// MarshalText writes the status's name.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a status's name.
func (s *Status) UnmarshalText(b []byte) error {
	v, err := ParseStatus(string(b))
	if err == nil {
		*s = v
	}
	return err
}

// Org is an organisation: it owns a hierarchical queue.
type Org struct {
	Name  string `json:"name"`
	Users []int  `json:"users"`
	// Base is the organisation's habitual priority level (the priority
	// model's first term; see assignPriorities).
	Base int `json:"base"`
}

// User submits jobs for one organisation.
type User struct {
	Name string `json:"name"`
	Org  int    `json:"org"`
	// Level is the priority the user gives a job by default.
	Level int `json:"level"`
}

// Template is a program run as jobs: a recurring template many times, an
// ad-hoc one once or twice.
type Template struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
	Org  int    `json:"org"`
	User int    `json:"user"`
	Kind Kind   `json:"kind"`
	// Workflow is the workflow the template belongs to, −1 for aperiodic
	// and ad-hoc templates.
	Workflow int `json:"workflow"`
	// Period is the cadence in seconds of hourly, daily and polling
	// templates (a polling template's is its upstreams'); 0 otherwise.
	Period float64 `json:"period_s,omitempty"`
	// Offset is when within its period a periodic job is submitted:
	// instance n is submitted at n·Period + Offset.
	Offset float64 `json:"offset_s,omitempty"`
	// Rate is an aperiodic template's mean submissions per second.
	Rate float64 `json:"rate_per_s,omitempty"`
	// Bound is when instance n of a template with a period completes at
	// the latest, but for a tail of about 0.1 %: n·Period + Bound; for an
	// aperiodic template, its jobs' submit-to-end bound. Users schedule
	// hard dependents by it (they expect the inputs done by then).
	Bound float64 `json:"bound_s"`
	// Runtime is the median runtime (s) and Sigma the lognormal spread of
	// its jobs' runtimes.
	Runtime float64 `json:"runtime_s"`
	Sigma   float64 `json:"sigma"`
	// Width is the gang width: the job's minimum parallelism (tokens),
	// all granted together.
	Width    int `json:"width"`
	Priority int `json:"priority"`
	// Deps are the template's inputs from other templates (and itself).
	Deps []Dep `json:"deps,omitempty"`
	// Snapshot templates also overwrite one "latest" file every run.
	Snapshot bool `json:"snapshot,omitempty"`
	// Popularity is the template's term of the latent value score.
	Popularity float64 `json:"popularity"`
	// DownloadDelay is the mean delay (s) of its outputs' downloads after
	// completion.
	DownloadDelay float64 `json:"download_delay_s"`
	// Source is the external stream a source template reads, −1 for none.
	Source int `json:"source"`
}

// Dep is a template's dependency on an upstream template.
type Dep struct {
	Upstream int     `json:"upstream"`
	Kind     DepKind `json:"kind"`
	// Lookback is a soft dependency's window (s): the job reads every
	// output of the upstream written in the Lookback before it starts.
	Lookback float64 `json:"lookback_s,omitempty"`
}

// Job is one submission of a template and what became of it in the lake
// (the real world the log records: the history simulation, see sim.go).
type Job struct {
	ID       int     `json:"id"`
	Template int     `json:"template"`
	Instance int     `json:"instance"`
	Priority int     `json:"priority"`
	Width    int     `json:"width"`
	Runtime  float64 `json:"runtime_s"`
	Submit   float64 `json:"submit_s"`
	Start    float64 `json:"start_s"`
	End      float64 `json:"end_s"`
	Status   Status  `json:"status"`
	// Inputs are what the job read (or, for a job that failed, the hard
	// input it missed), each naming its writer.
	Inputs []Input `json:"inputs,omitempty"`
	// Outputs are the files the job writes, each with its downloads.
	Outputs []Output `json:"outputs"`
	// PollDelay is how long after its last input appeared a polling job
	// was submitted.
	PollDelay float64 `json:"poll_delay_s,omitempty"`
	// ExternalReads are the upload files a source job reads.
	ExternalReads []string `json:"external_reads,omitempty"`
}

// Input is one file a job reads.
type Input struct {
	File string  `json:"file"`
	Kind DepKind `json:"kind"`
	// Writer is the id of the job whose write the read sees, −1 for
	// bootstrap data (older than the lake).
	Writer int `json:"writer"`
	// Written is when the writer wrote it in the real world.
	Written float64 `json:"written_s"`
	// Missing marks the hard input a failed job did not find: Writer is
	// then the expected writer (−1 when it was never submitted) and
	// Written meaningless.
	Missing bool `json:"missing,omitempty"`
}

// Output is one file a job writes and the downloads it attains.
type Output struct {
	File string `json:"file"`
	// Downloads are the times users download this job's version of the
	// file within ValueWindow after the job completes (for a job that
	// failed, after it would have completed: submit + runtime).
	Downloads []float64 `json:"downloads_s,omitempty"`
}

// LocalValue is the job-local value: the downloads of its outputs.
func (j *Job) LocalValue() int {
	n := 0
	for _, o := range j.Outputs {
		n += len(o.Downloads)
	}
	return n
}

// ComputeHours is the job's resource-time: width × runtime in token-hours
// (zero for a job that never ran).
func (j *Job) ComputeHours() float64 {
	if j.Status != Completed {
		return 0
	}
	return float64(j.Width) * j.Runtime / Hour
}

// File is one file of the lake with its writes in time order.
type File struct {
	Name   string  `json:"name"`
	Writes []Write `json:"writes"`
}

// Write is one write of a file: by job Job when it ended (−1 for an
// upload) at Time.
type Write struct {
	Job  int     `json:"job"`
	Time float64 `json:"time_s"`
}

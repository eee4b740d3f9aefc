package slurm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"
)

// Job is a Slurm job as squeue reports it (squeue --json).
type Job struct {
	ID int64
	// ArrayJobID and HetJobID are non-zero for an element of a job array
	// or a heterogeneous job (the bridge leaves both alone).
	ArrayJobID, HetJobID int64
	User, Name           string
	Partition, Account   string
	// State is the job's base state (PENDING, RUNNING, COMPLETED, …) and
	// Reason why it is in it (JobHeldUser for a held job).
	State, Reason string
	// Nodes is the job's node count: requested while it is pending,
	// allocated once it started.
	Nodes int
	// TimeLimit is 0 when the job has none.
	TimeLimit time.Duration
	Comment   string
	// Deadline is the job's --deadline; zero when it has none.
	Deadline time.Time
	// Submit, Start and End are zero when Slurm gives none. End is the
	// expected end while the job runs, its end once it ended.
	Submit, Start, End time.Time
	// NodeList is the nodes it runs (or ran) on; Required the nodes it
	// must run on (scontrol update NodeList).
	NodeList, Required []string
	// Restarts counts its requeues.
	Restarts int
	// Requeue: Slurm may requeue it.
	Requeue bool
}

// Held reports whether the job waits for a release (scontrol release).
func (j *Job) Held() bool {
	return j.State == StatePending && (j.Reason == "JobHeldUser" || j.Reason == "JobHeldAdmin")
}

// Job states (squeue's job_state) the bridge tells apart.
const (
	StatePending     = "PENDING"
	StateRunning     = "RUNNING"
	StateSuspended   = "SUSPENDED"
	StateCompleting  = "COMPLETING"
	StateConfiguring = "CONFIGURING"
	StateCompleted   = "COMPLETED"
	StateCancelled   = "CANCELLED"
	StateFailed      = "FAILED"
	StateTimeout     = "TIMEOUT"
	StateNodeFail    = "NODE_FAIL"
	StatePreempted   = "PREEMPTED"
	StateBootFail    = "BOOT_FAIL"
	StateDeadline    = "DEADLINE"
	StateOutOfMemory = "OUT_OF_MEMORY"
)

// Ended reports whether the job has ended (a terminal state).
func (j *Job) Ended() bool { return endedState(j.State) }

func endedState(s string) bool {
	switch s {
	case StatePending, StateRunning, StateSuspended, StateCompleting, StateConfiguring, "REQUEUED", "RESIZING", "SIGNALING", "STAGE_OUT", "REQUEUE_HOLD", "REQUEUE_FED", "RESV_DEL_HOLD", "":
		return false
	}
	return true
}

// Active reports whether the job holds nodes (running, suspended, being
// set up or cleaned up).
func (j *Job) Active() bool {
	switch j.State {
	case StateRunning, StateSuspended, StateCompleting, StateConfiguring:
		return true
	}
	return false
}

// squeueJob is the part of a job of squeue --json the bridge reads, in
// the form of Slurm 22.05 (data version v0.0.38) and later: a later
// version writes numbers as {"set", "infinite", "number"} objects and the
// state as a list, and both forms are read.
type squeueJob struct {
	JobID         number `json:"job_id"`
	ArrayJobID    number `json:"array_job_id"`
	HetJobID      number `json:"het_job_id"`
	UserName      string `json:"user_name"`
	Name          string `json:"name"`
	Partition     string `json:"partition"`
	Account       string `json:"account"`
	JobState      states `json:"job_state"`
	StateReason   string `json:"state_reason"`
	NodeCount     number `json:"node_count"`
	TimeLimit     number `json:"time_limit"`
	Comment       string `json:"comment"`
	Deadline      number `json:"deadline"`
	SubmitTime    number `json:"submit_time"`
	StartTime     number `json:"start_time"`
	EndTime       number `json:"end_time"`
	Nodes         string `json:"nodes"`
	RequiredNodes string `json:"required_nodes"`
	RestartCnt    number `json:"restart_cnt"`
	Requeue       *bool  `json:"requeue"`
}

// ParseJobs reads the output of squeue --json.
func ParseJobs(data []byte) ([]Job, error) {
	var doc struct {
		Jobs   []squeueJob `json:"jobs"`
		Errors []struct {
			Error       string `json:"error"`
			Description string `json:"description"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("squeue --json: %w", err)
	}
	if len(doc.Errors) > 0 {
		e := doc.Errors[0]
		return nil, fmt.Errorf("squeue --json: %s %s", e.Error, e.Description)
	}
	jobs := make([]Job, 0, len(doc.Jobs))
	for i, s := range doc.Jobs {
		id, ok := s.JobID.int()
		if !ok || id <= 0 {
			return nil, fmt.Errorf("squeue --json: job %d: no job_id", i)
		}
		j := Job{ID: id, User: s.UserName, Name: s.Name, Partition: s.Partition, Account: s.Account,
			State: s.JobState.base(), Reason: s.StateReason, Comment: s.Comment, Requeue: s.Requeue == nil || *s.Requeue}
		j.ArrayJobID, _ = s.ArrayJobID.int()
		j.HetJobID, _ = s.HetJobID.int()
		if n, ok := s.NodeCount.int(); ok {
			j.Nodes = int(n)
		}
		if m, ok := s.TimeLimit.int(); ok && m > 0 {
			j.TimeLimit = time.Duration(m) * time.Minute
		}
		j.Deadline = s.Deadline.time()
		j.Submit, j.Start, j.End = s.SubmitTime.time(), s.StartTime.time(), s.EndTime.time()
		if r, ok := s.RestartCnt.int(); ok {
			j.Restarts = int(r)
		}
		var err error
		if j.NodeList, err = ExpandHostlist(s.Nodes); err != nil {
			return nil, fmt.Errorf("squeue --json: job %d: nodes: %w", id, err)
		}
		if j.Required, err = ExpandHostlist(s.RequiredNodes); err != nil {
			return nil, fmt.Errorf("squeue --json: job %d: required_nodes: %w", id, err)
		}
		jobs = append(jobs, j)
	}
	return jobs, nil
}

// number is a whole number of squeue --json: plain (v0.0.38), or an
// object {"set": bool, "infinite": bool, "number": N} (later versions).
// Slurm's NO_VAL and INFINITE markers, null, unset and infinite are "no
// value".
type number struct {
	v  int64
	ok bool
}

// Slurm's markers of "no value" and "unlimited" in 32-bit fields.
const (
	noVal32    = 0xfffffffe
	infinite32 = 0xffffffff
)

func (n *number) UnmarshalJSON(b []byte) error {
	*n = number{}
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	if len(b) > 0 && b[0] == '{' {
		var o struct {
			Set      *bool       `json:"set"`
			Infinite bool        `json:"infinite"`
			Number   json.Number `json:"number"`
		}
		if err := json.Unmarshal(b, &o); err != nil {
			return err
		}
		if (o.Set != nil && !*o.Set) || o.Infinite || o.Number == "" {
			return nil
		}
		b = []byte(o.Number)
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("want a number, got %s", b)
	}
	if f != math.Trunc(f) || math.Abs(f) > 1<<62 || f == noVal32 || f == infinite32 {
		return nil
	}
	*n = number{v: int64(f), ok: true}
	return nil
}

func (n number) int() (int64, bool) { return n.v, n.ok }

// time is a Unix time in seconds; zero (Slurm's "none") and no value are
// the zero time.
func (n number) time() time.Time {
	if !n.ok || n.v <= 0 {
		return time.Time{}
	}
	return time.Unix(n.v, 0)
}

// states is a job's state: a string (v0.0.38) or a list whose first item
// is the base state and the others flags (later versions).
type states []string

func (s *states) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*s = states{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return fmt.Errorf("job_state: want a string or a list of strings, got %s", b)
	}
	*s = many
	return nil
}

func (s states) base() string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

package slurm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// fakeSlurm is a recording fake of Slurm's commands for the bridge's
// tests: jobs and nodes in memory, squeue --json in Slurm 22.05's form,
// and the job control the bridge uses (scontrol update NodeList and
// StartTime, release, hold, requeuehold; sacct --completion). Time moves
// only by advance, which starts the released jobs whose nodes are free
// and ends the runs whose runtime has passed.
type fakeSlurm struct {
	mu    sync.Mutex
	now   time.Time
	jobs  []*fakeJob
	nodes []Node
	comp  []Record // the job completion log
	calls []string // every command but squeue and sinfo
	// fail makes a command whose line starts with a key fail with the
	// value.
	fail   map[string]string
	nextID int64
}

type fakeJob struct {
	Job
	runtime time.Duration
	// purged jobs are no longer listed by squeue (MinJobAge passed).
	purged bool
}

func newFakeSlurm(now time.Time, nodes ...Node) *fakeSlurm {
	return &fakeSlurm{now: now, nodes: nodes, fail: map[string]string{}, nextID: 1}
}

// nodesOf makes n idle nodes named prefix1…prefixN with features.
func nodesOf(prefix string, n int, features ...string) []Node {
	out := make([]Node, n)
	for i := range out {
		out[i] = Node{Name: prefix + strconv.Itoa(i+1), State: "idle", Features: features}
	}
	return out
}

// submit adds a job (held unless released is set) that runs runtime once
// started, and returns its id.
func (f *fakeSlurm) submit(j Job, runtime time.Duration) int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	j.ID = f.nextID
	f.nextID++
	if j.State == "" {
		j.State, j.Reason = StatePending, "JobHeldUser"
	}
	if j.Submit.IsZero() {
		j.Submit = f.now
	}
	if j.Partition == "" {
		j.Partition = "debug"
	}
	if j.User == "" {
		j.User = "ana"
	}
	f.jobs = append(f.jobs, &fakeJob{Job: j, runtime: runtime})
	return j.ID
}

func (f *fakeSlurm) job(id int64) *fakeJob {
	for _, j := range f.jobs {
		if j.ID == id {
			return j
		}
	}
	return nil
}

// busy are the nodes running jobs hold.
func (f *fakeSlurm) busy() map[string]bool {
	b := map[string]bool{}
	for _, j := range f.jobs {
		if j.Active() {
			for _, n := range j.NodeList {
				b[n] = true
			}
		}
	}
	return b
}

// advance moves the clock to t: runs end, then released jobs whose
// nodes are free start.
func (f *fakeSlurm) advance(t time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = t
	for _, j := range f.jobs {
		if j.State == StateRunning && !t.Before(j.Start.Add(j.runtime)) {
			j.State, j.End = StateCompleted, j.Start.Add(j.runtime)
			f.comp = append(f.comp, Record{Job: j.ID, State: StateCompleted, Start: j.Start, End: j.End, Nodes: j.NodeList})
		}
	}
	busy := f.busy()
	for _, j := range f.jobs {
		if j.State != StatePending || j.Held() || len(j.Required) == 0 || slices.ContainsFunc(j.Required, func(n string) bool { return busy[n] }) {
			continue
		}
		j.State, j.Reason, j.Start = StateRunning, "None", t
		j.NodeList = slices.Clone(j.Required)
		for _, n := range j.NodeList {
			busy[n] = true
		}
	}
}

// Run implements Runner.
func (f *fakeSlurm) Run(_ context.Context, name string, args ...string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	line := strings.TrimSpace(name + " " + strings.Join(args, " "))
	for prefix, msg := range f.fail {
		if strings.HasPrefix(line, prefix) {
			f.calls = append(f.calls, line+" (failed)")
			return nil, &CommandError{Command: line, Err: errors.New("exit status 1"), Stderr: msg}
		}
	}
	switch name {
	case "squeue":
		return f.squeue()
	case "sinfo":
		var b strings.Builder
		for _, n := range f.nodes {
			st := n.State
			if n.NotResponding {
				st += "*"
			}
			fmt.Fprintf(&b, "%s|%s|%s\n", n.Name, st, strings.Join(n.Features, ","))
		}
		return []byte(b.String()), nil
	}
	f.calls = append(f.calls, line)
	switch {
	case name == "scontrol" && len(args) == 3 && args[0] == "update":
		j, err := f.arg(strings.TrimPrefix(args[1], "JobId="))
		if err != nil {
			return nil, err
		}
		key, v, _ := strings.Cut(args[2], "=")
		switch key {
		case "NodeList":
			j.Required = strings.Split(v, ",")
		case "StartTime":
		default:
			return nil, fmt.Errorf("fake scontrol: update %s", key)
		}
	case name == "scontrol" && len(args) == 2:
		j, err := f.arg(args[1])
		if err != nil {
			return nil, err
		}
		switch args[0] {
		case "release":
			if j.Held() {
				j.Reason = "None"
			}
		case "hold":
			if j.State == StatePending {
				j.Reason = "JobHeldUser"
			}
		case "requeuehold":
			if !j.Active() {
				return nil, errors.New("fake scontrol: requeuehold of a job not running")
			}
			f.comp = append(f.comp, Record{Job: j.ID, State: "PENDING", Start: j.Start, End: f.now, Nodes: j.NodeList})
			j.State, j.Reason, j.NodeList, j.Start = StatePending, "JobHeldUser", nil, time.Time{}
			j.Restarts++
		default:
			return nil, fmt.Errorf("fake scontrol: %s", args[0])
		}
	case name == "sacct":
		id, _ := strconv.ParseInt(args[slices.Index(args, "--jobs")+1], 10, 64)
		var b strings.Builder
		for _, r := range f.comp {
			if r.Job == id {
				fmt.Fprintf(&b, "%d|%s|%s|%s|%s\n", r.Job, r.State, r.Start.Format("2006-01-02T15:04:05"),
					r.End.Format("2006-01-02T15:04:05"), strings.Join(r.Nodes, ","))
			}
		}
		return []byte(b.String()), nil
	case name == "scancel":
		for _, a := range args {
			if j, err := f.arg(a); err == nil && !j.Ended() {
				j.State, j.End = StateCancelled, f.now
			}
		}
	default:
		return nil, fmt.Errorf("fake: unknown command %s", line)
	}
	return nil, nil
}

func (f *fakeSlurm) arg(s string) (*fakeJob, error) {
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("fake: job id %q", s)
	}
	j := f.job(id)
	if j == nil {
		return nil, fmt.Errorf("fake: no job %d", id)
	}
	return j, nil
}

// squeue writes the jobs as squeue --json of Slurm 22.05 does.
func (f *fakeSlurm) squeue() ([]byte, error) {
	unix := func(t time.Time) int64 {
		if t.IsZero() {
			return 0
		}
		return t.Unix()
	}
	var jobs []map[string]any
	for _, j := range f.jobs {
		if j.purged {
			continue
		}
		limit := any(nil)
		if j.TimeLimit > 0 {
			limit = int64(j.TimeLimit / time.Minute)
		}
		end := unix(j.End)
		if j.State == StateRunning && j.TimeLimit > 0 {
			end = unix(j.Start.Add(j.TimeLimit))
		}
		jobs = append(jobs, map[string]any{"job_id": j.ID, "array_job_id": j.ArrayJobID, "het_job_id": j.HetJobID,
			"user_name": j.User, "name": j.Name, "partition": j.Partition, "account": j.Account,
			"job_state": j.State, "state_reason": j.Reason, "node_count": j.Nodes, "time_limit": limit,
			"comment": j.Comment, "deadline": unix(j.Deadline), "submit_time": unix(j.Submit), "start_time": unix(j.Start),
			"end_time": end, "nodes": strings.Join(j.NodeList, ","), "required_nodes": strings.Join(j.Required, ","),
			"restart_cnt": j.Restarts, "requeue": true})
	}
	return json.Marshal(map[string]any{"meta": map[string]any{}, "errors": []any{}, "jobs": jobs})
}

// takeCalls returns the commands run since the last call.
func (f *fakeSlurm) takeCalls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.calls
	f.calls = nil
	return c
}

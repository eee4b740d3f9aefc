package slurm

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Slurm is the cluster's Slurm, through its commands.
type Slurm struct {
	Runner Runner
}

// Jobs are every job Slurm still reports, ended ones included (squeue
// --json --states all; Slurm forgets an ended job MinJobAge after its
// end, 300 s by default).
func (s *Slurm) Jobs(ctx context.Context) ([]Job, error) {
	out, err := s.Runner.Run(ctx, "squeue", "--json", "--states", "all")
	if err != nil {
		return nil, err
	}
	return ParseJobs(out)
}

// Node is one Slurm node as sinfo reports it.
type Node struct {
	Name string
	// State is sinfo's state (%T) without its flag suffix; NotResponding
	// is the suffix '*'.
	State         string
	NotResponding bool
	Features      []string
}

// Usable reports whether the node can run a new job now or after the jobs
// on it: it is up and neither drained nor being drained.
func (n *Node) Usable() bool {
	if n.NotResponding {
		return false
	}
	switch n.State {
	case "idle", "allocated", "mixed", "completing", "planned":
		return true
	}
	return false
}

// Drained reports whether the node takes no new work but is up
// (drained, draining, reserved for maintenance).
func (n *Node) Drained() bool {
	if n.NotResponding {
		return false
	}
	switch n.State {
	case "drained", "draining", "drain", "maint", "reserved", "inval":
		return true
	}
	return false
}

// Nodes are the nodes of the partitions (all nodes when none is given),
// each once, in the order sinfo lists them (the order of slurm.conf).
func (s *Slurm) Nodes(ctx context.Context, partitions []string) ([]Node, error) {
	args := []string{"--noheader", "--Node", "--format", "%N|%T|%f"}
	if len(partitions) > 0 {
		args = append(args, "--partition", strings.Join(partitions, ","))
	}
	out, err := s.Runner.Run(ctx, "sinfo", args...)
	if err != nil {
		return nil, err
	}
	return parseNodes(string(out))
}

// parseNodes reads sinfo's "%N|%T|%f" lines; a node listed once per
// partition is kept once.
func parseNodes(out string) ([]Node, error) {
	var nodes []Node
	seen := map[string]bool{}
	for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		f := strings.Split(line, "|")
		if len(f) != 3 || f[0] == "" {
			return nil, fmt.Errorf("sinfo line %d: %q: want NAME|STATE|FEATURES", i+1, line)
		}
		if seen[f[0]] {
			continue
		}
		seen[f[0]] = true
		st := strings.ToLower(f[1])
		n := Node{Name: f[0]}
		n.State = strings.TrimRight(st, "*~#!%$@^-+")
		n.NotResponding = strings.Contains(st[len(n.State):], "*")
		if f[2] != "" && f[2] != "(null)" {
			n.Features = strings.Split(f[2], ",")
		}
		nodes = append(nodes, n)
	}
	return nodes, nil
}

// id is a job id as Slurm's commands take it.
func id(job int64) string { return strconv.FormatInt(job, 10) }

// Place makes job run on exactly nodes once released (scontrol update
// NodeList): give as many nodes as the job asks for, since Slurm adds
// nodes to fewer and never starts a job given more.
func (s *Slurm) Place(ctx context.Context, job int64, nodes []string) error {
	_, err := s.Runner.Run(ctx, "scontrol", "update", "JobId="+id(job), "NodeList="+strings.Join(nodes, ","))
	return err
}

// Release releases a held job; restart also asks Slurm to start it now,
// since a requeued job may otherwise start only after Slurm's requeue
// delay (120 s).
func (s *Slurm) Release(ctx context.Context, job int64, restart bool) error {
	if _, err := s.Runner.Run(ctx, "scontrol", "release", id(job)); err != nil {
		return err
	}
	if !restart {
		return nil
	}
	_, err := s.Runner.Run(ctx, "scontrol", "update", "JobId="+id(job), "StartTime=now")
	return err
}

// Hold holds a pending job.
func (s *Slurm) Hold(ctx context.Context, job int64) error {
	_, err := s.Runner.Run(ctx, "scontrol", "hold", id(job))
	return err
}

// RequeueHold stops a running job and puts it back in the queue, held
// (its progress is lost).
func (s *Slurm) RequeueHold(ctx context.Context, job int64) error {
	_, err := s.Runner.Run(ctx, "scontrol", "requeuehold", id(job))
	return err
}

// Cancel cancels jobs (job arrays included).
func (s *Slurm) Cancel(ctx context.Context, jobs ...int64) error {
	if len(jobs) == 0 {
		return nil
	}
	args := make([]string, len(jobs))
	for i, j := range jobs {
		args[i] = id(j)
	}
	_, err := s.Runner.Run(ctx, "scancel", args...)
	return err
}

// Record is one run of a job in the job completion log (sacct
// --completion): the run's final state, start, end and nodes. A requeued
// run has its own record.
type Record struct {
	Job        int64
	State      string
	Start, End time.Time
	Nodes      []string
}

// Completions are the records of job in the job completion log (Slurm's
// JobCompType=jobcomp/filetxt), oldest first; none when it has none.
// Times are read in loc, the zone the log was written in.
func (s *Slurm) Completions(ctx context.Context, job int64, loc *time.Location) ([]Record, error) {
	out, err := s.Runner.Run(ctx, "sacct", "--completion", "--noheader", "--parsable2", "--jobs", id(job),
		"--format", "jobid,state,start,end,nodelist")
	if err != nil {
		return nil, err
	}
	return parseCompletions(string(out), loc)
}

// parseCompletions reads sacct's "jobid|state|start|end|nodelist" lines.
func parseCompletions(out string, loc *time.Location) ([]Record, error) {
	var recs []Record
	for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Split(line, "|")
		if len(f) != 5 {
			return nil, fmt.Errorf("sacct line %d: %q: want JOBID|STATE|START|END|NODELIST", i+1, line)
		}
		jid, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("sacct line %d: job id %q: %w", i+1, f[0], err)
		}
		r := Record{Job: jid, State: strings.Fields(f[1] + " ")[0]}
		for k, t := range []*time.Time{&r.Start, &r.End} {
			v := f[2+k]
			if v == "" || v == "Unknown" || v == "None" {
				continue
			}
			if *t, err = time.ParseInLocation("2006-01-02T15:04:05", v, loc); err != nil {
				return nil, fmt.Errorf("sacct line %d: time %q: %w", i+1, v, err)
			}
		}
		if f[4] == "None assigned" {
			f[4] = ""
		}
		if r.Nodes, err = ExpandHostlist(f[4]); err != nil {
			return nil, fmt.Errorf("sacct line %d: %w", i+1, err)
		}
		recs = append(recs, r)
	}
	return recs, nil
}

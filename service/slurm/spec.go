package slurm

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/plannerhq/planner/service"
)

// A job's comment (sbatch --comment) tells the planner what Slurm does not
// know, in words key=value among any other text:
//
//	deadline=2026-12-01T18:00:00Z  an SLO job's deadline (RFC 3339)
//	deadline=+45m                  the same, a duration after the submit time
//	value=10                       the utility of completing the job (default 1)
//	preferred=r0,r1                the planner's partitions it prefers (default: all)
//
// A job with a deadline — its comment's, else its sbatch --deadline — is an
// SLO job; any other is best effort. A word with another key, or with no
// '=', is left alone.

// Comment is what a job's comment tells the planner.
type Comment struct {
	// Deadline is absolute (zero: none), or After the submit time (0:
	// none).
	Deadline  time.Time
	After     time.Duration
	Value     *float64
	Preferred []string
}

// ParseComment reads the planner's words of a job comment. A word of a
// known key whose value does not read is an error naming it.
func ParseComment(c string) (Comment, error) {
	var out Comment
	seen := map[string]bool{}
	for _, w := range strings.Fields(c) {
		key, v, ok := strings.Cut(w, "=")
		if !ok {
			continue
		}
		switch key {
		case "deadline", "value", "preferred":
		default:
			continue
		}
		if seen[key] {
			return out, fmt.Errorf("comment: %s is given twice", key)
		}
		seen[key] = true
		switch key {
		case "deadline":
			if rel, ok := strings.CutPrefix(v, "+"); ok {
				d, err := time.ParseDuration(rel)
				if err != nil || d <= 0 {
					return out, fmt.Errorf("comment: deadline=%s: want a time (RFC 3339) or +DURATION after the submit time, e.g. +45m", v)
				}
				out.After = d
				continue
			}
			t, err := time.Parse(time.RFC3339, v)
			if err != nil {
				return out, fmt.Errorf("comment: deadline=%s: want a time (RFC 3339, e.g. 2026-12-01T18:00:00Z) or +DURATION after the submit time", v)
			}
			out.Deadline = t
		case "value":
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
				return out, fmt.Errorf("comment: value=%s: want a number ≥ 0", v)
			}
			out.Value = &f
		case "preferred":
			if v == "" {
				return out, fmt.Errorf("comment: preferred=: want partition names, e.g. preferred=r0,r1")
			}
			out.Preferred = strings.Split(v, ",")
		}
	}
	return out, nil
}

// Spec is the submission of Slurm job j to the planner (but its id): its user,
// name, Slurm partition (the app feature, "partition=P"), node count,
// time limit (a feature too: "nodes=N,time=S", S in seconds), submit time,
// and what its comment and --deadline say. The same job gives the same
// submission, so a bridge that restarts re-submits it idempotently.
func Spec(j *Job) (service.JobSpec, error) {
	c, err := ParseComment(j.Comment)
	if err != nil {
		return service.JobSpec{}, err
	}
	nodes := j.Nodes
	spec := service.JobSpec{User: j.User, Name: j.Name, Nodes: &nodes, Class: "be",
		Value: c.Value, Preferred: c.Preferred, Resources: "nodes=" + strconv.Itoa(j.Nodes)}
	if j.Partition != "" {
		spec.App = "partition=" + j.Partition
	}
	if j.TimeLimit > 0 {
		s := j.TimeLimit.Seconds()
		spec.TimeLimitS = &s
		spec.Resources += ",time=" + strconv.FormatFloat(s, 'f', -1, 64)
	}
	if !j.Submit.IsZero() {
		spec.Submitted = j.Submit.UTC().Format(time.RFC3339)
	}
	deadline := c.Deadline
	switch {
	case c.After > 0 && j.Submit.IsZero():
		return service.JobSpec{}, fmt.Errorf("comment: deadline=+%s: the job has no submit time", c.After)
	case c.After > 0:
		deadline = j.Submit.Add(c.After)
	case deadline.IsZero():
		deadline = j.Deadline
	}
	if !deadline.IsZero() {
		spec.Class = "slo"
		spec.Deadline = deadline.UTC().Format(time.RFC3339)
	}
	return spec, nil
}

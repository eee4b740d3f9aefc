package service

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/plannerhq/planner/workloads"
)

// maxNodes bounds a node count a client sends, as a workload file's
// partitions are bounded.
const maxNodes = 1 << 24

// defaultValue is the value of a job that does not give one.
const defaultValue = 1.0

// resourcesOf is a job's resources feature when the client gives none:
// the node count, as the workload generators name it.
func resourcesOf(nodes int) string { return "nodes=" + strconv.Itoa(nodes) }

// maxSkew is how far ahead of the service's wall clock a client's time
// may lie (seconds): the clocks of two hosts differ a little. Such a time
// is taken as now.
const maxSkew = 5.0

// clientTime reads an optional time of field: now when absent. On the
// wall clock it may not lie in the future (beyond maxSkew); on the virtual
// clock a client reports the times things happened at, which may lie
// ahead of it.
func (s *Service) clientTime(field, v string, now float64) (float64, *apiError) {
	if v == "" {
		return now, nil
	}
	t, aerr := parseTime(field, v)
	if aerr != nil {
		return 0, aerr
	}
	sec := s.tl.seconds(t)
	if s.cfg.Clock == ClockWall && sec > now {
		if sec > now+maxSkew {
			return 0, badField(field, "%s is in the future (now %s)", v, s.tl.format(now))
		}
		sec = now
	}
	if !(math.Abs(sec) <= workloads.MaxSeconds) {
		return 0, badField(field, "%s is more than %g s from the service's epoch %s", v, float64(workloads.MaxSeconds), s.tl.epoch.Format("2006-01-02"))
	}
	return sec, nil
}

// jobFromSpec checks a submission against the cluster and the clock and
// returns the job the planner will see (its ID is set by the caller).
func (s *Service) jobFromSpec(st *state, spec *JobSpec, now float64) (workloads.Job, *apiError) {
	var j workloads.Job
	if err := checkID("id", spec.ID); err != nil {
		return j, err
	}
	for _, l := range []struct{ field, v string }{{"user", spec.User}, {"name", spec.Name}, {"app", spec.App}, {"resources", spec.Resources}} {
		if err := checkLabel(l.field, l.v, maxLabelLen); err != nil {
			return j, err
		}
	}
	switch spec.Class {
	case "":
		return j, badField("class", `required: "slo" or "be"`)
	case "slo":
		j.Class = workloads.SLO
	case "be":
		j.Class = workloads.BestEffort
	default:
		return j, badField("class", `want "slo" or "be", got %q`, clip(spec.Class))
	}
	total := st.cluster.TotalNodes()
	switch {
	case spec.Nodes == nil:
		return j, badField("nodes", "required: the job's node count")
	case *spec.Nodes < 1:
		return j, badField("nodes", "must be ≥ 1, got %d", *spec.Nodes)
	case *spec.Nodes > total:
		return j, badField("nodes", "must be ≤ the cluster's %d nodes, got %d", total, *spec.Nodes)
	}
	j.Nodes = *spec.Nodes
	j.Value = defaultValue
	if spec.Value != nil {
		if v := *spec.Value; !(v >= 0 && v <= workloads.MaxValue) {
			return j, badField("value", "must be in [0, %g], got %v", float64(workloads.MaxValue), v)
		}
		j.Value = *spec.Value
	}
	if spec.TimeLimitS != nil {
		if v := *spec.TimeLimitS; !(v > 0 && v <= workloads.MaxSeconds) {
			return j, badField("time_limit_s", "must be in (0, %g] seconds, got %v", float64(workloads.MaxSeconds), v)
		}
		j.Requested = *spec.TimeLimitS
	}
	submit, aerr := s.clientTime("submitted", spec.Submitted, now)
	if aerr != nil {
		return j, aerr
	}
	j.Submit = submit
	if j.Class == workloads.SLO {
		if spec.Deadline == "" {
			return j, badField("deadline", "required for an SLO job (RFC 3339)")
		}
		t, aerr := parseTime("deadline", spec.Deadline)
		if aerr != nil {
			return j, aerr
		}
		d := s.tl.seconds(t)
		switch {
		case d <= submit:
			return j, badField("deadline", "%s is not after the submit time %s", spec.Deadline, s.tl.format(submit))
		case s.cfg.Clock == ClockWall && d <= now:
			return j, badField("deadline", "%s is in the past (now %s)", spec.Deadline, s.tl.format(now))
		case d-submit > 2*workloads.MaxSeconds:
			return j, badField("deadline", "%s is more than %g s after the submit time", spec.Deadline, 2*float64(workloads.MaxSeconds))
		}
		j.Deadline = d
	} else if spec.Deadline != "" {
		return j, badField("deadline", "only SLO jobs have a deadline")
	}
	for i, name := range spec.Preferred {
		field := fmt.Sprintf("preferred[%d]", i)
		r := slices.Index(partitionNames(st.cluster), name)
		if r < 0 {
			return j, badField(field, "no partition %q (the cluster has %v)", clip(name), partitionNames(st.cluster))
		}
		if slices.Contains(j.Preferred, r) {
			return j, badField(field, "partition %q is given twice", name)
		}
		j.Preferred = append(j.Preferred, r)
	}
	slices.Sort(j.Preferred)
	j.Features = workloads.Features{User: spec.User, Name: spec.Name, App: spec.App, Resources: spec.Resources}
	if j.Features.Resources == "" {
		j.Features.Resources = resourcesOf(j.Nodes)
	}
	j.Features.SubmitHour, j.Features.SubmitDay = s.tl.hourDay(submit)
	// The job model's own rules, as workload files and the simulator check
	// them; the runtime is unknown to the service, so the check runs with
	// the least one the model allows.
	check := j
	check.Runtime = workloads.MinSeconds
	if err := check.Check(st.cluster); err != nil {
		return j, badField("", "%v", err)
	}
	return j, nil
}

// partitionNames are the cluster's partition names, in order.
func partitionNames(c workloads.Cluster) []string {
	names := make([]string, len(c.PartitionNodes))
	for r := range names {
		names[r] = c.PartitionName(r)
	}
	return names
}

// checkEvent checks an event's fields that do not depend on the job.
func checkEvent(e *EventSpec) *apiError {
	switch e.Type {
	case evStarted, evCompleted, evFailed, evCancelled:
	case "":
		return badField("type", "required: started, completed, failed or cancelled")
	default:
		return badField("type", "want started, completed, failed or cancelled, got %q", clip(e.Type))
	}
	if e.RuntimeS != nil {
		if e.Type != evCompleted {
			return badField("runtime_s", "only a completed event has a runtime")
		}
		if v := *e.RuntimeS; !(v >= 0 && v <= workloads.MaxSeconds) {
			return badField("runtime_s", "must be in [0, %g] seconds, got %v", float64(workloads.MaxSeconds), v)
		}
	}
	return checkLabel("reason", e.Reason, maxReasonLen)
}

// capacities returns the cluster's capacities after spec, or the field
// that is wrong.
func capacities(st *state, spec *ClusterSpec) ([]capacity, *apiError) {
	if len(spec.Partitions) == 0 {
		return nil, badField("partitions", "required: the partitions whose capacity changed")
	}
	caps := slices.Clone(st.caps)
	names := partitionNames(st.cluster)
	seen := map[int]bool{}
	for i, p := range spec.Partitions {
		at := func(f string) string { return fmt.Sprintf("partitions[%d].%s", i, f) }
		r := slices.Index(names, p.Name)
		switch {
		case p.Name == "":
			return nil, badField(at("name"), "required")
		case r < 0:
			return nil, badField(at("name"), "no partition %q (the cluster has %v)", clip(p.Name), names)
		case seen[r]:
			return nil, badField(at("name"), "partition %q is given twice", p.Name)
		}
		seen[r] = true
		for _, f := range []struct {
			name string
			v    *int
			dst  *int
		}{{"nodes", p.Nodes, &caps[r].Nodes}, {"drained", p.Drained, &caps[r].Drained}, {"lost", p.Lost, &caps[r].Lost}} {
			if f.v == nil {
				continue
			}
			if *f.v < 0 || *f.v > maxNodes {
				return nil, badField(at(f.name), "must be in [0, %d], got %d", maxNodes, *f.v)
			}
			*f.dst = *f.v
		}
		if c := caps[r]; c.Drained+c.Lost > c.Nodes {
			field := "drained"
			if p.Lost != nil {
				field = "lost"
			}
			return nil, badField(at(field), "drained (%d) + lost (%d) exceed the partition's %d nodes", c.Drained, c.Lost, c.Nodes)
		}
	}
	return caps, nil
}

// maxHistoryJobs bounds the runs of one history request.
const maxHistoryJobs = 100_000

// historyFromSpec checks a history batch and returns its runs.
func (s *Service) historyFromSpec(spec *HistorySpec, now float64) ([]histRec, *apiError) {
	switch {
	case len(spec.Jobs) == 0:
		return nil, badField("jobs", "required: the completed runs to learn from")
	case len(spec.Jobs) > maxHistoryJobs:
		return nil, badField("jobs", "more than %d runs in one request", maxHistoryJobs)
	}
	out := make([]histRec, 0, len(spec.Jobs))
	for i, h := range spec.Jobs {
		at := func(f string) string { return fmt.Sprintf("jobs[%d].%s", i, f) }
		for _, l := range []struct{ field, v string }{{"user", h.User}, {"name", h.Name}, {"app", h.App}, {"resources", h.Resources}} {
			if err := checkLabel(at(l.field), l.v, maxLabelLen); err != nil {
				return nil, err
			}
		}
		if h.RuntimeS == nil {
			return nil, badField(at("runtime_s"), "required: the run's runtime in seconds")
		}
		if v := *h.RuntimeS; !(v >= 0 && v <= workloads.MaxSeconds) {
			return nil, badField(at("runtime_s"), "must be in [0, %g] seconds, got %v", float64(workloads.MaxSeconds), v)
		}
		f := workloads.Features{User: h.User, Name: h.Name, App: h.App, Resources: h.Resources, SubmitHour: -1, SubmitDay: -1}
		if h.Nodes != nil {
			if n := *h.Nodes; n < 1 || n > maxNodes {
				return nil, badField(at("nodes"), "must be in [1, %d], got %d", maxNodes, n)
			}
			if f.Resources == "" {
				f.Resources = resourcesOf(*h.Nodes)
			}
		}
		if h.Submitted != "" {
			sec, aerr := s.clientTime(at("submitted"), h.Submitted, now)
			if aerr != nil {
				return nil, aerr
			}
			f.SubmitHour, f.SubmitDay = s.tl.hourDay(sec)
		}
		out = append(out, histRec{Features: f, Runtime: *h.RuntimeS})
	}
	return out, nil
}

package workloads

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Class is a job's service class.
type Class int

const (
	// SLO jobs have a deadline: value V if they complete by it (3sigma §3.1).
	SLO Class = iota
	// BestEffort jobs are latency sensitive: value decays with completion time.
	BestEffort
)

func (c Class) String() string {
	switch c {
	case SLO:
		return "slo"
	case BestEffort:
		return "be"
	}
	return "Class(" + strconv.Itoa(int(c)) + ")"
}

// MarshalText writes the class as "slo" or "be".
func (c Class) MarshalText() ([]byte, error) {
	if c != SLO && c != BestEffort {
		return nil, fmt.Errorf("unknown job class %d", int(c))
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads "slo" or "be".
func (c *Class) UnmarshalText(b []byte) error {
	v, err := ParseClass(string(b))
	if err == nil {
		*c = v
	}
	return err
}

// ParseClass is the inverse of Class.String.
func ParseClass(s string) (Class, error) {
	switch s {
	case "slo":
		return SLO, nil
	case "be":
		return BestEffort, nil
	}
	return 0, fmt.Errorf("unknown job class %q (want slo or be)", s)
}

// Features are the attributes a runtime predictor may learn from
// (3sigma §4.1): user, job name, application, submit hour/day and requested
// resources. Empty strings mean "unknown".
type Features struct {
	User       string `json:"user,omitempty"`
	Name       string `json:"name,omitempty"`
	App        string `json:"app,omitempty"`
	SubmitHour int    `json:"submit_hour"` // 0–23
	SubmitDay  int    `json:"submit_day"`  // 0–6
	// Resources is the requested resources as the trace names them (e.g.
	// "nodes=32"); the predictor treats it as a categorical value.
	Resources string `json:"resources,omitempty"`
}

// Job is one submitted job. Times are seconds from the workload's start.
type Job struct {
	ID     int     `json:"id"`
	Submit float64 `json:"submit_s"`
	Class  Class   `json:"class"`
	// Nodes is the gang size: all nodes start together; they may come from
	// several partitions of the allowed set.
	Nodes int `json:"nodes"`
	// Runtime is the actual runtime on preferred nodes of speed 1 (seconds;
	// Cluster.RuntimeOn gives it on other nodes); known to the simulator
	// and to pointperfest only.
	Runtime float64 `json:"runtime_s"`
	// Requested is the user's requested (wall-clock limit) time in seconds,
	// as HPC schedulers plan with it (SWF field 9, Mustang wallclock_limit);
	// zero when unknown. Backfilling schedulers use it; 3σPredict does not.
	Requested float64 `json:"requested_s,omitempty"`
	// Deadline is the absolute completion deadline of an SLO job (seconds);
	// zero for best-effort jobs.
	Deadline float64 `json:"deadline_s,omitempty"`
	// Value is the utility of completing the job (SLO: by its deadline; BE:
	// at its submit time, decaying after).
	Value float64 `json:"value"`
	// Preferred lists the partitions the job prefers (ascending); empty means
	// every partition is preferred. Off them it runs Slowdown× longer.
	Preferred []int    `json:"preferred,omitempty"`
	Features  Features `json:"features"`
	// TaskDurations are per-task durations (seconds): optional for a gang
	// job (a record of the trace it came from), the tasks themselves for a
	// task-level job.
	TaskDurations []float64 `json:"task_durations_s,omitempty"`
	// TaskNodes, when > 0, makes the job task-level: a set of
	// len(TaskDurations) tasks that run independently, each on TaskNodes
	// nodes of one partition for its duration (on preferred nodes of speed
	// 1). Nodes is then the job's width, tasks × TaskNodes, and Runtime its
	// mean task duration, so that Nodes × Runtime is its work. Zero for a
	// gang job.
	TaskNodes int `json:"task_nodes,omitempty"`
	// Kind is the generator's job class label (e.g. the runtime class
	// "short" … "very-long" of the Google-like generator), for reports and
	// per-kind statistics. It is derived from the runtime model, so it is
	// not a predictor feature; empty when unknown.
	Kind string `json:"kind,omitempty"`
	// After, when set, names the job's predecessor stage: the job is a
	// later stage of a DAG job (SLearn §6), released — made pending, its
	// submit time its predecessor's end — when the predecessor completes.
	// Its Submit in a workload is a placeholder no earlier than the
	// predecessor's (the generators use the DAG's arrival). Nil for a job
	// that waits for none (a DAG's first stage, or a job outside any DAG).
	After *int `json:"after,omitempty"`
	// SourceID is the job's id in the trace it was imported from (SWF
	// field 1, a Batsim job id, Slurm's JobIDRaw), kept verbatim; empty
	// for generated jobs. Reports carry it beside ID.
	SourceID string `json:"source_id,omitempty"`
	// Meta is an extension object (a JSON object, up to MaxMetaBytes) the
	// workload's author attaches to the job; the simulator ignores it and
	// the reports carry it through (jobs.csv's meta column).
	Meta json.RawMessage `json:"meta,omitempty"`
}

// Predecessor is the id of the stage j waits for (After), ok false when
// it waits for none.
func (j *Job) Predecessor() (id int, ok bool) {
	if j.After == nil {
		return 0, false
	}
	return *j.After, true
}

// TaskLevel reports whether j is a task-level job (TaskNodes > 0).
func (j *Job) TaskLevel() bool { return j.TaskNodes > 0 }

// Tasks is the number of tasks of a task-level job, len(TaskDurations);
// a gang job counts as one.
func (j *Job) Tasks() int {
	if j.TaskNodes > 0 {
		return len(j.TaskDurations)
	}
	return 1
}

// MeanTaskDuration is the mean of durations (seconds; 0 for none), the
// Runtime of a task-level job.
func MeanTaskDuration(durations []float64) float64 {
	if len(durations) == 0 {
		return 0
	}
	s := 0.0
	for _, d := range durations {
		s += d
	}
	return s / float64(len(durations))
}

// IsPreferred reports whether partition r is in j's preferred set.
func (j *Job) IsPreferred(r int) bool {
	if len(j.Preferred) == 0 {
		return true
	}
	for _, p := range j.Preferred {
		if p == r {
			return true
		}
	}
	return false
}

// Work is the offered work of jobs: Σ nodes × runtime on preferred nodes,
// in node-seconds. A window's offered load is Work / (cluster nodes ×
// window seconds).
func Work(jobs []Job) float64 {
	w := 0.0
	for i := range jobs {
		w += float64(jobs[i].Nodes) * jobs[i].Runtime
	}
	return w
}

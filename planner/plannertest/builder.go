package plannertest

import "github.com/plannerhq/planner/workloads"

// JobBuilder builds a test job (CONVENTIONS 13):
// NewJob(1).Nodes(4).Runtime(300).SLO(900).Job().
type JobBuilder struct{ j workloads.Job }

// NewJob is a best-effort job of one node, 60 s and value 1, submitted at 0.
func NewJob(id int) *JobBuilder {
	return &JobBuilder{j: workloads.Job{ID: id, Class: workloads.BestEffort, Nodes: 1, Runtime: 60, Value: 1}}
}

// Nodes sets the gang size.
func (b *JobBuilder) Nodes(n int) *JobBuilder { b.j.Nodes = n; return b }

// Runtime sets the true runtime on preferred nodes (seconds).
func (b *JobBuilder) Runtime(r float64) *JobBuilder { b.j.Runtime = r; return b }

// Requested sets the user's requested time (seconds).
func (b *JobBuilder) Requested(r float64) *JobBuilder { b.j.Requested = r; return b }

// Value sets the job's value.
func (b *JobBuilder) Value(v float64) *JobBuilder { b.j.Value = v; return b }

// Submit sets the submit time (seconds).
func (b *JobBuilder) Submit(t float64) *JobBuilder { b.j.Submit = t; return b }

// Name sets the job name feature.
func (b *JobBuilder) Name(n string) *JobBuilder { b.j.Features.Name = n; return b }

// User sets the user feature.
func (b *JobBuilder) User(u string) *JobBuilder { b.j.Features.User = u; return b }

// Preferred sets the preferred partitions (ascending).
func (b *JobBuilder) Preferred(p ...int) *JobBuilder { b.j.Preferred = p; return b }

// Tasks makes the job task-level: one task per duration (seconds), each
// on taskNodes nodes; Nodes becomes tasks × taskNodes and Runtime the mean
// duration.
func (b *JobBuilder) Tasks(taskNodes int, durations ...float64) *JobBuilder {
	b.j.TaskNodes = taskNodes
	b.j.TaskDurations = append([]float64(nil), durations...)
	b.j.Nodes = taskNodes * len(durations)
	b.j.Runtime = workloads.MeanTaskDuration(durations)
	return b
}

// SLO makes the job an SLO job with an absolute deadline (seconds).
func (b *JobBuilder) SLO(deadline float64) *JobBuilder {
	b.j.Class, b.j.Deadline = workloads.SLO, deadline
	return b
}

// Job returns a fresh copy of the job built so far.
func (b *JobBuilder) Job() *workloads.Job {
	j := b.j
	j.TaskDurations = append([]float64(nil), b.j.TaskDurations...)
	return &j
}

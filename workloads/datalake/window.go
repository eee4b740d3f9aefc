package datalake

import (
	"encoding/json"
	"fmt"

	"github.com/plannerhq/planner/workloads"
)

// Generator is the workload name of the data lake.
const Generator = "datalake"

// WindowJobs are the jobs submitted in the window (week 3) as a scheduler
// may see them: each job's submission record and nothing of what it
// reads, what reads it or what it is worth. In each workloads.Job:
//
//   - ID is the lake's job id (Lake.Jobs, Truth.Jobs);
//   - Submit is its real-world submission (a polling job's moves with its
//     inputs in a simulation: JobTruth.PollDelay);
//   - Nodes is its gang width (minimum parallelism, in tokens) and
//     Runtime its runtime (the simulator's; schedulers do not read it);
//   - Class is best-effort (no deadline) and Value the user priority
//     (1–9, higher first): the submission's own statement of importance,
//     the only value a scheduler is told;
//   - Features: User the user, Name the template (the job's templatised
//     name), App the organisation, Resources "tokens=N".
func (l *Lake) WindowJobs() []workloads.Job {
	var out []workloads.Job
	for i := range l.Jobs {
		if j := &l.Jobs[i]; j.Submit >= 0 {
			out = append(out, l.asJob(j))
		}
	}
	return out
}

// asJob is j's submission record as a workloads.Job (see WindowJobs).
func (l *Lake) asJob(j *Job) workloads.Job {
	t := &l.Templates[j.Template]
	h, d := workloads.SubmitHourDay(j.Submit)
	return workloads.Job{
		ID:      j.ID,
		Submit:  j.Submit,
		Class:   workloads.BestEffort,
		Nodes:   j.Width,
		Runtime: j.Runtime,
		Value:   float64(j.Priority),
		Features: workloads.Features{
			User: l.Users[t.User].Name, Name: t.Name, App: l.Orgs[t.Org].Name,
			SubmitHour: h, SubmitDay: d, Resources: fmt.Sprintf("tokens=%d", j.Width),
		},
	}
}

// Truth is what a simulator of the window needs and no scheduler may
// see: for each window job (in WindowJobs' order) its inputs and their
// kinds and writers, its outputs' downloads, and its real-world run.
type Truth struct {
	// Window is the window's length (s); jobs are submitted in [0, Window).
	Window float64    `json:"window_s"`
	Jobs   []JobTruth `json:"jobs"`
}

// JobTruth is one window job's truth.
type JobTruth struct {
	ID       int    `json:"id"`
	Template string `json:"template"`
	Kind     Kind   `json:"kind"`
	Org      string `json:"org"`
	// Inputs are the job's real-world inputs: hard and polling inputs as
	// resolved at submission (what it needs), soft inputs as read at its
	// real-world start (what it may read, never needed). A simulator runs
	// §6's semantics on them:
	//   - a hard input whose writer has not completed when the job is
	//     submitted (or that is Missing and has no writer in the window)
	//     fails the job, and it writes nothing;
	//   - a polling job is submitted PollDelay after the last of its
	//     polling inputs is written, never when one never is;
	//   - a soft input never fails the job.
	// An input whose writer is outside the window (InWindow false) is
	// written at Written (which may be after 0 for a writer still running
	// at the window's start), or never when Missing.
	Inputs []WindowInput `json:"inputs,omitempty"`
	// Outputs are the files the job writes with the downloads its version
	// gets in the real world: after its real-world completion (for a job
	// that failed there, after submit + runtime) and within ValueWindow.
	// A simulated run that completes at c attains the downloads at or
	// after c; a failed run attains none. The job's achievable value is
	// all of them.
	Outputs   []Output `json:"outputs"`
	PollDelay float64  `json:"poll_delay_s,omitempty"`
	// RealStart, RealEnd and RealStatus are the job's real-world run.
	RealStart  float64 `json:"real_start_s"`
	RealEnd    float64 `json:"real_end_s"`
	RealStatus Status  `json:"real_status"`
}

// WindowInput is an Input with whether its writer is a window job.
type WindowInput struct {
	Input
	InWindow bool `json:"in_window"`
}

// Value is the job's achievable value: the downloads of its outputs.
func (t *JobTruth) Value() int {
	n := 0
	for _, o := range t.Outputs {
		n += len(o.Downloads)
	}
	return n
}

// Truth is the window's truth.
func (l *Lake) Truth() *Truth {
	tr := &Truth{Window: WindowEnd}
	for i := range l.Jobs {
		j := &l.Jobs[i]
		if j.Submit < 0 {
			continue
		}
		t := &l.Templates[j.Template]
		jt := JobTruth{
			ID: j.ID, Template: t.Name, Kind: t.Kind, Org: l.Orgs[t.Org].Name,
			Outputs: j.Outputs, PollDelay: j.PollDelay,
			RealStart: j.Start, RealEnd: j.End, RealStatus: j.Status,
		}
		for _, in := range j.Inputs {
			jt.Inputs = append(jt.Inputs, WindowInput{Input: in, InWindow: in.Writer >= 0 && l.Jobs[in.Writer].Submit >= 0})
		}
		tr.Jobs = append(tr.Jobs, jt)
	}
	return tr
}

// Edges are the window's true dependencies between window jobs, (writer,
// reader) id pairs, each once, in reader order: what the oracle
// schedulers' true aggregate values are computed on.
func (t *Truth) Edges() [][2]int {
	var out [][2]int
	for i := range t.Jobs {
		seen := map[int]bool{}
		for _, in := range t.Jobs[i].Inputs {
			if in.InWindow && !in.Missing && !seen[in.Writer] {
				seen[in.Writer] = true
				out = append(out, [2]int{in.Writer, t.Jobs[i].ID})
			}
		}
	}
	return out
}

// Workload is the lake as a workload file's contents: the header (the
// nominal cluster with hierarchical queues as one partition), the
// history's completed jobs as workloads.Jobs (for runtime predictors)
// and the window's jobs (WindowJobs).
func (l *Lake) Workload() (*workloads.Workload, error) {
	lay, err := l.Layout(Hierarchical, 100)
	if err != nil {
		return nil, err
	}
	params, err := json.Marshal(l.Params)
	if err != nil {
		return nil, err
	}
	w := &workloads.Workload{
		Header: workloads.Header{
			Version: workloads.FormatVersion, Generator: Generator, Params: params,
			Seed: l.Params.Seed, Cluster: lay.Cluster(), WindowS: WindowEnd,
		},
		Jobs: l.WindowJobs(),
	}
	for i := range l.Jobs {
		if j := &l.Jobs[i]; j.Submit < 0 && j.End < 0 && j.Status == Completed {
			w.History = append(w.History, l.asJob(j))
		}
	}
	return w, w.Validate()
}

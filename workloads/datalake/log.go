package datalake

import (
	"cmp"
	"slices"
)

// Log is the provenance log of the history, what the profiler reads: the
// job telemetry (JobRepo) and the file operations (ProvRepo) of every job
// that ended before the window, and the uploads and downloads made
// before it. It spans [Start, End): the lead-in and weeks 1–2. It holds
// no truth: no template kinds, no dependency kinds, no edges.
type Log struct {
	Start float64  `json:"start_s"`
	End   float64  `json:"end_s"`
	Jobs  []LogJob `json:"jobs"`
	// Uploads and Downloads are front-end operations, in time order.
	Uploads   []Op `json:"uploads"`
	Downloads []Op `json:"downloads"`
}

// LogJob is one job's record. A job reads its inputs when it starts and
// writes its outputs when it ends; a job that failed at submission has
// Start = End = Submit, no reads and no writes.
type LogJob struct {
	ID       int     `json:"id"`
	Template string  `json:"template"`
	User     string  `json:"user"`
	Org      string  `json:"org"`
	Priority int     `json:"priority"`
	Submit   float64 `json:"submit_s"`
	Start    float64 `json:"start_s"`
	End      float64 `json:"end_s"`
	Status   Status  `json:"status"`
	// ComputeHours is width × runtime in token-hours.
	ComputeHours float64  `json:"compute_hours"`
	Reads        []string `json:"reads,omitempty"`
	Writes       []string `json:"writes,omitempty"`
}

// Log is the lake's provenance log up to the window (time 0).
func (l *Lake) Log() *Log {
	g := &Log{Start: WorldStart, End: 0}
	for i := range l.Jobs {
		j := &l.Jobs[i]
		if j.End >= 0 {
			continue
		}
		t := &l.Templates[j.Template]
		u := &l.Users[t.User]
		r := LogJob{
			ID: j.ID, Template: t.Name, User: u.Name, Org: l.Orgs[t.Org].Name, Priority: j.Priority,
			Submit: j.Submit, Start: j.Start, End: j.End, Status: j.Status, ComputeHours: j.ComputeHours(),
		}
		if j.Status == Completed {
			r.Reads = append(r.Reads, j.ExternalReads...)
			for _, in := range j.Inputs {
				r.Reads = append(r.Reads, in.File)
			}
			for _, o := range j.Outputs {
				r.Writes = append(r.Writes, o.File)
				for _, d := range o.Downloads {
					if d < 0 {
						g.Downloads = append(g.Downloads, Op{File: o.File, Time: d})
					}
				}
			}
		}
		g.Jobs = append(g.Jobs, r)
	}
	for _, u := range l.Uploads {
		if u.Time < 0 {
			g.Uploads = append(g.Uploads, u)
		}
	}
	slices.SortFunc(g.Downloads, func(a, b Op) int { return cmp.Or(cmp.Compare(a.Time, b.Time), cmp.Compare(a.File, b.File)) })
	return g
}

// HistoryEdges are the true dependencies between the log's jobs,
// (writer, reader) id pairs, each once, in reader order: what a job
// really read (its real-world inputs), to judge a profiler's inferred
// edges by.
func (l *Lake) HistoryEdges() [][2]int {
	var out [][2]int
	for i := range l.Jobs {
		j := &l.Jobs[i]
		if j.End >= 0 || j.Status != Completed {
			continue
		}
		var ws []int
		for _, in := range j.Inputs {
			if in.Writer >= 0 && !in.Missing && l.Jobs[in.Writer].End < 0 {
				ws = append(ws, in.Writer)
			}
		}
		slices.Sort(ws)
		for _, w := range slices.Compact(ws) {
			out = append(out, [2]int{w, j.ID})
		}
	}
	return out
}

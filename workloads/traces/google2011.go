package traces

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/plannerhq/planner/workloads"
)

// Google cluster-data 2011 event types.
const (
	gSubmit   = 0
	gSchedule = 1
	gEvict    = 2
	gFail     = 3
	gFinish   = 4
	gKill     = 5
	gLost     = 6
	gMaxEvent = 8
)

// Column counts and positions of the two tables.
const (
	gJobFields  = 8 // time, missing info, job ID, event type, user, scheduling class, job name, logical job name
	gTaskFields = 13
	gTaskIndex  = 3 // task_events: time, missing info, job ID, task index, machine ID, event type, …
	gTaskEvent  = 5
)

// gAfterEnd: Google writes 2⁶³−1 for events after the trace's end; times
// at or above this bound (µs) are not part of the trace.
const gAfterEnd = 1 << 62

// googleJob gathers one job's events.
type googleJob struct {
	submit float64 // seconds; < 0 until a SUBMIT is seen
	before bool    // submitted before the trace started (time 0)
	final  int     // last terminal event type, −1 while running
	user   string
	name   string
	class  string
	tasks  map[int64]*googleTask
}

// googleTask is one task's current run: sched is the start of the current
// run (−1 when not running), dur the duration of its last finished run
// (−1 before any), missed a FINISH whose SCHEDULE the trace lacks.
type googleTask struct {
	sched, dur float64
	missed     bool
}

// google2011 is the state of one import: jobs by id, in first-seen order.
type google2011 struct {
	t     *Trace
	opts  *ParseOptions
	jobs  map[int64]*googleJob
	order []int64
}

func newGoogle2011(source string, opts *ParseOptions) *google2011 {
	return &google2011{
		t:    &Trace{Format: FormatGoogle2011, Source: source},
		opts: opts,
		jobs: make(map[int64]*googleJob),
	}
}

// ReadGoogle2011 reads a Google cluster-data 2011 directory: every
// job_events/*.csv[.gz] part (in name order), then every
// task_events/*.csv[.gz] part. CSV without header, times in µs.
//
// A job's submit time is its first SUBMIT (jobs submitted at time 0, i.e.
// before the trace, are left out), its final state the last of FAIL,
// FINISH, KILL, LOST. Its size is the number of distinct task indices, a
// task's duration runs from its last SCHEDULE to its FINISH, and the job's
// runtime is its longest task: the gang holds its nodes until the last
// task ends. Kept: jobs that FINISH and whose every task has a finished
// run; the rest is counted by reason. TaskDurations are by task index.
// A part without events — 0 bytes, plain or compressed, or blank lines
// only — is an error naming the file (errEmptyPart).
func ReadGoogle2011(dir string, opts ParseOptions) (*Trace, error) {
	if st, err := os.Stat(dir); err != nil {
		return nil, err
	} else if !st.IsDir() {
		return nil, fmt.Errorf("%s is a file: google2011 wants the cluster-data directory (job_events/, task_events/)", dir)
	}
	g := newGoogle2011(dir, &opts)
	tables := []struct {
		sub   string
		parse func(io.Reader, string) error
		files []string
	}{{sub: "job_events", parse: g.jobEvents}, {sub: "task_events", parse: g.taskEvents}}
	var total int64 // bytes of every part, for the progress
	for i := range tables {
		tab := &tables[i]
		files, err := filepath.Glob(filepath.Join(dir, tab.sub, "*.csv*"))
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("%s: no %s/*.csv[.gz] files (want the cluster-data 2011 layout)", dir, tab.sub)
		}
		slices.Sort(files)
		tab.files = files
		for _, f := range files {
			if st, err := os.Stat(f); err == nil {
				total += st.Size()
			}
		}
	}
	opts.startProgress(total)
	for _, tab := range tables {
		for _, f := range tab.files {
			if err := withFile(f, &opts, func(r io.Reader) error { return tab.parse(r, f) }); err != nil {
				return nil, err
			}
		}
	}
	t := g.finish()
	opts.doneProgress()
	return t, nil
}

// gTime parses a time in µs; after is true for the after-the-end marker.
func gTime(s []byte) (sec float64, after bool, err error) {
	v, err := strconv.ParseUint(string(s), 10, 64)
	if err != nil {
		return 0, false, fmt.Errorf("time %q is not a non-negative integer", s)
	}
	if v >= gAfterEnd {
		return 0, true, nil
	}
	return float64(v) / 1e6, false, nil
}

func gInt(what string, s []byte, lo, hi int64) (int64, error) {
	v, err := strconv.ParseInt(string(s), 10, 64)
	if err != nil || v < lo || v > hi {
		return 0, fmt.Errorf("%s %q is not an integer in [%d, %d]", what, s, lo, hi)
	}
	return v, nil
}

// gEvent splits one event line of want fields and parses the columns
// job_events and task_events share: time (seconds; after = past the trace's
// end) and job ID.
func gEvent(b []byte, want int) (f [][]byte, t float64, after bool, id int64, err error) {
	f = bytes.Split(b, []byte(","))
	if len(f) != want {
		return nil, 0, false, 0, fmt.Errorf("want %d comma-separated fields, got %d", want, len(f))
	}
	if t, after, err = gTime(f[0]); err != nil {
		return nil, 0, false, 0, err
	}
	if id, err = gInt("job ID", f[2], 0, math.MaxInt64); err != nil {
		return nil, 0, false, 0, err
	}
	return f, t, after, id, nil
}

// jobEvents reads one job_events part.
func (g *google2011) jobEvents(r io.Reader, name string) error {
	return g.part(r, name, g.jobEvent)
}

// errEmptyPart: the trace's parts all hold events, so a part without any
// (0 bytes, plain or compressed, or only blank lines) is a file cut short
// — a failed download — not a quiet stretch of the trace.
var errEmptyPart = errors.New("empty file (every part of the cluster-data trace holds events: a download cut short?)")

// part reads one part file, handing each event line to event; a part
// without event lines is errEmptyPart.
func (g *google2011) part(r io.Reader, name string, event func([]byte) error) error {
	n := 0
	err := newLines(r, name, g.opts, g.t).each(func(b []byte) error {
		n++
		return event(b)
	})
	if err == nil && n == 0 {
		return errEmptyPart
	}
	return err
}

func (g *google2011) jobEvent(b []byte) error {
	f, t, after, id, err := gEvent(b, gJobFields)
	if err != nil {
		return err
	}
	ev, err := gInt("event type", f[3], 0, gMaxEvent)
	if err != nil {
		return err
	}
	class, err := gInt("scheduling class", f[5], 0, 3)
	if err != nil && len(f[5]) > 0 {
		return err
	}
	if after {
		return nil
	}
	j := g.jobs[id]
	if j == nil {
		j = &googleJob{submit: -1, final: -1}
		g.jobs[id] = j
		g.order = append(g.order, id)
	}
	if len(f[4]) > 0 {
		j.user = string(f[4])
	}
	if len(f[7]) > 0 {
		j.name = string(f[7])
	}
	if len(f[5]) > 0 {
		j.class = "class" + strconv.FormatInt(class, 10)
	}
	switch ev {
	case gSubmit:
		if j.submit < 0 && !j.before {
			if t == 0 {
				j.before = true
			} else {
				j.submit = t
			}
		}
	case gFail, gFinish, gKill, gLost:
		j.final = int(ev)
	}
	return nil
}

// taskEvents reads one task_events part.
func (g *google2011) taskEvents(r io.Reader, name string) error {
	return g.part(r, name, g.taskEvent)
}

func (g *google2011) taskEvent(b []byte) error {
	f, t, after, id, err := gEvent(b, gTaskFields)
	if err != nil {
		return err
	}
	idx, err := gInt("task index", f[gTaskIndex], 0, math.MaxInt64)
	if err != nil {
		return err
	}
	ev, err := gInt("event type", f[gTaskEvent], 0, gMaxEvent)
	if err != nil {
		return err
	}
	j := g.jobs[id]
	if after || j == nil || j.submit < 0 {
		return nil // not a job this import can keep
	}
	if j.tasks == nil {
		j.tasks = make(map[int64]*googleTask)
	}
	task := j.tasks[idx]
	if task == nil {
		task = &googleTask{sched: -1, dur: -1}
		j.tasks[idx] = task
	}
	switch ev {
	case gSchedule:
		task.sched = t
	case gFinish:
		if task.sched < 0 {
			task.missed = true
		} else {
			task.dur = t - task.sched
		}
		task.sched = -1
	case gEvict, gFail, gKill, gLost:
		task.sched = -1
	}
	return nil
}

// finish turns the gathered jobs into records, in first-seen order.
func (g *google2011) finish() *Trace {
	t := g.t
	for _, id := range g.order {
		rec, reason := g.jobs[id].record()
		if reason != "" {
			t.filter(reason)
			continue
		}
		t.Records = append(t.Records, rec)
	}
	return t
}

func (j *googleJob) record() (Record, string) {
	switch {
	case j.before || j.submit < 0:
		return Record{}, "submitted before the trace"
	case j.final < 0:
		return Record{}, "unfinished at the trace end"
	case j.final == gFail:
		return Record{}, "failed"
	case j.final == gKill:
		return Record{}, "killed"
	case j.final == gLost:
		return Record{}, "lost"
	case len(j.tasks) == 0:
		return Record{}, "no task events"
	}
	idx := make([]int64, 0, len(j.tasks))
	for k := range j.tasks {
		idx = append(idx, k)
	}
	slices.SortFunc(idx, cmp.Compare[int64])
	rec := Record{Submit: j.submit, Size: len(idx), TaskDurations: make([]float64, len(idx))}
	for i, k := range idx {
		task := j.tasks[k]
		if task.dur < 0 {
			if task.missed {
				return Record{}, "task scheduled before the trace"
			}
			return Record{}, "task without a finished run"
		}
		rec.TaskDurations[i] = task.dur
		rec.Runtime = max(rec.Runtime, task.dur)
	}
	if rec.Runtime <= 0 {
		return Record{}, "zero runtime"
	}
	rec.Features = workloads.Features{
		User:      j.user,
		Name:      j.name,
		App:       j.class,
		Resources: "tasks=" + strconv.Itoa(rec.Size),
	}
	rec.Features.SubmitHour, rec.Features.SubmitDay = workloads.SubmitHourDay(rec.Submit)
	return rec, ""
}

package datalake

import (
	"cmp"
	"container/heap"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// The lake's real world is one simulation of all three weeks (and the
// lead-in) on the nominal cluster: every organisation's hierarchical
// queue at its nominal size, jobs ordered within a queue by user priority
// (highest first, then submission, then id) — the Cosmos default — and
// each started as soon as its gang fits in its queue's free tokens
// (greedy list scheduling, no reservations). It gives the history its
// start and end times and the window its real-world completions, which
// the downloads count from.
//
// Submission semantics (§6.3):
//   - a job resolves its hard inputs at submission; one missing (not
//     written, or its writer not done) fails it at once, and it writes
//     nothing, so its hard dependents fail in turn;
//   - a polling job is submitted 1–14 minutes after the last of its
//     inputs appears, and never when one never appears;
//   - a job reads its soft inputs when it starts (every output of the
//     upstream written within the lookback) and never fails for them.

// sim is one run of the lake.
type sim struct {
	seed      uint64
	ts        []Template
	first     map[int]int
	followers [][]int // per template, the polling templates reading it
	// capacity[o] is organisation o's queue in tokens; nil means
	// unbounded (the sizing run: every job starts at submission).
	capacity []int
	free     []int
	pending  [][]int
	jobs     []Job
	byKey    map[[2]int]int
	// done[t] lists template t's completed jobs in order of completion;
	// aperiodic[t] its jobs' submit times by instance.
	done      [][]int
	finished  []bool
	aperiodic map[int][]float64
	events    eventHeap
	seq       int
}

type event struct {
	at  float64
	end bool
	seq int
	job int
}

type eventHeap []event

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(i, j int) bool {
	a, b := h[i], h[j]
	if a.at != b.at {
		return a.at < b.at
	}
	if a.end != b.end {
		return a.end // completions before submissions at the same time
	}
	return a.seq < b.seq
}
func (h eventHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *eventHeap) Push(x any)   { *h = append(*h, x.(event)) }
func (h *eventHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

func newSim(seed uint64, ts []Template, nOrgs int, capacity []int) *sim {
	s := &sim{
		seed:      seed,
		ts:        ts,
		first:     map[int]int{},
		followers: make([][]int, len(ts)),
		capacity:  capacity,
		pending:   make([][]int, nOrgs),
		byKey:     map[[2]int]int{},
		done:      make([][]int, len(ts)),
		aperiodic: map[int][]float64{},
	}
	if capacity != nil {
		s.free = slices.Clone(capacity)
	}
	for i := range ts {
		for _, d := range ts[i].Deps {
			if d.Kind == PollingDep {
				s.followers[d.Upstream] = append(s.followers[d.Upstream], i)
			}
		}
	}
	return s
}

// run plays the arrivals (periodic, aperiodic and ad-hoc jobs) and every
// polling job they trigger until all jobs have ended.
func (s *sim) run(arrivals []arrival) []Job {
	for _, a := range arrivals {
		if s.ts[a.template].Kind == Aperiodic {
			s.aperiodic[a.template] = append(s.aperiodic[a.template], a.submit)
		}
	}
	for _, a := range arrivals {
		s.newJob(a.template, a.instance, a.submit, 0)
	}
	for s.events.Len() > 0 {
		e := heap.Pop(&s.events).(event)
		if e.end {
			s.complete(e.job, e.at)
		} else {
			s.submit(e.job, e.at)
		}
	}
	return s.jobs
}

// newJob creates instance n of template t submitted at submit.
func (s *sim) newJob(t, n int, submit, pollDelay float64) {
	tp := &s.ts[t]
	rng := instanceRand(s.seed, t, n)
	rng.Float64() // the jitter's draw (periodicArrivals)
	runtime := clamp(lognormal(rng, tp.Runtime, tp.Sigma), 30, 12*Hour)
	prio := tp.Priority
	if tp.Kind.Recurring() {
		if u := rng.Float64(); u < pRunBump/2 {
			prio--
		} else if u < pRunBump {
			prio++
		}
		prio = clampInt(prio, 1, 9)
	}
	id := len(s.jobs)
	s.jobs = append(s.jobs, Job{
		ID: id, Template: t, Instance: n, Priority: prio, Width: tp.Width,
		Runtime: runtime, Submit: submit, PollDelay: pollDelay,
	})
	s.finished = append(s.finished, false)
	s.byKey[[2]int{t, n}] = id
	s.push(event{at: submit, job: id})
}

func (s *sim) push(e event) {
	e.seq = s.seq
	s.seq++
	heap.Push(&s.events, e)
}

// expected lists the instances of upstream u that a job of template t
// submitted at time at (instance n) expects for a hard input: its own
// previous instance for a self input; for u with a period, the instances
// due (n·Period + Bound) in the job's period before at when t is
// periodic with a period at least u's — the same number every time —
// else the latest instance due by at. Ad-hoc inputs are resolved
// elsewhere (the latest output at submission).
func (s *sim) expected(t, n int, at float64, u int) []int {
	if u == t {
		return []int{n - 1}
	}
	up := &s.ts[u]
	tp := &s.ts[t]
	if tp.Kind.Periodic() {
		at = float64(n)*tp.Period + tp.Offset // the job's slot, not its jitter
	}
	last := int(math.Floor((at - up.Bound) / up.Period))
	if tp.Kind.Periodic() && tp.Period >= up.Period {
		firstN := int(math.Floor((at-tp.Period-up.Bound)/up.Period)) + 1
		out := make([]int, 0, last-firstN+1)
		for k := firstN; k <= last; k++ {
			out = append(out, k)
		}
		return out
	}
	return []int{last}
}

// submit resolves job id's hard inputs at time at: it fails when one is
// missing, else it joins its queue.
func (s *sim) submit(id int, at float64) {
	j := &s.jobs[id]
	tp := &s.ts[j.Template]
	var inputs []Input
	for _, d := range tp.Deps {
		if d.Kind != Hard {
			continue
		}
		up := &s.ts[d.Upstream]
		if tp.Kind == AdHoc {
			if l := s.done[d.Upstream]; len(l) > 0 {
				w := &s.jobs[l[len(l)-1]]
				inputs = append(inputs, Input{File: partition(up, w.Instance), Kind: Hard, Writer: w.ID, Written: w.End})
			}
			continue
		}
		for _, n := range s.expected(j.Template, j.Instance, at, d.Upstream) {
			file := partition(up, n)
			if n < firstInstance(s.ts, s.first, d.Upstream) {
				inputs = append(inputs, Input{File: file, Kind: Hard, Writer: -1, Written: WorldStart})
				continue
			}
			w, ok := s.byKey[[2]int{d.Upstream, n}]
			if !ok || !s.finished[w] || s.jobs[w].Status != Completed {
				if !ok {
					w = -1
				}
				j.Status = FailedMissingInput
				j.Start, j.End = at, at
				j.Inputs = []Input{{File: file, Kind: Hard, Writer: w, Missing: true}}
				return
			}
			inputs = append(inputs, Input{File: file, Kind: Hard, Writer: w, Written: s.jobs[w].End})
		}
	}
	j.Inputs = append(j.Inputs, inputs...)
	if tp.Source >= 0 {
		j.ExternalReads = sourceReads(tp, at)
	}
	if s.capacity == nil {
		s.start(id, at)
		return
	}
	q := tp.Org
	s.pending[q] = insertPending(s.pending[q], s.jobs, id)
	s.schedule(q, at)
}

// insertPending inserts id into the queue order: priority (highest
// first), then submission, then id.
func insertPending(q []int, jobs []Job, id int) []int {
	i, _ := slices.BinarySearchFunc(q, id, func(a, b int) int { return pendingOrder(&jobs[a], &jobs[b]) })
	return slices.Insert(q, i, id)
}

func pendingOrder(a, b *Job) int {
	if c := cmp.Compare(b.Priority, a.Priority); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Submit, b.Submit); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

// schedule starts, in queue order, every pending job of queue q whose
// gang fits in the queue's free tokens.
func (s *sim) schedule(q int, at float64) {
	kept := s.pending[q][:0]
	for _, id := range s.pending[q] {
		if w := s.jobs[id].Width; w <= s.free[q] {
			s.free[q] -= w
			s.start(id, at)
			continue
		}
		kept = append(kept, id)
	}
	s.pending[q] = kept
}

// start runs job id from at: it reads its soft inputs and ends after its
// runtime.
func (s *sim) start(id int, at float64) {
	j := &s.jobs[id]
	j.Start = at
	tp := &s.ts[j.Template]
	for _, d := range tp.Deps {
		if d.Kind != Soft {
			continue
		}
		up := &s.ts[d.Upstream]
		l := s.done[d.Upstream]
		lo, _ := slices.BinarySearchFunc(l, at-d.Lookback, func(w int, t float64) int { return cmp.Compare(s.jobs[w].End, t) })
		for _, w := range l[lo:] {
			if s.jobs[w].End >= at {
				break
			}
			j.Inputs = append(j.Inputs, Input{File: partition(up, s.jobs[w].Instance), Kind: Soft, Writer: w, Written: s.jobs[w].End})
		}
	}
	s.push(event{at: at + j.Runtime, end: true, job: id})
}

// complete ends job id at time at: it writes its outputs, frees its
// tokens and triggers the polling jobs whose inputs are now all there.
func (s *sim) complete(id int, at float64) {
	j := &s.jobs[id]
	j.End = at
	s.finished[id] = true
	t, n, width := j.Template, j.Instance, j.Width
	tp := &s.ts[t]
	j.Outputs = []Output{{File: partition(tp, n)}}
	if tp.Snapshot {
		j.Outputs = append(j.Outputs, Output{File: snapshot(tp)})
	}
	s.done[t] = append(s.done[t], id)
	for _, f := range s.followers[t] {
		s.trigger(f, n, at) // may grow s.jobs: j is stale after this
	}
	if s.capacity != nil {
		q := tp.Org
		s.free[q] += width
		s.schedule(q, at)
	}
}

// trigger submits instance n of polling template f once every one of its
// inputs' instance n has completed (the last at time at), unless it
// would be submitted after the window.
func (s *sim) trigger(f, n int, at float64) {
	if _, ok := s.byKey[[2]int{f, n}]; ok {
		return
	}
	tp := &s.ts[f]
	var inputs []Input
	for _, d := range tp.Deps {
		w, ok := s.byKey[[2]int{d.Upstream, n}]
		if !ok || !s.finished[w] || s.jobs[w].Status != Completed {
			return
		}
		inputs = append(inputs, Input{File: partition(&s.ts[d.Upstream], n), Kind: PollingDep, Writer: w, Written: s.jobs[w].End})
	}
	rng := instanceRand(s.seed, f, n)
	rng.Float64()
	rng.Float64()
	delay := 60 + 780*rng.Float64()
	if at+delay >= WindowEnd {
		return
	}
	s.newJob(f, n, at+delay, delay)
	s.jobs[len(s.jobs)-1].Inputs = inputs
}

// partition is the file instance n of template t writes.
func partition(t *Template, n int) string { return t.Name + "/" + strconv.Itoa(n) }

// snapshot is the file a snapshot template overwrites every run.
func snapshot(t *Template) string { return t.Name + "/latest" }

// streamFile is hour h's partition of external stream k (uploaded by
// ingestion, written by no job).
func streamFile(k, h int) string { return fmt.Sprintf("ext/s%03d/%d", k, h) }

// sourceReads are the stream partitions a source job submitted at at
// reads: the previous hour's (hourly) or the previous 24 (daily).
func sourceReads(t *Template, at float64) []string {
	h := int(math.Floor(at/Hour)) - 1
	n := 1
	if t.Period == Day {
		n = 24
	}
	out := make([]string, 0, n)
	for k := h - n + 1; k <= h; k++ {
		out = append(out, streamFile(t.Source, k))
	}
	return out
}

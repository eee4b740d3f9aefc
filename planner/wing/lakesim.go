package wing

import (
	"cmp"
	"container/heap"
	"fmt"
	"math"
	"slices"

	"github.com/plannerhq/planner/workloads"
	"github.com/plannerhq/planner/workloads/datalake"
)

// LakeResult is one policy's run of a lake's window (§6, §7).
type LakeResult struct {
	Scheduler string  `json:"scheduler"`
	Queues    string  `json:"queues"`
	Capacity  float64 `json:"capacity_pct"`
	Jobs      int     `json:"jobs"`
	// ValueAttained is Σ downloads attained / Σ downloads achievable, in
	// [0, 1]: a job completing at c attains its outputs' downloads at or
	// after c, a failed or never-submitted job none.
	ValueAttained float64 `json:"value_attained"`
	Attained      int     `json:"value_attained_downloads"`
	Achievable    int     `json:"value_achievable_downloads"`
	// JobsFailed are the jobs a hard input missing at submission failed
	// (directly or by cascade); JobsFailedShare their share of Jobs.
	JobsFailed      int     `json:"jobs_failed"`
	JobsFailedShare float64 `json:"jobs_failed_share"`
	// JobsNeverSubmitted are polling jobs whose input never appeared
	// (its writer failed or never came).
	JobsNeverSubmitted int `json:"jobs_never_submitted"`
	JobsCompleted      int `json:"jobs_completed"`
	// PriorityInversions counts the true hard dependencies between
	// window jobs of one queue whose reader was submitted while its
	// writer still waited in the queue, ranked below the reader (a
	// polling reader is submitted only after its writer ends).
	PriorityInversions int `json:"priority_inversions"`
	// MakespanS is the last completion (s from the window's start).
	MakespanS float64 `json:"makespan_s"`
}

// lakeJob states.
const (
	jWaiting = iota // not yet submitted (a polling job waits for inputs)
	jPending
	jRunning
	jDone
	jFailed
	jNever
)

type lakeEvent struct {
	at  float64
	end bool
	seq int
	job int
}

type lakeHeap []lakeEvent

func (h lakeHeap) Len() int { return len(h) }
func (h lakeHeap) Less(i, j int) bool {
	a, b := h[i], h[j]
	if a.at != b.at {
		return a.at < b.at
	}
	if a.end != b.end {
		return a.end // a completion at a submission's time is seen by it
	}
	return a.seq < b.seq
}
func (h lakeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *lakeHeap) Push(x any)   { *h = append(*h, x.(lakeEvent)) }
func (h *lakeHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

// lakeSim plays a lake's window under §6's semantics with gang
// scheduling in the layout's queues: at a submission the job starts if
// its gang fits its queue's free tokens (nothing else changed since the
// queue was last filled); at a completion the queue's pending jobs are
// started greedily in the policy's order (highest priority first, then
// submission, then id), each whose gang fits (YARN's CapacityScheduler
// with Cosmos's gang admission, and the lake's real world).
type lakeSim struct {
	jobs  []workloads.Job
	tr    *datalake.Truth
	pol   Priority
	queue []int // per job, its queue
	free  []int
	// pending[q] are the queue's pending jobs, in submission order.
	pending [][]int
	state   []int
	end     []float64
	// polls[i] counts job i's in-window polling inputs not yet written;
	// pollAt[i] is the latest time one of them was written.
	polls   []int
	pollAt  []float64
	pollers [][]int // per writer, its in-window polling readers
	idx     map[int]int
	events  lakeHeap
	seq     int
	res     LakeResult
}

// Priority ranks job i (an index into the window's jobs) at time now:
// higher first.
type Priority struct {
	Rank func(i int, now float64) float64
}

// SimulateLake runs the window (jobs and tr from a datalake.Lake's
// WindowJobs and Truth) on layout lay with the policy's priorities until
// every job has ended, and reports §7's metrics.
func SimulateLake(jobs []workloads.Job, tr *datalake.Truth, lay datalake.Layout, pol Priority) (*LakeResult, error) {
	if len(jobs) != len(tr.Jobs) {
		return nil, fmt.Errorf("wing: %d window jobs but truth for %d", len(jobs), len(tr.Jobs))
	}
	n := len(jobs)
	s := &lakeSim{
		jobs: jobs, tr: tr, pol: pol, queue: make([]int, n), pending: make([][]int, len(lay.Queues)),
		state: make([]int, n), end: make([]float64, n), polls: make([]int, n), pollAt: make([]float64, n),
		pollers: make([][]int, n), idx: make(map[int]int, n),
	}
	s.res = LakeResult{Queues: lay.Mode.String(), Capacity: lay.Capacity, Jobs: n}
	for _, q := range lay.Queues {
		s.free = append(s.free, q.Tokens)
	}
	for i := range jobs {
		s.idx[jobs[i].ID] = i
	}
	for i := range jobs {
		jt := &tr.Jobs[i]
		s.queue[i] = lay.QueueOf(jt.Org)
		if s.queue[i] < 0 {
			return nil, fmt.Errorf("wing: job %d: organisation %q has no queue", jobs[i].ID, jt.Org)
		}
		if q := lay.Queues[s.queue[i]]; jobs[i].Nodes > q.Tokens {
			return nil, fmt.Errorf("wing: job %d needs %d tokens, queue %s has %d", jobs[i].ID, jobs[i].Nodes, q.Name, q.Tokens)
		}
		s.res.Achievable += jt.Value()
		polling, never := false, false
		for _, in := range jt.Inputs {
			switch in.Kind {
			case datalake.PollingDep:
				polling = true
				if w, ok := s.idx[in.Writer]; ok && in.InWindow {
					s.polls[i]++
					s.pollers[w] = append(s.pollers[w], i)
				} else if in.Missing {
					never = true
				} else {
					s.pollAt[i] = max(s.pollAt[i], in.Written)
				}
			}
		}
		switch {
		case !polling:
			s.push(jobs[i].Submit, false, i)
		case never:
			s.state[i] = jNever
		case s.polls[i] == 0:
			s.push(s.pollAt[i]+jt.PollDelay, false, i)
		}
	}
	for s.events.Len() > 0 {
		e := heap.Pop(&s.events).(lakeEvent)
		if e.end {
			s.complete(e.job, e.at)
		} else {
			s.submit(e.job, e.at)
		}
	}
	for i := range jobs {
		switch s.state[i] {
		case jDone:
			s.res.JobsCompleted++
			s.res.MakespanS = max(s.res.MakespanS, s.end[i])
			for _, o := range tr.Jobs[i].Outputs {
				k, _ := slices.BinarySearch(o.Downloads, s.end[i])
				s.res.Attained += len(o.Downloads) - k
			}
		case jFailed:
			s.res.JobsFailed++
		case jNever, jWaiting:
			s.res.JobsNeverSubmitted++
		}
	}
	if s.res.Achievable > 0 {
		s.res.ValueAttained = float64(s.res.Attained) / float64(s.res.Achievable)
	}
	if n > 0 {
		s.res.JobsFailedShare = float64(s.res.JobsFailed) / float64(n)
	}
	return &s.res, nil
}

func (s *lakeSim) push(at float64, end bool, job int) {
	heap.Push(&s.events, lakeEvent{at: at, end: end, seq: s.seq, job: job})
	s.seq++
}

// submit resolves job i's hard inputs at t: a writer in the window must
// have completed by t, one outside it must have written by t (and not be
// missing); else the job fails and writes nothing, so its polling
// readers never come and its hard readers fail in turn at their
// submission.
func (s *lakeSim) submit(i int, t float64) {
	q := s.queue[i]
	for _, in := range s.tr.Jobs[i].Inputs {
		if w, ok := s.idx[in.Writer]; ok && in.InWindow && in.Kind == datalake.Hard && s.state[w] == jPending &&
			s.queue[w] == q && s.pol.Rank(i, t) > s.pol.Rank(w, t) {
			s.res.PriorityInversions++
		}
	}
	for _, in := range s.tr.Jobs[i].Inputs {
		if in.Kind != datalake.Hard {
			continue
		}
		ok := !in.Missing && in.Written <= t
		if w, inWin := s.idx[in.Writer]; inWin && in.InWindow {
			ok = s.state[w] == jDone && s.end[w] <= t
		}
		if !ok {
			s.state[i] = jFailed
			s.end[i] = t
			s.never(i)
			return
		}
	}
	s.state[i] = jPending
	if s.jobs[i].Nodes <= s.free[q] {
		s.start(i, t)
		return
	}
	s.pending[q] = append(s.pending[q], i)
}

// never marks the polling readers of failed or never-submitted job w as
// never submitted, transitively.
func (s *lakeSim) never(w int) {
	for _, r := range s.pollers[w] {
		if s.state[r] == jWaiting {
			s.state[r] = jNever
			s.never(r)
		}
	}
}

func (s *lakeSim) start(i int, t float64) {
	s.state[i] = jRunning
	s.free[s.queue[i]] -= s.jobs[i].Nodes
	s.push(t+s.jobs[i].Runtime, true, i)
}

func (s *lakeSim) complete(i int, t float64) {
	s.state[i] = jDone
	s.end[i] = t
	q := s.queue[i]
	s.free[q] += s.jobs[i].Nodes
	for _, r := range s.pollers[i] {
		if s.state[r] != jWaiting {
			continue
		}
		s.pollAt[r] = max(s.pollAt[r], t)
		if s.polls[r]--; s.polls[r] == 0 {
			s.push(s.pollAt[r]+s.tr.Jobs[r].PollDelay, false, r)
		}
	}
	s.fill(q, t)
}

// fill starts queue q's pending jobs greedily in priority order.
func (s *lakeSim) fill(q int, t float64) {
	p := s.pending[q]
	if len(p) == 0 {
		return
	}
	minW := math.MaxInt
	for _, j := range p {
		minW = min(minW, s.jobs[j].Nodes)
	}
	if s.free[q] < minW {
		return
	}
	rank := make(map[int]float64, len(p))
	for _, j := range p {
		rank[j] = s.pol.Rank(j, t)
	}
	order := slices.Clone(p)
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(rank[b], rank[a]); c != 0 {
			return c
		}
		if c := cmp.Compare(s.jobs[a].Submit, s.jobs[b].Submit); c != 0 {
			return c
		}
		return cmp.Compare(s.jobs[a].ID, s.jobs[b].ID)
	})
	for _, j := range order {
		if s.free[q] < minW {
			break
		}
		if s.jobs[j].Nodes <= s.free[q] {
			s.start(j, t)
		}
	}
	s.pending[q] = slices.DeleteFunc(p, func(j int) bool { return s.state[j] != jPending })
}

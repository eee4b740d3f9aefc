package service

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/estimate"
	"github.com/plannerhq/planner/workloads"
)

// jobStatus is where a job is in its life.
type jobStatus uint8

const (
	statusPending   jobStatus = iota // waiting for a start
	statusStarting                   // a start was decided, not acknowledged yet
	statusRunning                    // started (acknowledged)
	statusCompleted                  // ended; its runtime was learnt
	statusFailed                     // ended without a useful runtime
	statusCancelled                  // withdrawn by the client
)

var statusNames = [...]string{"pending", "starting", "running", "completed", "failed", "cancelled"}

func (s jobStatus) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("jobStatus(%d)", int(s))
}

// parseStatus is the inverse of String.
func parseStatus(name string) (jobStatus, bool) {
	i := slices.Index(statusNames[:], name)
	return jobStatus(max(i, 0)), i >= 0
}

// holding: the job holds nodes (a start was decided and it has not ended).
func (s jobStatus) holding() bool { return s == statusStarting || s == statusRunning }

// ended: no event but an idempotent repeat changes the job any more.
func (s jobStatus) ended() bool { return s >= statusCompleted }

// Event types a client reports.
const (
	evStarted   = "started"
	evCompleted = "completed"
	evFailed    = "failed"
	evCancelled = "cancelled"
)

// jobState is the service's book of one job.
type jobState struct {
	job  workloads.Job // what the planner sees; never changed once accepted
	key  string        // the client's id
	spec JobSpec
	pred PredictionView

	status      jobStatus
	alloc       []int   // of the current or last run
	start       float64 // of the current or last run
	end         float64 // of a completed run
	runtime     float64 // of a completed run, as learnt
	preemptions int
	events      []jobEvent
	// lastSpec is the last client event that changed the job, so that a
	// repeat of it is answered as before (idempotent retries).
	lastSpec *EventSpec
	// decided is the feed item of the current run's start; its
	// acknowledgement is the next client event of the job.
	decided *feedItem
	// preempted is the feed item of the last preemption, not yet
	// acknowledged.
	preempted *feedItem
}

// jobEvent is one entry of a job's history.
type jobEvent struct {
	seq     uint64
	typ     string
	at      float64
	runtime float64 // completed only
	reason  string
}

// feedItem is one decision to enact (GET /v1/decisions).
type feedItem struct {
	seq     uint64
	at      float64
	cycle   uint64
	preempt bool
	job     *jobState
	alloc   []int
	// shortest is the start's DecisionView.ShortestRuntimeS (0: none).
	shortest float64
	acked    bool
}

// schedItem is something the scheduler is told before its next cycle, in
// order: a completion (Observe) or a batch of history (Train).
type schedItem struct {
	completion *planner.Completion
	history    []workloads.Job
}

// maxCycles is the number of recent cycles the state keeps for the
// operator page and GET /v1/plan.
const maxCycles = 200

// state is every job, decision and capacity, as the log builds them. It
// is guarded by Service.mu: the journal goroutine applies records under
// the write lock, readers take the read lock.
type state struct {
	tl      timeline
	cluster workloads.Cluster // names, speeds, slowdown; PartitionNodes the installed nodes
	caps    []capacity

	byID    map[int]*jobState
	byKey   map[string]*jobState
	order   []*jobState // by id (acceptance order)
	pending []*jobState // by submit time, then id: the simulator's order
	holding []*jobState // starting or running, by id
	used    []int       // nodes held per partition
	counts  [len(statusNames)]int

	feed   []*feedItem // feed[i].seq = i + 1
	feedCh chan struct{}
	cycles []CycleView // the last maxCycles cycles that decided something or ran
	plan   []planner.PlannedStart
	// planCycle is the cycle that made plan.
	planCycle uint64

	seq      uint64 // of the last record applied
	clock    float64
	hasClock bool
	cycle    uint64 // cycles run so far

	// pred learns the completions and history with a record sequence
	// number above learnFrom (a restart's snapshot holds the others).
	pred      estimate.Sigma
	learnFrom uint64
	// sched collects what the scheduler must be told before its next
	// cycle (live records only).
	sched   []schedItem
	learned int // runtimes learnt since the last predictor snapshot
}

func newState(tl timeline, c workloads.Cluster, pred estimate.Sigma) *state {
	st := &state{tl: tl, cluster: c.Clone(), byID: map[int]*jobState{}, byKey: map[string]*jobState{},
		used: make([]int, len(c.PartitionNodes)), feedCh: make(chan struct{}), pred: pred}
	st.caps = make([]capacity, len(c.PartitionNodes))
	for r, n := range c.PartitionNodes {
		st.caps[r] = capacity{Nodes: n}
	}
	return st
}

// apply changes the state by rec; live is false while a restart replays
// the log (the scheduler is then not told of old completions).
func (st *state) apply(rec *record, live bool) {
	st.seq = rec.Seq
	switch {
	case rec.Submit != nil:
		st.applySubmit(rec)
	case rec.Event != nil:
		st.applyEvent(rec, live)
	case rec.Decision != nil:
		st.applyDecision(rec)
	case rec.Cluster != nil:
		st.caps = slices.Clone(rec.Cluster.Caps)
		for r, c := range st.caps {
			st.cluster.PartitionNodes[r] = c.Nodes
		}
	case rec.History != nil:
		jobs := make([]workloads.Job, 0, len(rec.History.Jobs))
		for _, h := range rec.History.Jobs {
			jobs = append(jobs, workloads.Job{Features: h.Features, Runtime: h.Runtime})
			st.learn(rec.Seq, h.Features, h.Runtime)
		}
		if live {
			st.sched = append(st.sched, schedItem{history: jobs})
		}
	case rec.Clock != nil:
		st.clock, st.hasClock = rec.Clock.Now, true
	}
}

// learn feeds a runtime (seconds on preferred nodes) to the predictor
// unless the predictor's snapshot already holds it.
func (st *state) learn(seq uint64, f workloads.Features, runtime float64) {
	if seq <= st.learnFrom {
		return
	}
	st.pred.Observe(f, runtime)
	st.learned++
}

func (st *state) applySubmit(rec *record) {
	s := rec.Submit
	js := &jobState{job: s.Job, key: s.Spec.ID, spec: s.Spec, pred: s.Pred, status: statusPending}
	st.byID[js.job.ID] = js
	st.byKey[js.key] = js
	st.order = append(st.order, js)
	st.counts[statusPending]++
	st.enqueue(js)
	js.events = append(js.events, jobEvent{seq: rec.Seq, typ: "submitted", at: s.Job.Submit})
}

func (st *state) applyEvent(rec *record, live bool) {
	e := rec.Event
	js := st.byID[e.Job]
	spec := e.Spec
	js.lastSpec = &spec
	js.events = append(js.events, jobEvent{seq: rec.Seq, typ: e.Type, at: e.At, runtime: e.Runtime, reason: e.Spec.Reason})
	st.ack(js)
	switch e.Type {
	case evStarted:
		if js.status == statusStarting {
			st.setStatus(js, statusRunning)
		}
		js.start = e.At
	case evCompleted:
		c := st.completion(js, e.At, e.Runtime)
		st.release(js)
		st.setStatus(js, statusCompleted)
		js.end, js.runtime = e.At, e.Runtime
		st.learn(rec.Seq, js.job.Features, c.PreferredRuntime())
		if live {
			st.sched = append(st.sched, schedItem{completion: &c})
		}
	case evFailed, evCancelled:
		if js.status == statusPending {
			st.dequeue(js)
		} else {
			st.release(js)
		}
		if e.Type == evFailed {
			st.setStatus(js, statusFailed)
		} else {
			st.setStatus(js, statusCancelled)
		}
	}
}

// completion is the planner's record of js's run ending at end after
// runtime seconds, as the simulator makes it: slowed when the run held a
// node off the job's preferred partitions, at the speed of its slowest
// partition.
func (st *state) completion(js *jobState, end, runtime float64) planner.Completion {
	c := planner.Completion{Job: &js.job, Start: js.start, End: end, Runtime: runtime,
		Slowed: js.job.SlowedOn(js.alloc), Slowdown: 1, Speed: st.cluster.SpeedOf(js.alloc)}
	if c.Slowed {
		c.Slowdown = st.cluster.Slowdown
	}
	return c
}

// ack marks the job's open decisions acknowledged by its new event.
func (st *state) ack(js *jobState) {
	if js.decided != nil {
		js.decided.acked = true
	}
	if js.preempted != nil {
		js.preempted.acked = true
		js.preempted = nil
	}
}

func (st *state) applyDecision(rec *record) {
	d := rec.Decision
	st.cycle = max(st.cycle, d.Cycle)
	for _, id := range d.Preempts {
		js := st.byID[id]
		st.release(js)
		js.alloc = nil
		js.preemptions++
		js.decided = nil
		st.setStatus(js, statusPending)
		st.enqueue(js)
		it := st.addFeed(d, js, nil, true)
		js.preempted = it
		js.events = append(js.events, jobEvent{seq: rec.Seq, typ: "preempted", at: d.Now})
	}
	for _, pl := range d.Starts {
		js := st.byID[pl.Job]
		st.dequeue(js)
		js.alloc = slices.Clone(pl.Alloc)
		js.start = d.Now
		js.preempted = nil
		for r, k := range js.alloc {
			st.used[r] += k
		}
		i, _ := slices.BinarySearchFunc(st.holding, js, byJobID)
		st.holding = slices.Insert(st.holding, i, js)
		st.setStatus(js, statusStarting)
		js.decided = st.addFeed(d, js, js.alloc, false)
		js.decided.shortest = pl.ShortestS
		js.events = append(js.events, jobEvent{seq: rec.Seq, typ: "decided", at: d.Now})
	}
	st.addCycle(d.Stats)
	if len(d.Starts)+len(d.Preempts) > 0 {
		close(st.feedCh)
		st.feedCh = make(chan struct{})
	}
}

func (st *state) addFeed(d *decisionRec, js *jobState, alloc []int, preempt bool) *feedItem {
	it := &feedItem{seq: uint64(len(st.feed) + 1), at: d.Now, cycle: d.Cycle, preempt: preempt, job: js, alloc: alloc}
	st.feed = append(st.feed, it)
	return it
}

// addCycle keeps the summary of a cycle among the recent ones.
func (st *state) addCycle(c CycleView) {
	if len(st.cycles) == maxCycles {
		st.cycles = slices.Delete(st.cycles, 0, 1)
	}
	st.cycles = append(st.cycles, c)
}

func (st *state) setStatus(js *jobState, s jobStatus) {
	st.counts[js.status]--
	js.status = s
	st.counts[s]++
}

// enqueue puts js among the pending jobs, kept by (submit, id).
func (st *state) enqueue(js *jobState) {
	i, _ := slices.BinarySearchFunc(st.pending, js, bySubmitID)
	st.pending = slices.Insert(st.pending, i, js)
}

func (st *state) dequeue(js *jobState) {
	if i, ok := slices.BinarySearchFunc(st.pending, js, bySubmitID); ok {
		st.pending = slices.Delete(st.pending, i, i+1)
	}
}

// release frees the nodes js holds, if it holds any.
func (st *state) release(js *jobState) {
	if !js.status.holding() {
		return
	}
	for r, k := range js.alloc {
		st.used[r] -= k
	}
	if i, ok := slices.BinarySearchFunc(st.holding, js, byJobID); ok {
		st.holding = slices.Delete(st.holding, i, i+1)
	}
}

func bySubmitID(a, b *jobState) int {
	if c := cmp.Compare(a.job.Submit, b.job.Submit); c != 0 {
		return c
	}
	return cmp.Compare(a.job.ID, b.job.ID)
}

func byJobID(a, b *jobState) int { return cmp.Compare(a.job.ID, b.job.ID) }

// plannerCluster is the cluster a cycle plans on: each partition's nodes
// are those available (installed − drained − lost), but never fewer than
// the jobs there hold, since the service does not know which nodes went:
// a drained node may be one a running job holds. Free nodes are then
// never negative.
func (st *state) plannerCluster() workloads.Cluster {
	c := st.cluster.Clone()
	for r := range c.PartitionNodes {
		c.PartitionNodes[r] = max(st.caps[r].available(), st.used[r])
	}
	return c
}

// free is the idle nodes of each partition the planner may use.
func (st *state) free() []int {
	f := make([]int, len(st.caps))
	for r, c := range st.caps {
		f[r] = max(0, c.available()-st.used[r])
	}
	return f
}

// plannerState is the state a cycle at now sees: the pending jobs in the
// simulator's order (submit, id), the jobs holding nodes by id. The jobs
// are the service's (never changed once accepted); every slice is fresh.
func (st *state) plannerState(now, interval float64) *planner.State {
	ps := &planner.State{Now: now, Cluster: st.plannerCluster(), Free: st.free(), Interval: interval,
		Pending: make([]*planner.Pending, len(st.pending)), Running: make([]*planner.Running, len(st.holding))}
	for i, js := range st.pending {
		ps.Pending[i] = &planner.Pending{Job: &js.job, Preemptions: js.preemptions}
	}
	for i, js := range st.holding {
		ps.Running[i] = &planner.Running{Job: &js.job, Start: js.start, Alloc: slices.Clone(js.alloc), Slowed: js.job.SlowedOn(js.alloc)}
	}
	return ps
}

// enact turns a valid decision (Decision.Validate on the state the cycle
// saw) into the record of what can be carried out now: the state may have
// changed while the scheduler planned (a job cancelled, nodes lost), and
// what no longer holds is refused. Preemptions come first, as in the
// simulator.
func (st *state) enact(cycle uint64, now float64, d *planner.Decision) (*decisionRec, *planner.ApplyResult) {
	rec := &decisionRec{Cycle: cycle, Now: now}
	res := &planner.ApplyResult{Now: now}
	free := make([]int, len(st.caps))
	for r, c := range st.caps {
		free[r] = c.available() - st.used[r]
	}
	named := map[int]bool{}
	refuse := func(id int, preempt bool, rule error, format string, args ...any) {
		res.Refused = append(res.Refused, planner.Refusal{JobID: id, Preempt: preempt,
			Err: &planner.DecisionError{JobID: id, Rule: rule, Detail: fmt.Sprintf(format, args...)}})
	}
	for _, id := range d.Preempt {
		js := st.byID[id]
		switch {
		case js == nil || named[id]:
			refuse(id, true, planner.ErrUnknownJob, "not a job of the service, or named twice")
		case !js.status.holding():
			refuse(id, true, planner.ErrNotRunning, "it is %s now", js.status)
		case js.job.Class != workloads.BestEffort:
			refuse(id, true, planner.ErrNotPreemptible, "class %v", js.job.Class)
		default:
			named[id] = true
			for r, k := range js.alloc {
				free[r] += k
			}
			rec.Preempts = append(rec.Preempts, id)
			res.Preempted = append(res.Preempted, id)
		}
	}
	for _, pl := range d.Start {
		js := st.byID[pl.JobID]
		switch {
		case js == nil || named[pl.JobID]:
			refuse(pl.JobID, false, planner.ErrUnknownJob, "not a job of the service, or named twice")
			continue
		case js.status != statusPending:
			refuse(pl.JobID, false, planner.ErrNotPending, "it is %s now", js.status)
			continue
		case len(pl.Alloc) != len(free):
			refuse(pl.JobID, false, planner.ErrAllocation, "%d partitions, the cluster has %d", len(pl.Alloc), len(free))
			continue
		}
		fits := true
		for r, k := range pl.Alloc {
			if k < 0 || k > free[r] {
				refuse(pl.JobID, false, planner.ErrCapacity, "%d nodes in partition %s, %d free now", k, st.cluster.PartitionName(r), max(free[r], 0))
				fits = false
				break
			}
		}
		if !fits {
			continue
		}
		named[pl.JobID] = true
		for r, k := range pl.Alloc {
			free[r] -= k
		}
		rec.Starts = append(rec.Starts, placementRec{Job: pl.JobID, Alloc: slices.Clone(pl.Alloc)})
		res.Started = append(res.Started, pl)
	}
	return rec, res
}

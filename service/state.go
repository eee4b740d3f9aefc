package service

import (
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
	// books are the cluster's books (planner.Ledger): the pending jobs,
	// the jobs holding nodes (starting or running) and the nodes they
	// hold, with each partition's available nodes as its capacity.
	books *planner.Ledger

	byID   map[int]*jobState
	byKey  map[string]*jobState
	order  []*jobState // by id (acceptance order)
	counts [len(statusNames)]int

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

// newState is the empty state of cluster c, whose cycles come every
// interval seconds.
func newState(tl timeline, c workloads.Cluster, interval float64, pred estimate.Sigma) *state {
	st := &state{tl: tl, cluster: c.Clone(), books: planner.NewLedger(c, interval), byID: map[int]*jobState{},
		byKey: map[string]*jobState{}, feedCh: make(chan struct{}), pred: pred}
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
			st.books.SetCapacity(r, c.available())
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
	st.books.Add(&js.job) // ids are the service's own, never reused
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
		st.books.Started(js.job.ID, e.At) // a started job holds nodes (handlers)
	case evCompleted:
		// The run holds nodes (handlers); its completion is the books'.
		c, err := st.books.CompleteMeasured(js.job.ID, 0, e.At, e.Runtime)
		st.setStatus(js, statusCompleted)
		js.end, js.runtime = e.At, e.Runtime
		if err != nil {
			break
		}
		st.learn(rec.Seq, js.job.Features, c.PreferredRuntime())
		if live {
			st.sched = append(st.sched, schedItem{completion: &c})
		}
	case evFailed, evCancelled:
		st.books.Remove(js.job.ID)
		if e.Type == evFailed {
			st.setStatus(js, statusFailed)
		} else {
			st.setStatus(js, statusCancelled)
		}
	}
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

// applyDecision carries a decision record out: the books apply it (the
// record holds what the cycle found they would carry out, Ledger.Preview),
// and each preemption and start the books carried out goes to the feed.
func (st *state) applyDecision(rec *record) {
	d := rec.Decision
	st.cycle = max(st.cycle, d.Cycle)
	dec := &planner.Decision{Preempt: d.Preempts}
	for _, pl := range d.Starts {
		dec.Start = append(dec.Start, planner.Placement{JobID: pl.Job, Alloc: pl.Alloc})
	}
	res := st.books.Apply(d.Now, dec)
	refused := map[int]bool{}
	for _, ref := range res.Refused {
		refused[ref.JobID] = true
	}
	for _, id := range res.Preempted {
		js := st.byID[id]
		js.alloc = nil
		js.preemptions++
		js.decided = nil
		st.setStatus(js, statusPending)
		it := st.addFeed(d, js, nil, true)
		js.preempted = it
		js.events = append(js.events, jobEvent{seq: rec.Seq, typ: "preempted", at: d.Now})
	}
	for _, pl := range d.Starts {
		if refused[pl.Job] {
			continue // cannot happen: the record holds what the books would carry out
		}
		js := st.byID[pl.Job]
		js.alloc = slices.Clone(pl.Alloc)
		js.start = d.Now
		js.preempted = nil
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

// holding are the jobs holding nodes (starting or running), by id.
func (st *state) holding() []*jobState {
	rs := st.books.Running()
	out := make([]*jobState, len(rs))
	for i, r := range rs {
		out[i] = st.byID[r.Job.ID]
	}
	return out
}

// enact is what can be carried out now of a decision that kept the
// contract on the state the cycle saw (Decision.Validate): the state may
// have changed while the scheduler planned (a job cancelled, nodes
// lost), and the books refuse what no longer holds (Ledger.Preview),
// preemptions first, as in the simulator. The record it returns carries
// the rest out once written (applyDecision).
func (st *state) enact(cycle uint64, now float64, d *planner.Decision) (*decisionRec, *planner.ApplyResult) {
	res := st.books.Preview(now, d)
	rec := &decisionRec{Cycle: cycle, Now: now, Preempts: slices.Clone(res.Preempted)}
	for _, pl := range res.Started {
		rec.Starts = append(rec.Starts, placementRec{Job: pl.JobID, Alloc: slices.Clone(pl.Alloc)})
	}
	return rec, res
}

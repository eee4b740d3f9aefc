package experiments

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/rs/zerolog"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/workloads"
)

// Input is what the simulator plays: a cluster and the jobs submitted to it.
type Input struct {
	// Name names the workload in reports ("google", a file name, …).
	Name    string
	Cluster workloads.Cluster
	// Jobs are the submitted jobs, in any order; ids must be unique. A
	// later stage of a DAG job (Job.After) arrives when its predecessor
	// completes, its submit time then that completion's (Sim.release).
	Jobs []workloads.Job
	// History are jobs completed before the run, given to Scheduler.Train.
	History []workloads.Job
	// Window is the length of the workload (seconds): jobs arrive in
	// [0, Window]. Zero means the latest submit time.
	Window float64
	// Meta is the workload's extension object (workloads.Header.Meta),
	// carried to each run's "workload_meta" in the reports; nil for none.
	Meta []byte
}

// SimConfig are the simulator's settings.
type SimConfig struct {
	// Interval is the simulated time between scheduling cycles (seconds).
	Interval float64
	// Decisions is when the scheduler decides: at the cycles k · Interval
	// only (planner.OnCycle, the zero value), or at every arrival and
	// completion as well (planner.OnEvents). The runner takes it from the
	// policy's registry row (planner.Policy.Decisions) unless told otherwise.
	Decisions planner.Timing
	// Drain bounds how long the simulation schedules past the window
	// (seconds). Zero is the default rule: schedule until every job has
	// completed, but stop at the latest SLO deadline or at 2 × Window,
	// whichever is earlier, and never before Window; a workload of
	// task-level jobs without an SLO job stops at TaskDrainWindows ×
	// Window instead (nothing else bounds it, and job completion times
	// compare schedulers only when every job completes). The runs under
	// way at the stop go on to their ends (Sim.finish); jobs still pending
	// never start (an SLO job among them misses its deadline, a
	// best-effort job adds no goodput), nor do the waiting tasks of a
	// task-level job.
	Drain float64
	// Progress, when set, is called as simulated time passes every
	// hundredth of the simulation's time limit (frac = 0.01, 0.02, …, 1).
	Progress func(frac, now float64)
	// Log receives a debug line per cycle and per decision (the zero
	// Logger logs nothing).
	Log zerolog.Logger
	// DropRuns leaves SimResult.Runs empty instead of recording every run
	// (a run per task of a task-level job): for runs too large to chart,
	// whose metrics do not need them.
	DropRuns bool
}

// TaskDrainWindows is the default drain limit of a workload of task-level
// jobs without SLO jobs, in windows (SimConfig.Drain).
const TaskDrainWindows = 10

// ErrInvalidInput is wrapped by every error about an Input or SimConfig.
var ErrInvalidInput = errors.New("invalid simulation input")

// JobRecord is the fate of one job in one run: the row of jobs.csv.
type JobRecord struct {
	JobID int
	// SourceID and Meta are the job's (workloads.Job): its trace id and
	// its extension object, carried to the reports.
	SourceID string
	Meta     []byte
	Class    workloads.Class
	User     string // Job.Features.User ("" when unknown)
	Submit   float64
	Deadline float64 // SLO only
	Nodes    int
	Runtime  float64 // actual runtime on preferred nodes
	// Requested is the user's requested time (seconds; 0 when unknown).
	Requested float64
	// Partitions are the partitions of the final run (ascending).
	Partitions []int
	Started    bool    // the final run started
	Start      float64 // start of the final run, when Started
	Completed  bool
	End        float64 // completion, when Completed
	Slowed     bool    // the final run held a node off the preferred set
	// MetDeadline: an SLO job that completed by its deadline.
	MetDeadline bool
	Preemptions int
	// Preferred are the job's preferred partitions (nil: all).
	Preferred []int
	// ShortestEstimate is the shortest nominal runtime (seconds) the
	// scheduler's estimate allowed when it started the final run
	// (planner.EstimateReporter); 0 when it reported none.
	ShortestEstimate float64
	// Miss is why an SLO job missed its deadline (MissNone otherwise).
	Miss MissCause

	// A task-level job (Tasks > 0; Job.TaskLevel) has no final run: Start
	// is its first task's start, End its last task's end; it Started once
	// a task started and Completed once every task completed; Partitions
	// are every partition a task ran in, and Slowed tells a task off the
	// preferred partitions. Nodes is its width (tasks × task nodes) and
	// Runtime its mean task duration.
	Tasks, TasksStarted, TasksDone int
	// TaskWaitSum is Σ (task start − Submit) over the started tasks
	// (seconds); TaskWork the node-seconds of its completed tasks within
	// the simulated span (SimResult.End), as BusyNodeSeconds counts them.
	TaskWaitSum, TaskWork float64

	// DAG is the id of the first stage of the job's DAG (Job.After), the
	// job's own id when it waits for none; Stage tells a later stage,
	// whose Submit is its release, its predecessor's End.
	DAG   int
	Stage bool
}

// CycleRecord is what the simulator keeps of one cycle. The cluster's
// counts are taken after the cycle's decision was carried out: they hold
// until the next completion, arrival or cycle.
type CycleRecord struct {
	Now     float64
	Wall    time.Duration // wall time of the Schedule call, measured by the simulator
	Stats   planner.CycleStats
	Started int // the decision's starts
	Preempt int // the decision's preemptions

	// PreemptedNodeSeconds is the work the cycle's preemptions threw away:
	// Σ nodes × (Now − start) over the preempted runs (node-seconds).
	PreemptedNodeSeconds float64
	// BusyNodes and FreeNodes partition the cluster's nodes: held by a
	// run, or idle.
	BusyNodes, FreeNodes int
	// PendingJobs are the jobs waiting (submitted, not running), and
	// PendingNodes the nodes they ask for in total; RunningJobs the jobs
	// holding nodes.
	PendingJobs, PendingNodes, RunningJobs int
}

// RunRecord is one run of a job: from a start to its completion or to its
// preemption. A job has one run per start; all but the last were
// preempted.
type RunRecord struct {
	JobID int
	// Task is the task of a task-level job the run is (0 for a gang job):
	// each task has one run.
	Task int
	// Start and End of the run (seconds). End is the completion or the
	// preemption; a run under way when the simulation stops goes on to its
	// end (Sim.finish), which may lie past SimResult.End.
	Start, End float64
	// Alloc[r] is the number of nodes the run held in partition r.
	Alloc []int
	// Preempted: the run was stopped by a preemption and its work lost;
	// otherwise it is the job's final run, and it completed.
	Preempted bool
}

// SimResult is the outcome of one simulation.
type SimResult struct {
	Jobs   []JobRecord // by job id
	Cycles []CycleRecord
	// Runs are every run of every job, preempted ones included, by start
	// time, then job id.
	Runs []RunRecord
	// End is the simulated time the run covers: the last completion when
	// every job completed by the drain limit (at least Window), else the
	// limit. Runs under way at the limit go on to their ends for the jobs'
	// outcomes; busy time counts within [0, End) (Sim.finish).
	End float64
	// BusyNodeSeconds is Σ nodes × run time of every run within [0, End):
	// preempted runs included, runs under way at End up to End.
	BusyNodeSeconds float64
	Nodes           int
	// PartitionNodes[r] is the number of nodes of partition r (the
	// runs' Alloc index).
	PartitionNodes []int
}

// simJob is the simulator's record of one job; its books are the
// Ledger's.
type simJob struct {
	job workloads.Job
	// running is a gang job's current run (the Ledger's value, which
	// keeps what it held once the run is stopped), nil while none.
	running *planner.Running
	end     float64 // of the current run
	run     int     // run number, to drop stale completion events
	rec     JobRecord
	// next are the DAG stages that wait for this job, by id.
	next []*simJob
}

// Sim is one simulation in progress: one scheduler on one input, the
// cluster's books a planner.Ledger, time an event heap of arrivals and
// completions, each cycle a planner.RunCycle. Step runs one cycle at a
// time (for tests); Run runs to the end.
type Sim struct {
	in    Input
	cfg   SimConfig
	sched planner.Scheduler
	books *planner.Ledger

	jobs     []*simJob // by submit time, then id
	byID     map[int]*simJob
	arrivals []*simJob // the jobs that wait for no other, in arrival order
	next     int       // next arrival in arrivals
	events   completionHeap
	k        int // next cycle index: cycle k is at k·Interval
	limit    float64
	window   float64
	busy     float64
	lastEnd  float64
	cycles   cycleLog
	reported int // steps of progress reported (progressSteps in all)
	done     bool

	runs []RunRecord // every run that ended, in the order they ended
	// units are shared allocations of one task: units[r][n] holds n
	// nodes of partition r (read-only: RunRecord.Alloc of task runs).
	units []map[int][]int
	// fault is the first error of the books (a simulator bug), which
	// ends the run.
	fault error
	// lost is the node-seconds of work the cycle's preemptions threw away.
	lost float64
}

// NewSim checks the input and prepares a simulation. It does not call
// Train: the runner does that before the run.
func NewSim(in Input, cfg SimConfig, sched planner.Scheduler) (*Sim, error) {
	if !(cfg.Interval > 0) || math.IsInf(cfg.Interval, 0) {
		return nil, fmt.Errorf("%w: interval must be positive, got %g s", ErrInvalidInput, cfg.Interval)
	}
	if !(cfg.Drain >= 0) || math.IsInf(cfg.Drain, 0) {
		return nil, fmt.Errorf("%w: drain must be ≥ 0, got %g s", ErrInvalidInput, cfg.Drain)
	}
	c := in.Cluster
	if len(c.PartitionNodes) == 0 {
		return nil, fmt.Errorf("%w: cluster has no partitions", ErrInvalidInput)
	}
	for r, n := range c.PartitionNodes {
		if n < 0 {
			return nil, fmt.Errorf("%w: partition %d has %d nodes", ErrInvalidInput, r, n)
		}
	}
	if !(c.Slowdown >= 1) || math.IsInf(c.Slowdown, 0) {
		return nil, fmt.Errorf("%w: slowdown must be ≥ 1, got %g", ErrInvalidInput, c.Slowdown)
	}
	if err := c.CheckPartitions(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidInput, err)
	}
	// The cluster is cloned: parallel runs share the caller's Input.
	in.Cluster = c.Clone()
	s := &Sim{in: in, cfg: cfg, sched: sched, byID: make(map[int]*simJob, len(in.Jobs)),
		books: planner.NewLedger(in.Cluster, cfg.Interval)}
	lastSubmit, lastDeadline := 0.0, 0.0
	for i := range in.Jobs {
		j := in.Jobs[i]
		if err := validateJob(&j, c); err != nil {
			return nil, fmt.Errorf("%w: job %d: %v", ErrInvalidInput, j.ID, err)
		}
		if _, dup := s.byID[j.ID]; dup {
			return nil, fmt.Errorf("%w: job id %d appears twice", ErrInvalidInput, j.ID)
		}
		j.Preferred = slices.Clone(j.Preferred)
		sj := &simJob{job: j}
		sj.rec = JobRecord{JobID: j.ID, Class: j.Class, User: j.Features.User, Submit: j.Submit,
			Deadline: j.Deadline, Nodes: j.Nodes, Runtime: j.Runtime, Preferred: slices.Clone(j.Preferred),
			SourceID: j.SourceID, Meta: j.Meta, Requested: j.Requested}
		if j.TaskLevel() {
			sj.rec.Tasks = j.Tasks()
		}
		s.byID[j.ID] = sj
		s.jobs = append(s.jobs, sj)
		lastSubmit = max(lastSubmit, j.Submit)
		if j.Class == workloads.SLO {
			lastDeadline = max(lastDeadline, j.Deadline)
		}
	}
	slices.SortFunc(s.jobs, func(a, b *simJob) int {
		if c := cmp.Compare(a.job.Submit, b.job.Submit); c != 0 {
			return c
		}
		return cmp.Compare(a.job.ID, b.job.ID)
	})
	var roots map[int]int // nil without DAGs: every job its own root
	if slices.ContainsFunc(in.Jobs, func(j workloads.Job) bool { return j.After != nil }) {
		var err error
		if roots, err = workloads.DAGRoots(in.Jobs); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalidInput, err)
		}
	}
	for _, sj := range s.jobs {
		sj.rec.DAG = sj.job.ID
		if roots != nil {
			sj.rec.DAG = roots[sj.job.ID]
		}
		p, ok := sj.job.Predecessor()
		if !ok {
			s.arrivals = append(s.arrivals, sj)
			continue
		}
		pj := s.byID[p]
		if sj.job.Submit < pj.job.Submit {
			return nil, fmt.Errorf("%w: job %d: submit %g s is before its predecessor %d's %g s", ErrInvalidInput, sj.job.ID, sj.job.Submit, p, pj.job.Submit)
		}
		sj.rec.Stage = true
		pj.next = append(pj.next, sj)
	}
	for _, sj := range s.jobs {
		slices.SortFunc(sj.next, func(a, b *simJob) int { return cmp.Compare(a.job.ID, b.job.ID) })
	}
	if !(in.Window >= 0) || math.IsInf(in.Window, 0) {
		return nil, fmt.Errorf("%w: window must be ≥ 0, got %g s", ErrInvalidInput, in.Window)
	}
	s.window = in.Window
	if s.window == 0 {
		s.window = lastSubmit
	}
	if lastSubmit > s.window {
		return nil, fmt.Errorf("%w: a job is submitted at %g s, after the window of %g s", ErrInvalidInput, lastSubmit, s.window)
	}
	switch {
	case cfg.Drain > 0:
		s.limit = s.window + cfg.Drain
	case lastDeadline == 0 && HasTasks(in.Jobs):
		s.limit = TaskDrainWindows * s.window
	default:
		s.limit = max(s.window, min(lastDeadline, 2*s.window))
	}
	return s, nil
}

// validateJob checks a job with the job model's rules (workloads.Job.Check)
// and its submit time, which must lie in the run, not in its history.
func validateJob(j *workloads.Job, c workloads.Cluster) error {
	if !(j.Submit >= 0) || math.IsInf(j.Submit, 0) {
		return fmt.Errorf("submit must be ≥ 0, got %g", j.Submit)
	}
	return j.Check(c)
}

// progressSteps is how many progress reports a simulation makes.
const progressSteps = 100

// Limit is the simulated time at which the run stops at the latest.
func (s *Sim) Limit() float64 { return s.limit }

// Now is the time of the next cycle: the next boundary k · Interval or,
// deciding on events, the next arrival or completion when it is earlier.
func (s *Sim) Now() float64 {
	t := s.boundary()
	if s.cfg.Decisions == planner.OnEvents {
		t = min(t, s.nextEvent())
	}
	return t
}

// boundary is the time of the next periodic cycle, k · Interval.
func (s *Sim) boundary() float64 { return float64(s.k) * s.cfg.Interval }

// nextEvent is the time of the next arrival or completion (+Inf when
// none is left). Completions of runs preempted since they were scheduled
// are dropped on the way: they change nothing.
func (s *Sim) nextEvent() float64 {
	t := math.Inf(1)
	if s.next < len(s.arrivals) {
		t = s.arrivals[s.next].job.Submit
	}
	for s.events.Len() > 0 {
		ev := s.events[0]
		if sj := ev.sj; !sj.job.TaskLevel() && (sj.running == nil || sj.run != ev.run) {
			s.events.pop()
			continue
		}
		return min(t, ev.end)
	}
	return t
}

// Done reports whether the simulation has finished.
func (s *Sim) Done() bool { return s.done }

// Run steps until the end and returns the result.
func (s *Sim) Run(ctx context.Context) (*SimResult, error) {
	for !s.done {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if _, _, err := s.step(ctx, false); err != nil {
			return nil, err
		}
	}
	return s.Result(), nil
}

// Step advances to the next cycle that has work: at its time t (Now) it
// completes the runs that ended by t (by end time, then id; the scheduler
// Observes each), admits the jobs submitted by t (by submit time, then id),
// then — if any job is pending — asks the scheduler for a decision and
// enacts it (preemptions first, then starts, each checked). Cycles with
// nothing pending are skipped. Deciding periodically, t is a boundary
// k·Interval and events wait for the next one; deciding on events
// (SimConfig.Decisions), t is also every instant at which a job arrives or a
// run completes, the events of one instant taken together. It returns the
// state the scheduler saw (a copy: the simulator updates its own as it
// carries the decision out) and its decision (both nil when no cycle ran
// because the run ended).
func (s *Sim) Step(ctx context.Context) (*planner.State, *planner.Decision, error) {
	return s.step(ctx, true)
}

// step is Step; keep asks for a copy of the cycle's state.
func (s *Sim) step(ctx context.Context, keep bool) (*planner.State, *planner.Decision, error) {
	if s.done {
		return nil, nil, nil
	}
	for {
		t := s.Now()
		if t > s.limit {
			s.finish()
			return nil, nil, s.fault
		}
		s.complete(t)
		s.arrive(t)
		s.progress(t)
		if s.fault != nil {
			return nil, nil, s.fault
		}
		if len(s.books.Pending()) == 0 && len(s.books.Running()) == 0 && s.next == len(s.arrivals) {
			s.finish()
			return nil, nil, s.fault
		}
		if len(s.books.Pending()) == 0 {
			// Skip to the next arrival or completion: to its boundary, or
			// deciding on events to the event itself (Now).
			nextT := s.nextEvent()
			s.k = max(s.k, int(math.Ceil(nextT/s.cfg.Interval)))
			if s.boundary() <= t {
				s.k++
			}
			continue
		}
		st, d, err := s.cycle(ctx, t, keep)
		if s.boundary() <= t {
			s.k++ // the cycle at t was the boundary's
		}
		return st, d, err
	}
}

func (s *Sim) progress(t float64) {
	if s.cfg.Progress == nil || s.limit <= 0 {
		return
	}
	for s.reported < progressSteps && t >= float64(s.reported+1)/progressSteps*s.limit {
		s.reported++
		s.cfg.Progress(float64(s.reported)/progressSteps, t)
	}
}

// complete ends every run whose end ≤ t.
func (s *Sim) complete(t float64) {
	for s.events.Len() > 0 && s.events[0].end <= t {
		ev := s.events.pop()
		sj := ev.sj
		if sj.job.TaskLevel() {
			s.completeTask(sj, ev)
			continue
		}
		if sj.running == nil || sj.run != ev.run {
			continue // preempted since
		}
		r := sj.running
		c, err := s.books.Complete(sj.job.ID, 0, sj.end)
		if err != nil {
			s.fault = cmp.Or(s.fault, fmt.Errorf("simulator: %w", err))
			continue
		}
		s.busy += float64(sj.job.Nodes) * (sj.end - r.Start)
		s.lastEnd = max(s.lastEnd, sj.end)
		sj.rec.Completed = true
		sj.rec.End = sj.end
		if sj.job.Class == workloads.SLO {
			sj.rec.MetDeadline = sj.end <= sj.job.Deadline
		}
		sj.running = nil
		s.release(sj, sj.end)
		if !s.cfg.DropRuns {
			s.runs = append(s.runs, RunRecord{JobID: sj.job.ID, Start: r.Start, End: sj.end, Alloc: r.Alloc})
		}
		s.sched.Observe(c)
	}
}

// arrive admits the jobs submitted by t.
func (s *Sim) arrive(t float64) {
	for s.next < len(s.arrivals) && s.arrivals[s.next].job.Submit <= t {
		s.enqueue(s.arrivals[s.next])
		s.next++
	}
}

// enqueue puts a submitted job in the books.
func (s *Sim) enqueue(sj *simJob) {
	if err := s.books.Add(&sj.job); err != nil {
		s.fault = cmp.Or(s.fault, fmt.Errorf("simulator: %w", err))
	}
}

// release makes the DAG stages that wait for sj pending as sj completes
// at end: each is submitted then (its Job.Submit and record's). Stages
// released past the time limit never run, as jobs still pending then.
func (s *Sim) release(sj *simJob, end float64) {
	if end > s.limit {
		return
	}
	for _, nj := range sj.next {
		nj.job.Submit, nj.rec.Submit = end, end
		s.enqueue(nj)
	}
}

// State is the cluster as the scheduler sees it at time now, a copy
// (planner.Ledger.Snapshot).
func (s *Sim) State(now float64) *planner.State { return s.books.Snapshot(now) }

// cycle runs the scheduler at now on the books (simBooks) and records
// the cycle; keep returns a copy of the state
// it saw rather than the state itself. The simulator never repairs a
// decision: one that breaks the cluster contract, or a Schedule error,
// ends the run with the error.
func (s *Sim) cycle(ctx context.Context, now float64, keep bool) (*planner.State, *planner.Decision, error) {
	s.lost = 0
	c := planner.RunCycle(ctx, s.sched, (*simBooks)(s), now, planner.CycleOptions{Log: s.cfg.Log, Keep: keep})
	d := c.Decision
	if err := cmp.Or(c.Err, c.Invalid); err != nil {
		return c.State, d, fmt.Errorf("scheduler %s at t=%gs: %w", s.sched.Name(), now, err)
	}
	if err := s.books.Audit(s.boundary() <= now); err != nil {
		return c.State, d, fmt.Errorf("simulator: %w", err)
	}
	free := s.books.FreeNodes()
	s.cycles.add(&CycleRecord{Now: now, Wall: c.Wall, Stats: d.Stats,
		Started: len(d.Start), Preempt: len(d.Preempt), PreemptedNodeSeconds: s.lost,
		BusyNodes: s.in.Cluster.TotalNodes() - free, FreeNodes: free,
		PendingJobs: len(s.books.Pending()), PendingNodes: s.books.PendingNodes(), RunningJobs: len(s.books.Running())})
	return c.State, d, nil
}

// simBooks are the simulator's planner.Books: its Ledger, with what
// each decision carried out recorded (enacted).
type simBooks Sim

func (b *simBooks) View(now float64) *planner.State { return b.books.View(now) }

func (b *simBooks) Apply(now float64, d *planner.Decision) *planner.ApplyResult {
	s := (*Sim)(b)
	res := s.books.Apply(now, d)
	s.lost = s.enacted(now, res)
	return res
}

// enacted records what the books carried out of a cycle's decision:
// the preempted runs (it returns the node-seconds of work they threw
// away), the gang runs and the tasks started, each with its completion
// event.
func (s *Sim) enacted(now float64, res *planner.ApplyResult) (lost float64) {
	for _, id := range res.Preempted {
		sj := s.byID[id]
		r := sj.running
		work := float64(sj.job.Nodes) * (now - r.Start)
		s.busy += work
		lost += work
		if !s.cfg.DropRuns {
			s.runs = append(s.runs, RunRecord{JobID: id, Start: r.Start, End: now, Alloc: r.Alloc, Preempted: true})
		}
		sj.running = nil
		sj.rec.Preemptions++
		sj.rec.Started = false
		sj.rec.Partitions = nil
		sj.rec.Slowed = false
	}
	for _, pl := range res.Started {
		s.start(now, s.byID[pl.JobID])
	}
	for _, ts := range res.StartedTasks {
		s.startTask(now, s.byID[ts.JobID], ts)
	}
	return lost
}

// start records the run of sj the books started at now: it lasts
// Cluster.RuntimeOn, Runtime × Slowdown when any node is outside the
// job's preferred partitions, / the speed of the slowest partition it
// holds nodes in.
func (s *Sim) start(now float64, sj *simJob) {
	_, r := s.books.Lookup(sj.job.ID)
	var parts []int
	for p, k := range r.Alloc {
		if k != 0 {
			parts = append(parts, p)
		}
	}
	sj.running = r
	sj.run++
	sj.end = now + s.in.Cluster.RuntimeOn(&sj.job, r.Alloc)
	sj.rec.Started, sj.rec.Start, sj.rec.Partitions, sj.rec.Slowed = true, now, parts, r.Slowed
	sj.rec.ShortestEstimate = 0
	if er, ok := s.sched.(planner.EstimateReporter); ok {
		if v, ok := er.ShortestRuntime(sj.job.ID); ok {
			sj.rec.ShortestEstimate = v
		}
	}
	s.events.push(completion{end: sj.end, id: sj.job.ID, run: sj.run, sj: sj})
}

// startTask records a task of sj the books started at now.
func (s *Sim) startTask(now float64, sj *simJob, ts planner.TaskPlacement) {
	rec := &sj.rec
	s.events.push(completion{end: now + sj.job.TaskDurations[ts.Task]*s.in.Cluster.TaskFactor(&sj.job, ts.Partition),
		id: sj.job.ID, task: ts.Task, sj: sj})
	if rec.TasksStarted == 0 {
		rec.Started, rec.Start = true, now
	}
	rec.TasksStarted++
	rec.TaskWaitSum += now - sj.job.Submit
	if p, ok := slices.BinarySearch(rec.Partitions, ts.Partition); !ok {
		rec.Partitions = slices.Insert(rec.Partitions, p, ts.Partition)
	}
	rec.Slowed = rec.Slowed || !sj.job.IsPreferred(ts.Partition)
}

// completeTask ends the task of a completion event in the books, counts
// its work, records its run, completes the job with its last task, and
// tells the scheduler.
func (s *Sim) completeTask(sj *simJob, ev completion) {
	rt, ok := s.books.Task(sj.job.ID, ev.task)
	if !ok {
		return // cannot happen: tasks are never preempted
	}
	c, err := s.books.Complete(sj.job.ID, ev.task, ev.end)
	if err != nil {
		s.fault = cmp.Or(s.fault, fmt.Errorf("simulator: %w", err))
		return
	}
	n := sj.job.TaskNodes
	work := float64(n) * (ev.end - rt.Start)
	s.busy += work
	rec := &sj.rec
	rec.TaskWork += work
	rec.TasksDone++
	if !s.cfg.DropRuns {
		s.runs = append(s.runs, RunRecord{JobID: sj.job.ID, Task: rt.Task, Start: rt.Start, End: ev.end, Alloc: s.unit(rt.Partition, n)})
	}
	if c.JobDone {
		s.lastEnd = max(s.lastEnd, ev.end)
		rec.Completed, rec.End = true, ev.end
		if sj.job.Class == workloads.SLO {
			rec.MetDeadline = ev.end <= sj.job.Deadline
		}
		s.release(sj, ev.end)
	}
	s.sched.Observe(c)
}

// unit is the shared allocation of n nodes in partition r.
func (s *Sim) unit(r, n int) []int {
	np := len(s.in.Cluster.PartitionNodes)
	if s.units == nil {
		s.units = make([]map[int][]int, np)
	}
	if s.units[r] == nil {
		s.units[r] = map[int][]int{}
	}
	a, ok := s.units[r][n]
	if !ok {
		a = make([]int, np)
		a[r] = n
		s.units[r][n] = a
	}
	return a
}

// taskEnd is when a running task of sj ends.
func (s *Sim) taskEnd(sj *simJob, rt planner.RunningTask) float64 {
	return rt.Start + sj.job.TaskDurations[rt.Task]*s.in.Cluster.TaskFactor(&sj.job, rt.Partition)
}

// finish ends the run. Scheduling stops at the limit, but the runs under
// way then go on to their ends (the simulator knows them), so how a started
// job ends does not depend on where the run stops: an SLO job started in
// time meets its deadline even when the deadline is past the limit, and a
// best-effort job that started completes and counts its goodput. Jobs still
// pending never start. The run covers [0, End): to the limit, or to the
// last completion (at least the window) when every job completed by then;
// busy time counts within it, so that utilization is that of the
// scheduled period and not diluted by a tail of long runs.
func (s *Sim) finish() {
	if s.done {
		return
	}
	s.complete(s.limit)
	end := s.limit
	if len(s.books.Running()) == 0 && len(s.books.Pending()) == 0 && s.next == len(s.arrivals) {
		end = max(s.window, s.lastEnd)
	}
	for _, r := range s.books.Running() {
		sj := s.byID[r.Job.ID]
		if !sj.job.TaskLevel() {
			s.busy -= float64(sj.job.Nodes) * (sj.end - end) // complete counts the whole run
			continue
		}
		for _, rt := range r.Tasks {
			over := float64(sj.job.TaskNodes) * (s.taskEnd(sj, rt) - end)
			s.busy -= over
			sj.rec.TaskWork -= over
		}
	}
	s.complete(math.Inf(1))
	s.limit = end
	s.done = true
	if s.cfg.Progress != nil && s.reported < progressSteps {
		s.reported = progressSteps
		s.cfg.Progress(1, end)
	}
}

// Result is the outcome so far (complete once Done).
func (s *Sim) Result() *SimResult {
	r := &SimResult{End: s.limit, BusyNodeSeconds: s.busy, Nodes: s.in.Cluster.TotalNodes(),
		PartitionNodes: slices.Clone(s.in.Cluster.PartitionNodes),
		Cycles:         s.cycles.records(), Jobs: make([]JobRecord, 0, len(s.jobs)), Runs: slices.Clone(s.runs)}
	// Runs are recorded as they end; a run's Alloc is its own copy (start
	// clones the placement) and never changes after.
	slices.SortFunc(r.Runs, func(a, b RunRecord) int {
		if c := cmp.Compare(a.Start, b.Start); c != 0 {
			return c
		}
		if c := cmp.Compare(a.JobID, b.JobID); c != 0 {
			return c
		}
		return cmp.Compare(a.Task, b.Task)
	})
	for _, sj := range s.jobs {
		rec := sj.rec
		rec.Partitions = slices.Clone(rec.Partitions)
		rec.Preferred = slices.Clone(rec.Preferred)
		rec.Miss = rec.classifyMiss()
		r.Jobs = append(r.Jobs, rec)
	}
	slices.SortFunc(r.Jobs, func(a, b JobRecord) int { return cmp.Compare(a.JobID, b.JobID) })
	return r
}

// completion is the end of a gang job's run (run: its number) or of a
// task of a task-level job (task: its index).
type completion struct {
	end           float64
	id, run, task int
	sj            *simJob // the job id names
}

// completionHeap is a min-heap of completions by end, then job id, then
// task: container/heap's algorithm on the concrete type, so that pushes
// do not box each completion into an interface.
type completionHeap []completion

func (h completionHeap) Len() int { return len(h) }

func (h completionHeap) less(i, j int) bool {
	if h[i].end != h[j].end {
		return h[i].end < h[j].end
	}
	if h[i].id != h[j].id {
		return h[i].id < h[j].id
	}
	return h[i].task < h[j].task
}

func (h *completionHeap) push(c completion) {
	*h = append(*h, c)
	q := *h
	for j := len(q) - 1; ; {
		i := (j - 1) / 2 // parent
		if i == j || !q.less(j, i) {
			break
		}
		q[i], q[j] = q[j], q[i]
		j = i
	}
}

func (h *completionHeap) pop() completion {
	q := *h
	n := len(q) - 1
	q[0], q[n] = q[n], q[0]
	for i := 0; ; {
		j := 2*i + 1
		if j >= n {
			break
		}
		if j2 := j + 1; j2 < n && q.less(j2, j) {
			j = j2
		}
		if !q.less(j, i) {
			break
		}
		q[i], q[j] = q[j], q[i]
		i = j
	}
	c := q[n]
	*h = q[:n]
	return c
}

package threesigma

import (
	"context"
	"fmt"
	"math"
	"runtime/debug"
	"time"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/estimate"
	"github.com/plannerhq/planner/planner/slearn"
	"github.com/plannerhq/planner/solver"
	"github.com/plannerhq/planner/utility"
	"github.com/plannerhq/planner/workloads"
)

// ThreeSigma is the 3σSched planning cycle (3Sigma §3, §4.2, §4.3;
// DESIGN.md "One planning cycle"). Every variant of Table 1 and §6.2 is a
// ThreeSigma with a different estimate.Estimator and over-estimate mode (variants.go).
//
// Between cycles it keeps only what must outlive a cycle: each job's runtime
// estimate (made once, when the job is first seen), the start the last plan
// chose for it, and the under-estimate extensions of running jobs.
// Everything a cycle computes lives in its own cycle value.
type ThreeSigma struct {
	name   string
	cfg    Config
	est    estimate.Estimator
	solver solver.Solver
	stages []stage

	jobs   map[int]*jobInfo   // per job ID, while pending or running
	cycles uint64             // cycles run so far
	ext    map[int]*extension // per running job ID: exp-inc state
	// done holds the durations of the completed tasks of each task-level
	// job that has some and has not completed (on preferred nodes of
	// speed 1).
	done map[int]*estimate.Sample
	// hybrid, when set (NewHybrid), refines a task-level job's estimate
	// by its completed tasks (estimate.Hybrid.Refine); its wide jobs run
	// their pilots first (pilots, sampling), and sampled are the jobs
	// whose pilots have all completed or that started otherwise.
	hybrid   *estimate.Hybrid
	pilots   pilotConfig
	sampling map[int]*pilotSet
	sampled  map[int]bool
	// spread is the within-job log variance of task durations, learned
	// from the history (longest).
	spread estimate.Spread

	// wall is the wall clock used only to measure cycle and solve times for
	// CycleStats; plan times always come from State.Now.
	wall func() time.Time
	// inspect, when set (tests), sees every finished cycle.
	inspect func(*cycle)
}

var (
	_ planner.Scheduler        = (*ThreeSigma)(nil)
	_ planner.EstimateReporter = (*ThreeSigma)(nil)
)

// stage is one named step of the cycle pipeline.
type stage struct {
	name string
	run  func(*cycle) error
}

// jobInfo is what the scheduler remembers about a job across cycles.
type jobInfo struct {
	est estimate.Estimate
	// pref is the runtime on preferred nodes of speed 1, prepared for
	// valuation; scaled holds the runtimes scaled by the factors asked
	// for so far (runtimeAt), in the order they were first asked for.
	pref   *utility.Runtime
	scaled []scaledRuntime
	seen   uint64 // last cycle that saw the job
	// first is the plan time of the first cycle that saw the job: the
	// earliest it could have started.
	first float64
	// planned is the absolute slice (plan time / slice length) at which
	// the last solved plan starts the job; hasPlan is false when the last
	// cycle's plan left it out.
	planned int64
	hasPlan bool
	// plannedAll: the plan starts it on all partitions (slowed).
	plannedAll bool
}

// extension is the under-estimate state of a running job (3Sigma §4.2):
// its expected end (seconds since its start) and how many extensions of
// 2^n cycles it has had.
type extension struct {
	start float64 // start of the run the state belongs to
	end   float64 // expected runtime so far, seconds
	n     int     // extensions so far; the next one adds 2^n cycles
}

// NewCustom builds the planning cycle named name with the given runtime
// estimator. cfg's zero fields take their defaults.
//
// The stages run in this order, each for a reason:
//
//   - capacity first: it groups interchangeable partitions and computes
//     the expected free nodes C[g,t] every later stage packs into, and it
//     updates the under-estimate extensions of running jobs;
//   - options next: they need the partition groups (a job's allowed sets
//     are unions of groups) and the horizon;
//   - valuation after options: it prices each option by its exact expected
//     utility and drops the worthless ones before they cost model size;
//   - model: only the surviving options and the keep-variables of
//     preemptible jobs, with the capacities as right-hand sides;
//   - solve under the configured limit;
//   - decode turns the answer's s = 0 options into placements on real
//     partitions and its dropped keep-variables into preemptions;
//   - fallback last: it decides with a priority rule only when no earlier
//     stage produced a decision (no answer, error, crash); otherwise it
//     passes the decision through.
func NewCustom(name string, cfg Config, est estimate.Estimator) (*ThreeSigma, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if est == nil {
		return nil, fmt.Errorf("threesigma: %s needs a runtime estimator", name)
	}
	var sol solver.Solver // nil: planner.SolverNone, every solve fails
	if cfg.Solver != planner.SolverNone {
		var err error
		if sol, err = solver.New(cfg.Solver); err != nil {
			return nil, fmt.Errorf("threesigma: %s: %w", name, err)
		}
	}
	s := &ThreeSigma{
		name: name, cfg: cfg, est: est, solver: sol,
		jobs: map[int]*jobInfo{}, ext: map[int]*extension{}, done: map[int]*estimate.Sample{},
		sampling: map[int]*pilotSet{}, sampled: map[int]bool{},
		wall: time.Now,
	}
	s.stages = []stage{
		{"capacity", (*cycle).capacity},
		{"options", (*cycle).options},
		{"valuation", (*cycle).valuation},
		{"model", (*cycle).model},
		{"solve", (*cycle).solve},
		{"decode", (*cycle).decode},
	}
	return s, nil
}

// Name returns the variant's registry name.
func (s *ThreeSigma) Name() string { return s.name }

// Config returns the configuration with defaults filled in.
func (s *ThreeSigma) Config() Config { return s.cfg }

// Train feeds the history to the estimator and its task-level jobs' task
// durations to the within-job spread.
func (s *ThreeSigma) Train(history []workloads.Job) {
	s.est.Train(history)
	s.spread.Learn(history)
}

// Observe passes a completion's runtime on preferred nodes to the
// estimator and forgets the job; of a task-level job it keeps each task's
// duration, and passes their mean when the last task completes.
func (s *ThreeSigma) Observe(c planner.Completion) {
	rt := c.PreferredRuntime()
	if c.Job.TaskLevel() {
		smp := s.done[c.Job.ID]
		if smp == nil {
			smp = &estimate.Sample{}
			s.done[c.Job.ID] = smp
		}
		smp.Add(rt)
		if !c.JobDone {
			s.sampledDone(c.Job)
			return
		}
		delete(s.sampling, c.Job.ID)
		delete(s.sampled, c.Job.ID)
		rt = smp.Mean() // what history records of a task-level job
	}
	s.est.Observe(c.Job, rt)
	delete(s.jobs, c.Job.ID)
	delete(s.ext, c.Job.ID)
	delete(s.done, c.Job.ID)
}

// learned is the mean duration of a task-level job's completed tasks,
// once as many have completed as SLearn would run as its pilots
// (slearn.Learned, for FallbackSLearn).
func (s *ThreeSigma) learned(job *workloads.Job) (float64, bool) {
	smp := s.done[job.ID]
	if smp == nil || smp.N < slearn.PilotCount(job.Tasks(), slearn.DecideShare) {
		return 0, false
	}
	return smp.Mean(), true
}

// Applied forgets the planned start of every job whose start the driver
// refused: the plan said "now" and it did not happen, so the next cycle
// must not count a later start as a deferral (Config.CommitPenalty).
func (s *ThreeSigma) Applied(r *planner.ApplyResult) {
	for _, ref := range r.Refused {
		if info := s.jobs[ref.JobID]; info != nil && !ref.Preempt {
			info.hasPlan = false
		}
	}
}

// ShortestRuntime is the shortest nominal runtime (seconds) the job's
// estimate allows, the lower end of its distribution's support
// (planner.EstimateReporter); ok is false for a job the scheduler has not
// estimated or has forgotten.
func (s *ThreeSigma) ShortestRuntime(jobID int) (float64, bool) {
	in := s.jobs[jobID]
	if in == nil || in.est.Dist == nil {
		return 0, false
	}
	for _, seg := range in.est.Dist.Segments() {
		if seg.Mass > 0 {
			return seg.Lo, true
		}
	}
	return 0, false
}

// Schedule runs one planning cycle at state.Now. A stage that fails —
// returns an error or panics, in the cycle's own code or in an in-process
// solver backend — leaves the cycle to the fallback, and CycleStats says
// which stage it was; the cycle still ends with a decision.
func (s *ThreeSigma) Schedule(ctx context.Context, st *planner.State) (*planner.Decision, error) {
	t0 := s.wall()
	var pilots []planner.TaskPlacement
	if s.hybrid != nil && st != nil {
		pilots, st = s.samplePilots(st)
	}
	c, err := s.newCycle(ctx, st)
	if err != nil {
		return nil, err
	}
	for _, stg := range s.stages {
		if c.dec != nil {
			break
		}
		if err := c.run(stg); err != nil {
			c.failed, c.failErr = stg.name, err
			c.dec = nil // a stage that failed decides nothing
			break
		}
	}
	if c.dec == nil {
		c.fallback() // the last stage: decide by priority
	}
	c.dec.StartTasks = append(pilots, c.dec.StartTasks...)
	c.fillStats()
	c.dec.Stats.Cycle = s.wall().Sub(t0)
	s.forgetUnseen(c.id)
	if s.inspect != nil {
		s.inspect(c)
	}
	return c.dec, nil
}

// run runs one stage, turning a panic into an error (*stagePanic).
func (c *cycle) run(stg stage) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &stagePanic{stage: stg.name, value: v, stack: debug.Stack()}
		}
	}()
	return stg.run(c)
}

// stagePanic is a panic recovered in a stage of the cycle.
type stagePanic struct {
	stage string
	value any
	stack []byte
}

func (p *stagePanic) Error() string {
	return fmt.Sprintf("panic in stage %s: %v", p.stage, p.value)
}

// forgetUnseen drops the memory of jobs the cycle no longer saw (completed
// without Observe, or removed by the driver).
func (s *ThreeSigma) forgetUnseen(id uint64) {
	for k, v := range s.jobs {
		if v.seen != id {
			delete(s.jobs, k)
		}
	}
	for k := range s.ext {
		if info := s.jobs[k]; info == nil {
			delete(s.ext, k)
		}
	}
	for k := range s.done {
		if info := s.jobs[k]; info == nil {
			delete(s.done, k)
		}
	}
}

// info returns the remembered estimate of job, estimating it the first time
// (at plan time now).
func (s *ThreeSigma) info(job *workloads.Job, cycleID uint64, now float64) *jobInfo {
	in := s.jobs[job.ID]
	if in == nil {
		est, err := s.est.Estimate(job)
		if err != nil || est.Dist == nil {
			est, _ = estimate.Point(estimate.DefaultRuntime)
		}
		if smp := s.done[job.ID]; s.hybrid != nil && smp != nil && smp.N > 0 {
			if post, err := s.hybrid.Refine(est, *smp); err == nil {
				est = post
			}
		}
		in = &jobInfo{est: est, first: now}
		in.pref, err = utility.NewRuntime(est.Dist)
		if err != nil {
			est, _ = estimate.Point(estimate.DefaultRuntime)
			in.est = est
			in.pref, _ = utility.NewRuntime(est.Dist)
		}
		s.jobs[job.ID] = in
	}
	in.seen = cycleID
	return in
}

// scaledRuntime is a job's runtime distribution scaled by a factor.
type scaledRuntime struct {
	factor float64
	rt     *utility.Runtime
}

// runtimeAt returns the job's runtime distribution on a placement whose
// runtime factor is f (slowdown / speed, workloads.Cluster.Factor): the
// distribution of f·T for the nominal runtime T. f = 1 (or not > 0) is
// the nominal runtime itself. Each factor is scaled once per job.
func (in *jobInfo) runtimeAt(f float64) *utility.Runtime {
	if !(f > 0) || f == 1 || math.IsInf(f, 0) {
		return in.pref
	}
	for _, s := range in.scaled {
		if s.factor == f {
			return s.rt
		}
	}
	rt := in.pref // cannot stay so for a valid prepared runtime
	if d, err := distributions.Scale(in.pref, f); err == nil {
		if p, ok := d.(distributions.Piecewise); ok {
			if r, err := utility.NewRuntime(p); err == nil {
				rt = r
			}
		}
	}
	in.scaled = append(in.scaled, scaledRuntime{factor: f, rt: rt})
	return rt
}

// fillStats records the cycle's sizes and solve outcome in its decision.
func (c *cycle) fillStats() {
	st := &c.dec.Stats
	st.Options = len(c.opts)
	if c.m != nil {
		st.Vars, st.Rows = len(c.m.Vars), len(c.m.Rows)
	}
	st.Solve = c.solveWall
	if c.res != nil {
		// In deterministic mode reaching the work limit is the plan, not a
		// time limit: only the wall guard counts (DESIGN.md: runs are
		// reproducible whenever no solve hit its time limit). The solver
		// marks a solve its guard stopped; a backend that stops at its own
		// time limit (the guard) is seen by the wall time.
		st.TimeLimited = c.res.TimeLimited && (c.s.cfg.Mode != SolveDeterministic ||
			c.res.GuardStopped || c.solveWall >= c.limit)
	}
	st.Solved = c.solved
	if c.solved {
		st.Objective = c.res.Objective
	}
	if c.failed != "" {
		st.FailedStage, st.Failure = c.failed, c.failErr.Error()
		_, st.Panicked = c.failErr.(*stagePanic)
	}
}

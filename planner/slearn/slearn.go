package slearn

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/estimate"
	"github.com/plannerhq/planner/planner/gs"
	"github.com/plannerhq/planner/workloads"
)

// Registry names.
const (
	// Name is SLearn as the paper has it (§5.1.2).
	Name = "slearn"
	// NameHybrid is SLearn with history as the prior (§7; NewHybrid).
	NameHybrid = "hybrid"
)

// SamplingQueue is the GS queue pilot tasks run in: the second highest
// (§5.1.2), so that sampling is fast but does not delay the jobs already
// estimated to be the smallest.
const SamplingQueue = 1

// pilotStream salts the seed of the pilot draws, so that they are not a
// stream a generator seeded alike draws from.
const pilotStream = 0x70696c6f74000000

// SLearn learns a job's runtime in space (§5.1.2): when a wide job (at
// least ThinLimit tasks) arrives it runs a few of its tasks, chosen at
// random, as pilots in the sampling queue, and holds the others; when
// every pilot has completed, their mean duration is the job's estimated
// mean task runtime, and the rest of its tasks go to the GS queue of the
// job's estimated size. A thin job goes straight to the highest queue, as
// does a gang job (it has no tasks to sample). Nodes no queue can use run
// held tasks, jobs in arrival order (work conservation). The share of
// pilots adapts (sampler, Fig. 3).
type SLearn struct {
	name      string
	cfg       gs.Config
	thinLimit int
	rng       *rand.Rand
	sampler   *sampler
	jobs      map[int]*job
	records   []planner.EstimateRecord
	// hybrid, when set, is the prior of every job and refines a wide
	// job's prior with its pilots (NewHybrid).
	hybrid *estimate.Hybrid
	// dag, when set, sizes the later stages of DAG jobs by history
	// scaled by their first stage's pilots (NewDAG).
	dag *dagScaler
	// seq numbers entries into queues: a job enters the sampling queue
	// (or Q0) on arrival and the queue of its estimate when it is known,
	// at the tail.
	seq uint64
}

// job is SLearn's knowledge of one job from its first cycle to its
// completion.
type job struct {
	thin  bool
	share int   // sampling percent
	pilot []int // the pilot tasks, ascending
	// The pilots completed so far and their nominal runtimes; known once
	// every pilot has completed, with the estimated mean task runtime and
	// the job's queue. prior is the hybrid's prior estimate.
	pilots estimate.Sample
	prior  estimate.Estimate
	// hist is SLearn-DAG's history prediction of a DAG's first stage
	// (seconds; 0 otherwise).
	hist  float64
	known bool
	mean  float64
	queue int
	seq   uint64 // when it entered its queue
	// nominal and tasks: the job's completed tasks, for its normalised JCT.
	nominal float64
	tasks   int
}

var (
	_ planner.Scheduler  = (*SLearn)(nil)
	_ planner.Estimating = (*SLearn)(nil)
)

// New returns SLearn on GS's queues cfg with thin limit thinLimit, its
// pilots drawn from a source seeded by seed (planner.Options.Seed).
func New(cfg gs.Config, thinLimit int, seed uint64) (*SLearn, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &SLearn{name: Name, cfg: cfg, thinLimit: thinLimit, rng: rand.New(rand.NewPCG(seed, pilotStream)),
		sampler: newSampler(WindowJobs), jobs: map[int]*job{}}, nil
}

// NewHybrid is SLearn with the hybrid predictor (§7, estimate.Hybrid),
// history as the prior of every job: a thin or gang job goes to the queue
// of its prior size, the prior's point estimate × its nodes (history
// knows a thin job better than first in, first out does); a wide job
// still runs its pilots first, and its estimate is then the posterior of
// its prior given the pilots' durations. The prior is a fresh 3σPredict
// (nil p) or p, taught the history and each completed job's mean task
// runtime.
func NewHybrid(cfg gs.Config, thinLimit int, seed uint64, p estimate.RuntimePredictor) (*SLearn, error) {
	s, err := New(cfg, thinLimit, seed)
	if err != nil {
		return nil, err
	}
	if p == nil {
		if p, err = estimate.NewSigma(); err != nil {
			return nil, err
		}
	}
	s.name, s.hybrid = NameHybrid, &estimate.Hybrid{Prior: &estimate.FromPredictor{P: p}}
	return s, nil
}

// NewDefault is SLearn as the paper runs it: GS's default queues and a
// thin limit of 3.
func NewDefault(seed uint64) (*SLearn, error) {
	return New(gs.DefaultConfig(), gs.DefaultThinLimit, seed)
}

// Name is Name or NameHybrid.
func (s *SLearn) Name() string { return s.name }

// Train does nothing for SLearn, which learns from the job itself; the
// hybrid's prior and SLearn-DAG's history predictor learn the history.
func (s *SLearn) Train(history []workloads.Job) {
	if s.hybrid != nil {
		s.hybrid.Train(history)
	}
	if s.dag != nil {
		s.dag.hist.Train(history)
	}
}

// Applied does nothing: every cycle starts from the state.
func (s *SLearn) Applied(*planner.ApplyResult) {}

// Schedule puts thin and estimated jobs in their queues with all their
// waiting tasks, the waiting pilots of the others in the sampling queue
// and their held tasks aside for work conservation, and lets GS share the
// free nodes (gs.Plan); within a queue, first in, first out: a job enters
// the tail of its estimate's queue when its estimate is known.
func (s *SLearn) Schedule(_ context.Context, st *planner.State) (*planner.Decision, error) {
	var items, spare []gs.Item
	var seqs []uint64
	free := st.FreeNodes() > 0
	for _, p := range st.Pending {
		j := s.see(p.Job) // on arrival, whether a node is free or not
		if !free {
			continue
		}
		switch {
		case j.thin || j.known:
			items = append(items, gs.Item{P: p, Queue: j.queue, Tasks: p.Waiting})
			seqs = append(seqs, j.seq)
		default:
			pilots, held := split(p.Waiting, j.pilot)
			if len(pilots) > 0 {
				items = append(items, gs.Item{P: p, Queue: SamplingQueue, Tasks: pilots})
				seqs = append(seqs, j.seq)
			}
			if len(held) > 0 {
				spare = append(spare, gs.Item{P: p, Tasks: held})
			}
		}
	}
	if !free {
		return &planner.Decision{}, nil
	}
	used := make([]float64, s.cfg.Queues)
	for _, r := range st.Running {
		j := s.jobs[r.Job.ID]
		switch {
		case j == nil:
			used[0] += float64(nodesOf(r))
		case j.thin || j.known:
			used[j.queue] += float64(nodesOf(r))
		default: // pilots count for the sampling queue; held tasks run on spare nodes
			for _, t := range r.Tasks {
				if isPilot(j, t.Task) {
					used[SamplingQueue] += float64(r.Job.TaskNodes)
				}
			}
		}
	}
	sortBy(items, seqs)
	return gs.Plan(st, s.cfg, items, used, spare), nil
}

// see returns SLearn's record of a job, making it on the job's first
// cycle: thin, or wide with its share and pilots drawn.
func (s *SLearn) see(jb *workloads.Job) *job {
	if j := s.jobs[jb.ID]; j != nil {
		return j
	}
	j := &job{}
	n := jb.Tasks()
	if s.hybrid != nil {
		j.prior = s.priorOf(jb)
	}
	later := false
	if s.dag != nil {
		var root int
		root, later = s.dag.rootOf(jb)
		if later {
			// A later stage: history scaled by its first stage, not sampled.
			j.known = true
			f := s.dag.first[root]
			j.mean = Scaled(s.dag.predict(jb), f.sampled, f.predicted)
			q := s.cfg.QueueOf(j.mean * float64(jb.Nodes))
			s.record(jb, j.mean, q)
			s.enter(j, q)
		}
	}
	switch {
	case later:
	case !jb.TaskLevel() || n < s.thinLimit:
		j.thin = true
		q := 0
		if s.hybrid != nil {
			j.mean = j.prior.Point
			q = s.cfg.QueueOf(j.mean * float64(jb.Nodes))
			s.record(jb, j.mean, q)
		}
		s.enter(j, q)
	default:
		if s.dag != nil {
			j.hist = s.dag.predict(jb)
		}
		s.enter(j, SamplingQueue)
		j.share = s.sampler.next()
		j.pilot = s.rng.Perm(n)[:PilotCount(n, j.share)]
		slices.Sort(j.pilot)
	}
	s.jobs[jb.ID] = j
	return j
}

// Observe learns from a completed task: a pilot adds to the job's
// estimate, which is known with the last pilot; the job's last task
// scores its share (normalised JCT: JCT / its mean task runtime).
func (s *SLearn) Observe(c planner.Completion) {
	jb := c.Job
	j := s.jobs[jb.ID]
	if j == nil {
		return // not started by SLearn
	}
	rt := c.PreferredRuntime()
	j.nominal += rt
	j.tasks++
	if !j.thin && !j.known && isPilot(j, c.Task) {
		j.pilots.Add(rt)
		if j.pilots.N == len(j.pilot) {
			j.known = true
			j.mean = j.pilots.Mean()
			if s.hybrid != nil {
				if post, err := s.hybrid.Refine(j.prior, j.pilots); err == nil {
					j.mean = post.Point
				}
			}
			s.enter(j, s.cfg.QueueOf(j.mean*float64(jb.Nodes)))
			s.record(jb, j.mean, j.queue)
			if s.dag != nil && j.hist > 0 && j.mean > 0 {
				s.dag.first[jb.ID] = firstStage{sampled: j.mean, predicted: j.hist}
			}
		}
	}
	if !c.JobDone {
		return
	}
	if s.hybrid != nil && j.tasks > 0 {
		s.hybrid.Observe(jb, j.nominal/float64(j.tasks))
	}
	if s.dag != nil && j.tasks > 0 {
		s.dag.hist.Observe(jb, j.nominal/float64(j.tasks))
	}
	if j.share > 0 && j.nominal > 0 {
		s.sampler.done(j.share, (c.End-jb.Submit)/(j.nominal/float64(j.tasks)))
	}
	delete(s.jobs, jb.ID)
}

// priorOf is the hybrid's prior estimate of a job (its point
// estimate.DefaultRuntime when the prior fails).
func (s *SLearn) priorOf(jb *workloads.Job) estimate.Estimate {
	e, err := s.hybrid.Estimate(jb)
	if err != nil || !(e.Point > 0) {
		e, _ = estimate.Point(estimate.DefaultRuntime)
		e.NMAE = math.Inf(1)
	}
	return e
}

// record keeps the estimate a job was queued by, for Estimates.
func (s *SLearn) record(jb *workloads.Job, mean float64, q int) {
	s.records = append(s.records, planner.EstimateRecord{JobID: jb.ID, Tasks: jb.Tasks(), Estimate: mean,
		Queue: q, TrueQueue: s.cfg.QueueOf(jb.Runtime * float64(jb.Nodes))})
}

// enter puts j in queue q, at its tail.
func (s *SLearn) enter(j *job, q int) {
	s.seq++
	j.queue, j.seq = q, s.seq
}

// sortBy sorts items by their keys (stable).
func sortBy(items []gs.Item, keys []uint64) {
	order := make([]int, len(items))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(keys[a], keys[b]) })
	sorted := make([]gs.Item, len(items))
	for i, k := range order {
		sorted[i] = items[k]
	}
	copy(items, sorted)
}

// Estimates are SLearn's estimates of the wide jobs whose pilots all
// completed, in that order (and the hybrid's of thin jobs, on arrival).
func (s *SLearn) Estimates() []planner.EstimateRecord { return s.records }

// isPilot reports whether task is one of j's pilots.
func isPilot(j *job, task int) bool {
	_, ok := slices.BinarySearch(j.pilot, task)
	return ok
}

// split parts the waiting tasks (ascending) into the pilots among them and
// the others, both ascending.
func split(waiting, pilots []int) (p, rest []int) {
	for _, t := range waiting {
		if _, ok := slices.BinarySearch(pilots, t); ok {
			p = append(p, t)
		} else {
			rest = append(rest, t)
		}
	}
	return p, rest
}

// nodesOf is the nodes a running job holds.
func nodesOf(r *planner.Running) int {
	n := 0
	for _, k := range r.Alloc {
		n += k
	}
	return n
}

package gs

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/estimate"
	"github.com/plannerhq/planner/workloads"
)

// Registry names of GS and the policies of SLearn §5.1.3 that run in it.
const (
	// Name: GS with 3σPredict's point estimate of a job's mean task
	// runtime.
	Name = "gs"
	// Name3Sigma: 3σPredict's distribution, brought to a point as §4.3
	// does: the runtime whose utility 1/t² is the distribution's expected
	// utility (InverseSquare).
	Name3Sigma = "3sigma-gs"
	// Name3SigmaTL: Name3Sigma with thin-job handling: jobs of fewer than
	// DefaultThinLimit tasks go to the highest queue, as in SLearn.
	Name3SigmaTL = "3sigmatl"
	// Name3SigmaDAG: 3SigmaDAG of SLearn §6, Name3Sigma's estimate of
	// every stage of a DAG job as it is released (the history-only
	// counterpart of slearn-dag).
	Name3SigmaDAG = "3sigma-dag"
	// NamePointEst: the median of 3σPredict's distribution.
	NamePointEst = "point-est"
	// NameLAS: least attained service: a job's queue is that of the task
	// time it has had so far (Σ task nodes × execution time of its
	// completed tasks); no estimate.
	NameLAS = "las"
	// NameFIFO: one queue, jobs by arrival.
	NameFIFO = "fifo"
	// NameOracle: the true mean task runtime.
	NameOracle = "oracle"
)

// DefaultThinLimit is SLearn's thinLimit (§5.2.1): jobs of fewer tasks
// are thin; only wider ones are sampled (and count as wide in reports).
const DefaultThinLimit = 3

// Point brings an estimate to the point GS orders by (seconds).
type Point func(estimate.Estimate) float64

// MeanPoint is the estimator's own point estimate.
func MeanPoint(e estimate.Estimate) float64 { return e.Point }

// MedianPoint is the median of the estimated distribution.
func MedianPoint(e estimate.Estimate) float64 { return e.Dist.Quantile(0.5) }

// InversePoint is InverseSquare of the estimated distribution.
func InversePoint(e estimate.Estimate) float64 { return InverseSquare(e.Dist) }

// InverseSquare is the point estimate of a runtime distribution under the
// utility U(t) = 1/t² that SLearn §4.3 integrates 3σPredict's
// distributions with (average JCT, inversely proportional to the square of
// runtime): the t with U(t) = E[U(T)], t = E[T⁻²]^(−1/2). Over a segment
// of mass m uniform on [a, b], E[T⁻²] gains m/(a·b) (∫ t⁻² dt / (b − a));
// runtimes below estimate.MinRuntime count as MinRuntime, so that a
// segment at 0 does not make the estimate 0.
func InverseSquare(d distributions.Piecewise) float64 {
	s := 0.0
	for _, seg := range d.Segments() {
		s += seg.Mass / (max(seg.Lo, estimate.MinRuntime) * max(seg.Hi, estimate.MinRuntime))
	}
	if !(s > 0) {
		return estimate.MinRuntime
	}
	return 1 / math.Sqrt(s)
}

// mode is how GS sizes jobs.
type mode int

const (
	byEstimate mode = iota // an estimate asked once per job
	byService              // attained service, every cycle
	oneQueue               // every job in Q0
)

// GS is the generic scheduler with one way of sizing jobs.
type GS struct {
	name      string
	cfg       Config
	mode      mode
	est       estimate.Estimator
	point     Point
	thinLimit int

	jobs    map[int]*job
	records []planner.EstimateRecord
	// used[q] is the nodes the running tasks of queue q's jobs hold, kept
	// from the starts the driver carried out (Applied) and the
	// completions (Observe).
	used []float64
	// seq numbers entries into queues (first in, first out under LAS).
	seq uint64
	// items is Schedule's buffer, reused from cycle to cycle.
	items []Item
	// last is the pending list of the last cycle, each job with its
	// record, in the state's order, and cur the list being built (the
	// two swap every cycle).
	last, cur []seen
}

// seen is a pending job of a cycle and GS's record of it.
type seen struct {
	p   *planner.Pending
	job *workloads.Job
	j   *job
	// queue is j.queue when the job was first paired with j: a job's
	// queue changes only under LAS (byService).
	queue int
}

// job is GS's record of one job from its first cycle to its completion.
type job struct {
	// mean is the estimated mean task runtime (byEstimate; 0 for a thin
	// job under thin-job handling), queue the job's queue and seq when it
	// entered it.
	mean  float64
	queue int
	seq   uint64
	// unit is the nodes of one of its tasks (a gang's nodes); running the
	// nodes its running tasks hold.
	unit, running int
	// What its completed tasks ran: Σ task nodes × run time (seconds, as
	// they ran), Σ nominal runtime (PreferredRuntime), how many.
	service, nominal float64
	tasks            int
}

var (
	_ planner.Scheduler  = (*GS)(nil)
	_ planner.Estimating = (*GS)(nil)
)

// Options configure New.
type Options struct {
	Config Config
	// Estimator and Point size jobs by an estimate of the mean task
	// runtime asked once per job; nil Estimator: by attained service
	// (LAS) when LAS, else one FIFO queue.
	Estimator estimate.Estimator
	Point     Point
	LAS       bool
	// ThinLimit > 0 puts jobs of fewer tasks in Q0 (3sigmatl).
	ThinLimit int
}

// New returns GS named name.
func New(name string, o Options) (*GS, error) {
	if err := o.Config.Validate(); err != nil {
		return nil, err
	}
	g := &GS{name: name, cfg: o.Config, est: o.Estimator, point: o.Point, thinLimit: o.ThinLimit,
		jobs: map[int]*job{}, used: make([]float64, o.Config.Queues)}
	switch {
	case o.Estimator != nil:
		g.mode = byEstimate
		if g.point == nil {
			g.point = MeanPoint
		}
	case o.LAS:
		g.mode = byService
	default:
		g.mode = oneQueue
	}
	return g, nil
}

// NewVariant builds the named policy (the constants above) with the
// paper's queues; seed is unused (GS draws nothing at random).
func NewVariant(name string) (*GS, error) {
	o := Options{Config: DefaultConfig()}
	history := func(point Point, thin int) error {
		p, err := estimate.NewSigma()
		if err != nil {
			return err
		}
		o.Estimator, o.Point, o.ThinLimit = &estimate.FromPredictor{P: p}, point, thin
		return nil
	}
	var err error
	switch name {
	case Name:
		err = history(MeanPoint, 0)
	case Name3Sigma, Name3SigmaDAG:
		err = history(InversePoint, 0)
	case Name3SigmaTL:
		err = history(InversePoint, DefaultThinLimit)
	case NamePointEst:
		err = history(MedianPoint, 0)
	case NameOracle:
		o.Estimator = estimate.Perfect{}
	case NameLAS:
		o.LAS = true
	case NameFIFO:
	default:
		return nil, fmt.Errorf("gs: unknown policy %q", name)
	}
	if err != nil {
		return nil, err
	}
	return New(name, o)
}

// Name is the policy's registry name.
func (g *GS) Name() string { return g.name }

// Train gives the history to the estimator.
func (g *GS) Train(history []workloads.Job) {
	if g.est != nil {
		g.est.Train(history)
	}
}

// Applied counts the nodes of the starts the driver carried out for their
// jobs' queues.
func (g *GS) Applied(res *planner.ApplyResult) {
	for _, pl := range res.Started {
		if j := g.jobs[pl.JobID]; j != nil {
			j.running += j.unit
			g.used[j.queue] += float64(j.unit)
		}
	}
	for _, ts := range res.StartedTasks {
		if j := g.jobs[ts.JobID]; j != nil {
			j.running += j.unit
			g.used[j.queue] += float64(j.unit)
		}
	}
}

// Observe counts a completed task (or gang run): its nodes are free, its
// service attained (under LAS the job may move down a queue, to its
// tail), and with the job's last task the estimator learns the job's mean
// task runtime.
func (g *GS) Observe(c planner.Completion) {
	j := g.jobs[c.Job.ID]
	if j == nil {
		return // not started by GS
	}
	j.running -= j.unit
	g.used[j.queue] -= float64(j.unit)
	j.service += float64(j.unit) * c.Runtime
	j.nominal += c.PreferredRuntime()
	j.tasks++
	if c.JobDone {
		if g.est != nil {
			g.est.Observe(c.Job, j.nominal/float64(j.tasks))
		}
		delete(g.jobs, c.Job.ID)
		return
	}
	if g.mode == byService {
		if q := g.cfg.QueueOf(j.service); q != j.queue {
			g.used[j.queue] -= float64(j.running)
			g.used[q] += float64(j.running)
			g.enter(j, q)
		}
	}
}

// enter puts j in queue q, at its tail.
func (g *GS) enter(j *job, q int) {
	g.seq++
	j.queue, j.seq = q, g.seq
}

// Schedule is a GS cycle with the policy's queues: every pending job in
// its queue with all its waiting tasks, queues first in, first out (a job
// is placed once, on its first cycle, except under LAS, which moves a job
// down to the tail of its new queue as its tasks complete), the nodes in
// use per queue counted from the starts and completions, and Plan shares
// the free nodes. A job is sized in its first cycle, even one without a
// free node (its estimate is the one at submission).
func (g *GS) Schedule(_ context.Context, st *planner.State) (*planner.Decision, error) {
	if g.mode == oneQueue {
		return PlanFIFO(st, st.Pending), nil
	}
	items := g.pending(st)
	if st.FreeNodes() == 0 {
		// Nothing to start: the jobs seen for the first time are sized
		// (a driver deciding at every arrival and completion lands here
		// at most arrivals).
		return &planner.Decision{}, nil
	}
	if g.mode == byService {
		slices.SortStableFunc(items, func(a, b Item) int { return cmp.Compare(g.jobs[a.P.Job.ID].seq, g.jobs[b.P.Job.ID].seq) })
	}
	return Plan(st, g.cfg, items, g.used, nil), nil
}

// pending is the items of st's pending jobs in its order, each in its
// job's queue with its waiting tasks, seeing (see) the jobs met for the
// first time. It walks st.Pending beside the last cycle's list and looks
// a job up only where the two differ (a job that arrived, or one after a
// job that left), since between two decisions at consecutive events the
// queue barely changes: a decision costs a pointer comparison per queued
// job, not a map lookup. The items are Schedule's buffer, valid until the
// next cycle.
func (g *GS) pending(st *planner.State) []Item {
	last, cur := g.last, g.cur[:0]
	items := slices.Grow(g.items[:0], len(st.Pending))
	k := 0
	for _, p := range st.Pending {
		var sn seen
		switch {
		case k < len(last) && last[k].p == p && last[k].job == p.Job:
			sn = last[k]
			k++
		case k+1 < len(last) && last[k+1].p == p && last[k+1].job == p.Job:
			sn = last[k+1] // last[k] left the queue
			k += 2
		default:
			j := g.see(p.Job)
			sn = seen{p: p, job: p.Job, j: j, queue: j.queue}
		}
		cur = append(cur, sn)
		q := sn.queue
		if g.mode == byService {
			q = sn.j.queue
		}
		items = append(items, Item{P: p, Queue: q, Tasks: p.Waiting})
	}
	clear(last) // keep no pointers into an old cycle
	g.last, g.cur, g.items = cur, last[:0], items
	return items
}

// see returns GS's record of a job, making it on the job's first cycle:
// its size by the policy's rule (an estimate under byEstimate, recorded
// for Estimates; no service yet under LAS) and its queue.
func (g *GS) see(jb *workloads.Job) *job {
	if j := g.jobs[jb.ID]; j != nil {
		return j
	}
	j := &job{unit: jb.Nodes}
	if jb.TaskLevel() {
		j.unit = jb.TaskNodes
	}
	q := 0
	// Asked once, at the job's first cycle (3σPredict answers at
	// submission, 3Sigma §4.1); a thin job under thin-job handling is not
	// estimated: the highest queue.
	if g.mode == byEstimate && (g.thinLimit == 0 || jb.Tasks() >= g.thinLimit) {
		j.mean = estimate.DefaultRuntime
		if e, err := g.est.Estimate(jb); err == nil {
			j.mean = g.point(e)
		}
		q = g.cfg.QueueOf(j.mean * float64(jb.Nodes))
		g.records = append(g.records, planner.EstimateRecord{JobID: jb.ID, Tasks: jb.Tasks(), Estimate: j.mean,
			Queue: q, TrueQueue: g.cfg.QueueOf(jb.Runtime * float64(jb.Nodes))})
	}
	g.enter(j, q)
	g.jobs[jb.ID] = j
	return j
}

// Estimates are the estimates GS sized jobs by, in the order it first saw
// them (none for LAS and FIFO, nor for thin jobs under thin-job
// handling).
func (g *GS) Estimates() []planner.EstimateRecord { return g.records }

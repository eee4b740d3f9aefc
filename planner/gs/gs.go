package gs

import (
	"context"
	"fmt"
	"math"

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

	// known is the estimated mean task runtime of each job GS has seen
	// (byEstimate); progress what its completed tasks ran.
	known    map[int]float64
	progress map[int]*progress
	records  []planner.EstimateRecord
	entries  *Entries
}

// progress is what the completed tasks of a job ran: Σ task nodes × run
// time (seconds, as they ran) and Σ nominal runtime (PreferredRuntime).
type progress struct {
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
		known: map[int]float64{}, progress: map[int]*progress{}, entries: NewEntries()}
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
	case Name3Sigma:
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

// Applied does nothing: every cycle starts from the state.
func (g *GS) Applied(*planner.ApplyResult) {}

// Observe counts a completed task (or gang run) and, with the job's
// last, teaches the estimator the job's mean task runtime.
func (g *GS) Observe(c planner.Completion) {
	j := c.Job
	p := g.progress[j.ID]
	if p == nil {
		p = &progress{}
		g.progress[j.ID] = p
	}
	nodes := j.Nodes
	if j.TaskLevel() {
		nodes = j.TaskNodes
	}
	p.service += float64(nodes) * c.Runtime
	p.nominal += c.PreferredRuntime()
	p.tasks++
	if !c.JobDone {
		return
	}
	if g.est != nil {
		g.est.Observe(j, p.nominal/float64(p.tasks))
	}
	delete(g.progress, j.ID)
	delete(g.known, j.ID)
	g.entries.Forget(j.ID)
}

// Schedule is a GS cycle (Decide's) with the policy's sizes, every
// queue first in, first out by when a job entered it (Entries): a job
// LAS demotes joins the tail of its new queue.
func (g *GS) Schedule(_ context.Context, st *planner.State) (*planner.Decision, error) {
	items := make([]Item, len(st.Pending))
	for i, p := range st.Pending {
		q := g.cfg.QueueOf(g.size(p.Job))
		g.entries.Enter(p.Job.ID, q)
		items[i] = Item{P: p, Queue: q, Tasks: p.Waiting}
	}
	g.entries.Order(items)
	used := make([]float64, g.cfg.Queues)
	for _, r := range st.Running {
		used[g.cfg.QueueOf(g.size(r.Job))] += float64(held(r))
	}
	return Plan(st, g.cfg, items, used, nil), nil
}

// size is the job's size in node-seconds by the policy's rule.
func (g *GS) size(j *workloads.Job) float64 {
	switch g.mode {
	case byService:
		return g.attained(j)
	case oneQueue:
		return 0
	}
	mean, ok := g.known[j.ID]
	if !ok {
		// Asked once, at the job's first cycle (3σPredict answers at
		// submission, 3Sigma §4.1); a thin job under thin-job handling
		// is not estimated: size 0, the highest queue.
		if g.thinLimit == 0 || j.Tasks() >= g.thinLimit {
			mean = estimate.DefaultRuntime
			if e, err := g.est.Estimate(j); err == nil {
				mean = g.point(e)
			}
			g.records = append(g.records, planner.EstimateRecord{JobID: j.ID, Tasks: j.Tasks(), Estimate: mean,
				Queue: g.cfg.QueueOf(mean * float64(j.Nodes)), TrueQueue: g.cfg.QueueOf(j.Runtime * float64(j.Nodes))})
		}
		g.known[j.ID] = mean
	}
	return mean * float64(j.Nodes)
}

// attained is the service j has attained as GS observes it: Σ task nodes
// × execution time of its completed tasks (SLearn §5.1.3: "the sum of all
// the task execution time"; a task's execution time is known when it
// completes), node-seconds. A job keeps its queue while its tasks run and
// moves down as they complete.
func (g *GS) attained(j *workloads.Job) float64 {
	if p := g.progress[j.ID]; p != nil {
		return p.service
	}
	return 0
}

// Estimates are the estimates GS sized jobs by, in the order it first saw
// them (none for LAS and FIFO, nor for thin jobs under thin-job
// handling).
func (g *GS) Estimates() []planner.EstimateRecord { return g.records }

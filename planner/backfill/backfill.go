package backfill

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/estimate"
	"github.com/plannerhq/planner/workloads"
)

// Registry names of the HPC backfilling baselines.
const (
	// Name: FCFS with EASY backfilling on user-requested times.
	Name = "backfill"
	// NamePred: the same with 3σPredict's point estimates and
	// Tsafrir et al.'s correction of under-estimates.
	NamePred = "backfill-pred"
)

// DefaultRequestedTime (seconds) is the time limit assumed for a job whose
// requested time is unknown (workloads.Job.Requested = 0). It plays the role
// of a Slurm partition's DefaultTime, the limit a job submitted without
// --time gets: an hour is a typical site choice, and it is a value the user
// could have given, not one derived from the job's real runtime. Every job
// of a workload without requested times gets the same estimate, so EASY
// then backfills only where one hour fits before the reservation or on
// nodes the reservation does not need.
const DefaultRequestedTime = 3600.0

// correctionSteps are the increments (seconds) of Tsafrir, Etsion &
// Feitelson's gradual prediction correction (IEEE TPDS 18(6), 2007): after
// the k-th time a running job is found to have outlived its prediction, the
// prediction becomes the original one plus the k-th step (1 min, 5 min,
// 15 min, 30 min, 1 h, 2 h, 5 h, 10 h, 20 h, 50 h, 100 h — the series as
// reproductions of the paper implement it).
var correctionSteps = [...]float64{60, 300, 900, 1800, 3600, 7200, 18000, 36000, 72000, 180000, 360000}

// correctionStep is the k-th increment (k ≥ 1) of correctionSteps; past the
// table each further correction adds the last step again, so the estimate
// always catches up with any elapsed time.
func correctionStep(k int) float64 {
	n := len(correctionSteps)
	if k <= n {
		return correctionSteps[k-1]
	}
	return correctionSteps[n-1] * float64(k-n+1)
}

// Backfill is FCFS with EASY backfilling, the scheduler HPC sites run today
// (Lifka, "The ANL/IBM SP scheduling system", JSSPP 1995; Mu'alem &
// Feitelson, IEEE TPDS 12(6), 2001): Maui's backfill with its default
// reservation depth of one, and the core of Slurm's sched/backfill, which
// extends the same test to reservations for more queued jobs. Every cycle
// at time now:
//
//  1. The queue is the pending jobs in submission order (submit time, then
//     id). Service classes are ignored, as an HPC batch queue ignores them:
//     SLO jobs get no priority and deadlines play no part.
//  2. Jobs start in queue order while each fits in the free nodes now
//     (PlaceJob chooses the nodes: preferred partitions when they hold the
//     gang, else anywhere with the cluster's slowdown).
//  3. The first job that does not fit, the head, gets a reservation: walk
//     the running jobs (those started in step 2 included) by estimated end
//     start + E, adding their nodes back to the free ones; the shadow time
//     S is the first end at which the head fits, A[r] the nodes free at S
//     in partition r, and the head's placement at S is on its preferred
//     partitions if it fits there (PlaceJob's rule), else anywhere.
//  4. Every later job that fits now may start (backfill) if either its
//     estimated end now + E ≤ S (it is gone before the head needs the
//     nodes), or the head still fits at S, the same way (on its preferred
//     partitions if it was to run there), in A minus the job's nodes (A
//     shrinks by what the job takes). The job's nodes are PlaceJob's
//     choice in the free nodes, or, when the head would not fit beside
//     them, its choice in min(free[r], A[r] − the head's placement in A)
//     per partition: nodes the head's reservation does not need.
//
// Step 4 is EASY's rule on several partitions: where the head's nodes at
// S go is decided only at S, so a later job may use any nodes that leave
// room for it, not only those beside one placement fixed now. On one
// partition it is EASY's "fits in min(free now, extra at S)": on 13 free
// nodes [4 1 0 8] with the head's 3 spare nodes at S all on partition 2,
// a 1-node job starts now on partition 3, as in a single pool.
//
// It never preempts. E is the job's runtime estimate on its placement
// (runtimeEstimate): for backfill the user's requested time
// (DefaultRequestedTime when unknown); for backfill-pred 3σPredict's point
// estimate capped by the requested time. An estimate is made once, when the
// job is first seen. A job placed off its preferred partitions runs the
// cluster's Slowdown× longer in this simulator, and on partitions of speed
// s 1/s times as long, so its estimate is scaled by the same factor
// (workloads.Cluster.Factor).
//
// The simulator does not kill a job at its requested time, so a running job
// can outlive its estimate (always possible with predictions; with
// requested times when they are unknown, too short, or slowed). Its
// estimated end is then corrected as Tsafrir et al. do (runtimeEstimate).
type Backfill struct {
	name   string
	def    float64                 // DefaultRequested, seconds
	pred   *estimate.FromPredictor // nil for backfill
	jobs   map[int]*backfillJob
	cycles uint64
	// reserved, when set (tests), is told every head's reservation.
	reserved func(head int, shadow float64)
}

// Options configure Backfill. The zero value is the default.
type Options struct {
	// DefaultRequested is the time limit (seconds) assumed for a job
	// without a requested time; zero means DefaultRequestedTime.
	DefaultRequested float64
}

// backfillJob is what Backfill remembers about a pending or running job.
type backfillJob struct {
	base float64 // runtime estimate on preferred nodes, seconds
	// predicted: base is backfill-pred's prediction, not a time limit.
	predicted bool
	limit     float64 // requested time, seconds; +Inf when unknown
	seen      uint64  // last cycle that saw the job
}

var (
	_ planner.Scheduler        = (*Backfill)(nil)
	_ planner.EstimateReporter = (*Backfill)(nil)
)

// New returns FCFS with EASY backfilling on requested times
// (Name).
func New(opts Options) *Backfill {
	return newBackfill(Name, opts, nil)
}

// NewPred returns FCFS with EASY backfilling on 3σPredict's point
// estimates (NamePred), with p as the predictor (nil: a fresh
// 3σPredict with its defaults).
//
// As in Tsafrir, Etsion & Feitelson, "Backfilling using system-generated
// predictions rather than user runtime estimates" (IEEE TPDS 18(6), 2007;
// 3sigma.md ref. [24]): a job's prediction is the predictor's point
// estimate — the one pointrealest plans with — never above the job's
// requested time (the job would be killed there), and the requested time
// when the predictor has no history for the job; a job that outlives its
// prediction gets it increased step-wise (correctionSteps), never beyond
// the requested time while the job is within it. The paper's predictor is
// the mean of the user's last two runtimes; here it is 3σPredict's chosen
// expert, so that backfill-pred and pointrealest differ only in how they
// schedule.
func NewPred(opts Options, p estimate.RuntimePredictor) (*Backfill, error) {
	if p == nil {
		sp, err := estimate.NewSigma()
		if err != nil {
			return nil, err
		}
		p = sp
	}
	return newBackfill(NamePred, opts, &estimate.FromPredictor{P: p, PointOnly: true}), nil
}

func newBackfill(name string, opts Options, pred *estimate.FromPredictor) *Backfill {
	def := opts.DefaultRequested
	if !(def > 0) || math.IsInf(def, 0) {
		def = DefaultRequestedTime
	}
	return &Backfill{name: name, def: def, pred: pred, jobs: map[int]*backfillJob{}}
}

// Name returns Name or NamePred.
func (b *Backfill) Name() string { return b.name }

// Train feeds the history to the predictor (backfill-pred only).
func (b *Backfill) Train(history []workloads.Job) {
	if b.pred != nil {
		b.pred.Train(history)
	}
}

// Applied does nothing: every cycle reads the running jobs from the state.
func (b *Backfill) Applied(*planner.ApplyResult) {}

// Observe passes a completion's runtime on preferred nodes to the
// predictor (backfill-pred only) and forgets the job.
func (b *Backfill) Observe(c planner.Completion) {
	if b.pred != nil {
		b.pred.Observe(c.Job, c.PreferredRuntime())
	}
	delete(b.jobs, c.Job.ID)
}

// ShortestRuntime is backfill-pred's runtime prediction of a job on
// preferred nodes (seconds; planner.EstimateReporter), the one it made
// when it first saw the job. A requested time bounds a runtime from above
// and says nothing of how short it may be: for backfill, and for a job
// backfill-pred has no prediction of, ok is false.
func (b *Backfill) ShortestRuntime(jobID int) (float64, bool) {
	in := b.jobs[jobID]
	if in == nil || !in.predicted {
		return 0, false
	}
	return in.base, true
}

// info returns the remembered estimate of job, estimating it the first
// time it is seen.
func (b *Backfill) info(job *workloads.Job) *backfillJob {
	in := b.jobs[job.ID]
	if in == nil {
		in = &backfillJob{limit: math.Inf(1)}
		if r := job.Requested; r > 0 && !math.IsInf(r, 0) {
			in.limit = r
		}
		in.base, in.predicted = b.initialEstimate(job, in.limit)
		b.jobs[job.ID] = in
	}
	in.seen = b.cycles
	return in
}

// initialEstimate is a job's runtime estimate on preferred nodes (seconds,
// at least estimate.MinRuntime): backfill-pred's prediction capped by limit when the
// predictor knows the job; otherwise the requested time limit; otherwise
// the default limit.
func (b *Backfill) initialEstimate(job *workloads.Job, limit float64) (est float64, predicted bool) {
	if b.pred != nil {
		if _, p, ok := b.pred.P.Predict(job.Features); ok && p >= 0 && !math.IsInf(p, 0) {
			return math.Max(math.Min(p, limit), estimate.MinRuntime), true
		}
	}
	if !math.IsInf(limit, 0) {
		return math.Max(limit, estimate.MinRuntime), false
	}
	return b.def, false
}

// runtimeEstimate is the estimated runtime (seconds) of a run that has
// lasted elapsed seconds so far, with every time scaled by scale (the
// run's slowdown / speed, Cluster.Factor). With p = base·scale and
// L = limit·scale it is p + step(n) for the least n ≥ 0 with p + step(n) >
// elapsed (step(0) = 0, then correctionSteps), capped at L while elapsed <
// L: Tsafrir et al.'s gradual correction of an under-prediction, applied
// each time the run outlives its current estimate. Beyond L (the simulator
// does not kill at the requested time) the steps go on uncapped. For a new
// run (elapsed 0) it is min(p, L).
func (in *backfillJob) runtimeEstimate(elapsed, scale float64) float64 {
	p, limit := in.base*scale, in.limit*scale
	est := p
	for k := 1; est <= elapsed; k++ {
		est = p + correctionStep(k)
	}
	if elapsed < limit {
		est = math.Min(est, limit)
	}
	return est
}

// release is a running job's nodes coming back at its estimated end.
type release struct {
	end   float64
	id    int
	alloc []int
}

// backfillCycle is one cycle's working state.
type backfillCycle struct {
	b        *Backfill
	st       *planner.State
	free     []int
	releases []release
	dec      *planner.Decision
}

// Schedule runs one FCFS + EASY cycle at state.Now (see Backfill).
func (b *Backfill) Schedule(_ context.Context, st *planner.State) (*planner.Decision, error) {
	b.cycles++
	c := &backfillCycle{b: b, st: st, free: slices.Clone(st.Free), dec: &planner.Decision{}}
	for _, r := range st.Running {
		in := b.info(r.Job)
		elapsed := math.Max(0, st.Now-r.Start)
		end := r.Start + in.runtimeEstimate(elapsed, c.scale(r.Slowed, r.Alloc))
		c.releases = append(c.releases, release{end: end, id: r.Job.ID, alloc: r.Alloc})
	}
	queue := slices.Clone(st.Pending)
	slices.SortStableFunc(queue, compareFCFS)
	for _, p := range queue {
		b.info(p.Job)
	}

	// Step 2: FCFS starts until the head does not fit.
	i := 0
	for ; i < len(queue); i++ {
		alloc, ok := planner.PlaceJob(st.Cluster, c.free, queue[i].Job)
		if !ok {
			break
		}
		c.start(queue[i].Job, alloc)
	}
	if i < len(queue) {
		// Steps 3 and 4: the head's reservation, then backfilling.
		r := c.reserve(queue[i].Job)
		if b.reserved != nil {
			b.reserved(queue[i].Job.ID, r.shadow)
		}
		for _, p := range queue[i+1:] {
			c.backfill(p.Job, &r)
		}
	}
	b.forgetUnseen()
	return c.dec, nil
}

// compareFCFS orders jobs by submit time, then id.
func compareFCFS(a, b *planner.Pending) int {
	if c := cmp.Compare(a.Job.Submit, b.Job.Submit); c != 0 {
		return c
	}
	return cmp.Compare(a.Job.ID, b.Job.ID)
}

// scale is the runtime factor of a run on alloc (workloads.Cluster.Factor):
// the cluster's slowdown when slowed (else 1), divided by the speed of
// the slowest partition alloc holds nodes in.
func (c *backfillCycle) scale(slowed bool, alloc []int) float64 {
	f := 1.0
	if slowed && c.st.Cluster.Slowdown > 0 {
		f = c.st.Cluster.Slowdown
	}
	if v := c.st.Cluster.SpeedOf(alloc); v > 0 {
		f /= v
	}
	return f
}

// start places job now on alloc and adds its estimated end to the releases.
func (c *backfillCycle) start(job *workloads.Job, alloc []int) {
	for r, k := range alloc {
		c.free[r] -= k
	}
	in := c.b.info(job)
	end := c.st.Now + in.runtimeEstimate(0, c.scale(job.SlowedOn(alloc), alloc))
	c.releases = append(c.releases, release{end: end, id: job.ID, alloc: alloc})
	c.dec.Start = append(c.dec.Start, planner.Placement{JobID: job.ID, Alloc: alloc})
}

// reservation is the head's reservation (step 3 of Backfill): the shadow
// time, the nodes free then per partition and whether the head's
// placement there is confined to its preferred partitions.
type reservation struct {
	head   *workloads.Job
	shadow float64 // seconds; +Inf when the head fits at no estimated end
	avail  []int   // nodes free at shadow, before the head takes its own
	pref   bool    // the head fits at shadow on its preferred partitions
	// place is the head's placement in avail (nil: not known since avail
	// last changed); backfill asks for it once per candidate otherwise.
	place []int
}

// reserve computes the head's reservation. When the head fits at no
// estimated end (it needs more nodes than exist), the shadow is +Inf:
// nothing can be delayed, so everything may backfill.
func (c *backfillCycle) reserve(head *workloads.Job) reservation {
	rel := slices.Clone(c.releases)
	slices.SortFunc(rel, func(a, b release) int {
		if x := cmp.Compare(a.end, b.end); x != 0 {
			return x
		}
		return cmp.Compare(a.id, b.id)
	})
	avail := slices.Clone(c.free)
	for i := 0; i < len(rel); {
		t := rel[i].end
		for ; i < len(rel) && rel[i].end == t; i++ {
			for r, k := range rel[i].alloc {
				avail[r] += k
			}
		}
		if alloc, ok := planner.PlaceJob(c.st.Cluster, avail, head); ok {
			return reservation{head: head, shadow: t, avail: avail, pref: !head.SlowedOn(alloc), place: alloc}
		}
	}
	return reservation{head: head, shadow: math.Inf(1)}
}

// headFits reports whether the head still fits at the shadow time in
// avail, the way its reservation placed it: on its preferred partitions
// when it was to run there, anywhere otherwise.
func (r *reservation) headFits(c workloads.Cluster, avail []int) bool {
	alloc, ok := planner.PlaceJob(c, avail, r.head)
	return ok && !(r.pref && r.head.SlowedOn(alloc))
}

// backfill starts job now if it fits and either ends by the shadow time
// or leaves the head room at it (step 4 of Backfill); the nodes it holds
// at the shadow time leave r.avail.
func (c *backfillCycle) backfill(job *workloads.Job, r *reservation) {
	alloc, ok := planner.PlaceJob(c.st.Cluster, c.free, job)
	if !ok {
		return
	}
	if math.IsInf(r.shadow, 1) || c.endsBy(job, alloc, r.shadow) {
		c.start(job, alloc)
		return
	}
	if !c.leavesRoom(r, alloc) {
		// The nodes the head's placement at the shadow time leaves spare.
		if r.place == nil {
			r.place, _ = planner.PlaceJob(c.st.Cluster, r.avail, r.head)
		}
		head := r.place
		lim := make([]int, len(c.free))
		for p := range lim {
			lim[p] = min(c.free[p], r.avail[p]-head[p])
		}
		if alloc, ok = planner.PlaceJob(c.st.Cluster, lim, job); !ok {
			return
		}
		if !c.endsBy(job, alloc, r.shadow) && !c.leavesRoom(r, alloc) {
			return
		}
	}
	if !c.endsBy(job, alloc, r.shadow) {
		for p, k := range alloc {
			r.avail[p] -= k
		}
		r.place = nil
	}
	c.start(job, alloc)
}

// endsBy reports whether job started now on alloc is estimated to end by t.
func (c *backfillCycle) endsBy(job *workloads.Job, alloc []int, t float64) bool {
	in := c.b.info(job)
	return c.st.Now+in.runtimeEstimate(0, c.scale(job.SlowedOn(alloc), alloc)) <= t
}

// leavesRoom reports whether the head still fits at the shadow time when a
// job holds alloc then.
func (c *backfillCycle) leavesRoom(r *reservation, alloc []int) bool {
	rest := slices.Clone(r.avail)
	for p, k := range alloc {
		rest[p] -= k
	}
	return r.headFits(c.st.Cluster, rest)
}

// forgetUnseen drops the memory of jobs this cycle did not see (completed
// without Observe, or removed by the driver).
func (b *Backfill) forgetUnseen() {
	for id, in := range b.jobs {
		if in.seen != b.cycles {
			delete(b.jobs, id)
		}
	}
}

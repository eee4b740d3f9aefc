package service

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/workloads"
)

// Remote is the scheduler of planner replay: a planner.Scheduler whose
// cycles run in a service on the virtual clock. The simulator
// (experiments.Sim) plays the cluster with it as with any scheduler, and
// Remote tells the service what the simulator saw — history, submissions
// at their submit times, completions with their runtimes — moves the
// service's clock to the simulator's cycle, and hands back the decisions
// the service published (acknowledging the starts, as a bridge would).
// Since the service runs the same policy on the same state, a replay in
// deterministic mode makes the decisions planner simulate makes.
//
// Job ids: the service is given the workload's ids in decimal, and
// numbers its jobs in the order they arrive; policies order jobs by id,
// so the decisions match whenever the workload's ids increase with the
// submit time (generated workloads, imported traces).
type Remote struct {
	c       *Client
	info    *InfoView
	tl      timeline
	cluster workloads.Cluster

	submitted map[int]bool
	shortest  map[int]float64      // per job started: its DecisionView.ShortestRuntimeS
	done      []planner.Completion // observed, not yet reported
	last      uint64               // decisions read so far
	clock     float64
	started   bool // the service's clock has been moved

	// Cycles are the decisions the service made, one per cycle, in order.
	Cycles []RemoteCycle
	// FeatureMismatches counts the jobs whose submit hour, weekday or
	// resources the service derives differently from the workload.
	FeatureMismatches int
	err               error
}

// RemoteCycle is one cycle of a replay: its time and decision.
type RemoteCycle struct {
	Now      float64
	Decision *planner.Decision
}

// NewRemote checks that the service can replay a workload on cluster: a
// virtual clock that has not moved, no job yet, the same cluster.
func NewRemote(ctx context.Context, c *Client, cluster workloads.Cluster) (*Remote, error) {
	info, err := c.Info(ctx)
	if err != nil {
		return nil, err
	}
	switch {
	case info.Clock != ClockVirtual.String():
		return nil, fmt.Errorf("the service runs on the %s clock; replay needs one started with --clock virtual", info.Clock)
	case info.Jobs > 0 || info.NowS != 0:
		return nil, fmt.Errorf("the service already holds %d jobs (clock at %s); replay needs a fresh --data directory", info.Jobs, info.Now)
	}
	if err := sameCluster(info.Cluster, cluster); err != nil {
		return nil, err
	}
	return &Remote{c: c, info: info, tl: timeline{epoch: VirtualEpoch, mode: ClockVirtual}, cluster: cluster.Clone(),
		submitted: map[int]bool{}, shortest: map[int]float64{}}, nil
}

// sameCluster reports a service cluster that is not the workload's.
func sameCluster(v ClusterView, c workloads.Cluster) error {
	if len(v.Partitions) != len(c.PartitionNodes) || v.Slowdown != c.Slowdown {
		return fmt.Errorf("the service's cluster (%d partitions, slowdown %g) is not the workload's (%d partitions, slowdown %g); start it with the workload's --cluster",
			len(v.Partitions), v.Slowdown, len(c.PartitionNodes), c.Slowdown)
	}
	for r, p := range v.Partitions {
		if p.Name != c.PartitionName(r) || p.Available != c.PartitionNodes[r] || p.Speed != c.Speed(r) {
			return fmt.Errorf("the service's partition %d is %s with %d nodes of speed %g, the workload's %s with %d of speed %g; start it with the workload's --cluster",
				r, p.Name, p.Available, p.Speed, c.PartitionName(r), c.PartitionNodes[r], c.Speed(r))
		}
	}
	return nil
}

var (
	_ planner.Scheduler        = (*Remote)(nil)
	_ planner.EstimateReporter = (*Remote)(nil)
)

// Info is how the service runs.
func (r *Remote) Info() *InfoView { return r.info }

// Name is the service's policy.
func (r *Remote) Name() string { return r.info.Scheduler }

// Train sends the history to the service's predictor.
func (r *Remote) Train(history []workloads.Job) {
	if len(history) == 0 || r.err != nil {
		return
	}
	for i := 0; i < len(history); i += maxHistoryJobs {
		batch := history[i:min(len(history), i+maxHistoryJobs)]
		spec := HistorySpec{Jobs: make([]HistoryJob, len(batch))}
		for k := range batch {
			j := &batch[k]
			rt := j.Runtime
			spec.Jobs[k] = HistoryJob{User: j.Features.User, Name: j.Features.Name, App: j.Features.App,
				Resources: j.Features.Resources, Submitted: r.tl.format(j.Submit), RuntimeS: &rt}
			r.checkFeatures(j, true)
		}
		if err := r.c.History(context.Background(), spec); err != nil {
			r.err = fmt.Errorf("sending the history: %w", err)
			return
		}
	}
}

// Observe keeps a completion for the service; it is reported before the
// next cycle, as the simulator tells its scheduler.
func (r *Remote) Observe(c planner.Completion) { r.done = append(r.done, c) }

// ShortestRuntime is the service scheduler's shortest expected runtime of
// a job it started (planner.EstimateReporter), as its decision feed said.
func (r *Remote) ShortestRuntime(jobID int) (float64, bool) {
	v, ok := r.shortest[jobID]
	return v, ok
}

// Applied does nothing: the service enacted its decision itself.
func (r *Remote) Applied(*planner.ApplyResult) {}

// Schedule runs the service's cycle at st.Now.
func (r *Remote) Schedule(ctx context.Context, st *planner.State) (*planner.Decision, error) {
	if r.err != nil {
		return nil, r.err
	}
	iv := r.info.IntervalS
	// The boundaries the simulator skipped (nothing pending) first, so
	// that the jobs submitted now are not seen at an earlier boundary.
	if prev := st.Now - iv; prev > r.clock || (!r.started && prev >= 0) {
		if err := r.move(ctx, prev); err != nil {
			return nil, err
		}
	}
	if err := r.report(ctx); err != nil {
		return nil, err
	}
	for _, p := range st.Pending {
		if r.submitted[p.Job.ID] {
			continue
		}
		if _, _, err := r.c.Submit(ctx, r.specOf(p.Job)); err != nil {
			return nil, err
		}
		r.submitted[p.Job.ID] = true
		r.checkFeatures(p.Job, false)
	}
	cv, err := r.c.Clock(ctx, r.tl.instant(st.Now))
	if err != nil {
		return nil, err
	}
	r.clock, r.started = st.Now, true
	d := &planner.Decision{}
	for _, c := range cv.Cycles {
		if c.TimeS != st.Now {
			return nil, fmt.Errorf("the service ran a cycle at %s, the simulator at %s", c.Time, r.tl.format(st.Now))
		}
		d.Stats = planner.CycleStats{Solved: c.Solved, TimeLimited: c.TimeLimited, Fallback: c.Fallback,
			Objective: c.Objective, FailedStage: c.FailedStage, Failure: c.Failure, Panicked: c.Panicked,
			Options: c.Options, Vars: c.Vars, Rows: c.Rows, HeldNodes: c.HeldNodes}
		if c.Invalid != "" {
			return nil, fmt.Errorf("the service refused its scheduler's decision at %s: %s", c.Time, c.Invalid)
		}
	}
	if len(cv.Cycles) == 0 {
		return nil, fmt.Errorf("the service ran no cycle at %s with %d jobs pending", r.tl.format(st.Now), len(st.Pending))
	}
	feed, err := r.c.Decisions(ctx, r.last, 0)
	if err != nil {
		return nil, err
	}
	for len(feed.Decisions) > 0 {
		for _, it := range feed.Decisions {
			id, err := strconv.Atoi(it.Job)
			if err != nil {
				return nil, fmt.Errorf("decision %d names job %q, not one of the workload's", it.Seq, it.Job)
			}
			if it.Action == "preempt" {
				d.Preempt = append(d.Preempt, id)
				continue
			}
			alloc, err := r.allocOf(it.Alloc)
			if err != nil {
				return nil, fmt.Errorf("decision %d: %w", it.Seq, err)
			}
			d.Start = append(d.Start, planner.Placement{JobID: id, Alloc: alloc})
			if it.ShortestRuntimeS != nil {
				r.shortest[id] = *it.ShortestRuntimeS
			}
			if _, err := r.c.Event(ctx, it.Job, EventSpec{Type: evStarted}); err != nil {
				return nil, err
			}
		}
		r.last = feed.Decisions[len(feed.Decisions)-1].Seq
		if r.last >= feed.Last {
			break
		}
		if feed, err = r.c.Decisions(ctx, r.last, 0); err != nil {
			return nil, err
		}
	}
	r.Cycles = append(r.Cycles, RemoteCycle{Now: st.Now, Decision: d})
	return d, nil
}

// Finish reports the completions the simulator observed after its last
// cycle, so that the service ends with every job's fate.
func (r *Remote) Finish(ctx context.Context) error {
	if r.err != nil {
		return r.err
	}
	return r.report(ctx)
}

// move moves the service's clock to t, at most maxAdvance boundaries at
// a time.
func (r *Remote) move(ctx context.Context, t float64) error {
	iv := r.info.IntervalS
	for {
		first := 0.0 // the index of the next boundary the service runs
		if r.started {
			first = math.Floor(r.clock/iv) + 1
		}
		next := min(t, (first+maxAdvance-1)*iv)
		cv, err := r.c.Clock(ctx, r.tl.instant(next))
		if err != nil {
			return err
		}
		if len(cv.Cycles) > 0 {
			return fmt.Errorf("the service ran a cycle at %s, where the simulator had nothing pending", cv.Cycles[0].Time)
		}
		r.clock, r.started = next, true
		if next == t {
			return nil
		}
	}
}

// report sends the completions observed since the last cycle, in the
// order the simulator observed them, with their measured runtimes.
func (r *Remote) report(ctx context.Context) error {
	for len(r.done) > 0 {
		c := r.done[0]
		rt := c.Runtime
		if _, err := r.c.Event(ctx, strconv.Itoa(c.Job.ID), EventSpec{Type: evCompleted, Time: r.tl.format(c.End), RuntimeS: &rt}); err != nil {
			return err
		}
		r.done = r.done[1:]
	}
	return nil
}

// specOf is the submission of a workload job.
func (r *Remote) specOf(j *workloads.Job) JobSpec {
	nodes, value := j.Nodes, j.Value
	spec := JobSpec{ID: strconv.Itoa(j.ID), User: j.Features.User, Name: j.Features.Name, App: j.Features.App,
		Nodes: &nodes, Class: j.Class.String(), Value: &value, Resources: j.Features.Resources,
		Submitted: r.tl.format(j.Submit)}
	if j.Class == workloads.SLO {
		spec.Deadline = r.tl.format(j.Deadline)
	}
	if j.Requested > 0 {
		req := j.Requested
		spec.TimeLimitS = &req
	}
	for _, p := range j.Preferred {
		spec.Preferred = append(spec.Preferred, r.cluster.PartitionName(p))
	}
	return spec
}

// checkFeatures counts a job whose predictor features the service would
// derive differently: its submit hour and weekday come from the submit
// time on the virtual clock, and a submitted job without resources gets
// "nodes=N".
func (r *Remote) checkFeatures(j *workloads.Job, history bool) {
	h, d := workloads.SubmitHourDay(j.Submit)
	if h != j.Features.SubmitHour || d != j.Features.SubmitDay || (!history && j.Features.Resources == "") {
		r.FeatureMismatches++
	}
}

// allocOf turns a decision's nodes per partition name into counts per
// partition index.
func (r *Remote) allocOf(a []AllocView) ([]int, error) {
	alloc := make([]int, len(r.cluster.PartitionNodes))
	names := partitionNames(r.cluster)
	for _, v := range a {
		i := slices.Index(names, v.Partition)
		if i < 0 {
			return nil, errors.New("unknown partition " + v.Partition)
		}
		alloc[i] += v.Nodes
	}
	return alloc, nil
}

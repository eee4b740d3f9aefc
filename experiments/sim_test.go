package experiments

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/planner/prio"
	"github.com/plannerhq/planner/workloads"
)

// wantJob is the expected fate of one job.
type wantJob struct {
	id         int
	start, end float64 // end < 0: not completed
	met        bool
	parts      []int
}

func TestSimulatePrio(t *testing.T) {
	tests := []struct {
		name     string
		cluster  workloads.Cluster
		jobs     []workloads.Job
		interval float64
		want     []wantJob
	}{
		{
			name:     "starts at the next cycle boundary",
			cluster:  cluster(4),
			jobs:     jobsOf(newJob(0, 10, 2, 100)),
			interval: 60,
			want:     []wantJob{{id: 0, start: 60, end: 160, parts: []int{0}}},
		},
		{
			name:     "gang off the preferred racks runs 1.5x longer and misses",
			cluster:  cluster(2, 2),
			jobs:     jobsOf(newJob(0, 0, 3, 100).slo(140).prefer(0)),
			interval: 60,
			want:     []wantJob{{id: 0, start: 0, end: 150, met: false, parts: []int{0, 1}}},
		},
		{
			name:     "preferred racks when they hold the gang",
			cluster:  cluster(2, 2),
			jobs:     jobsOf(newJob(0, 0, 2, 100).slo(140).prefer(1)),
			interval: 60,
			want:     []wantJob{{id: 0, start: 0, end: 100, met: true, parts: []int{1}}},
		},
		{
			name:    "backfill: a small BE job starts while a wide SLO job waits",
			cluster: cluster(4),
			jobs: jobsOf(newJob(0, 0, 3, 100), newJob(1, 30, 4, 100).slo(1000),
				newJob(2, 30, 1, 50)),
			interval: 60,
			want: []wantJob{
				{id: 0, start: 0, end: 100, parts: []int{0}},
				{id: 1, start: 120, end: 220, met: true, parts: []int{0}},
				{id: 2, start: 60, end: 110, parts: []int{0}},
			},
		},
		{
			name:    "SLO jobs by earliest deadline",
			cluster: cluster(2),
			jobs: jobsOf(newJob(0, 0, 2, 100).slo(1000), newJob(1, 0, 2, 100).slo(500),
				newJob(2, 0, 1, 10)),
			interval: 60,
			want: []wantJob{
				{id: 0, start: 120, end: 220, met: true, parts: []int{0}},
				{id: 1, start: 0, end: 100, met: true, parts: []int{0}},
				{id: 2, start: 240, end: 250, parts: []int{0}},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Cluster: tc.cluster, Jobs: tc.jobs, Window: 100}
			sim, err := NewSim(in, SimConfig{Interval: tc.interval, Drain: 1e4}, prio.New(prio.Options{}))
			if err != nil {
				t.Fatal(err)
			}
			res, err := sim.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				checkJob(t, res, w)
			}
		})
	}
}

func checkJob(t *testing.T, res *SimResult, w wantJob) {
	t.Helper()
	i := slices.IndexFunc(res.Jobs, func(r JobRecord) bool { return r.JobID == w.id })
	if i < 0 {
		t.Fatalf("job %d not in result", w.id)
	}
	r := res.Jobs[i]
	if !r.Started || r.Start != w.start {
		t.Errorf("job %d: started %v at %g, want %g", w.id, r.Started, r.Start, w.start)
	}
	if w.end >= 0 && (!r.Completed || r.End != w.end) {
		t.Errorf("job %d: completed %v at %g, want at %g", w.id, r.Completed, r.End, w.end)
	}
	if w.end < 0 && r.Completed {
		t.Errorf("job %d completed at %g, want not completed", w.id, r.End)
	}
	if r.Class == workloads.SLO && r.MetDeadline != w.met {
		t.Errorf("job %d: met deadline %v, want %v", w.id, r.MetDeadline, w.met)
	}
	if w.parts != nil && !slices.Equal(r.Partitions, w.parts) {
		t.Errorf("job %d: partitions %v, want %v", w.id, r.Partitions, w.parts)
	}
}

// preemptSLO preempts every running BE job for the first pending SLO job,
// and otherwise places greedily.
func preemptSLO(st *planner.State) (*planner.Decision, error) {
	d := &planner.Decision{}
	for _, p := range st.Pending {
		if p.Job.Class != workloads.SLO {
			continue
		}
		free := slices.Clone(st.Free)
		for _, r := range st.Running {
			if r.Job.Class == workloads.BestEffort {
				d.Preempt = append(d.Preempt, r.Job.ID)
				for k, n := range r.Alloc {
					free[k] += n
				}
			}
		}
		alloc, ok := planner.PlaceJob(st.Cluster, free, p.Job)
		if !ok {
			return &planner.Decision{}, nil
		}
		d.Start = append(d.Start, planner.Placement{JobID: p.Job.ID, Alloc: alloc})
		return d, nil
	}
	d.Start = planner.PlaceGreedy(st, st.Pending)
	return d, nil
}

func TestPreemptionLosesProgress(t *testing.T) {
	in := Input{Cluster: cluster(4), Window: 100,
		Jobs: jobsOf(newJob(0, 0, 4, 1000), newJob(1, 100, 4, 100).slo(400))}
	sched := &plannertest.Func{SchedName: "preempter", F: preemptSLO}
	sim, err := NewSim(in, SimConfig{Interval: 60, Drain: 5000}, sched)
	if err != nil {
		t.Fatal(err)
	}
	states := stepAll(t, sim, nil)
	res := sim.Result()
	// t=0 job 0 starts; t=60 nothing pending (skipped); t=120 job 1 arrived:
	// job 0 preempted, job 1 runs 120–220; t=240 job 0 restarts from zero.
	checkJob(t, res, wantJob{id: 0, start: 240, end: 1240, parts: []int{0}})
	checkJob(t, res, wantJob{id: 1, start: 120, end: 220, met: true, parts: []int{0}})
	if got := res.Jobs[0].Preemptions; got != 1 {
		t.Errorf("job 0 preemptions = %d, want 1", got)
	}
	if got, want := res.BusyNodeSeconds, 4.0*(120+100+1000); got != want {
		t.Errorf("busy = %g node-s, want %g", got, want)
	}
	m := res.Metrics()
	if want := 4880.0 / (4 * 1240); math.Abs(m.Utilization-want) > 1e-12 {
		t.Errorf("utilization = %g, want %g", m.Utilization, want)
	}
	if m.Preemptions != 1 || m.SLOMissRate != 0 {
		t.Errorf("metrics %+v", m)
	}
	var nows []float64
	for _, st := range states {
		nows = append(nows, st.Now)
	}
	if want := []float64{0, 120, 180, 240}; !slices.Equal(nows, want) {
		t.Errorf("cycles at %v, want %v", nows, want)
	}
	// The re-queued job is pending with its preemption counted at t=180.
	st := states[2]
	if len(st.Pending) != 1 || st.Pending[0].Job.ID != 0 || st.Pending[0].Preemptions != 1 {
		t.Errorf("pending at t=180: %+v", st.Pending)
	}
	var observed [][3]float64 // job, runtime, end
	for _, c := range sched.Observed {
		observed = append(observed, [3]float64{float64(c.Job.ID), c.Runtime, c.End})
	}
	if want := [][3]float64{{1, 100, 220}, {0, 1000, 1240}}; !slices.Equal(observed, want) {
		t.Errorf("observed %v, want %v", observed, want)
	}
	// Every decision was carried out and reported back.
	if len(sched.Results) != len(states) {
		t.Errorf("%d apply results for %d cycles", len(sched.Results), len(states))
	}
}

// TestDecideOnEvents: deciding on events, the scheduler is asked at every
// arrival and completion as well as at every boundary while work waits;
// the events of one instant make one cycle, with the completions done
// before the arrivals; a preempted run's completion makes no cycle.
func TestDecideOnEvents(t *testing.T) {
	tests := []struct {
		name     string
		interval float64
		jobs     []workloads.Job
		sched    func(*planner.State) (*planner.Decision, error)
		nows     []float64 // the cycles
		want     []wantJob
		// pending at the cycles, by job id
		pending [][]int
	}{
		{
			name:     "arrivals and completions of one instant are one cycle",
			interval: 60,
			// 0 and 1 arrive at 10 and fill the 4 nodes; 2 arrives at 25
			// and waits; 3 arrives at 110, when 0 and 1 end: 2 and 3
			// start at 110.
			jobs: jobsOf(newJob(0, 10, 2, 100), newJob(1, 10, 2, 100), newJob(2, 25, 3, 50),
				newJob(3, 110, 1, 50)),
			sched:   greedy,
			nows:    []float64{10, 25, 60, 110},
			pending: [][]int{{0, 1}, {2}, {2}, {2, 3}},
			want: []wantJob{{id: 0, start: 10, end: 110}, {id: 1, start: 10, end: 110},
				{id: 2, start: 110, end: 160}, {id: 3, start: 110, end: 160}},
		},
		{
			name:     "a preempted run's completion is no event",
			interval: 600,
			// 0 starts at 0; 1 arrives at 100 and preempts it; 0 waits
			// through the boundary at 600 and restarts at 1100, when 1
			// ends. The end its first run had, 1000, makes no cycle.
			jobs:    jobsOf(newJob(0, 0, 4, 1000), newJob(1, 100, 4, 1000).slo(1500)),
			sched:   preemptSLO,
			nows:    []float64{0, 100, 600, 1100},
			pending: [][]int{{0}, {1}, {0}, {0}},
			want:    []wantJob{{id: 0, start: 1100, end: 2100}, {id: 1, start: 100, end: 1100, met: true}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Cluster: cluster(4), Jobs: tc.jobs, Window: 110}
			sched := &plannertest.Func{SchedName: "f", F: tc.sched}
			sim, err := NewSim(in, SimConfig{Interval: tc.interval, Drain: 5000, Decisions: planner.OnEvents}, sched)
			if err != nil {
				t.Fatal(err)
			}
			states := stepAll(t, sim, nil)
			var nows []float64
			var pending [][]int
			for _, st := range states {
				nows = append(nows, st.Now)
				var ids []int
				for _, p := range st.Pending {
					ids = append(ids, p.Job.ID)
				}
				pending = append(pending, ids)
			}
			if !slices.Equal(nows, tc.nows) {
				t.Errorf("cycles at %v, want %v", nows, tc.nows)
			}
			if !slices.EqualFunc(pending, tc.pending, slices.Equal) {
				t.Errorf("pending %v, want %v", pending, tc.pending)
			}
			for _, w := range tc.want {
				checkJob(t, sim.Result(), w)
			}
		})
	}
}

// greedy starts the pending jobs that fit, in order.
func greedy(st *planner.State) (*planner.Decision, error) {
	return &planner.Decision{Start: planner.PlaceGreedy(st, st.Pending)}, nil
}

func TestDrainLimit(t *testing.T) {
	in := Input{Cluster: cluster(4), Window: 100,
		Jobs: jobsOf(newJob(0, 0, 2, 1000).slo(150), newJob(1, 0, 2, 120), newJob(2, 100, 4, 10))}
	sim, err := NewSim(in, SimConfig{Interval: 60}, prio.New(prio.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if sim.Limit() != 150 {
		t.Fatalf("limit = %g, want 150 (the latest SLO deadline)", sim.Limit())
	}
	res, err := sim.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// Job 0 runs on past the limit to its end (too late for its deadline);
	// job 2, pending at the limit, never starts.
	checkJob(t, res, wantJob{id: 0, start: 0, end: 1000})
	checkJob(t, res, wantJob{id: 1, start: 0, end: 120})
	if r := res.Jobs[2]; r.Started || r.Completed {
		t.Errorf("job 2 should never start: %+v", r)
	}
	m := res.Metrics()
	if m.SLOMissRate != 1 || res.End != 150 {
		t.Errorf("miss rate %g, end %g; want 1, 150", m.SLOMissRate, res.End)
	}
	if want := 2.0*150 + 2*120; res.BusyNodeSeconds != want {
		t.Errorf("busy %g, want %g (the run under way at the limit counted to the limit)", res.BusyNodeSeconds, want)
	}
}

// TestRunsUnderWayAtTheLimitEnd: a job started in time meets a deadline
// that lies past the limit, and a best-effort job running at the limit
// completes: where the run stops must not decide a started job's fate.
func TestRunsUnderWayAtTheLimitEnd(t *testing.T) {
	in := Input{Cluster: cluster(8), Window: 3600,
		Jobs: jobsOf(newJob(0, 0, 4, 8000).slo(12000), newJob(1, 3000, 2, 1200))}
	sim, err := NewSim(in, SimConfig{Interval: 60}, prio.New(prio.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if sim.Limit() != 7200 {
		t.Fatalf("limit = %g, want 7200 (2 × the window, before the deadline)", sim.Limit())
	}
	res, err := sim.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checkJob(t, res, wantJob{id: 0, start: 0, end: 8000, met: true})
	checkJob(t, res, wantJob{id: 1, start: 3000, end: 4200})
	m := res.Metrics()
	if m.SLOMissRate != 0 || res.End != 7200 {
		t.Errorf("miss rate %g, end %g; want 0, 7200", m.SLOMissRate, res.End)
	}
	if want := 4.0*7200 + 2*1200; res.BusyNodeSeconds != want {
		t.Errorf("busy %g node-seconds, want %g (within the run's span)", res.BusyNodeSeconds, want)
	}
	// Goodput counts job 0's run within the span, as the busy time does.
	if want := (4.0*7200 + 2*1200) / 3600; m.Goodput != want {
		t.Errorf("goodput %g machine-hours, want %g", m.Goodput, want)
	}
}

// TestInvalidDecisions: the simulator refuses a decision that breaks the
// cluster contract (planner.Decision.Validate) and ends the run with the
// rule's sentinel, naming the scheduler and the job.
func TestInvalidDecisions(t *testing.T) {
	jobs := jobsOf(newJob(0, 0, 2, 100), newJob(1, 0, 1, 100).slo(1000), newJob(2, 500, 1, 10))
	place := func(id int, alloc ...int) planner.Placement { return planner.Placement{JobID: id, Alloc: alloc} }
	tests := []struct {
		name  string
		first *planner.Decision // cycle at t=0
		then  *planner.Decision // cycle after
		rule  error
		want  string
	}{
		{name: "more nodes than free", first: &planner.Decision{Start: []planner.Placement{place(0, 2, 0), place(1, 1, 0)}}, rule: planner.ErrCapacity, want: "job 1: capacity exceeded: 1 nodes in partition 0, only 0 free"},
		{name: "wrong gang size", first: &planner.Decision{Start: []planner.Placement{place(0, 1, 0)}}, rule: planner.ErrGangSize, want: "job 0: wrong gang size: allocation has 1 nodes, the job needs 2"},
		{name: "not yet submitted", first: &planner.Decision{Start: []planner.Placement{place(2, 1, 0)}}, rule: planner.ErrUnknownJob, want: "job 2: unknown job"},
		{name: "unknown job", first: &planner.Decision{Start: []planner.Placement{place(99, 1, 0)}}, rule: planner.ErrUnknownJob, want: "job 99: unknown job"},
		{name: "started twice", first: &planner.Decision{Start: []planner.Placement{place(0, 2, 0), place(0, 0, 2)}}, rule: planner.ErrDuplicateJob, want: "job 0: job named twice"},
		{name: "start a running job", first: &planner.Decision{Start: []planner.Placement{place(0, 2, 0)}},
			then: &planner.Decision{Start: []planner.Placement{place(0, 0, 2)}}, rule: planner.ErrNotPending, want: "job 0: job not pending"},
		{name: "partition count", first: &planner.Decision{Start: []planner.Placement{place(0, 2)}}, rule: planner.ErrAllocation, want: "job 0: malformed allocation: allocation has 1 partitions"},
		{name: "negative count", first: &planner.Decision{Start: []planner.Placement{place(0, 2, -1)}}, rule: planner.ErrAllocation, want: "job 0: malformed allocation: -1 nodes in partition 1"},
		{name: "preempt not running", first: &planner.Decision{Preempt: []int{0}}, rule: planner.ErrNotRunning, want: "job 0: job not running"},
		{name: "preempt SLO", first: &planner.Decision{Start: []planner.Placement{place(1, 1, 0)}},
			then: &planner.Decision{Preempt: []int{1}}, rule: planner.ErrNotPreemptible, want: "job 1: job not preemptible"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			sched := &plannertest.Func{SchedName: "bad", F: func(*planner.State) (*planner.Decision, error) {
				calls++
				if calls == 1 {
					return tc.first, nil
				}
				if tc.then != nil {
					return tc.then, nil
				}
				return &planner.Decision{}, nil
			}}
			in := Input{Cluster: cluster(2, 2), Jobs: jobs, Window: 600}
			sim, err := NewSim(in, SimConfig{Interval: 60}, sched)
			if err != nil {
				t.Fatal(err)
			}
			_, err = sim.Run(context.Background())
			if err == nil {
				t.Fatal("invalid decision accepted")
			}
			if !errors.Is(err, planner.ErrInvalidDecision) || !errors.Is(err, tc.rule) ||
				!strings.Contains(err.Error(), "scheduler bad") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want ErrInvalidDecision and %v naming scheduler bad and %q", err, tc.rule, tc.want)
			}
		})
	}
}

func TestInvalidInput(t *testing.T) {
	ok := jobsOf(newJob(0, 0, 1, 10))
	tests := []struct {
		name string
		in   Input
		cfg  SimConfig
		want string
	}{
		{"zero interval", Input{Cluster: cluster(2), Jobs: ok}, SimConfig{}, "interval must be positive"},
		{"negative drain", Input{Cluster: cluster(2), Jobs: ok}, SimConfig{Interval: 1, Drain: -1}, "drain"},
		{"no partitions", Input{Cluster: workloads.Cluster{Slowdown: 1}, Jobs: ok}, SimConfig{Interval: 1}, "no partitions"},
		{"slowdown below 1", Input{Cluster: workloads.Cluster{PartitionNodes: []int{2}, Slowdown: 0.5}, Jobs: ok}, SimConfig{Interval: 1}, "slowdown"},
		{"job wider than the cluster", Input{Cluster: cluster(2), Jobs: jobsOf(newJob(0, 0, 3, 10))}, SimConfig{Interval: 1}, "job 0: nodes must be ≤ cluster size 2, got 3"},
		{"zero runtime", Input{Cluster: cluster(2), Jobs: jobsOf(newJob(0, 0, 1, 0))}, SimConfig{Interval: 1}, "job 0: runtime_s must be in"},
		{"duplicate id", Input{Cluster: cluster(2), Jobs: jobsOf(newJob(0, 0, 1, 1), newJob(0, 1, 1, 1))}, SimConfig{Interval: 1}, "appears twice"},
		{"deadline before submit", Input{Cluster: cluster(2), Jobs: jobsOf(newJob(0, 5, 1, 1).slo(4))}, SimConfig{Interval: 1}, "deadline"},
		{"unknown partition", Input{Cluster: cluster(2), Jobs: jobsOf(newJob(0, 0, 1, 1).slo(9).prefer(3))}, SimConfig{Interval: 1}, "preferred partition 3 out of range"},
		{"submit after window", Input{Cluster: cluster(2), Jobs: ok, Window: -1}, SimConfig{Interval: 1}, "window"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewSim(tc.in, tc.cfg, nil)
			if err == nil || !errors.Is(err, ErrInvalidInput) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrInvalidInput containing %q", err, tc.want)
			}
		})
	}
}

// randomScheduler makes random valid decisions: it preempts running BE jobs
// at random, then starts a random subset of the pending jobs that fit.
type randomScheduler struct {
	plannertest.Func
	rng *rand.Rand
}

func newRandomScheduler(seed uint64) *randomScheduler {
	r := &randomScheduler{rng: rand.New(rand.NewPCG(seed, 3))}
	r.SchedName = "random"
	r.F = r.decide
	return r
}

func (r *randomScheduler) decide(st *planner.State) (*planner.Decision, error) {
	d := &planner.Decision{}
	work := *st
	work.Free = slices.Clone(st.Free)
	for _, run := range st.Running {
		if run.Job.Class == workloads.BestEffort && r.rng.IntN(10) == 0 {
			d.Preempt = append(d.Preempt, run.Job.ID)
			for k, n := range run.Alloc {
				work.Free[k] += n
			}
		}
	}
	order := slices.Clone(st.Pending)
	r.rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	order = order[:r.rng.IntN(len(order)+1)]
	d.Start = planner.PlaceGreedy(&work, order)
	return d, nil
}

// TestCapacityNeverExceeded steps random workloads through prio, prio with
// preemption and a random scheduler, periodically and on events (the
// last two), checking the books every cycle.
func TestCapacityNeverExceeded(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		in := randomInput(seed, 300, 4*3600)
		for i, s := range []planner.Scheduler{
			prio.New(prio.Options{}),
			prio.New(prio.Options{PreemptBE: true}),
			newRandomScheduler(seed),
			prio.New(prio.Options{PreemptBE: true}),
			newRandomScheduler(seed),
		} {
			decide := planner.OnCycle
			if i >= 3 {
				decide = planner.OnEvents
			}
			sim, err := NewSim(in, SimConfig{Interval: 60, Decisions: decide}, s)
			if err != nil {
				t.Fatal(err)
			}
			stepAll(t, sim, func(st *planner.State) {
				used := make([]int, len(st.Free))
				for _, r := range st.Running {
					for k, n := range r.Alloc {
						used[k] += n
					}
				}
				for k, n := range in.Cluster.PartitionNodes {
					if st.Free[k] < 0 || st.Free[k]+used[k] != n {
						t.Fatalf("seed %d %s t=%g: partition %d free %d used %d of %d", seed, s.Name(), st.Now, k, st.Free[k], used[k], n)
					}
				}
			})
			res := sim.Result()
			if res.BusyNodeSeconds > res.End*float64(res.Nodes)+1e-6 {
				t.Errorf("seed %d %s: busy %g > capacity %g", seed, s.Name(), res.BusyNodeSeconds, res.End*float64(res.Nodes))
			}
		}
	}
}

// stepAll steps sim to its end and returns a snapshot of the state each
// cycle showed its scheduler, taken before the decision was carried out;
// check, when set, sees each snapshot.
func stepAll(t *testing.T, sim *Sim, check func(*planner.State)) []*planner.State {
	t.Helper()
	var states []*planner.State
	for !sim.Done() {
		st, _, err := sim.Step(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if st == nil {
			break
		}
		states = append(states, plannertest.Snapshot(st))
		if check != nil {
			check(states[len(states)-1])
		}
	}
	return states
}

// TestCompletionRecords: the scheduler is told of each completion with the
// run's start, end and measured runtime, whether it ran slowed and its
// speed, so that it can learn the runtime on preferred nodes of speed 1.
func TestCompletionRecords(t *testing.T) {
	in := Input{Cluster: cluster(2, 2), Window: 100,
		Jobs: jobsOf(newJob(0, 0, 3, 100).prefer(0), newJob(1, 0, 1, 50).prefer(1))}
	sched := &plannertest.Func{SchedName: "greedy", F: func(st *planner.State) (*planner.Decision, error) {
		return &planner.Decision{Start: planner.PlaceGreedy(st, st.Pending)}, nil
	}}
	sim, err := NewSim(in, SimConfig{Interval: 60}, sched)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sim.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Job 0 (3 nodes, prefers partition 0 of 2) runs slowed: 150 s; job 1
	// takes the last node, on its preferred partition, and ends first.
	want := []planner.Completion{
		{JobDone: true, Start: 0, End: 50, Runtime: 50, Slowdown: 1, Speed: 1},
		{JobDone: true, Start: 0, End: 150, Runtime: 150, Slowed: true, Slowdown: 1.5, Speed: 1},
	}
	if len(sched.Observed) != len(want) {
		t.Fatalf("observed %+v", sched.Observed)
	}
	for i, w := range want {
		got := sched.Observed[i]
		w.Job = got.Job
		if got != w || got.Job.ID != 1-i {
			t.Errorf("completion %d: %+v, want %+v", i, got, w)
		}
	}
	if got := sched.Observed[1].PreferredRuntime(); got != 100 {
		t.Errorf("preferred runtime %v, want 100", got)
	}
}

// TestTwoSpeedCluster plays three jobs on a cluster of two partitions of
// 2 nodes, of speed 1 and 2, through a greedy scheduler, and checks the
// end times computed by hand (runtime × slowdown / the slowest speed):
//
//   - job 0 (2 nodes, 600 s, prefers partition 0) gets partition 0 at
//     t = 0: speed 1, ends at 600;
//   - job 1 (2 nodes, 600 s, prefers partition 0) finds it full and takes
//     partition 1: slowed 1.5× but twice as fast, 600 × 1.5 / 2 = 450 s;
//   - job 2 (3 nodes, 300 s, no preference), submitted at 500, fits once
//     job 0 is done (the cycle at 600): 2 nodes of partition 0 and 1 of
//     partition 1, so the gang runs at speed 1 and ends at 900.
func TestTwoSpeedCluster(t *testing.T) {
	c := workloads.Cluster{PartitionNodes: []int{2, 2}, PartitionSpeeds: []float64{1, 2}, Slowdown: 1.5}
	in := Input{Cluster: c, Window: 600,
		Jobs: jobsOf(newJob(0, 0, 2, 600).prefer(0), newJob(1, 0, 2, 600).prefer(0), newJob(2, 500, 3, 300))}
	sched := &plannertest.Func{SchedName: "greedy", F: func(st *planner.State) (*planner.Decision, error) {
		return &planner.Decision{Start: planner.PlaceGreedy(st, st.Pending)}, nil
	}}
	sim, err := NewSim(in, SimConfig{Interval: 60, Drain: 600}, sched)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		start, end float64
		parts      []int
		slowed     bool
	}{
		{0, 600, []int{0}, false},
		{0, 450, []int{1}, true},
		{600, 900, []int{0, 1}, false},
	}
	for i, w := range want {
		r := res.Jobs[i]
		if !r.Completed || r.Start != w.start || r.End != w.end || !slices.Equal(r.Partitions, w.parts) || r.Slowed != w.slowed {
			t.Errorf("job %d: start %v end %v on %v slowed %v, want %v, %v, %v, %v", i, r.Start, r.End, r.Partitions, r.Slowed, w.start, w.end, w.parts, w.slowed)
		}
	}
	// The scheduler learns nominal runtimes: its completions carry the
	// run's speed.
	speeds := map[int]float64{0: 1, 1: 2, 2: 1}
	for _, o := range sched.Observed {
		if o.Speed != speeds[o.Job.ID] || o.PreferredRuntime() != o.Job.Runtime {
			t.Errorf("job %d: completion speed %v, preferred runtime %v, want %v and %v", o.Job.ID, o.Speed, o.PreferredRuntime(), speeds[o.Job.ID], o.Job.Runtime)
		}
	}
	// Busy node-seconds count the nodes held, whatever their speed.
	if want := 2*600 + 2*450 + 3*300.0; res.End != 900 || res.BusyNodeSeconds != want {
		t.Errorf("end %v, busy %v node-seconds, want 900 and %v", res.End, res.BusyNodeSeconds, want)
	}
}

func TestInvalidClusterSpeeds(t *testing.T) {
	ok := jobsOf(newJob(0, 0, 1, 10))
	tests := []struct {
		name string
		c    workloads.Cluster
		want string
	}{
		{"speed per partition", workloads.Cluster{PartitionNodes: []int{2, 2}, PartitionSpeeds: []float64{1}, Slowdown: 1}, "partition_speeds must give a speed for each of the 2 partitions, got 1"},
		{"zero speed", workloads.Cluster{PartitionNodes: []int{2, 2}, PartitionSpeeds: []float64{1, 0}, Slowdown: 1}, "partition 1 speed must be in"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewSim(Input{Cluster: tc.c, Jobs: ok}, SimConfig{Interval: 1}, nil)
			if err == nil || !errors.Is(err, ErrInvalidInput) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrInvalidInput containing %q", err, tc.want)
			}
		})
	}
}

package backfill

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/estimate"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/workloads"
)

// bfJob is a best-effort test job with a requested time (0: unknown).
func bfJob(id int, submit float64, nodes int, requested float64, pref ...int) *workloads.Job {
	return &workloads.Job{ID: id, Class: workloads.BestEffort, Submit: submit, Nodes: nodes,
		Runtime: 100, Requested: requested, Preferred: pref, Features: workloads.Features{Name: "j"}}
}

// bfState is the cluster at now with running jobs holding their allocs.
func bfState(now float64, partitions []int, running []*planner.Running, pend ...*workloads.Job) *planner.State {
	free := slices.Clone(partitions)
	for _, r := range running {
		for p, k := range r.Alloc {
			free[p] -= k
		}
	}
	return &planner.State{Now: now, Cluster: workloads.Cluster{PartitionNodes: slices.Clone(partitions), Slowdown: 1.5},
		Free: free, Pending: pending(pend...), Running: running, Interval: 60}
}

// withSpeeds gives st's partitions the speeds.
func withSpeeds(st *planner.State, speeds ...float64) *planner.State {
	st.Cluster.PartitionSpeeds = speeds
	return st
}

func placementsEqual(a, b []planner.Placement) bool {
	return slices.EqualFunc(a, b, func(x, y planner.Placement) bool { return x.JobID == y.JobID && slices.Equal(x.Alloc, y.Alloc) })
}

// pointPredictor predicts a fixed point per job name; unknown names have no
// history.
type pointPredictor map[string]float64

func (p pointPredictor) Observe(workloads.Features, float64) {}
func (p pointPredictor) Predict(f workloads.Features) (distributions.Piecewise, float64, bool) {
	v, ok := p[f.Name]
	if !ok {
		return nil, 0, false
	}
	d, _ := distributions.NewPoint(math.Max(v, estimate.MinRuntime))
	return d, v, true
}

func named(j *workloads.Job, name string) *workloads.Job { j.Features.Name = name; return j }

func TestBackfillSchedule(t *testing.T) {
	one := []int{10}
	// A holds 6 of 10 nodes until 1000 s (requested); the 8-node head
	// therefore has its reservation at 1000 s with 2 extra nodes.
	a := &planner.Running{Job: bfJob(100, 0, 6, 1000), Start: 0, Alloc: []int{6}}
	head := bfJob(1, 0, 8, 500)
	tests := []struct {
		name   string
		opts   Options
		pred   estimate.RuntimePredictor // nil: backfill
		st     *planner.State
		start  []planner.Placement
		shadow float64 // of the head; 0: no head
	}{
		{
			name:  "FCFS starts in order while jobs fit",
			st:    bfState(0, one, nil, bfJob(1, 0, 4, 500), bfJob(2, 1, 5, 500), bfJob(3, 2, 2, 500)),
			start: []planner.Placement{pl(1, 4), pl(2, 5)},
			// Job 3 is the head: it waits for job 1 (ends at 500 s).
			shadow: 500,
		},
		{
			name:   "backfills a job that ends before the reservation",
			st:     bfState(0, one, []*planner.Running{a}, head, bfJob(2, 1, 4, 900)),
			start:  []planner.Placement{pl(2, 4)},
			shadow: 1000,
		},
		{
			name:   "a job ending exactly at the reservation backfills",
			st:     bfState(0, one, []*planner.Running{a}, head, bfJob(2, 1, 4, 1000)),
			start:  []planner.Placement{pl(2, 4)},
			shadow: 1000,
		},
		{
			name:   "no backfill that would delay the head",
			st:     bfState(0, one, []*planner.Running{a}, head, bfJob(2, 1, 4, 1200)),
			shadow: 1000,
		},
		{
			name:   "long jobs backfill on the extra nodes, until they are used",
			st:     bfState(0, one, []*planner.Running{a}, head, bfJob(2, 1, 2, 5000), bfJob(3, 2, 1, 5000), bfJob(4, 3, 1, 900)),
			start:  []planner.Placement{pl(2, 2), pl(4, 1)},
			shadow: 1000,
		},
		{
			name: "backfills on partitions the reservation does not need",
			// The head prefers partition 0, held until 1000 s; the 3 free
			// nodes of partition 1 are outside its reservation.
			st: bfState(0, []int{4, 4}, []*planner.Running{{Job: bfJob(100, 0, 4, 1000), Alloc: []int{4, 0}}, {Job: bfJob(101, 0, 1, 5000), Alloc: []int{0, 1}}},
				bfJob(1, 0, 4, 500, 0), bfJob(2, 1, 3, 5000)),
			start:  []planner.Placement{pl(2, 0, 3)},
			shadow: 1000,
		},
		{
			name: "EASY on several partitions: any nodes that leave the head room",
			// 13 nodes free as [4 1 0 8]; job 100 frees [4 7 7 0] at
			// 1000 s, job 101 holds a node of partition 2 to 5000 s. The
			// 28-node head fits at 1000 s in [8 8 7 8], its 3 spare nodes
			// all on partition 2 (it takes the most free first). Per
			// partition min(free now, spare) is 0, but as in one pool of
			// min(13 free, 3 spare) nodes the 1-node job 2 starts (on
			// partition 3: 30 nodes are left at 1000 s), the 4-node job 3
			// does not (26), and the 2-node job 4 does (28).
			st: bfState(0, []int{8, 8, 8, 8}, []*planner.Running{{Job: bfJob(100, 0, 18, 1000), Alloc: []int{4, 7, 7, 0}},
				{Job: bfJob(101, 0, 1, 5000), Alloc: []int{0, 0, 1, 0}}},
				bfJob(1, 0, 28, 500), bfJob(2, 1, 1, 5000), bfJob(3, 2, 4, 5000), bfJob(4, 3, 2, 5000)),
			start:  []planner.Placement{pl(2, 0, 0, 0, 1), pl(4, 0, 0, 0, 2)},
			shadow: 1000,
		},
		{
			name: "the head keeps its preferred partitions",
			// The 7-node head prefers partitions 0 and 1 and fits there at
			// 1000 s (8 nodes). Job 2 takes 2 of partition 2; job 3 would
			// take partition 1's 2 free nodes and push the head off its
			// preferred partitions, so it goes where the head's placement
			// at 1000 s leaves room: partition 2. Job 4 (2 nodes) fits
			// only in partition 1's 2 free nodes, of which the head needs
			// one: it waits.
			st: bfState(0, []int{4, 4, 4}, []*planner.Running{{Job: bfJob(100, 0, 6, 1000), Alloc: []int{4, 2, 0}}},
				bfJob(1, 0, 7, 500, 0, 1), bfJob(2, 1, 2, 5000), bfJob(3, 2, 2, 5000), bfJob(4, 3, 2, 5000)),
			start:  []planner.Placement{pl(2, 0, 0, 2), pl(3, 0, 0, 2)},
			shadow: 1000,
		},
		{
			name: "not when the reservation needs those nodes too",
			st: bfState(0, []int{4, 4}, []*planner.Running{{Job: bfJob(100, 0, 4, 1000), Alloc: []int{4, 0}}, {Job: bfJob(101, 0, 1, 2000), Alloc: []int{0, 1}}},
				bfJob(1, 0, 6, 500), bfJob(2, 1, 2, 5000)),
			shadow: 1000,
		},
		{
			name: "FCFS ignores classes: an earlier BE head holds back a later SLO job",
			st: bfState(0, one, []*planner.Running{a}, head,
				&workloads.Job{ID: 2, Class: workloads.SLO, Submit: 1, Deadline: 50, Nodes: 4, Runtime: 10, Requested: 5000}),
			shadow: 1000,
		},
		{
			name: "unknown requested time: the default limit",
			st: bfState(0, one, []*planner.Running{{Job: bfJob(100, 0, 6, 0), Alloc: []int{6}}},
				head, bfJob(2, 1, 4, DefaultRequestedTime+1), bfJob(3, 2, 4, 0)),
			start:  []planner.Placement{pl(3, 4)},
			shadow: DefaultRequestedTime,
		},
		{
			name: "unknown requested time: a configured default limit",
			opts: Options{DefaultRequested: 600},
			st: bfState(0, one, []*planner.Running{{Job: bfJob(100, 0, 6, 0), Alloc: []int{6}}},
				head, bfJob(2, 1, 4, 601), bfJob(3, 2, 4, 0)),
			start:  []planner.Placement{pl(3, 4)},
			shadow: 600,
		},
		{
			name: "a slowed running job is estimated Slowdown× longer",
			st: bfState(0, []int{5, 5}, []*planner.Running{{Job: bfJob(100, 0, 6, 1000, 0), Alloc: []int{5, 1}, Slowed: true}},
				bfJob(1, 0, 8, 500), bfJob(2, 1, 4, 1400), bfJob(3, 2, 4, 1600)),
			start:  []planner.Placement{pl(2, 0, 4)},
			shadow: 1500,
		},
		{
			name: "a running job on nodes of speed 2 is estimated half as long",
			st: withSpeeds(bfState(0, []int{6, 4}, []*planner.Running{{Job: bfJob(100, 0, 6, 1000), Alloc: []int{6, 0}}},
				bfJob(1, 0, 8, 500)), 2, 1),
			shadow: 500,
		},
		{
			name: "a running gang is estimated at its slowest partition's speed",
			st: withSpeeds(bfState(0, []int{6, 4}, []*planner.Running{{Job: bfJob(100, 0, 7, 1000), Alloc: []int{6, 1}}},
				bfJob(1, 0, 8, 500)), 2, 0.5),
			shadow: 2000,
		},
		{
			name: "a running job past its requested time is extended step-wise",
			// 1500 s into a 1000 s request: 1000+60, 1000+300 have passed,
			// so the estimate is 1000+900 = 1900 s.
			st:     bfState(1500, one, []*planner.Running{a}, head, bfJob(2, 1, 4, 401), bfJob(3, 2, 4, 400)),
			start:  []planner.Placement{pl(3, 4)},
			shadow: 1900,
		},
		{
			name: "pred: the prediction replaces the requested time",
			pred: pointPredictor{"long": 400, "short": 200, "a": 300},
			st: bfState(0, one, []*planner.Running{{Job: named(bfJob(100, 0, 6, 1000), "a"), Alloc: []int{6}}},
				head, named(bfJob(2, 1, 4, 5000), "long"), named(bfJob(3, 2, 4, 5000), "short")),
			// A's prediction (300 s) sets the shadow; job 2 (400 s) would
			// delay the head, job 3 (200 s) ends before the shadow.
			start:  []planner.Placement{pl(3, 4)},
			shadow: 300,
		},
		{
			name: "pred: the prediction is capped by the requested time",
			pred: pointPredictor{"a": 5000, "b": 5000},
			st: bfState(0, one, []*planner.Running{{Job: named(bfJob(100, 0, 6, 1000), "a"), Alloc: []int{6}}},
				head, named(bfJob(2, 1, 4, 900), "b")),
			start:  []planner.Placement{pl(2, 4)},
			shadow: 1000,
		},
		{
			name: "pred: no history means the requested time, then the default",
			pred: pointPredictor{},
			st: bfState(0, one, []*planner.Running{{Job: named(bfJob(100, 0, 6, 0), "a"), Alloc: []int{6}}},
				head, named(bfJob(2, 1, 4, 3000), "b")),
			start:  []planner.Placement{pl(2, 4)},
			shadow: DefaultRequestedTime,
		},
		{
			name: "pred: an under-prediction is extended step-wise",
			// Predicted 100 s, running for 150 s: the estimate becomes
			// 100 + 60 s, so the shadow is at 160 s.
			pred: pointPredictor{"a": 100, "b": 5, "c": 20},
			st: bfState(150, one, []*planner.Running{{Job: named(bfJob(100, 0, 6, 1000), "a"), Alloc: []int{6}}},
				head, named(bfJob(2, 1, 2, 5000), "c"), named(bfJob(3, 2, 2, 5000), "b")),
			// Job 2 (to 170 s) uses the 2 extra nodes; job 3 (to 155 s) ends
			// before the shadow.
			start:  []planner.Placement{pl(2, 2), pl(3, 2)},
			shadow: 160,
		},
		{
			name: "pred: the extension stops at the requested time",
			// Predicted 100 s, requested 120 s, running for 110 s: the
			// corrected 100+60 = 160 s is capped at 120 s.
			pred: pointPredictor{"a": 100},
			st: bfState(110, one, []*planner.Running{{Job: named(bfJob(100, 0, 6, 120), "a"), Alloc: []int{6}}},
				head),
			shadow: 120,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b *Backfill
			if tc.pred == nil {
				b = New(tc.opts)
			} else {
				var err error
				if b, err = NewPred(tc.opts, tc.pred); err != nil {
					t.Fatal(err)
				}
			}
			var shadows []float64
			b.reserved = func(_ int, s float64) { shadows = append(shadows, s) }
			free := slices.Clone(tc.st.Free)
			d, err := b.Schedule(context.Background(), tc.st)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Validate(tc.st); err != nil {
				t.Fatal(err)
			}
			if !placementsEqual(d.Start, tc.start) {
				t.Errorf("start %v, want %v", d.Start, tc.start)
			}
			if len(d.Preempt) > 0 {
				t.Errorf("preempts %v", d.Preempt)
			}
			switch {
			case tc.shadow == 0 && len(shadows) > 0:
				t.Errorf("reservation at %v, want none", shadows)
			case tc.shadow != 0 && (len(shadows) != 1 || shadows[0] != tc.shadow):
				t.Errorf("reservation at %v, want %v", shadows, tc.shadow)
			}
			if !slices.Equal(tc.st.Free, free) {
				t.Error("Schedule modified state.Free")
			}
		})
	}
}

func TestBackfillRuntimeEstimate(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name                 string
		base, limit, elapsed float64
		scale, want          float64
	}{
		{"new run", 500, 1000, 0, 1, 500},
		{"new run capped by the limit", 2000, 1000, 0, 1, 1000},
		{"new slowed run", 100, 1000, 0, 1.5, 150},
		{"within the estimate", 500, inf, 499, 1, 500},
		{"first correction: +1 min", 500, inf, 500, 1, 560},
		{"second correction: +5 min", 500, inf, 560, 1, 800},
		{"several at once", 500, inf, 4000, 1, 500 + 3600},
		{"corrections stop at the limit", 500, 600, 560, 1, 600},
		{"beyond the limit they go on", 500, 600, 600, 1, 800},
		{"past the table: +100 h again", 1, inf, 1 + 360000, 1, 1 + 720000},
		{"slowed: steps on the scaled estimate", 100, inf, 150, 1.5, 210},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := &backfillJob{base: tc.base, limit: tc.limit}
			if got := in.runtimeEstimate(tc.elapsed, tc.scale); got != tc.want {
				t.Errorf("runtimeEstimate(%v, %v) = %v, want %v", tc.elapsed, tc.scale, got, tc.want)
			}
		})
	}
}

// bfWorkload is a seeded random stream of jobs with requested times that
// are exact (factor 1) or over-estimates (factor > 1).
func bfWorkload(seed uint64, n int, factor float64) []*workloads.Job {
	rng := rand.New(rand.NewPCG(seed, 1))
	jobs := make([]*workloads.Job, n)
	for i := range jobs {
		rt := float64(60 * (1 + rng.IntN(30)))
		jobs[i] = plannertest.NewJob(i).Submit(float64(rng.IntN(1800))).Nodes(1 + rng.IntN(12)).Runtime(rt).Job()
		jobs[i].Requested = rt * factor
		jobs[i].Features.Name = string(rune('a' + rng.IntN(5)))
	}
	return jobs
}

// runBackfill plays jobs through s on two 8-node partitions until all are
// done and returns its decisions.
func runBackfill(t *testing.T, s planner.Scheduler, jobs []*workloads.Job) *plannertest.Cluster {
	t.Helper()
	h := plannertest.New(t, s, []int{8, 8}, 60)
	h.Submit(jobs...)
	for i := 0; len(h.Completed) < len(jobs); i++ {
		if i > 2000 {
			t.Fatalf("%d of %d jobs completed after 2000 cycles", len(h.Completed), len(jobs))
		}
		h.Step()
	}
	return h
}

func TestBackfillDeterministic(t *testing.T) {
	jobs := bfWorkload(7, 60, 2)
	for _, mk := range []func() planner.Scheduler{
		func() planner.Scheduler { return New(Options{}) },
		func() planner.Scheduler { b, _ := NewPred(Options{}, nil); return b },
	} {
		s1, s2 := mk(), mk()
		t.Run(s1.Name(), func(t *testing.T) {
			h1, h2 := runBackfill(t, s1, jobs), runBackfill(t, s2, jobs)
			if !reflect.DeepEqual(h1.Decisions, h2.Decisions) {
				t.Error("two runs on the same jobs decided differently")
			}
		})
	}
}

// With exact requested times EASY's promise holds: the head never starts
// later than the reservation it got when it first became the head (to the
// next cycle), whatever was backfilled meanwhile.
func TestBackfillKeepsReservations(t *testing.T) {
	jobs := bfWorkload(3, 80, 1)
	b := New(Options{})
	first := map[int]float64{}
	b.reserved = func(id int, s float64) {
		if _, ok := first[id]; !ok {
			first[id] = s
		}
	}
	h := plannertest.New(t, b, []int{16}, 60) // one partition: no slowdown
	h.Submit(jobs...)
	startAt := map[int]float64{}
	backfilled := 0
	for i := 0; len(h.Completed) < len(jobs); i++ {
		if i > 2000 {
			t.Fatal("run did not finish")
		}
		now := h.Now
		d := h.Step()
		for _, p := range d.Start {
			startAt[p.JobID] = now
		}
	}
	for id, s := range first {
		if limit := math.Ceil(s/60) * 60; startAt[id] > limit {
			t.Errorf("job %d reserved for %v s started at %v s", id, s, startAt[id])
		}
	}
	// The workload must exercise backfilling: some job starts before an
	// earlier-submitted one.
	for _, a := range jobs {
		for _, c := range jobs {
			if a.Submit < c.Submit && startAt[c.ID] < startAt[a.ID] {
				backfilled++
			}
		}
	}
	if len(first) == 0 || backfilled == 0 {
		t.Fatalf("no reservation (%d) or no backfill (%d): the test exercises nothing", len(first), backfilled)
	}
}

func TestBackfillPredLearns(t *testing.T) {
	// The predictor learns from completions, brought back to preferred
	// nodes: a job of name "x" that ran 150 s slowed ran 100 s.
	p := pointPredictor{}
	rec := &recordingPredictor{pointPredictor: p}
	b, err := NewPred(Options{}, rec)
	if err != nil {
		t.Fatal(err)
	}
	j := named(bfJob(1, 0, 6, 1000, 0), "x")
	st := bfState(0, []int{5, 5}, nil, j)
	d, err := b.Schedule(context.Background(), st)
	if err != nil || len(d.Start) != 1 {
		t.Fatalf("start %v, %v", d, err)
	}
	if err := d.Validate(st); err != nil {
		t.Fatal(err)
	}
	b.Observe(planner.Completion{Job: j, Start: 0, End: 150, Runtime: 150, Slowed: true, Slowdown: 1.5})
	if want := []float64{100}; !slices.Equal(rec.seen, want) {
		t.Errorf("observed %v, want %v", rec.seen, want)
	}
	if b.Name() != NamePred || New(Options{}).Name() != Name {
		t.Error("names")
	}
}

type recordingPredictor struct {
	pointPredictor
	seen []float64
}

func (r *recordingPredictor) Observe(_ workloads.Features, runtime float64) {
	r.seen = append(r.seen, runtime)
}

func pending(jobs ...*workloads.Job) []*planner.Pending {
	out := make([]*planner.Pending, len(jobs))
	for i, j := range jobs {
		out[i] = &planner.Pending{Job: j}
	}
	return out
}

// pl is the placement of job id on alloc.
func pl(id int, alloc ...int) planner.Placement { return planner.Placement{JobID: id, Alloc: alloc} }

// TestShortestRuntime: backfill-pred reports its prediction, capped by
// the requested time; a requested time alone is no estimate of how short
// a job may run, so backfill, and backfill-pred without a prediction,
// report none.
func TestShortestRuntime(t *testing.T) {
	pred, err := NewPred(Options{}, pointPredictor{"x": 300, "y": 5000})
	if err != nil {
		t.Fatal(err)
	}
	plain := New(Options{})
	x, y, z := named(bfJob(1, 0, 1, 1000), "x"), named(bfJob(2, 0, 1, 1000), "y"), named(bfJob(3, 0, 1, 1000), "z")
	for _, b := range []*Backfill{pred, plain} {
		if _, err := b.Schedule(context.Background(), bfState(0, []int{1}, nil, x, y, z)); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		b      *Backfill
		id     int
		want   float64
		wantOK bool
	}{
		{pred, 1, 300, true}, {pred, 2, 1000, true}, {pred, 3, 0, false}, {pred, 9, 0, false},
		{plain, 1, 0, false},
	}
	for _, tc := range tests {
		if v, ok := tc.b.ShortestRuntime(tc.id); v != tc.want || ok != tc.wantOK {
			t.Errorf("%s: ShortestRuntime(%d) = %v, %v; want %v, %v", tc.b.Name(), tc.id, v, ok, tc.want, tc.wantOK)
		}
	}
}

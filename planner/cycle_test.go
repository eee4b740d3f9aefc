package planner_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/workloads"
)

// withFallback is a Func with a fallback rule (planner.FallbackScheduler).
type withFallback struct {
	*plannertest.Func
	fallback func(*planner.State) *planner.Decision
}

func (w withFallback) Fallback(_ context.Context, st *planner.State) *planner.Decision {
	return w.fallback(st)
}

// TestRunCycle: one cycle on a ledger of 4 nodes with jobs 1 (2 nodes)
// and 2 (3 nodes) pending, for each way a scheduler can answer. A panic
// is a failed stage that decides by the fallback when there is one, else
// nothing; an error or a broken contract refuses the decision whole; the
// scheduler is told what was carried out in every case.
func TestRunCycle(t *testing.T) {
	start1 := func() *planner.Decision {
		return &planner.Decision{Start: []planner.Placement{{JobID: 1, Alloc: []int{2}}}}
	}
	tests := []struct {
		name     string
		schedule func(*planner.State) (*planner.Decision, error)
		fallback func(*planner.State) *planner.Decision // nil: none
		started  int                                    // jobs started
		refused  int
		stage    string
		fellBack bool
		err      error // the cycle's Err or Invalid
	}{
		{name: "a decision", schedule: func(*planner.State) (*planner.Decision, error) { return start1(), nil }, started: 1},
		{name: "a panic, no fallback", schedule: func(*planner.State) (*planner.Decision, error) { panic("bug") }, stage: planner.StageSchedule},
		{name: "a panic, the fallback decides", schedule: func(*planner.State) (*planner.Decision, error) { panic("bug") },
			fallback: func(*planner.State) *planner.Decision { return start1() }, started: 1, stage: planner.StageSchedule, fellBack: true},
		{name: "a panic in the fallback too", schedule: func(*planner.State) (*planner.Decision, error) { panic("bug") },
			fallback: func(*planner.State) *planner.Decision { panic("bug again") }, stage: planner.StageSchedule},
		{name: "an error", schedule: func(*planner.State) (*planner.Decision, error) { return start1(), errors.New("no answer") },
			refused: 1, err: errors.New("no answer")},
		{name: "a broken contract", schedule: func(*planner.State) (*planner.Decision, error) {
			return &planner.Decision{Start: []planner.Placement{{JobID: 1, Alloc: []int{2}}, {JobID: 2, Alloc: []int{3}}}}, nil
		}, refused: 2, err: planner.ErrCapacity},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := planner.NewLedger(workloads.Cluster{PartitionNodes: []int{4}, Slowdown: 1.5}, 60)
			l.Add(plannertest.NewJob(1).Nodes(2).Job())
			l.Add(plannertest.NewJob(2).Nodes(3).Job())
			f := &plannertest.Func{SchedName: "f", F: tc.schedule}
			var s planner.Scheduler = f
			if tc.fallback != nil {
				s = withFallback{f, tc.fallback}
			}
			c := planner.RunCycle(context.Background(), s, l, 30, planner.CycleOptions{Keep: true})
			st := c.Decision.Stats
			if st.FailedStage != tc.stage || st.Panicked != (tc.stage != "") || st.Fallback != tc.fellBack {
				t.Errorf("stats %+v: want stage %q, fallback %v", st, tc.stage, tc.fellBack)
			}
			if tc.stage != "" && !strings.Contains(st.Failure, "panic in Schedule: bug") {
				t.Errorf("failure %q does not name the panic", st.Failure)
			}
			got := c.Err
			if got == nil {
				got = c.Invalid
			}
			if (tc.err == nil) != (got == nil) || tc.err != nil && !errors.Is(got, tc.err) && got.Error() != tc.err.Error() {
				t.Errorf("error %v, want %v", got, tc.err)
			}
			if len(f.Results) != 1 || f.Results[0] != c.Result || len(c.Result.Started) != tc.started || len(c.Result.Refused) != tc.refused {
				t.Fatalf("told %+v, result %+v: want %d started, %d refused", f.Results, c.Result, tc.started, tc.refused)
			}
			if _, r := l.Lookup(1); (r != nil) != (tc.started == 1) {
				t.Errorf("job 1 running %v", r != nil)
			}
			if len(c.State.Pending) != 2 || c.State.Now != 30 || c.Now != 30 {
				t.Errorf("the kept state changed with the books: %+v", c.State)
			}
		})
	}
}

// TestRunCycleSkipIdle: with nothing pending, a cycle that skips idle
// views does not ask the scheduler.
func TestRunCycleSkipIdle(t *testing.T) {
	l := planner.NewLedger(workloads.Cluster{PartitionNodes: []int{4}, Slowdown: 1.5}, 60)
	f := &plannertest.Func{SchedName: "f", F: func(*planner.State) (*planner.Decision, error) {
		t.Fatal("asked")
		return nil, nil
	}}
	if c := planner.RunCycle(context.Background(), f, l, 0, planner.CycleOptions{SkipIdle: true}); !c.Skipped || c.Decision != nil {
		t.Errorf("cycle %+v", c)
	}
}

// TestHarnessAllowPanic: in the test harness, a panic in Schedule is a
// test failure unless AllowPanic; with it, the cycle is empty and says
// so, and the next cycle starts the job.
func TestHarnessAllowPanic(t *testing.T) {
	f := &plannertest.Func{SchedName: "f", F: func(st *planner.State) (*planner.Decision, error) {
		d := &planner.Decision{}
		for _, p := range st.Pending {
			d.Start = append(d.Start, planner.Placement{JobID: p.Job.ID, Alloc: []int{p.Job.Nodes}})
		}
		return d, nil
	}}
	h := plannertest.New(t, plannertest.Panicking(f, func(cycle int) bool { return cycle == 1 }), []int{4}, 60)
	h.AllowPanic = true
	h.Submit(plannertest.NewJob(1).Nodes(2).Runtime(30).Job())
	if d := h.Step(); d.Stats.FailedStage != planner.StageSchedule || len(d.Start) != 0 {
		t.Fatalf("first cycle %+v, want the failed stage and no start", d)
	}
	h.Step()
	if h.Starts[1] != 1 || len(f.Results) != 2 {
		t.Errorf("starts %v, %d results told: the run did not go on", h.Starts, len(f.Results))
	}
	h.Step()
	if _, ok := h.Completed[1]; !ok || len(f.Observed) != 1 || !f.Observed[0].JobDone {
		t.Errorf("completions %+v", f.Observed)
	}
}

package threesigma

import (
	"context"
	"errors"
	"testing"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/estimate"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/solver"
	"github.com/plannerhq/planner/workloads"
)

// recordingEstimator knows the true runtimes (estimate.Perfect) and records
// every runtime it is taught.
type recordingEstimator struct {
	estimate.Perfect
	seen map[int]float64
}

func (r *recordingEstimator) Observe(j *workloads.Job, runtime float64) { r.seen[j.ID] = runtime }

// TestSlowedRunLearnsPreferredRuntime: a job that starts off its preferred
// partition and completes before the next cycle teaches the predictor its
// runtime on preferred nodes (20 s), not the slowed one (30 s). The
// scheduler never sees such a job running; the completion record says it
// ran slowed.
func TestSlowedRunLearnsPreferredRuntime(t *testing.T) {
	est := &recordingEstimator{seen: map[int]float64{}}
	s, err := NewCustom(NamePointPerfEst, Config{Mode: SolveDeterministic}, est)
	if err != nil {
		t.Fatal(err)
	}
	h := plannertest.New(t, s, []int{1, 1}, 60)
	// Job 0 holds partition 0 for hours; job 1 prefers it too, but starting
	// now on partition 1 (slowed to 30 s) is worth more than waiting.
	h.Submit(newJob(0).SLO(50000).Runtime(10000).Preferred(0).Value(5).Job(),
		newJob(1).Submit(30).Runtime(20).Preferred(0).Value(10).Job())
	for range 3 {
		h.Step()
	}
	var c *planner.Completion
	for i := range h.Completions {
		if h.Completions[i].Job.ID == 1 {
			c = &h.Completions[i]
		}
	}
	if c == nil || !c.Slowed || c.Runtime != 30 {
		t.Fatalf("job 1 did not complete slowed in 30 s: %+v", h.Completions)
	}
	if got := est.seen[1]; got != 20 {
		t.Errorf("predictor learned %v s for job 1, want 20 (its runtime on preferred nodes)", got)
	}
}

// TestAppliedForgetsRefusedStarts: when the driver refuses a start, the
// scheduler forgets that its plan started the job, so the next cycle does
// not count a later start as a deferral.
func TestAppliedForgetsRefusedStarts(t *testing.T) {
	s, err := NewCustom(NamePointPerfEst, Config{Mode: SolveDeterministic}, estimate.Perfect{})
	if err != nil {
		t.Fatal(err)
	}
	h := plannertest.New(t, s, []int{2}, 60)
	refused := 0
	h.Refuse = func(pl planner.Placement) error {
		if refused == 0 {
			refused++
			return errors.New("node drained")
		}
		return nil
	}
	h.Submit(newJob(1).Runtime(300).Job())
	d := h.Step()
	if len(d.Start) != 1 || len(h.Applied[0].Refused) != 1 {
		t.Fatalf("first cycle: start %+v, refused %+v", d.Start, h.Applied[0].Refused)
	}
	if info := s.jobs[1]; info == nil || info.hasPlan {
		t.Fatalf("job 1 still remembered as started by the plan: %+v", info)
	}
	d = h.Step()
	if len(d.Start) != 1 || h.Starts[1] != 1 {
		t.Errorf("second cycle did not start job 1: %+v", d.Start)
	}
}

// panicSolver is an in-process backend that crashes.
type panicSolver struct{}

func (panicSolver) Name() string { return "panics" }
func (panicSolver) Solve(context.Context, *solver.Model, *solver.Settings) (*solver.Result, error) {
	panic("backend bug")
}

// TestPanicLeavesTheCycleToTheFallback: a panic in a stage of the cycle or
// in an in-process solver backend is recovered; that cycle is decided by
// the fallback, says which stage failed, and the run goes on.
func TestPanicLeavesTheCycleToTheFallback(t *testing.T) {
	tests := []struct {
		name   string
		inject func(*ThreeSigma)
		stage  string
	}{
		{"in a stage", func(s *ThreeSigma) {
			for i := range s.stages {
				if s.stages[i].name == "valuation" {
					s.stages[i].run = func(*cycle) error { panic("injected fault") }
				}
			}
		}, "valuation"},
		{"in an in-process backend", func(s *ThreeSigma) { s.solver = panicSolver{} }, "solve"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewCustom(NamePointPerfEst, Config{Mode: SolveDeterministic, Solver: solver.GreedyName}, estimate.Perfect{})
			if err != nil {
				t.Fatal(err)
			}
			healthy := *s
			healthy.stages = append([]stage(nil), s.stages...)
			tc.inject(s)
			h := plannertest.New(t, s, []int{4}, 60)
			h.Submit(newJob(1).Nodes(2).Runtime(600).Job(), newJob(2).Nodes(2).Runtime(600).Submit(30).Job())
			d := h.Step()
			st := d.Stats
			if !st.Fallback || st.FailedStage != tc.stage || !st.Panicked || st.Failure == "" {
				t.Fatalf("stats %+v: want the fallback after a panic in %s", st, tc.stage)
			}
			if len(d.Start) != 1 || d.Start[0].JobID != 1 {
				t.Errorf("fallback started %+v, want job 1", d.Start)
			}
			// The run goes on: the next cycle, without the fault, solves.
			s.stages, s.solver = healthy.stages, healthy.solver
			d = h.Step()
			if d.Stats.Fallback || !d.Stats.Solved || h.Starts[2] != 1 {
				t.Errorf("next cycle: stats %+v, starts %v", d.Stats, h.Starts)
			}
		})
	}
}

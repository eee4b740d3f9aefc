package solver_test

import (
	"context"
	"testing"
	"time"

	"github.com/plannerhq/planner/solver"
)

// The steps before a first answer give up when their time is over, so that a
// large model under a short limit does not overrun it: the analysis of the
// model and the writing of a worker's request (45 MB at 1,000 jobs) are
// abandoned.
func TestStepsBeforeAnAnswerGiveUpAtTheirDeadline(t *testing.T) {
	m := rackModel(t, 100, 1) // 0.3 million nonzeros: several looks at the clock
	closed := make(chan struct{})
	close(closed)

	if solver.AnalysisFinishesForTest(m, closed) {
		t.Error("the analysis ran to its end after its deadline")
	}
	if !solver.AnalysisFinishesForTest(m, nil) {
		t.Error("the analysis without a deadline did not finish")
	}
	if finished, _ := solver.RequestFinishesForTest(m, closed); finished {
		t.Error("the worker request was written whole after its deadline")
	}
	if finished, same := solver.RequestFinishesForTest(m, make(chan struct{})); !finished || !same {
		t.Errorf("the worker request before its deadline: written whole %v, read back as the model %v", finished, same)
	}

	// A solve whose time is over before it starts answers at once, with
	// nothing.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := solver.GreedySolver{}.Solve(ctx, m, &solver.Settings{TimeLimit: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != solver.NoSolution || !res.TimeLimited || res.X != nil {
		t.Errorf("cancelled greedy solve: status %v, time-limited %v, answer %v; want no solution at the limit",
			res.Status, res.TimeLimited, res.X != nil)
	}
}

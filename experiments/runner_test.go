package experiments

import (
	"context"
	"strings"
	"testing"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/prio"
)

// TestRunDecide: each run decides as its policy's row says unless the
// comparison says otherwise, and its params and table say how it decided.
func TestRunDecide(t *testing.T) {
	reg := planner.Registry{
		{Name: "prio-cycle", New: func(planner.Options) (planner.Scheduler, error) { return prio.New(prio.Options{}), nil }},
		{Name: "prio-events", New: func(planner.Options) (planner.Scheduler, error) { return prio.New(prio.Options{}), nil },
			Decisions: planner.OnEvents},
	}
	in := Input{Cluster: cluster(4), Jobs: jobsOf(newJob(0, 10, 2, 100)), Window: 100}
	cycle, events := planner.OnCycle, planner.OnEvents
	tests := []struct {
		name   string
		decide *planner.Timing
		want   []string  // each run's Params.Decisions
		starts []float64 // job 0's start in each run
	}{
		{name: "each its own", want: []string{"cycle", "events"}, starts: []float64{60, 10}},
		{name: "all cycle", decide: &cycle, want: []string{"cycle", "cycle"}, starts: []float64{60, 60}},
		{name: "all on events", decide: &events, want: []string{"events", "events"}, starts: []float64{10, 10}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			runs, err := Run(context.Background(), in, reg, RunConfig{Schedulers: []string{"prio-cycle", "prio-events"},
				Sim: SimConfig{Interval: 60}, Decisions: tc.decide, Parallel: 1})
			if err != nil {
				t.Fatal(err)
			}
			for i, run := range runs {
				if run.Params.Decisions != tc.want[i] || run.Sim.Jobs[0].Start != tc.starts[i] {
					t.Errorf("%s decided %q and started job 0 at %g s, want %q and %g s", run.Scheduler,
						run.Params.Decisions, run.Sim.Jobs[0].Start, tc.want[i], tc.starts[i])
				}
			}
			var b strings.Builder
			if err := (&Report{Runs: runs, Deterministic: true}).WriteTable(&b); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(b.String(), "\n")
			if f := strings.Fields(lines[0]); f[0] != "scheduler" || f[1] != "decisions" {
				t.Errorf("table head %q", lines[0])
			}
			for i := range runs {
				if f := strings.Fields(lines[1+i]); f[1] != tc.want[i] {
					t.Errorf("table row %q, want %s", lines[1+i], tc.want[i])
				}
			}
		})
	}
}

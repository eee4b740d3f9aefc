package experiments

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/prio"
	"github.com/plannerhq/planner/workloads"
)

// TestRunDecide: each run decides as its policy's row says unless the
// comparison says otherwise, a policy that derives its timing does so
// when the comparison asks (DeriveTiming), and its params and table say
// how it decided, and why when derived.
func TestRunDecide(t *testing.T) {
	newPrio := func(planner.Options) (planner.Scheduler, error) { return prio.New(prio.Options{}), nil }
	var asked []float64 // the intervals the derived row was asked at
	reg := planner.Registry{
		{Name: "prio-cycle", New: newPrio},
		{Name: "prio-events", New: newPrio, Decisions: planner.OnEvents},
		{Name: "prio-derived", New: newPrio, TimingFor: func(h []workloads.Job, iv time.Duration) (planner.Timing, string) {
			asked = append(asked, iv.Seconds())
			return planner.OnEvents, "events: the test says so"
		}},
	}
	in := Input{Cluster: cluster(4), Jobs: jobsOf(newJob(0, 10, 2, 100)), Window: 100}
	cycle, events := planner.OnCycle, planner.OnEvents
	tests := []struct {
		name   string
		decide *planner.Timing
		derive bool
		want   []string  // each run's Params.Decisions
		starts []float64 // job 0's start in each run
		reason string    // the derived row's Params.DecisionsReason
	}{
		{name: "each its own", want: []string{"cycle", "events", "cycle"}, starts: []float64{60, 10, 60}},
		{name: "each its own, derived", derive: true, want: []string{"cycle", "events", "events"}, starts: []float64{60, 10, 10},
			reason: "events: the test says so"},
		{name: "all cycle", decide: &cycle, derive: true, want: []string{"cycle", "cycle", "cycle"}, starts: []float64{60, 60, 60}},
		{name: "all on events", decide: &events, want: []string{"events", "events", "events"}, starts: []float64{10, 10, 10}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			asked = nil
			runs, err := Run(context.Background(), in, reg, RunConfig{Schedulers: []string{"prio-cycle", "prio-events", "prio-derived"},
				Sim: SimConfig{Interval: 60}, Decisions: tc.decide, DeriveTiming: tc.derive, Parallel: 1})
			if err != nil {
				t.Fatal(err)
			}
			for i, run := range runs {
				if run.Params.Decisions != tc.want[i] || run.Sim.Jobs[0].Start != tc.starts[i] {
					t.Errorf("%s decided %q and started job 0 at %g s, want %q and %g s", run.Scheduler,
						run.Params.Decisions, run.Sim.Jobs[0].Start, tc.want[i], tc.starts[i])
				}
			}
			if got := runs[2].Params.DecisionsReason; got != tc.reason {
				t.Errorf("derived row's reason %q, want %q", got, tc.reason)
			}
			if tc.reason != "" && (len(asked) != 1 || asked[0] != 60) {
				t.Errorf("the rule was asked at intervals %v, want [60]", asked)
			}
			var b strings.Builder
			if err := (&Report{Runs: runs, Deterministic: true}).WriteTable(&b); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(b.String(), "\n")
			if f := strings.Fields(lines[0]); f[0] != "scheduler" || f[1] != "decisions" {
				t.Errorf("table head %q", lines[0])
			}
			for i, run := range runs {
				want := tc.want[i]
				if run.Params.DecisionsReason != "" {
					want += "*"
				}
				if f := strings.Fields(lines[1+i]); f[1] != want {
					t.Errorf("table row %q, want %s", lines[1+i], want)
				}
			}
			note := "* derived from the workload: " + tc.reason
			if got := lines[1+len(runs)]; (tc.reason != "") != (got == note) {
				t.Errorf("the line under the table %q, want %q", got, note)
			}
		})
	}
}

// TestSweepTiming: a sweep's deriving policies get one timing over all its
// points, events as soon as one point asks for it; a sweep of schedulers
// that derive nothing gets none, and a shared timing replaces a policy's
// own rule in a run.
func TestSweepTiming(t *testing.T) {
	newPrio := func(planner.Options) (planner.Scheduler, error) { return prio.New(prio.Options{}), nil }
	// The rule: events when the history holds more than one job.
	rule := func(h []workloads.Job, iv time.Duration) (planner.Timing, string) {
		if len(h) > 1 {
			return planner.OnEvents, "events: many"
		}
		return planner.OnCycle, "cycle: few"
	}
	reg := planner.Registry{{Name: "plain", New: newPrio}, {Name: "deriving", New: newPrio, TimingFor: rule}}
	one, two := Input{History: jobsOf(newJob(0, 0, 1, 10))}, Input{History: jobsOf(newJob(0, 0, 1, 10), newJob(1, 0, 1, 10))}
	iv := []time.Duration{time.Minute, time.Minute, time.Minute}
	labels := []string{"a", "b", "c"}
	for _, tc := range []struct {
		name       string
		schedulers []string
		inputs     []Input
		want       *SharedTiming
	}{
		{"no point asks for events", []string{"plain", "deriving"}, []Input{one, one}, &SharedTiming{planner.OnCycle, "cycle: few (at a; one timing for every point of the sweep)"}},
		{"the second point asks", []string{"deriving"}, []Input{one, two, one}, &SharedTiming{planner.OnEvents, "events: many (at b; one timing for every point of the sweep)"}},
		{"nothing derives", []string{"plain"}, []Input{two}, nil},
		{"no point", []string{"deriving"}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := SweepTiming(reg, tc.schedulers, tc.inputs, iv[:len(tc.inputs)], labels[:len(tc.inputs)])
			if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
				t.Errorf("SweepTiming = %+v, want %+v", got, tc.want)
			}
		})
	}
	in := Input{Cluster: cluster(4), Jobs: jobsOf(newJob(0, 10, 2, 100)), History: two.History, Window: 100}
	runs, err := Run(context.Background(), in, reg, RunConfig{Schedulers: []string{"deriving"}, Sim: SimConfig{Interval: 60},
		DeriveTiming: true, SharedTiming: &SharedTiming{planner.OnCycle, "cycle: shared"}, Parallel: 1})
	if err != nil {
		t.Fatal(err)
	}
	if p := runs[0].Params; p.Decisions != "cycle" || p.DecisionsReason != "cycle: shared" {
		t.Errorf("with a shared timing the run decided %q (%q), want the shared cycle", p.Decisions, p.DecisionsReason)
	}
}

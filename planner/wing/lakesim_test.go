package wing

import (
	"testing"

	"github.com/plannerhq/planner/workloads"
	"github.com/plannerhq/planner/workloads/datalake"
)

// tinyWindow is a chain a → b (hard) → c (polling) in one queue of 1
// token, plus d, wider than nothing, that reads nothing: a runs 100 s
// from 0; b is submitted at 50 s (before a ends, so it fails unless a
// runs first) or later; c polls b.
func tinyWindow(bSubmit float64) ([]workloads.Job, *datalake.Truth, datalake.Layout) {
	jobs := []workloads.Job{
		{ID: 0, Submit: 0, Nodes: 1, Runtime: 100, Value: 1},
		{ID: 1, Submit: bSubmit, Nodes: 1, Runtime: 100, Value: 1},
		{ID: 2, Submit: 0, Nodes: 1, Runtime: 100, Value: 1},
	}
	out := func(ts ...float64) []datalake.Output { return []datalake.Output{{File: "f", Downloads: ts}} }
	tr := &datalake.Truth{Window: 1000, Jobs: []datalake.JobTruth{
		{ID: 0, Org: "o", Outputs: out(50, 150)},
		{ID: 1, Org: "o", Outputs: out(500), Inputs: []datalake.WindowInput{{Input: datalake.Input{Kind: datalake.Hard, Writer: 0}, InWindow: true}}},
		{ID: 2, Org: "o", Outputs: out(900), PollDelay: 10, Inputs: []datalake.WindowInput{{Input: datalake.Input{Kind: datalake.PollingDep, Writer: 1}, InWindow: true}}},
	}}
	lay := datalake.Layout{Mode: datalake.Global, Capacity: 100, Queues: []datalake.Queue{{Name: "global", Tokens: 1}}}
	return jobs, tr, lay
}

func TestSimulateLakeSemantics(t *testing.T) {
	fifo := Priority{Rank: func(int, float64) float64 { return 0 }}
	tests := []struct {
		name      string
		bSubmit   float64
		attained  int
		failed    int
		never     int
		completed int
		inversion int
	}{
		// a ends at 100 and attains the download at 150 only; b starts
		// at 200 and ends at 300 (500 attained); c polls it, is
		// submitted at 310 and ends at 410 (900 attained).
		{name: "input ready", bSubmit: 200, attained: 3, completed: 3},
		// b is submitted at 50 with a running: it fails, writes
		// nothing, and c, polling it, is never submitted.
		{name: "hard input missing cascades", bSubmit: 50, attained: 1, failed: 1, never: 1, completed: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			jobs, tr, lay := tinyWindow(tc.bSubmit)
			r, err := SimulateLake(jobs, tr, lay, fifo)
			if err != nil {
				t.Fatal(err)
			}
			if r.Attained != tc.attained || r.Achievable != 4 || r.JobsFailed != tc.failed ||
				r.JobsNeverSubmitted != tc.never || r.JobsCompleted != tc.completed {
				t.Errorf("got %+v", r)
			}
			if want := float64(tc.attained) / 4; r.ValueAttained != want {
				t.Errorf("value_attained %v, want %v", r.ValueAttained, want)
			}
		})
	}
}

// TestSimulateLakeInversion: with a pending writer (the queue busy) and
// a reader ranked above it, the reader's submission is an inversion.
func TestSimulateLakeInversion(t *testing.T) {
	jobs, tr, lay := tinyWindow(50)
	jobs = append([]workloads.Job{{ID: 9, Submit: 0, Nodes: 1, Runtime: 1000}}, jobs...)
	tr.Jobs = append([]datalake.JobTruth{{ID: 9, Org: "o"}}, tr.Jobs...)
	byPrio := Priority{Rank: func(i int, _ float64) float64 { return float64(i) }}
	r, err := SimulateLake(jobs, tr, lay, byPrio)
	if err != nil {
		t.Fatal(err)
	}
	if r.PriorityInversions != 1 || r.JobsFailed != 1 {
		t.Errorf("got %+v, want one inversion and one failure", r)
	}
}

// TestLakePoliciesNominal: at nominal capacity with hierarchical queues
// every policy completes at least 99 % of the jobs (§7).
func TestLakePoliciesNominal(t *testing.T) {
	l, p := profileOf(t, 1)
	var names []string
	for _, pol := range LakePolicies {
		names = append(names, pol.Name)
	}
	rs, err := RunLake(l, p, datalake.Hierarchical, 100, names)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if share := float64(r.JobsCompleted) / float64(r.Jobs); share < 0.99 {
			t.Errorf("%s completes %.4f of the jobs at 100 %%", r.Scheduler, share)
		}
	}
	if err := CheckLakePolicy("nope"); err == nil {
		t.Error("unknown policy accepted")
	}
}

// TestLakeFig12Direction: on a half-size lake at 20 % capacity with one
// global queue, Wing-Agg attains more value than Wing-Direct, which
// attains more than the user priorities (Fig. 12's order), and fails
// fewer jobs than prio-user.
func TestLakeFig12Direction(t *testing.T) {
	l, err := datalake.Generate(datalake.Params{Seed: 1, Scale: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Build(l.Log(), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	rs, err := RunLake(l, p, datalake.Global, 20, []string{PrioUser, Direct, Agg})
	if err != nil {
		t.Fatal(err)
	}
	prio, direct, agg := rs[0], rs[1], rs[2]
	if !(agg.ValueAttained > direct.ValueAttained && direct.ValueAttained > prio.ValueAttained) {
		t.Errorf("value attained prio-user %.4f, wing-direct %.4f, wing-agg %.4f", prio.ValueAttained, direct.ValueAttained, agg.ValueAttained)
	}
	if agg.JobsFailed >= prio.JobsFailed {
		t.Errorf("wing-agg fails %d jobs, prio-user %d", agg.JobsFailed, prio.JobsFailed)
	}
}

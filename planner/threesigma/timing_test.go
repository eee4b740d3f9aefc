package threesigma

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/workloads"
)

// sloJob is an SLO job submitted at 0 with runtime 100 s and slack s
// seconds.
func sloJob(s float64) workloads.Job {
	return workloads.Job{Class: workloads.SLO, Nodes: 1, Runtime: 100, Deadline: 100 + s}
}

func TestTimingFor(t *testing.T) {
	be := workloads.Job{Class: workloads.BestEffort, Nodes: 1, Runtime: 10}
	many := func(n int, j workloads.Job) []workloads.Job {
		h := make([]workloads.Job, n)
		for i := range h {
			h[i] = j
		}
		return h
	}
	tests := []struct {
		name     string
		history  []workloads.Job
		interval time.Duration
		share    float64
		slo      int
		want     planner.Timing
	}{
		{"no history: the cycle", nil, time.Minute, 0, 0, planner.OnCycle},
		{"best-effort jobs only: the cycle", many(50, be), time.Minute, 0, 0, planner.OnCycle},
		{"slack beyond the interval: the cycle", []workloads.Job{sloJob(60), sloJob(600), be}, time.Minute, 0, 2, planner.OnCycle},
		// (1 − 15/60) + (1 − 45/60) over 4 SLO jobs: (0.75 + 0.25) / 4.
		{"short slacks: events", []workloads.Job{sloJob(15), sloJob(45), sloJob(90), sloJob(3600), be}, time.Minute, 0.25, 4, planner.OnEvents},
		{"no slack: a certain miss", []workloads.Job{sloJob(0)}, time.Minute, 1, 1, planner.OnEvents},
		// A job that misses on any timing is not the cycle's doing.
		{"negative slack counts 0", []workloads.Job{sloJob(-5), sloJob(3600)}, time.Minute, 0, 2, planner.OnCycle},
		// 1 job of 200 with slack 30 s: 0.5 / 200 = 0.25% ≤ 1%.
		{"a few short slacks: the cycle", append(many(199, sloJob(3600)), sloJob(30)), time.Minute, 0.0025, 200, planner.OnCycle},
		// 5 of 200 with no slack: 2.5% > 1%.
		{"a sizeable share: events", append(many(195, sloJob(3600)), many(5, sloJob(0))...), time.Minute, 0.025, 200, planner.OnEvents},
		// At a 10 s cycle the 15 s and 45 s slacks fit.
		{"a shorter interval: the cycle", []workloads.Job{sloJob(15), sloJob(45), sloJob(90), sloJob(3600)}, 10 * time.Second, 0, 4, planner.OnCycle},
		{"no interval", []workloads.Job{sloJob(0)}, 0, 0, 0, planner.OnCycle},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := TimingFor(tc.history, tc.interval)
			if got.Decisions != tc.want || math.Abs(got.CycleMiss-tc.share) > 1e-12 || got.SLOJobs != tc.slo {
				t.Errorf("TimingFor = %+v, want %v with share %v of %d SLO jobs", got, tc.want, tc.share, tc.slo)
			}
			if r := got.Reason(); !strings.HasPrefix(r, tc.want.String()+": ") {
				t.Errorf("Reason %q does not start with %q", r, tc.want)
			}
		})
	}
}

// TestCycleMissShareBruteForce checks the closed form against the
// definition: jobs submitted at every phase of a fine grid over one
// cycle, each started at the next cycle boundary, miss when that wait
// exceeds their slack.
func TestCycleMissShareBruteForce(t *testing.T) {
	const interval, phases = 60.0, 6000
	rng := rand.New(rand.NewPCG(1, 2))
	var h []workloads.Job
	for range 40 {
		h = append(h, sloJob(rng.Float64()*90-10)) // slack in [−10, 80) s
	}
	missed := 0
	for _, j := range h {
		s := j.Deadline - j.Submit - j.Runtime
		for p := range phases {
			wait := interval - (float64(p)+0.5)*interval/phases // to the next boundary
			if s >= 0 && wait > s {
				missed++
			}
		}
	}
	want := float64(missed) / float64(len(h)*phases)
	got, n := CycleMissShare(h, time.Minute)
	if n != len(h) || math.Abs(got-want) > 1.0/phases {
		t.Errorf("CycleMissShare = %v over %d jobs, brute force %v over %d", got, n, want, len(h))
	}
}

func TestTimingReason(t *testing.T) {
	got := TimingFor([]workloads.Job{sloJob(30), sloJob(3600)}, time.Minute).Reason()
	want := "events: a 60 s cycle alone would miss 25.0% of the history's 2 SLO jobs (> 1%)"
	if got != want {
		t.Errorf("Reason = %q, want %q", got, want)
	}
	if got := TimingFor(nil, time.Minute).Reason(); got != "cycle: the history has no SLO job" {
		t.Errorf("Reason without SLO jobs = %q", got)
	}
}

// A workload whose SLO jobs have 15 s and 45 s of slack, and two with
// ample slack: at a 60 s cycle the wait alone misses (0.75 + 0.25) / 4 of
// them, so the planners decide on events; at 10 s it misses none.
func ExampleTimingFor() {
	slo := func(slack float64) workloads.Job {
		return workloads.Job{Class: workloads.SLO, Nodes: 4, Submit: 0, Runtime: 600, Deadline: 600 + slack}
	}
	history := []workloads.Job{slo(15), slo(45), slo(90), slo(3600)}
	fmt.Println(TimingFor(history, time.Minute).Reason())
	fmt.Println(TimingFor(history, 10*time.Second).Reason())
	// Output:
	// events: a 60 s cycle alone would miss 25.0% of the history's 4 SLO jobs (> 1%)
	// cycle: a 10 s cycle alone would miss 0.0% of the history's 4 SLO jobs (≤ 1%)
}

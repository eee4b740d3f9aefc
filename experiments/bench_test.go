package experiments

import (
	"context"
	"testing"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/planner/prio"
	"github.com/plannerhq/planner/workloads"
)

// BenchmarkSimulatePrioGoogle is the simulator's event loop with the
// cheapest real policy on the default Google-like workload (256 nodes,
// 5 hours, load 1.4, ~1,400 jobs, 60 s cycles): one op is one whole run.
func BenchmarkSimulatePrioGoogle(b *testing.B) {
	w, err := workloads.GenerateGoogle(workloads.DefaultGoogleParams())
	if err != nil {
		b.Fatal(err)
	}
	in := Input{Name: "google", Cluster: w.Header.Cluster, Jobs: w.Jobs, Window: w.Header.WindowS}
	benchSim(b, in, func() planner.Scheduler { return prio.New(prio.Options{}) })
}

// BenchmarkSimulateRandomPreempt: a random valid policy that also preempts,
// on a 3,000-job random workload (32 nodes, 8 hours).
func BenchmarkSimulateRandomPreempt(b *testing.B) {
	in := randomInput(1, 3000, 8*3600)
	benchSim(b, in, func() planner.Scheduler { return newRandomScheduler(1) })
}

// BenchmarkSimulateIdle: a policy that never starts anything — the cost of
// building each cycle's State as the queue grows to every job.
func BenchmarkSimulateIdle(b *testing.B) {
	in := randomInput(1, 1500, 5*3600)
	benchSim(b, in, func() planner.Scheduler {
		return &plannertest.Func{SchedName: "idle", F: func(*planner.State) (*planner.Decision, error) { return &planner.Decision{}, nil }}
	})
}

func benchSim(b *testing.B, in Input, mk func() planner.Scheduler) {
	b.ReportAllocs()
	cycles := 0
	for b.Loop() {
		sim, err := NewSim(in, SimConfig{Interval: 60}, mk())
		if err != nil {
			b.Fatal(err)
		}
		res, err := sim.Run(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		cycles = len(res.Cycles)
	}
	b.ReportMetric(float64(cycles), "cycles/run")
}

package experiments

import (
	"context"
	"testing"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/gs"
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

// millionTasks is the workload of BenchmarkSimulateMillionTasks: the
// google2011-tasks generator on one Google cell, 12,583 nodes in one
// partition, at load 1, cut to its first n jobs (1 to 150 one-node tasks,
// ≈ 10 per job).
func millionTasks(b *testing.B, n int, hours float64) Input {
	b.Helper()
	p, err := workloads.DefaultParams(workloads.GeneratorGoogle2011Tasks)
	if err != nil {
		b.Fatal(err)
	}
	p.Nodes, p.Racks, p.Hours, p.HistoryJobs = 12583, 1, hours, 0
	w, err := workloads.Generate(workloads.GeneratorGoogle2011Tasks, p)
	if err != nil {
		b.Fatal(err)
	}
	if len(w.Jobs) < n {
		b.Fatalf("%d jobs generated, want %d", len(w.Jobs), n)
	}
	jobs := w.Jobs[:n]
	return Input{Name: "google2011-tasks", Cluster: w.Header.Cluster, Jobs: jobs, Window: jobs[n-1].Submit}
}

// BenchmarkSimulateMillionTasks: gs and fifo simulate a million
// task-level jobs (≈ 9.5 million tasks) on 12,583 nodes, deciding every
// 10 s (cycle) or, as their registry rows say, at every arrival and
// completion too (events), without recording runs (SimConfig.DropRuns);
// one op is one whole run, and cpu-s/op the process's CPU time for it
// (the simulation and the garbage collector's threads), which a loaded
// machine does not inflate. BENCHMARKS.md has the goal (≤ 60 s on 2
// cores).
func BenchmarkSimulateMillionTasks(b *testing.B) {
	in := millionTasks(b, 1_000_000, 255)
	for _, name := range []string{gs.Name, gs.NameFIFO} {
		for _, tm := range []planner.Timing{planner.OnCycle, planner.OnEvents} {
			b.Run(name+"/"+tm.String(), func(b *testing.B) {
				b.ReportAllocs()
				var res *SimResult
				cpu := processCPU()
				for b.Loop() {
					g, err := gs.NewVariant(name)
					if err != nil {
						b.Fatal(err)
					}
					sim, err := NewSim(in, SimConfig{Interval: 10, DropRuns: true, Decisions: tm}, g)
					if err != nil {
						b.Fatal(err)
					}
					if res, err = sim.Run(context.Background()); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric((processCPU()-cpu).Seconds()/float64(b.N), "cpu-s/op")
				m := res.Metrics()
				b.ReportMetric(float64(m.Completed), "jobs")
				b.ReportMetric(float64(len(res.Cycles)), "cycles/run")
				b.ReportMetric(m.JCTMean, "jct-s")
			})
		}
	}
}

package threesigma

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/workloads"
)

// googleState is a cycle on the GOOGLE cluster (12,583 nodes in six
// partitions) with a backlog: SCALABILITY-4000's jobs (seed 1, Google
// task sizes, 3σPredict trained on its history), the first of them
// running on about 85% of the nodes (started up to their runtime ago),
// the next `pending` waiting, submitted in the ten minutes before now.
// It returns the state and a 3sigma scheduler trained on the history.
func googleState(tb testing.TB, pending int, cfg Config) (*planner.State, *ThreeSigma) {
	tb.Helper()
	p, err := workloads.DefaultParams(workloads.ScalabilityName(4000))
	if err != nil {
		tb.Fatal(err)
	}
	p.Hours = 2
	w, err := workloads.Generate(workloads.ScalabilityName(4000), p)
	if err != nil {
		tb.Fatal(err)
	}
	cl := w.Header.Cluster
	now := 36000.0
	st := &planner.State{Now: now, Cluster: cl, Free: append([]int(nil), cl.PartitionNodes...), Interval: 60}
	busy, target := 0, int(0.85*float64(cl.TotalNodes()))
	next := 0
	for ; next < len(w.Jobs) && busy < target; next++ {
		j := &w.Jobs[next]
		alloc := make([]int, len(cl.PartitionNodes))
		left := j.Nodes
		for r := range alloc {
			t := min(left, st.Free[r])
			alloc[r], st.Free[r], left = t, st.Free[r]-t, left-t
		}
		if left > 0 {
			for r, t := range alloc {
				st.Free[r] += t
			}
			continue
		}
		busy += j.Nodes
		frac := float64(next%97) / 97 // how far into its run
		st.Running = append(st.Running, &planner.Running{Job: j, Start: now - frac*j.Runtime, Alloc: alloc})
	}
	for ; next < len(w.Jobs) && len(st.Pending) < pending; next++ {
		j := w.Jobs[next]
		j.Submit = now - float64(len(st.Pending)%600)
		if j.Class == workloads.SLO {
			j.Deadline = j.Submit + (w.Jobs[next].Deadline - w.Jobs[next].Submit)
		}
		st.Pending = append(st.Pending, &planner.Pending{Job: &j})
	}
	if len(st.Pending) < pending {
		tb.Fatalf("only %d pending jobs", len(st.Pending))
	}
	if cfg.Horizon == 0 {
		cfg.Horizon = HorizonFor(w.History, time.Minute).Seconds()
	}
	s, err := NewVariant(cfg, Name3Sigma, nil)
	if err != nil {
		tb.Fatal(err)
	}
	s.Train(w.History)
	return st, s
}

// BenchmarkCycleGoogle is one planning cycle of 3sigma on the GOOGLE
// cluster against the pending jobs waiting (googleState), deterministic
// (every step of the clp backend, no time limit): cycle time against
// backlog, the scaling of 3Sigma's Fig. 11. Each op is the next cycle,
// one interval later, on the same jobs (a steady backlog; estimates are
// made in a first cycle before the timer). Besides ns/op it reports the
// processor time of the cycle with its solver workers (cpu-ms: on a
// shared machine the wall clock also counts the wait for a processor),
// the solve's wall time (solve-ms), the model's size and the options.
func BenchmarkCycleGoogle(b *testing.B) {
	for _, n := range []int{250, 500, 1000, 2000, 4000} {
		b.Run(fmt.Sprintf("pending=%d", n), func(b *testing.B) {
			st, s := googleState(b, n, Config{Mode: SolveDeterministic})
			var last *cycle
			s.inspect = func(c *cycle) { last = c }
			ctx := context.Background()
			if _, err := s.Schedule(ctx, st); err != nil {
				b.Fatal(err)
			}
			var solve time.Duration
			cpu0 := processTreeCPU()
			for b.Loop() {
				st.Now += st.Interval
				d, err := s.Schedule(ctx, st)
				if err != nil {
					b.Fatal(err)
				}
				if d.Stats.Fallback {
					b.Fatalf("fallback at %d pending: %s %s", n, d.Stats.FailedStage, d.Stats.Failure)
				}
				solve += d.Stats.Solve
			}
			cpu := processTreeCPU() - cpu0
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms")
			b.ReportMetric(float64(solve.Milliseconds())/float64(b.N), "solve-ms")
			if last.m != nil {
				b.ReportMetric(float64(len(last.m.Vars)), "vars")
				b.ReportMetric(float64(len(last.m.Rows)), "rows")
				b.ReportMetric(float64(last.m.NumNonzeros()), "nonzeros")
			}
			b.ReportMetric(float64(len(last.opts)), "options")
		})
	}
}

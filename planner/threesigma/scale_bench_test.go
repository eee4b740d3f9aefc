package threesigma

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/plannerhq/planner/experiments"
	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/solver"
)

// googleState is experiments.GoogleBacklog (seed 1, 60 s interval) with
// a 3sigma scheduler of cfg trained on its history.
func googleState(tb testing.TB, pending int, cfg Config) (*planner.State, *ThreeSigma) {
	tb.Helper()
	st, history, err := experiments.GoogleBacklog(1, pending, time.Minute)
	if err != nil {
		tb.Fatal(err)
	}
	if cfg.Horizon == 0 {
		cfg.Horizon = HorizonFor(history, time.Minute).Seconds()
	}
	s, err := NewVariant(cfg, Name3Sigma, nil)
	if err != nil {
		tb.Fatal(err)
	}
	s.Train(history)
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
			solver.CloseIdleWorkers() // a worker's time counts once it has exited
			cpu0 := experiments.ProcessTreeCPU()
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
			solver.CloseIdleWorkers()
			cpu := experiments.ProcessTreeCPU() - cpu0
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

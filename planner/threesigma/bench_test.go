package threesigma

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/workloads"
)

// benchState is an RC256-like cycle: 8 racks of 32 nodes, running jobs on
// about 60% of the nodes, and pending jobs of 1–128 nodes with 80-bin
// histogram runtimes (lognormal, median 2–40 min), half SLO preferring 6 of
// the 8 racks, deterministically in seed.
func benchState(seed uint64, pending, running int) (*planner.State, fixedEstimator) {
	rng := rand.New(rand.NewPCG(seed, 11))
	est := fixedEstimator{}
	cl := workloads.Cluster{PartitionNodes: []int{32, 32, 32, 32, 32, 32, 32, 32}, Slowdown: 1.5}
	st := &planner.State{Now: 36000, Cluster: cl, Free: []int{32, 32, 32, 32, 32, 32, 32, 32}, Interval: 60}
	hist := func() (distributions.Piecewise, float64) {
		median := math.Exp(math.Log(120) + rng.Float64()*(math.Log(2400)-math.Log(120)))
		sigma := 0.2 + 0.7*rng.Float64()
		h := distributions.NewHistogram(distributions.DefaultMaxBins)
		for range 200 {
			_ = h.Update(median * math.Exp(sigma*rng.NormFloat64()))
		}
		d, _ := h.Snapshot()
		return d, median
	}
	id := 0
	busy := 154 // 60% of 256
	for i := 0; i < running && busy > 0; i++ {
		id++
		n := min(busy, 1+rng.IntN(3))
		busy -= n
		d, med := hist()
		j := newJob(id).Nodes(n).Runtime(med).Value(med * float64(n)).Job()
		est[id] = d
		alloc := make([]int, 8)
		for n > 0 {
			r := rng.IntN(8)
			if st.Free[r] > 0 {
				alloc[r]++
				st.Free[r]--
				n--
			}
		}
		st.Running = append(st.Running, &planner.Running{Job: j, Start: st.Now - rng.Float64()*d.Quantile(0.9), Alloc: alloc})
	}
	for range pending {
		id++
		var n int
		switch u := rng.Float64(); {
		case u < 0.5:
			n = 1 + rng.IntN(4)
		case u < 0.8:
			n = 5 + rng.IntN(28)
		default:
			n = 33 + rng.IntN(96)
		}
		d, med := hist()
		b := newJob(id).Nodes(n).Runtime(med).Submit(st.Now - rng.Float64()*600).Value(med * float64(n))
		if rng.IntN(2) == 0 {
			slack := []float64{0.2, 0.4, 0.6, 0.8}[rng.IntN(4)]
			b = b.SLO(st.Now + med*(1+slack)).Preferred(sortedPerm(rng, 8, 6)...).Value(2 * med * float64(n))
		}
		est[id] = d
		st.Pending = append(st.Pending, &planner.Pending{Job: b.Job()})
	}
	return st, est
}

func sortedPerm(rng *rand.Rand, n, k int) []int {
	p := rng.Perm(n)[:k]
	in := make([]bool, n)
	for _, v := range p {
		in[v] = true
	}
	var out []int
	for i, ok := range in {
		if ok {
			out = append(out, i)
		}
	}
	return out
}

// buildOnly runs the stages before the solve and returns the cycle.
func buildOnly(b *testing.B, s *ThreeSigma, st *planner.State) *cycle {
	c, err := s.newCycle(context.Background(), st)
	if err != nil {
		b.Fatal(err)
	}
	for _, stg := range s.stages {
		if stg.name == "solve" || c.dec != nil {
			break
		}
		if err := stg.run(c); err != nil {
			b.Fatalf("%s: %v", stg.name, err)
		}
	}
	return c
}

// BenchmarkCycleBuild300: capacity, options, valuation and model of a cycle
// with 300 pending and ~100 running jobs on 256 nodes (goal: well under
// 100 ms). Estimates are cached across cycles, as in a run.
func BenchmarkCycleBuild300(b *testing.B) {
	st, est := benchState(1, 300, 100)
	s, err := NewCustom(Name3Sigma, Config{}, est)
	if err != nil {
		b.Fatal(err)
	}
	var c *cycle
	for b.Loop() {
		c = buildOnly(b, s, st)
	}
	b.ReportMetric(float64(len(c.m.Vars)), "vars")
	b.ReportMetric(float64(len(c.m.Rows)), "rows")
	b.ReportMetric(float64(c.m.NumNonzeros()), "nonzeros")
	b.ReportMetric(float64(len(c.opts)), "options")
}

// BenchmarkCycle300 is a whole cycle (build, solve, decode) on the same
// state, deterministic and on the clock.
func BenchmarkCycle300(b *testing.B) {
	for _, mode := range []SolveMode{SolveDeterministic, SolveWall} {
		b.Run(mode.String(), func(b *testing.B) {
			st, est := benchState(1, 300, 100)
			cfg := Config{Mode: mode}
			if mode == SolveWall {
				cfg.SolveTimeout = 200 * time.Millisecond
			}
			s, err := NewCustom(Name3Sigma, cfg, est)
			if err != nil {
				b.Fatal(err)
			}
			var solve float64
			var why error
			s.inspect = func(c *cycle) { why = c.failErr }
			for b.Loop() {
				d, err := s.Schedule(context.Background(), st)
				if err != nil {
					b.Fatal(err)
				}
				if d.Stats.Fallback {
					b.Fatalf("fallback: %v (stats %+v)", why, d.Stats)
				}
				solve += d.Stats.Solve.Seconds()
			}
			b.ReportMetric(solve/float64(b.N)*1e3, "solve-ms")
		})
	}
}

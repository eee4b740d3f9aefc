package experiments

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/prio"
	"github.com/plannerhq/planner/solver"
	"github.com/plannerhq/planner/workloads"
)

func TestMain(m *testing.M) {
	solver.RunWorkerIfRequested() // schedulers under test may solve MILPs in a child process
	os.Exit(m.Run())
}

// jobB builds a test job: newJob(id, submit, nodes, runtime).slo(deadline).prefer(0, 1).
type jobB struct{ j workloads.Job }

func newJob(id int, submit float64, nodes int, runtime float64) *jobB {
	return &jobB{workloads.Job{ID: id, Submit: submit, Class: workloads.BestEffort, Nodes: nodes, Runtime: runtime, Value: 1}}
}

func (b *jobB) slo(deadline float64) *jobB {
	b.j.Class, b.j.Deadline = workloads.SLO, deadline
	return b
}

func (b *jobB) prefer(parts ...int) *jobB {
	b.j.Preferred = parts
	return b
}

func (b *jobB) job() workloads.Job { return b.j }

func jobsOf(bs ...*jobB) []workloads.Job {
	out := make([]workloads.Job, len(bs))
	for i, b := range bs {
		out[i] = b.j
	}
	return out
}

// cluster of len(parts) partitions, slowdown 1.5.
func cluster(parts ...int) workloads.Cluster {
	return workloads.Cluster{PartitionNodes: parts, Slowdown: 1.5}
}

// randomInput is a random workload on 4 partitions of 8 nodes: n jobs over
// window seconds, half SLO (slack 20–80%, 3 of 4 partitions preferred).
// Job i's user is "u1" … "u4" by i mod 5, none ("") when i mod 5 = 0.
func randomInput(seed uint64, n int, window float64) Input {
	rng := rand.New(rand.NewPCG(seed, 7))
	c := cluster(8, 8, 8, 8)
	in := Input{Name: "random", Cluster: c, Window: window}
	for i := range n {
		nodes := 1 + rng.IntN(4)
		if rng.IntN(5) == 0 {
			nodes = 5 + rng.IntN(20)
		}
		b := newJob(i, rng.Float64()*window, nodes, 30+rng.ExpFloat64()*900)
		if rng.IntN(2) == 0 {
			slack := []float64{0.2, 0.4, 0.6, 0.8}[rng.IntN(4)]
			skip := rng.IntN(4)
			var pref []int
			for r := range 4 {
				if r != skip {
					pref = append(pref, r)
				}
			}
			b.slo(b.j.Submit + b.j.Runtime*(1+slack)).prefer(pref...)
		}
		if u := i % 5; u > 0 {
			b.j.Features.User = "u" + strconv.Itoa(u)
		}
		in.Jobs = append(in.Jobs, b.job())
	}
	return in
}

// testRegistry is the registry the tests run: prio with and without preemption.
func testRegistry() planner.Registry {
	return planner.Registry{
		{Name: "prio", New: func(planner.Options) (planner.Scheduler, error) { return prio.New(prio.Options{}), nil }},
		{Name: "prio-preempt", New: func(planner.Options) (planner.Scheduler, error) {
			return prio.New(prio.Options{PreemptBE: true}), nil
		}},
	}
}

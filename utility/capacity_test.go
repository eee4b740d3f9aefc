package utility_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/plannerhq/planner/utility"
)

// naiveCapacity is C[r,k] = nodes[r] − Σ_i n_i(r)·RRC_i(ts[k]) by the
// direct formula, one (partition, slice, job) at a time.
func naiveCapacity(nodes []int, jobs []utility.Running, ts []float64) []float64 {
	out := make([]float64, len(nodes)*len(ts))
	for r := range nodes {
		for k, t := range ts {
			c := float64(nodes[r])
			for _, j := range jobs {
				c -= float64(j.Nodes[r]) * directRRC(j.Dist.CDF, j.Elapsed, t)
			}
			out[r*len(ts)+k] = c
		}
	}
	return out
}

func randomJobs(r *rand.Rand, n, parts int) []utility.Running {
	jobs := make([]utility.Running, n)
	for i := range jobs {
		held := make([]int, parts)
		for range 1 + r.IntN(2) {
			held[r.IntN(parts)] += 1 + r.IntN(4)
		}
		d := randomDist(r, 1+r.IntN(80), 3600)
		jobs[i] = utility.Running{Nodes: held, Dist: d, Elapsed: r.Float64() * d.Max() * 1.05}
	}
	return jobs
}

func TestCapacityAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	nodes := []int{32, 32, 32, 32, 32, 32, 32, 32}
	ts := make([]float64, 120)
	for k := range ts {
		ts[k] = 60 * float64(k)
	}
	for trial := 0; trial < 20; trial++ {
		jobs := randomJobs(r, 50, len(nodes))
		got, err := utility.Capacity(nodes, jobs, ts, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := naiveCapacity(nodes, jobs, ts)
		for i := range want {
			if math.Abs(got[i]-want[i]) > capacityTol {
				t.Fatalf("trial %d: C[%d,%d] = %.17g, want %.17g", trial, i/len(ts), i%len(ts), got[i], want[i])
			}
		}
		// The same jobs with prepared runtimes.
		prepared := slices.Clone(jobs)
		for i := range prepared {
			rt, err := utility.NewRuntime(jobs[i].Dist.(segDist))
			if err != nil {
				t.Fatal(err)
			}
			prepared[i].Dist = rt
		}
		got2, err := utility.Capacity(nodes, prepared, ts, got)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if math.Abs(got2[i]-want[i]) > capacityTol {
				t.Fatalf("trial %d (prepared): C[%d,%d] = %.17g, want %.17g", trial, i/len(ts), i%len(ts), got2[i], want[i])
			}
		}
		// Slice 0 is the real free nodes.
		for p := range nodes {
			free := nodes[p]
			for _, j := range jobs {
				free -= j.Nodes[p]
			}
			if got[p*len(ts)] != float64(free) {
				t.Fatalf("trial %d: C[%d,0] = %g, want %d free nodes", trial, p, got[p*len(ts)], free)
			}
		}
	}
}

func TestCapacityCases(t *testing.T) {
	ts := []float64{0, 50, 100}
	tests := []struct {
		name  string
		nodes []int
		jobs  []utility.Running
		want  []float64
	}{
		{"no jobs", []int{4, 2}, nil, []float64{4, 4, 4, 2, 2, 2}},
		{"one job across two partitions", []int{4, 2},
			[]utility.Running{{Nodes: []int{2, 1}, Dist: uniform(0, 100), Elapsed: 0}},
			[]float64{2, 3, 4, 1, 1.5, 2}},
		{"outlived job holds its nodes", []int{4},
			[]utility.Running{{Nodes: []int{3}, Dist: uniform(0, 10), Elapsed: 20}},
			[]float64{1, 1, 1}},
		{"job holding nothing", []int{4},
			[]utility.Running{{Nodes: []int{0}, Dist: nil}},
			[]float64{4, 4, 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := utility.Capacity(tc.nodes, tc.jobs, ts, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := range tc.want {
				if math.Abs(got[i]-tc.want[i]) > ulpTol {
					t.Fatalf("C = %v, want %v", got, tc.want)
				}
			}
		})
	}
}

func TestCapacityRejects(t *testing.T) {
	ts := []float64{0, 60}
	tests := []struct {
		name  string
		nodes []int
		jobs  []utility.Running
	}{
		{"negative partition", []int{-1}, nil},
		{"wrong partition count", []int{4, 4}, []utility.Running{{Nodes: []int{1}, Dist: uniform(0, 1)}}},
		{"negative held", []int{4}, []utility.Running{{Nodes: []int{-1}, Dist: uniform(0, 1)}}},
		{"nil distribution", []int{4}, []utility.Running{{Nodes: []int{1}}}},
		{"NaN elapsed", []int{4}, []utility.Running{{Nodes: []int{1}, Dist: uniform(0, 1), Elapsed: math.NaN()}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := utility.Capacity(tc.nodes, tc.jobs, ts, nil); !errors.Is(err, utility.ErrInvalid) {
				t.Error("no error")
			}
		})
	}
}

package gs

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/workloads"
)

// one partition of n nodes, all free.
func state(n int, pending ...*planner.Pending) *planner.State {
	return &planner.State{Cluster: workloads.Cluster{PartitionNodes: []int{n}, Slowdown: 1.5}, Free: []int{n}, Pending: pending}
}

// taskJob is pending with every one of its n one-node tasks waiting.
func taskJob(id, n int) *planner.Pending {
	d := make([]float64, n)
	w := make([]int, n)
	for i := range d {
		d[i], w[i] = 10, i
	}
	return &planner.Pending{Job: plannertest.NewJob(id).Tasks(1, d...).Job(), Waiting: w}
}

// started counts the task starts (and gang starts, by nodes) of each job.
func started(d *planner.Decision) map[int]int {
	n := map[int]int{}
	for _, ts := range d.StartTasks {
		n[ts.JobID]++
	}
	for _, pl := range d.Start {
		for _, k := range pl.Alloc {
			n[pl.JobID] += k
		}
	}
	return n
}

func item(p *planner.Pending, q int) Item { return Item{P: p, Queue: q, Tasks: p.Waiting} }

func TestPlan(t *testing.T) {
	cfg := Config{Queues: 3, First: 1000, Growth: 10, WeightRatio: 10}
	a, b, c := taskJob(1, 100), taskJob(2, 100), taskJob(3, 3)
	gang := &planner.Pending{Job: plannertest.NewJob(4).Nodes(5).Job()}
	tests := []struct {
		name  string
		free  int
		items []Item
		used  []float64
		spare []Item
		want  map[int]int
	}{
		// Each unit to the queue of least used·10^q, ties to Q0: Q0 (1),
		// Q1 (10), then Q0 while its load is ≤ Q1's: 10 more (11), Q1
		// (20), 9 more to Q0. 20 : 2 of 22 nodes.
		{"weighted sharing", 22, []Item{item(a, 0), item(b, 1)}, nil, nil, map[int]int{1: 20, 2: 2}},
		// Q0 uses 50 nodes already: Q1 gets units until its 10× load
		// reaches 50.
		{"nodes in use count", 5, []Item{item(a, 0), item(b, 1)}, []float64{50, 0, 0}, nil, map[int]int{2: 5}},
		// The head of a queue takes all it can before the next job.
		{"first in, first out", 4, []Item{item(c, 0), item(a, 0)}, nil, nil, map[int]int{3: 3, 1: 1}},
		// A gang that does not fit is passed over; the next job starts.
		{"no reservation", 4, []Item{item(gang, 0), item(c, 0)}, nil, nil, map[int]int{3: 3}},
		{"a gang that fits", 6, []Item{item(gang, 0), item(c, 0)}, nil, nil, map[int]int{4: 5, 3: 1}},
		// Spare items only run on nodes no queue wants.
		{"work conservation", 5, []Item{item(c, 0)}, nil, []Item{{P: a, Tasks: a.Waiting}}, map[int]int{3: 3, 1: 2}},
		{"nothing free", 0, []Item{item(a, 0)}, nil, nil, map[int]int{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := state(tc.free)
			d := Plan(st, cfg, tc.items, tc.used, tc.spare)
			got := started(d)
			if len(got) != len(tc.want) {
				t.Fatalf("started %v, want %v", got, tc.want)
			}
			for id, n := range tc.want {
				if got[id] != n {
					t.Errorf("started %v, want %v", got, tc.want)
				}
			}
			st.Pending = []*planner.Pending{a, b, c, gang}
			if err := d.Validate(st); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestPlanTaskOrder: a job's tasks start in the item's order.
func TestPlanTaskOrder(t *testing.T) {
	a := taskJob(1, 5)
	d := Plan(state(3), DefaultConfig(), []Item{{P: a, Queue: 0, Tasks: []int{4, 0, 2}}}, nil, nil)
	var tasks []int
	for _, ts := range d.StartTasks {
		tasks = append(tasks, ts.Task)
	}
	if len(tasks) != 3 || tasks[0] != 4 || tasks[1] != 0 || tasks[2] != 2 {
		t.Errorf("tasks %v, want [4 0 2]", tasks)
	}
}

// TestDecide: a stateless cycle puts each job in the queue of its size;
// the small job, in Q0, takes most nodes though it arrived last.
func TestDecide(t *testing.T) {
	big, small := taskJob(1, 100), taskJob(2, 100)
	st := state(11, big, small)
	size := map[int]float64{1: 1e6, 2: 10} // Q3 and Q0
	d := Decide(st, DefaultConfig(), func(j *workloads.Job) float64 { return size[j.ID] })
	// Q0 first (load 1), Q3 next (load 1000), then Q0 for the other 9.
	if got := started(d); got[2] != 10 || got[1] != 1 {
		t.Errorf("started %v, want 10 of the small job and 1 of the big", got)
	}
}

func TestConfig(t *testing.T) {
	c := DefaultConfig()
	for _, tc := range []struct {
		size float64
		q    int
	}{{0, 0}, {999.9, 0}, {1000, 1}, {9999, 1}, {1e4, 2}, {1e5, 3}, {1e11, 9}, {1e300, 9}} {
		if got := c.QueueOf(tc.size); got != tc.q {
			t.Errorf("QueueOf(%g) = %d, want %d", tc.size, got, tc.q)
		}
	}
	if err := c.Validate(); err != nil {
		t.Error(err)
	}
	for _, bad := range []Config{{Queues: 0, First: 1, Growth: 2, WeightRatio: 1}, {Queues: 2, First: 0, Growth: 2, WeightRatio: 1},
		{Queues: 2, First: 1, Growth: 1, WeightRatio: 1}, {Queues: 2, First: 1, Growth: 2, WeightRatio: 0.5}} {
		if bad.Validate() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// TestPlanFIFOIsPlan: on seeded random clusters and queues (task-level
// jobs of 1–3-node tasks and gangs, some preferring racks, partly
// running), PlanFIFO decides what Plan decides with every job in one
// queue.
func TestPlanFIFOIsPlan(t *testing.T) {
	cfg := DefaultConfig()
	for seed := uint64(1); seed <= 200; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		racks := 1 + rng.IntN(4)
		st := &planner.State{Cluster: workloads.Cluster{Slowdown: 1.5}}
		for range racks {
			n := 1 + rng.IntN(12)
			st.Cluster.PartitionNodes = append(st.Cluster.PartitionNodes, n)
			st.Free = append(st.Free, rng.IntN(n+1))
		}
		var items []Item
		for id := range rng.IntN(12) {
			b := plannertest.NewJob(id)
			if rng.IntN(3) == 0 {
				b.Preferred(rng.IntN(racks))
			}
			p := &planner.Pending{}
			if rng.IntN(2) == 0 {
				d := make([]float64, 1+rng.IntN(6))
				for k := range d {
					d[k] = 10
					if rng.IntN(3) > 0 {
						p.Waiting = append(p.Waiting, k)
					}
				}
				if len(p.Waiting) == 0 {
					p.Waiting = []int{0}
				}
				b.Tasks(1+rng.IntN(3), d...)
			} else {
				b.Nodes(1 + rng.IntN(10))
			}
			p.Job = b.Job()
			st.Pending = append(st.Pending, p)
			items = append(items, item(p, 0))
		}
		got, want := PlanFIFO(st, st.Pending), Plan(st, cfg, items, []float64{float64(seed)}, nil)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d: PlanFIFO %+v, Plan %+v", seed, got, want)
		}
	}
}

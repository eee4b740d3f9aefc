package planner_test

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/workloads"
)

// randomBooks is a ledger of partitions of 3 and 4 nodes with jobs 1…n
// submitted (gang jobs of 1–3 nodes, every third one task-level with
// tasks of 1–2 nodes, every fourth SLO), some of them started by valid
// decisions.
func randomBooks(t *testing.T, rng *rand.Rand, n int) *planner.Ledger {
	t.Helper()
	l := planner.NewLedger(workloads.Cluster{PartitionNodes: []int{3, 4}, Slowdown: 1.5}, 60)
	for id := 1; id <= n; id++ {
		b := plannertest.NewJob(id).Submit(float64(rng.IntN(3))).Nodes(1 + rng.IntN(3))
		if id%3 == 0 {
			b = b.Tasks(1+rng.IntN(2), 10, 20, 30)
		}
		if id%4 == 0 {
			b = b.SLO(900)
		}
		if err := l.Add(b.Job()); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		d := randomDecision(rng, l, n)
		l.Apply(0, &planner.Decision{Start: okStarts(l, d)})
	}
	return l
}

// randomDecision names jobs 0…n+1 (0 and n+1 unknown) at random: starts
// on random allocations, task starts of random tasks, preemptions.
func randomDecision(rng *rand.Rand, l *planner.Ledger, n int) *planner.Decision {
	d := &planner.Decision{}
	for range rng.IntN(2) {
		d.Preempt = append(d.Preempt, rng.IntN(n+2))
	}
	for range rng.IntN(3) {
		a := rng.IntN(4)
		d.Start = append(d.Start, planner.Placement{JobID: rng.IntN(n + 2), Alloc: []int{a - rng.IntN(2)*min(a, 1+rng.IntN(2)), rng.IntN(3)}})
	}
	for range rng.IntN(3) {
		d.StartTasks = append(d.StartTasks, planner.TaskPlacement{JobID: rng.IntN(n + 2), Task: rng.IntN(4), Partition: rng.IntN(3)})
	}
	return d
}

// okStarts are the starts of d that the books carry out alone.
func okStarts(l *planner.Ledger, d *planner.Decision) []planner.Placement {
	return l.Preview(0, &planner.Decision{Start: d.Start}).Started
}

// TestLedgerApplyKeepsTheRules: Apply refuses item by item by the rules
// of Decision.Validate, on random books and decisions. A decision Validate
// finds valid is carried out whole; of one it refuses, Apply refuses the
// same first item with the same error. What it carries out keeps the
// contract on the books as they were (Validate of the carried-out part),
// and the books stay consistent (Audit).
func TestLedgerApplyKeepsTheRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	valid, refused := 0, 0
	for i := range 2000 {
		l := randomBooks(t, rng, 8)
		d := randomDecision(rng, l, 8)
		before := l.Snapshot(0)
		verr := d.Validate(before)
		res := l.Apply(10, d)
		if verr == nil {
			valid++
			if len(res.Refused) > 0 {
				t.Fatalf("case %d: valid decision %+v, Apply refused %+v", i, d, res.Refused)
			}
		} else {
			refused++
			if len(res.Refused) == 0 || res.Refused[0].Err.Error() != verr.Error() {
				t.Fatalf("case %d: Validate %v, Apply's refusals %+v", i, verr, res.Refused)
			}
		}
		done := &planner.Decision{Preempt: res.Preempted, Start: res.Started, StartTasks: res.StartedTasks}
		if err := done.Validate(before); err != nil {
			t.Fatalf("case %d: Apply carried out %+v, which breaks the contract: %v", i, done, err)
		}
		if n := len(res.Preempted) + len(res.Started) + len(res.StartedTasks) + len(res.Refused); n != len(d.Preempt)+len(d.Start)+len(d.StartTasks) {
			t.Fatalf("case %d: %d items accounted for, the decision has %d", i, n, len(d.Preempt)+len(d.Start)+len(d.StartTasks))
		}
		if err := l.Audit(true); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		for _, pl := range res.Started {
			if _, r := l.Lookup(pl.JobID); r == nil || r.Start != 10 || !slices.Equal(r.Alloc, pl.Alloc) {
				t.Fatalf("case %d: job %d started, books %+v", i, pl.JobID, r)
			}
		}
	}
	if valid < 100 || refused < 100 {
		t.Errorf("%d valid and %d refused decisions: the cases do not cover both", valid, refused)
	}
}

// TestLedgerComplete: the one Completion record. A gang's run is done
// with its job; a task-level job is done with its last task; slowed runs
// carry the cluster's slowdown, runs on slow partitions their speed; a
// measured runtime replaces end − start; the nodes are free again.
func TestLedgerComplete(t *testing.T) {
	c := workloads.Cluster{PartitionNodes: []int{4, 4}, Slowdown: 1.5, PartitionSpeeds: []float64{1, 0.5}}
	l := planner.NewLedger(c, 60)
	gang := plannertest.NewJob(1).Nodes(3).Preferred(0).Job()
	tasks := plannertest.NewJob(2).Tasks(1, 10, 20).Preferred(0).Job()
	for _, j := range []*workloads.Job{gang, tasks} {
		if err := l.Add(j); err != nil {
			t.Fatal(err)
		}
	}
	res := l.Apply(5, &planner.Decision{Start: []planner.Placement{{JobID: 1, Alloc: []int{2, 1}}},
		StartTasks: []planner.TaskPlacement{{JobID: 2, Task: 1, Partition: 1}, {JobID: 2, Task: 0, Partition: 0}}})
	if len(res.Refused) > 0 || l.FreeNodes() != 3 || len(l.Pending()) != 0 {
		t.Fatalf("apply: %+v, free %d, pending %d", res, l.FreeNodes(), len(l.Pending()))
	}
	if err := l.Started(1, 7); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name          string
		id, task      int
		end, runtime  float64 // runtime < 0: none measured
		want          planner.Completion
		free, running int
	}{
		{"the first task of two, slowed on a slow partition", 2, 1, 30, -1,
			planner.Completion{Job: tasks, Task: 1, Start: 5, End: 30, Runtime: 25, Slowed: true, Slowdown: 1.5, Speed: 0.5}, 4, 2},
		{"the gang, from its reported start, with a measured runtime", 1, 0, 60, 50,
			planner.Completion{Job: gang, JobDone: true, Start: 7, End: 60, Runtime: 50, Slowed: true, Slowdown: 1.5, Speed: 0.5}, 7, 1},
		{"the last task", 2, 0, 70, -1,
			planner.Completion{Job: tasks, JobDone: true, Start: 5, End: 70, Runtime: 65, Slowdown: 1, Speed: 1}, 8, 0},
	}
	for _, tc := range tests {
		var got planner.Completion
		var err error
		if tc.runtime < 0 {
			got, err = l.Complete(tc.id, tc.task, tc.end)
		} else {
			got, err = l.CompleteMeasured(tc.id, tc.task, tc.end, tc.runtime)
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %+v, %v; want %+v", tc.name, got, err, tc.want)
		}
		if l.FreeNodes() != tc.free || len(l.Running()) != tc.running {
			t.Errorf("%s: %d free, %d running; want %d and %d", tc.name, l.FreeNodes(), len(l.Running()), tc.free, tc.running)
		}
	}
	if _, err := l.Complete(1, 0, 80); !errors.Is(err, planner.ErrLedger) {
		t.Errorf("completing a done job: %v", err)
	}
	if err := l.Audit(true); err != nil {
		t.Error(err)
	}
}

// TestLedgerQueue: the pending jobs are in (submit, id) order whatever
// the order they are added in; a preempted job is pending again in its
// place, counted as preempted; a removed one is gone, its nodes free.
func TestLedgerQueue(t *testing.T) {
	l := planner.NewLedger(workloads.Cluster{PartitionNodes: []int{4}, Slowdown: 1.5}, 60)
	for _, j := range []*workloads.Job{
		plannertest.NewJob(3).Submit(5).Job(), plannertest.NewJob(1).Submit(5).Nodes(2).Job(),
		plannertest.NewJob(2).Submit(0).Job(), plannertest.NewJob(4).Submit(9).SLO(100).Job(),
	} {
		if err := l.Add(j); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Add(plannertest.NewJob(2).Job()); !errors.Is(err, planner.ErrLedger) {
		t.Errorf("a job added twice: %v", err)
	}
	ids := func() []int {
		var out []int
		for _, p := range l.Pending() {
			out = append(out, p.Job.ID)
		}
		return out
	}
	if got := ids(); !slices.Equal(got, []int{2, 1, 3, 4}) || l.PendingNodes() != 5 {
		t.Fatalf("pending %v (%d nodes)", got, l.PendingNodes())
	}
	l.Apply(10, &planner.Decision{Start: []planner.Placement{{JobID: 1, Alloc: []int{2}}, {JobID: 4, Alloc: []int{1}}}})
	l.Apply(20, &planner.Decision{Preempt: []int{1}})
	p, r := l.Lookup(1)
	if got := ids(); !slices.Equal(got, []int{2, 1, 3}) || p == nil || p.Preemptions != 1 || r != nil || l.FreeNodes() != 3 {
		t.Errorf("after the preemption: pending %v, job 1 %+v %+v, %d free", got, p, r, l.FreeNodes())
	}
	if !l.Remove(4) || l.Remove(4) || l.FreeNodes() != 4 {
		t.Errorf("removing the running job 4: %d free", l.FreeNodes())
	}
	if !l.Remove(3) || !slices.Equal(ids(), []int{2, 1}) || l.PendingNodes() != 3 {
		t.Errorf("removing the pending job 3: pending %v (%d nodes)", ids(), l.PendingNodes())
	}
}

// TestLedgerCapacity: capacity lowered below what the runs hold frees no
// node, and the cluster a planner sees still counts the nodes they hold;
// raised again, the nodes are free.
func TestLedgerCapacity(t *testing.T) {
	l := planner.NewLedger(workloads.Cluster{PartitionNodes: []int{4, 4}, Slowdown: 1.5}, 60)
	if err := l.Add(plannertest.NewJob(1).Nodes(3).Job()); err != nil {
		t.Fatal(err)
	}
	l.Apply(0, &planner.Decision{Start: []planner.Placement{{JobID: 1, Alloc: []int{3, 0}}}})
	l.SetCapacity(0, 1)
	l.SetCapacity(1, 2)
	st := l.Snapshot(0)
	if !slices.Equal(st.Free, []int{0, 2}) || !slices.Equal(st.Cluster.PartitionNodes, []int{3, 2}) {
		t.Errorf("capacity 1 and 2: free %v, nodes %v", st.Free, st.Cluster.PartitionNodes)
	}
	if _, err := l.Complete(1, 0, 10); err != nil {
		t.Fatal(err)
	}
	if st := l.View(10); !slices.Equal(st.Free, []int{1, 2}) || !slices.Equal(st.Cluster.PartitionNodes, []int{1, 2}) {
		t.Errorf("after the run: free %v, nodes %v", st.Free, st.Cluster.PartitionNodes)
	}
	if err := l.Audit(true); err != nil {
		t.Error(err)
	}
}

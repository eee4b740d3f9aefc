package threesigma

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/estimate"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/workloads"
)

// perfectPlanner is pointperfest in deterministic mode: plans with the
// true runtimes, so that the tests below can compute its plans by hand.
func perfectPlanner(t *testing.T) *ThreeSigma {
	t.Helper()
	s, err := NewCustom(NamePointPerfEst, Config{Mode: SolveDeterministic}, estimate.Perfect{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGroupsBySpeed: partitions are pooled only when every pending job
// treats them alike and their nodes have the same speed.
func TestGroupsBySpeed(t *testing.T) {
	tests := []struct {
		name      string
		speeds    []float64
		pref      []int // of the one pending job; nil: all
		groups    [][]int
		groupSpds []float64
	}{
		{"uniform, no preference: one pool", nil, nil, [][]int{{0, 1, 2, 3}}, []float64{1, 1, 1, 1}[:1]},
		{"all speed 2: one pool", []float64{2, 2, 2, 2}, nil, [][]int{{0, 1, 2, 3}}, []float64{2}},
		{"two speeds: a pool each", []float64{1, 1, 2, 2}, nil, [][]int{{0, 1}, {2, 3}}, []float64{1, 2}},
		{"uniform, preferences split", nil, []int{0, 1}, [][]int{{0, 1}, {2, 3}}, []float64{1, 1}},
		{"speeds across preferences", []float64{1, 2, 1, 2}, []int{0, 1}, [][]int{{0}, {1}, {2}, {3}}, []float64{1, 2, 1, 2}},
		{"speeds along preferences", []float64{2, 2, 1, 1}, []int{0, 1}, [][]int{{0, 1}, {2, 3}}, []float64{2, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := perfectPlanner(t)
			var parts [][]int
			var speeds []float64
			s.inspect = func(c *cycle) { parts, speeds = c.parts, c.gSpeed }
			h := plannertest.New(t, s, []int{4, 4, 4, 4}, 60)
			h.Spec.PartitionSpeeds = tc.speeds
			h.Submit(newJob(1).Nodes(2).Runtime(100).SLO(10000).Value(1000).Preferred(tc.pref...).Job())
			h.Step()
			if !reflect.DeepEqual(parts, tc.groups) || !slices.Equal(speeds, tc.groupSpds) {
				t.Errorf("groups %v of speeds %v, want %v of %v", parts, speeds, tc.groups, tc.groupSpds)
			}
		})
	}
}

// TestSpeedSets: a job's allowed sets are split by speed, fastest first,
// each with the runtime over its slowest speed (and the slowdown off the
// preferred partitions); on one speed there is one set, as before.
func TestSpeedSets(t *testing.T) {
	type set struct {
		all     bool
		groups  []int
		runtime float64 // the point runtime the set plans with
	}
	tests := []struct {
		name   string
		speeds []float64
		pref   []int
		want   []set
	}{
		{"uniform, no preference", nil, nil, []set{{false, []int{0}, 600}}},
		{"uniform, preferring rack 0", nil, []int{0}, []set{{false, []int{0}, 600}, {true, []int{0, 1}, 900}}},
		{"speeds 1 and 2, no preference", []float64{1, 2}, nil, []set{{false, []int{1}, 300}, {false, []int{0, 1}, 600}}},
		{"speeds 1 and 2, preferring the slow rack", []float64{1, 2}, []int{0},
			[]set{{false, []int{0}, 600}, {true, []int{1}, 450}, {true, []int{0, 1}, 900}}},
		{"speeds 0.5 and 1, preferring the fast rack", []float64{0.5, 1}, []int{1},
			[]set{{false, []int{1}, 600}, {true, []int{1}, 900}, {true, []int{0, 1}, 1800}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := perfectPlanner(t)
			var got []set
			s.inspect = func(c *cycle) {
				for _, a := range c.jobs[0].sets {
					got = append(got, set{a.all, a.groups, pointOf(t, a)})
				}
			}
			h := plannertest.New(t, s, []int{2, 2}, 60)
			h.Spec.PartitionSpeeds = tc.speeds
			h.Submit(newJob(1).Nodes(2).Runtime(600).SLO(100000).Value(1000).Preferred(tc.pref...).Job())
			h.Step()
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("sets %+v, want %+v", got, tc.want)
			}
		})
	}
}

// pointOf is the runtime of a set whose distribution is a point mass.
func pointOf(t *testing.T, a allowedSet) float64 {
	t.Helper()
	segs := a.rt.Segments()
	if len(segs) == 0 {
		t.Fatalf("set %v has no runtime", a.groups)
	}
	return segs[len(segs)-1].Hi
}

// TestPlansOnFastNodes: an SLO job of 2 nodes and 600 s whose deadline is
// 400 s away can meet it only on the partition of speed 2 (300 s); the
// plan starts it there now, and it completes at 300 s.
func TestPlansOnFastNodes(t *testing.T) {
	s := perfectPlanner(t)
	h := plannertest.New(t, s, []int{2, 2}, 60)
	h.Spec.PartitionSpeeds = []float64{1, 2}
	h.Submit(newJob(1).Nodes(2).Runtime(600).SLO(400).Value(1000).Job())
	d := h.Step()
	if len(d.Start) != 1 || !slices.Equal(d.Start[0].Alloc, []int{0, 2}) {
		t.Fatalf("started %+v, want job 1 on the fast partition", d.Start)
	}
	for h.Now < 600 {
		h.Step()
	}
	if got := h.Completed[1]; got != 300 {
		t.Errorf("job 1 completed at %v, want 300", got)
	}
}

// TestRunningJobAtItsSpeed: a running job on the partition of speed 2
// frees its nodes after runtime / 2 in the plan's expected capacity.
func TestRunningJobAtItsSpeed(t *testing.T) {
	s := perfectPlanner(t)
	var freeAt map[float64]float64 // check time → expected free nodes of the fast group
	s.inspect = func(c *cycle) {
		freeAt = map[float64]float64{}
		g := c.groupOf[1]
		for k, ct := range c.checkT {
			freeAt[ct] = c.C[g*len(c.checks)+k]
		}
	}
	running := newJob(1).Nodes(2).Runtime(1200).SLO(100000).Job() // not preemptible: in the capacity
	st := &planner.State{Now: 0, Interval: 60,
		Cluster: workloads.Cluster{PartitionNodes: []int{2, 2}, PartitionSpeeds: []float64{1, 2}, Slowdown: 1.5},
		Free:    []int{2, 0},
		Running: []*planner.Running{{Job: running, Start: 0, Alloc: []int{0, 2}}},
		Pending: []*planner.Pending{{Job: newJob(2).Nodes(1).Runtime(60).Value(1).Job()}}}
	if _, err := s.Schedule(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ t, want float64 }{{0, 0}, {540, 0}, {600, 2}, {900, 2}} {
		if got, ok := freeAt[tc.t]; !ok || got != tc.want {
			t.Errorf("fast group free at %v s: %v (checked: %v), want %v", tc.t, got, ok, tc.want)
		}
	}
}

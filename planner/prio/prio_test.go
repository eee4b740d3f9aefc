package prio

import (
	"context"
	"slices"
	"testing"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/workloads"
)

func prioJob(id int, class workloads.Class, submit, deadline float64, nodes int, pref ...int) *workloads.Job {
	return &workloads.Job{ID: id, Class: class, Submit: submit, Deadline: deadline, Nodes: nodes, Runtime: 100, Preferred: pref}
}

func pending(jobs ...*workloads.Job) []*planner.Pending {
	out := make([]*planner.Pending, len(jobs))
	for i, j := range jobs {
		out[i] = &planner.Pending{Job: j}
	}
	return out
}

func TestPrioSchedule(t *testing.T) {
	c := workloads.Cluster{PartitionNodes: []int{4, 4}, Slowdown: 1.5}
	be := prioJob(10, workloads.BestEffort, 0, 0, 6)
	tests := []struct {
		name    string
		opts    Options
		free    []int
		running []*planner.Running
		pending []*planner.Pending
		start   []planner.Placement
		preempt []int
	}{
		{
			name:    "SLO first, backfill a BE job that fits",
			free:    []int{4, 2},
			pending: pending(prioJob(0, workloads.BestEffort, 0, 0, 2), prioJob(1, workloads.SLO, 5, 99, 8), prioJob(2, workloads.SLO, 5, 50, 3, 0)),
			start:   []planner.Placement{{JobID: 2, Alloc: []int{3, 0}}, {JobID: 0, Alloc: []int{0, 2}}},
		},
		{
			name:    "no preemption by default",
			free:    []int{1, 1},
			running: []*planner.Running{{Job: be, Start: 0, Alloc: []int{3, 3}}},
			pending: pending(prioJob(1, workloads.SLO, 5, 99, 4)),
		},
		{
			name:    "PreemptBE stops the latest BE jobs for an SLO job",
			opts:    Options{PreemptBE: true},
			free:    []int{1, 1},
			running: []*planner.Running{{Job: be, Start: 0, Alloc: []int{3, 3}}, {Job: prioJob(11, workloads.SLO, 0, 99, 0), Start: 0, Alloc: []int{0, 0}}},
			pending: pending(prioJob(1, workloads.SLO, 5, 99, 4), prioJob(2, workloads.BestEffort, 0, 0, 2)),
			preempt: []int{10},
			start:   []planner.Placement{{JobID: 1, Alloc: []int{4, 0}}, {JobID: 2, Alloc: []int{0, 2}}},
		},
		{
			name:    "PreemptBE does not preempt when it would not help",
			opts:    Options{PreemptBE: true},
			free:    []int{0, 0},
			running: []*planner.Running{{Job: prioJob(12, workloads.BestEffort, 0, 0, 1), Start: 0, Alloc: []int{1, 0}}},
			pending: pending(prioJob(1, workloads.SLO, 5, 99, 4)),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := New(tc.opts)
			st := &planner.State{Now: 60, Cluster: c, Free: slices.Clone(tc.free), Pending: tc.pending, Running: tc.running, Interval: 60}
			d, err := p.Schedule(context.Background(), st)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Validate(st); err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(d.Start, tc.start, func(a, b planner.Placement) bool { return a.JobID == b.JobID && slices.Equal(a.Alloc, b.Alloc) }) {
				t.Errorf("start %+v, want %+v", d.Start, tc.start)
			}
			if !slices.Equal(d.Preempt, tc.preempt) {
				t.Errorf("preempt %v, want %v", d.Preempt, tc.preempt)
			}
			if !slices.Equal(st.Free, tc.free) {
				t.Error("Schedule modified state.Free")
			}
		})
	}
	if New(Options{}).Name() != NameNoPreempt || New(Options{PreemptBE: true}).Name() != Name {
		t.Error("names")
	}
}

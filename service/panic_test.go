package service

import (
	"context"
	"fmt"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/planner/registry"
	"github.com/plannerhq/planner/planner/threesigma"
)

// TestServePanicInSchedule: for every row of the registry a service runs
// (all but pointperfest, which needs the true runtimes), a panic in
// Schedule does not end planner serve. The cycle is decided by the
// policy's fallback (the planners) or is empty (the others), it counts in
// planner_stage_failures_total, and the service goes on deciding until
// every job has run. A client plays the cluster: it reports each start
// the feed decides, and each run's completion two minutes later.
func TestServePanicInSchedule(t *testing.T) {
	base := registry.Default()
	for _, p := range base {
		if p.Name == threesigma.NamePointPerfEst {
			continue
		}
		t.Run(p.Name, func(t *testing.T) {
			reg := planner.Registry{p}
			reg[0].New = func(o planner.Options) (planner.Scheduler, error) {
				s, err := p.New(o)
				if err != nil {
					return nil, err
				}
				return plannertest.Panicking(s, func(cycle int) bool { return cycle == 2 || cycle == 5 }), nil
			}
			cfg := virtualCfg()
			cfg.Scheduler, cfg.Registry = p.Name, reg
			ts := startService(t, "", cfg) // 16 nodes in 2 racks
			planners := p.Reads&planner.ReadsFallback != 0
			testServePanics(t, ts, planners)
		})
	}
}

func testServePanics(t *testing.T, ts *testService, planners bool) {
	ctx := context.Background()
	c := ts.c
	const jobs, runtime = 12, 120.0
	ends := map[string]float64{} // running job → end
	var last uint64
	panicked, fallbackStarts, completed := 0, 0, 0
	for k := 0; k < 40 && completed < jobs; k++ {
		now := float64(k) * 60
		for id, end := range ends {
			if end <= now {
				if _, err := c.Event(ctx, id, EventSpec{Type: "completed", Time: at(end)}); err != nil {
					t.Fatal(err)
				}
				delete(ends, id)
				completed++
			}
		}
		if k < jobs/2 {
			for i := range 2 {
				spec := JobSpec{ID: fmt.Sprintf("j%d-%d", k, i), User: "u", Nodes: ptr(3 + 2*i), Class: "be", Submitted: at(now)}
				if i == 1 {
					spec.Class, spec.Deadline = "slo", at(now+3600)
				}
				if _, _, err := c.Submit(ctx, spec); err != nil {
					t.Fatal(err)
				}
			}
		}
		cv, err := c.Clock(ctx, VirtualEpoch.Add(time.Duration(now)*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range cv.Cycles {
			if v.FailedStage != planner.StageSchedule {
				continue
			}
			panicked++
			switch {
			case !v.Panicked || v.Failure == "":
				t.Errorf("cycle %d: %+v does not say it panicked", v.Cycle, v)
			case planners && !v.Fallback:
				t.Errorf("cycle %d: not decided by the fallback: %+v", v.Cycle, v)
			case !planners && (v.Fallback || v.Started+v.Preempted > 0):
				t.Errorf("cycle %d: %d starts, %d preemptions; want none", v.Cycle, v.Started, v.Preempted)
			}
			fallbackStarts += v.Started
		}
		feed, err := c.Decisions(ctx, last, 0)
		if err != nil {
			t.Fatal(err)
		}
		last = feed.Last
		for _, d := range feed.Decisions {
			if d.Action == "preempt" {
				delete(ends, d.Job)
				continue
			}
			if _, err := c.Event(ctx, d.Job, EventSpec{Type: "started", Time: at(now)}); err != nil {
				t.Fatal(err)
			}
			ends[d.Job] = now + runtime
		}
	}
	var m dto.Metric
	if err := ts.s.metrics.stageFailures.Write(&m); err != nil {
		t.Fatal(err)
	}
	failures := m.GetCounter().GetValue()
	if panicked != 2 || failures < 2 {
		t.Errorf("%d cycles panicked, %v stage failures; want 2 and ≥ 2", panicked, failures)
	}
	if planners && fallbackStarts == 0 {
		t.Error("the fallback started nothing in the cycles that panicked")
	}
	if completed != jobs {
		t.Errorf("%d of %d jobs completed: the service did not go on", completed, jobs)
	}
}

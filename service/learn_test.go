package service

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/workloads"
)

// TestServeLearnsFromCompletions: a policy that learns runtimes from the
// completions it observes (gs and slearn learn, and forget a job, only
// when Completion.JobDone says the job is done) learns them in the
// service as in the simulator. On a 4-node cluster ana's "long" job runs
// 20,000 s and bob's "short" one 10 s, three times each; then a job of
// each arrives at once, ana's first. GS sizes each by what it learnt, so
// bob's starts first, from a higher queue; had it learnt nothing, both
// would be sized by the default estimate and ana's would start first, in
// order of arrival.
func TestServeLearnsFromCompletions(t *testing.T) {
	ctx := context.Background()
	cfg := virtualCfg()
	cfg.Scheduler = "gs"
	cluster := workloads.DefaultCluster(4, 1)
	cfg.Cluster = &cluster
	ts := startService(t, "", cfg)
	c := ts.c
	clock := 0.0
	step := func() *ClockView {
		t.Helper()
		cv, err := c.Clock(ctx, VirtualEpoch.Add(time.Duration(clock*1e9)))
		if err != nil {
			t.Fatal(err)
		}
		clock += 60
		return cv
	}
	run := func(id, user, name string, runtime float64) {
		t.Helper()
		if _, _, err := c.Submit(ctx, JobSpec{ID: id, User: user, Name: name, Nodes: ptr(4), Class: "be", Submitted: at(clock)}); err != nil {
			t.Fatal(err)
		}
		start := clock
		if cv := step(); len(cv.Cycles) != 1 || cv.Cycles[0].Started != 1 {
			t.Fatalf("%s: cycles %+v, want one start", id, cv.Cycles)
		}
		if _, err := c.Event(ctx, id, EventSpec{Type: "started", Time: at(start)}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Event(ctx, id, EventSpec{Type: "completed", Time: at(start + runtime), RuntimeS: ptr(runtime)}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3 {
		run(fmt.Sprintf("long%d", i), "ana", "long", 20000)
		run(fmt.Sprintf("short%d", i), "bob", "short", 10)
	}
	for _, id := range []string{"long", "short"} {
		user, name := "ana", "long"
		if id == "short" {
			user, name = "bob", "short"
		}
		if _, _, err := c.Submit(ctx, JobSpec{ID: id, User: user, Name: name, Nodes: ptr(4), Class: "be", Submitted: at(clock)}); err != nil {
			t.Fatal(err)
		}
	}
	after, err := c.Decisions(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	step()
	feed, err := c.Decisions(ctx, after.Last, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(feed.Decisions) != 1 || feed.Decisions[0].Job != "short" {
		t.Fatalf("decisions %+v: want short first, sized by the 10 s gs learnt", feed.Decisions)
	}
	est := map[string]float64{}
	for _, r := range ts.s.sched.(planner.Estimating).Estimates() {
		est[ts.s.st.byID[r.JobID].key] = r.Estimate
	}
	if !(est["short"] < 100 && est["long"] > 10000) {
		t.Errorf("gs's estimates %v: want short near 10 s and long near 20,000 s, as learnt", est)
	}
}

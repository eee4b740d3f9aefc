package service

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/plannerhq/planner/solver"
	"github.com/plannerhq/planner/workloads"
)

// TestMain lets the test binary double as the solver worker process.
func TestMain(m *testing.M) {
	solver.RunWorkerIfRequested()
	os.Exit(m.Run())
}

// testService is a service on a test server.
type testService struct {
	s   *Service
	srv *httptest.Server
	c   *Client
	dir string
}

// startService opens a service in dir (a new temporary directory when
// empty) on the virtual clock unless cfg says otherwise.
func startService(t testing.TB, dir string, cfg Config) *testService {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	cfg.DataDir = dir
	if cfg.Cluster == nil {
		c := workloads.DefaultCluster(16, 2)
		cfg.Cluster = &c
	}
	s, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	ts := &testService{s: s, srv: srv, c: NewClient(srv.URL, string(cfg.Token)), dir: dir}
	t.Cleanup(ts.stop)
	return ts
}

// stop closes the server and the service (again: no-op).
func (ts *testService) stop() {
	ts.srv.Close()
	ts.s.Close()
}

func virtualCfg() Config {
	return Config{Clock: ClockVirtual, Interval: time.Minute, Deterministic: true, Seed: 1, SnapshotEvery: -1}
}

func ptr[T any](v T) *T { return &v }

// at is the instant s seconds after the virtual epoch.
func at(s float64) string { return VirtualEpoch.Add(time.Duration(s * 1e9)).Format(time.RFC3339Nano) }

func TestLifecycle(t *testing.T) {
	ctx := context.Background()
	cfg := virtualCfg()
	cfg.Scheduler = "prio" // SLO jobs first: the decisions are known
	ts := startService(t, "", cfg)
	c := ts.c
	job, created, err := c.Submit(ctx, JobSpec{ID: "a1", User: "ana", Name: "etl", Nodes: ptr(4), Class: "slo", Deadline: at(3600)})
	if err != nil || !created {
		t.Fatalf("submit: created %v, %v", created, err)
	}
	if job.State != "pending" || job.Prediction.Source != "none" || job.Prediction.EstimateS != 600 {
		t.Errorf("new job: %+v", job)
	}
	// The same body again: idempotent (200); another body: 409.
	if _, created, err := c.Submit(ctx, JobSpec{ID: "a1", User: "ana", Name: "etl", Nodes: ptr(4), Class: "slo", Deadline: at(3600)}); err != nil || created {
		t.Errorf("re-submit: created %v, %v", created, err)
	}
	_, _, err = c.Submit(ctx, JobSpec{ID: "a1", User: "ana", Name: "etl", Nodes: ptr(5), Class: "slo", Deadline: at(3600)})
	var ae *APIError
	if !errors.As(err, &ae) || ae.Status != http.StatusConflict {
		t.Errorf("re-submit with another body: %v, want 409", err)
	}
	if _, _, err := c.Submit(ctx, JobSpec{ID: "b1", Nodes: ptr(16), Class: "be"}); err != nil {
		t.Fatal(err)
	}
	cv, err := c.Clock(ctx, VirtualEpoch)
	if err != nil {
		t.Fatal(err)
	}
	if len(cv.Cycles) != 1 || cv.Cycles[0].Started != 1 {
		t.Fatalf("cycle at 0: %+v", cv.Cycles)
	}
	feed, err := c.Decisions(ctx, 0, 0)
	if err != nil || len(feed.Decisions) != 1 || feed.Decisions[0].Job != "a1" || feed.Decisions[0].Action != "start" {
		t.Fatalf("feed: %+v, %v", feed, err)
	}
	if feed.Decisions[0].Acknowledged {
		t.Error("start acknowledged before any event")
	}
	if _, err := c.Event(ctx, "a1", EventSpec{Type: "started"}); err != nil {
		t.Fatal(err)
	}
	// Completing at 300 s: the predictor learns 300 s for ana's etl.
	j, err := c.Event(ctx, "a1", EventSpec{Type: "completed", Time: at(300)})
	if err != nil {
		t.Fatal(err)
	}
	if j.State != "completed" || j.RuntimeS == nil || *j.RuntimeS != 300 {
		t.Errorf("completed job: %+v", j)
	}
	// A retry of the same event is answered as before; another is 409.
	if _, err := c.Event(ctx, "a1", EventSpec{Type: "completed", Time: at(300)}); err != nil {
		t.Errorf("repeated event: %v", err)
	}
	if _, err := c.Event(ctx, "a1", EventSpec{Type: "failed"}); !errors.As(err, &ae) || ae.Status != http.StatusConflict {
		t.Errorf("failed after completed: %v, want 409", err)
	}
	feed, _ = c.Decisions(ctx, 0, 0)
	if !feed.Decisions[0].Acknowledged {
		t.Error("start not acknowledged by its events")
	}
	job, _, err = c.Submit(ctx, JobSpec{ID: "a2", User: "ana", Name: "etl", Nodes: ptr(4), Class: "be", Submitted: at(30)})
	if err != nil {
		t.Fatal(err)
	}
	if job.Prediction.Source != "global" || job.Prediction.RuntimeS == nil || job.Prediction.RuntimeS.P50 != 300 {
		t.Errorf("prediction after one completion: %+v", job.Prediction)
	}
	// The 16-node job starts once a1's nodes are free; a2 waits.
	cv, err = c.Clock(ctx, VirtualEpoch.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	feed, _ = c.Decisions(ctx, 1, 0)
	if len(feed.Decisions) != 1 || feed.Decisions[0].Job != "b1" {
		t.Fatalf("cycle at 60 s: %+v, feed %+v", cv.Cycles, feed.Decisions)
	}
	plan, err := c.Plan(ctx)
	if err != nil || len(plan.Running) != 1 || plan.Running[0].Job != "b1" || plan.Pending != 1 {
		t.Errorf("plan: %+v, %v", plan, err)
	}
	if _, err := c.Event(ctx, "a2", EventSpec{Type: "cancelled", Reason: "user"}); err != nil {
		t.Fatal(err)
	}
	if j, _ := c.Job(ctx, "a2"); j.State != "cancelled" {
		t.Errorf("a2 is %s", j.State)
	}
}

// TestWallClock: on the wall clock a cycle runs at each interval boundary
// without being asked; a long poll of the feed sees its start; cancelling
// Run's context stops the service cleanly.
func TestWallClock(t *testing.T) {
	c := workloads.DefaultCluster(8, 2)
	s, err := Open(Config{DataDir: t.TempDir(), Cluster: &c, Interval: time.Second, Scheduler: "prio"})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, ln) }()
	client := NewClient("http://"+ln.Addr().String(), "")
	if _, _, err := client.Submit(ctx, JobSpec{ID: "w", Nodes: ptr(3), Class: "be"}); err != nil {
		t.Fatal(err)
	}
	feed, err := client.Decisions(ctx, 0, 30*time.Second)
	if err != nil || len(feed.Decisions) != 1 || feed.Decisions[0].Job != "w" {
		t.Fatalf("feed: %+v, %v", feed, err)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return")
	}
}

// TestCapacity: drained and lost nodes are not planned on; nodes given
// back are.
func TestCapacity(t *testing.T) {
	for _, name := range []string{"prio", "3sigma"} {
		t.Run(name, func(t *testing.T) { testCapacity(t, name) })
	}
}

func testCapacity(t *testing.T, scheduler string) {
	ctx := context.Background()
	cfg := virtualCfg()
	cfg.Scheduler = scheduler
	ts := startService(t, "", cfg) // 2 partitions of 8
	c := ts.c
	cv, err := c.PutCluster(ctx, ClusterSpec{Partitions: []PartitionSpec{{Name: "r0", Drained: ptr(6)}, {Name: "r1", Lost: ptr(8)}}})
	if err != nil || cv.Partitions[0].Available != 2 || cv.Partitions[1].Available != 0 {
		t.Fatalf("cluster %+v, %v", cv, err)
	}
	c.Submit(ctx, JobSpec{ID: "big", Nodes: ptr(4), Class: "be"})
	if v, _ := c.Clock(ctx, VirtualEpoch); len(v.Cycles) != 1 || v.Cycles[0].Started != 0 || v.Cycles[0].FailedStage != "" {
		t.Fatalf("a 4-node job started on 2 available nodes: %+v", v.Cycles)
	}
	c.PutCluster(ctx, ClusterSpec{Partitions: []PartitionSpec{{Name: "r1", Lost: ptr(0)}}})
	if v, _ := c.Clock(ctx, VirtualEpoch.Add(time.Minute)); len(v.Cycles) != 1 || v.Cycles[0].Started != 1 || v.Cycles[0].FailedStage != "" {
		t.Fatalf("the job did not start once nodes came back: %+v", v.Cycles)
	}
}

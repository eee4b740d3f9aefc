package slurm_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/plannerhq/planner/service"
	"github.com/plannerhq/planner/service/slurm"
	"github.com/plannerhq/planner/service/slurm/slurmtest"
	"github.com/plannerhq/planner/solver"
	"github.com/plannerhq/planner/workloads"
)

// TestMain lets the test binary double as the solver worker process.
func TestMain(m *testing.M) {
	solver.RunWorkerIfRequested()
	os.Exit(m.Run())
}

// testPlanner is a planner service on the wall clock on loopback.
type testPlanner struct {
	c    *service.Client
	stop func()
}

func startPlanner(t *testing.T, cluster workloads.Cluster, interval time.Duration) *testPlanner {
	t.Helper()
	svc, err := service.Open(service.Config{DataDir: t.TempDir(), Cluster: &cluster, Interval: interval,
		Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.InfoLevel)})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- svc.Run(ctx, ln) }()
	p := &testPlanner{c: service.NewClient("http://"+ln.Addr().String(), ""), stop: func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("the planner: %v", err)
		}
	}}
	t.Cleanup(p.stop)
	return p
}

// startBridge runs a bridge until the test ends.
func startBridge(t *testing.T, cl *slurmtest.Cluster, p *testPlanner) *slurm.Bridge {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	b, err := slurm.New(ctx, slurm.Config{Slurm: &slurm.Slurm{Runner: slurm.Exec{Env: cl.Env}}, Planner: p.c,
		Poll: 250 * time.Millisecond, Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.InfoLevel)})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("the bridge: %v", err)
		}
	})
	return b
}

func TestBridgeSmoke(t *testing.T) {
	cl := slurmtest.Start(t, slurmtest.Options{Features: func(i int) string { return fmt.Sprintf("r%d", (i-1)/4) }})
	p := startPlanner(t, workloads.Cluster{PartitionNodes: []int{4, 4}, Slowdown: 1.5}, time.Second)
	b := startBridge(t, cl, p)
	t.Logf("map: %s", b.Nodes())
	var ids []int64
	for i := range 4 {
		ids = append(ids, cl.Submit(t, "--hold", "-N", fmt.Sprint(1+i), "-t", "1", "-J", "smoke", "--comment", "deadline=+2m", "--wrap", "sleep 2"))
	}
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		done := 0
		for _, id := range ids {
			v, err := p.c.Job(context.Background(), "slurm-"+fmt.Sprint(id))
			if err == nil && v.State == "completed" {
				done++
			}
		}
		if done == len(ids) {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	out, _ := cl.Output("sacct", "--completion", "--noheader", "--parsable2", "--format", "jobid,state,start,end,nodelist")
	t.Logf("jobcomp:\n%s", out)
	for _, id := range ids {
		v, err := p.c.Job(context.Background(), "slurm-"+fmt.Sprint(id))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s %s alloc %v runtime %v events %d", v.ID, v.State, v.Alloc, v.RuntimeS, len(v.Events))
		if v.State != "completed" {
			t.Errorf("job %s is %s", v.ID, v.State)
		}
	}
	_ = strings.Fields
}

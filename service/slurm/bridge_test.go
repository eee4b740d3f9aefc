package slurm

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/plannertest"
	"github.com/plannerhq/planner/service"
	"github.com/plannerhq/planner/workloads"
)

// bridgeEnv is a bridge between the fake Slurm and a real service on the
// virtual clock whose scheduler is a script the test sets cycle by cycle.
type bridgeEnv struct {
	t      *testing.T
	f      *fakeSlurm
	c      *service.Client
	b      *Bridge
	cfg    Config
	log    *syncBuffer
	now    float64 // the service's clock, seconds from the virtual epoch
	mu     sync.Mutex
	script func(*planner.State) *planner.Decision
}

// syncBuffer is a log buffer safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) count(sub string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Count(s.b.String(), sub)
}

const testInterval = 60.0 // seconds between the service's cycles

func newBridgeEnv(t *testing.T, partitions []int, nodes []Node, cfg Config) *bridgeEnv {
	t.Helper()
	e := &bridgeEnv{t: t, log: &syncBuffer{}}
	reg := planner.Registry{{Name: "script", Summary: "the test's decisions",
		New: func(planner.Options) (planner.Scheduler, error) {
			return &plannertest.Func{SchedName: "script", F: func(st *planner.State) (*planner.Decision, error) {
				e.mu.Lock()
				defer e.mu.Unlock()
				d := &planner.Decision{}
				if e.script != nil {
					d = e.script(st)
					e.script = nil
				}
				return d, nil
			}}, nil
		}}}
	cluster := workloads.Cluster{PartitionNodes: partitions, Slowdown: 1.5}
	svc, err := service.Open(service.Config{DataDir: t.TempDir(), Cluster: &cluster, Clock: service.ClockVirtual,
		Interval: time.Duration(testInterval) * time.Second, Scheduler: "script", Registry: reg, Deterministic: true,
		SnapshotEvery: -1, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(svc.Handler())
	t.Cleanup(func() {
		srv.Close()
		svc.Close()
	})
	e.c = service.NewClient(srv.URL, "")
	e.f = newFakeSlurm(service.VirtualEpoch.Add(time.Second), nodes...)
	cfg.Slurm, cfg.Planner = &Slurm{Runner: e.f}, e.c
	cfg.Log = zerolog.New(e.log)
	cfg.Location = time.UTC
	e.cfg = cfg
	e.newBridge()
	return e
}

// newBridge (re)starts the bridge, as a restarted process would.
func (e *bridgeEnv) newBridge() {
	e.t.Helper()
	cfg := e.cfg
	cfg.Now = func() time.Time {
		e.f.mu.Lock()
		defer e.f.mu.Unlock()
		return e.f.now
	}
	b, err := New(context.Background(), cfg)
	if err != nil {
		e.t.Fatal(err)
	}
	e.b = b
}

// at is virtual time s as Slurm's clock shows it.
func at(s float64) time.Time {
	return service.VirtualEpoch.Add(time.Duration(s * float64(time.Second)))
}

// step runs a round of the bridge.
func (e *bridgeEnv) step() {
	e.t.Helper()
	if err := e.b.Step(context.Background()); err != nil {
		e.t.Fatal(err)
	}
}

// cycle runs the service's next cycle with decide as its scheduler.
func (e *bridgeEnv) cycle(decide func(*planner.State) *planner.Decision) {
	e.t.Helper()
	e.mu.Lock()
	e.script = decide
	e.mu.Unlock()
	e.now = (float64(int(e.now/testInterval)) + 1) * testInterval
	cv, err := e.c.Clock(context.Background(), at(e.now))
	if err != nil {
		e.t.Fatal(err)
	}
	for _, c := range cv.Cycles {
		if c.Invalid != "" {
			e.t.Fatalf("the script's decision is invalid: %s", c.Invalid)
		}
	}
	e.f.advance(at(e.now))
}

// advance moves both clocks to s (no cycle runs unless s passes a
// boundary).
func (e *bridgeEnv) advance(s float64) {
	e.t.Helper()
	e.now = s
	if _, err := e.c.Clock(context.Background(), at(s)); err != nil {
		e.t.Fatal(err)
	}
	e.f.advance(at(s))
}

func (e *bridgeEnv) job(key string) *service.JobView {
	e.t.Helper()
	v, err := e.c.Job(context.Background(), key)
	if err != nil {
		e.t.Fatal(err)
	}
	return v
}

// start is a decision starting planner job id on alloc.
func start(id int, alloc ...int) func(*planner.State) *planner.Decision {
	return func(*planner.State) *planner.Decision {
		return &planner.Decision{Start: []planner.Placement{{JobID: id, Alloc: alloc}}}
	}
}

// key is the planner's id of Slurm job id.
func key(id int64) string { return DefaultIDPrefix + strconv.FormatInt(id, 10) }

func checkCalls(t *testing.T, f *fakeSlurm, want ...string) {
	t.Helper()
	if got := f.takeCalls(); !slices.Equal(got, want) {
		t.Errorf("Slurm commands:\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// eightNodes are n1–n8, the first four with feature r0, the others r1.
func eightNodes() []Node {
	nodes := append(nodesOf("n", 4, "r0"), nodesOf("n", 8, "r1")[4:]...)
	return nodes
}

func TestBridgeIntake(t *testing.T) {
	e := newBridgeEnv(t, []int{4, 4}, eightNodes(), Config{Partitions: []string{"debug"}})
	if got := e.b.Nodes().String(); got != "r0=n1,n2,n3,n4 r1=n5,n6,n7,n8 (by feature)" {
		t.Errorf("node map %s", got)
	}
	f := e.f
	slo := f.submit(Job{Name: "etl", Nodes: 2, TimeLimit: 10 * time.Minute, Comment: "nightly deadline=+30m value=5 preferred=r1"}, time.Minute)
	be := f.submit(Job{Name: "sweep", User: "bo", Nodes: 1, Deadline: at(7200)}, time.Minute)
	f.submit(Job{Name: "released", Nodes: 1, State: StatePending, Reason: "Resources"}, time.Minute)
	f.submit(Job{Name: "array", Nodes: 1, ArrayJobID: 3}, time.Minute)
	bad := f.submit(Job{Name: "bad", Nodes: 1, Comment: "deadline=tomorrow"}, time.Minute)
	f.submit(Job{Name: "elsewhere", Nodes: 1, Partition: "gpu"}, time.Minute)
	huge := f.submit(Job{Name: "huge", Nodes: 9}, time.Minute)
	e.step()
	e.step()

	v := e.job(key(slo))
	if v.ID != "slurm-1" || v.Class != "slo" || v.Nodes != 2 || v.User != "ana" || v.Name != "etl" || v.App != "partition=debug" ||
		v.Resources != "nodes=2,time=600" || v.TimeLimitS != 600 || v.Value != 5 || !slices.Equal(v.Preferred, []string{"r1"}) ||
		v.Deadline != "1970-01-04T00:30:01Z" || v.Submitted != "1970-01-04T00:00:01Z" || v.State != "pending" {
		t.Errorf("the SLO job in the planner: %+v", v)
	}
	v = e.job(key(be))
	if v.Class != "slo" || v.Deadline != "1970-01-04T02:00:00Z" || v.Resources != "nodes=1" || v.TimeLimitS != 0 {
		t.Errorf("the job with a Slurm --deadline in the planner: %+v", v)
	}
	var list service.JobsView
	if _, err := e.c.Do(context.Background(), http.MethodGet, "/v1/jobs", nil, &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Jobs) != 2 {
		t.Errorf("the planner has %d jobs, want the 2 held ones of partition debug", len(list.Jobs))
	}
	for _, id := range []int64{bad, huge} {
		if n := e.log.count(`"slurm_job":` + strconv.FormatInt(id, 10) + `,`); n != 1 {
			t.Errorf("job %d: %d warnings, want 1 (and no second attempt)", id, n)
		}
	}
	if n := e.log.count("deadline=tomorrow: want a time"); n != 1 {
		t.Errorf("the bad comment is warned %d times, want 1", n)
	}
	if n := e.log.count("nodes: must be ≤ the cluster's 8 nodes, got 9"); n != 1 {
		t.Errorf("the planner's refusal is warned %d times, want 1", n)
	}
	checkCalls(t, f) // intake changes nothing in Slurm
}

func TestBridgeStartPreemptRestart(t *testing.T) {
	// Two partitions of two nodes, mapped by order (no features).
	e := newBridgeEnv(t, []int{2, 2}, nodesOf("c", 4), Config{})
	if got := e.b.Nodes().String(); got != "r0=c1,c2 r1=c3,c4 (by order)" {
		t.Errorf("node map %s", got)
	}
	f := e.f
	be := f.submit(Job{Name: "be", Nodes: 2, TimeLimit: time.Hour}, 10*time.Minute)
	slo := f.submit(Job{Name: "slo", Nodes: 2, Comment: "deadline=+2h"}, 5*time.Minute)
	e.step()

	// Start the best-effort job on r1.
	e.cycle(start(1, 0, 2))
	e.step()
	checkCalls(t, f, "scontrol update JobId=1 NodeList=c3,c4", "scontrol release 1")
	e.advance(e.now + 1)
	e.step()
	if v := e.job(key(be)); v.State != "running" || v.Start != "1970-01-04T00:01:01Z" {
		t.Errorf("after its start in Slurm: %s from %s", v.State, v.Start)
	}

	// Preempt it and start the SLO job on its nodes: the requeue first,
	// the placement once Slurm freed the nodes.
	e.cycle(func(*planner.State) *planner.Decision {
		return &planner.Decision{Preempt: []int{1}, Start: []planner.Placement{{JobID: 2, Alloc: []int{0, 2}}}}
	})
	e.step()
	checkCalls(t, f, "scontrol requeuehold 1")
	e.step()
	checkCalls(t, f, "scontrol update JobId=2 NodeList=c3,c4", "scontrol release 2")
	e.advance(e.now + 1)
	e.step()

	// Restart the preempted job on r0: Slurm is asked to start it now.
	e.cycle(start(1, 2, 0))
	e.step()
	checkCalls(t, f, "scontrol update JobId=1 NodeList=c1,c2", "scontrol release 1", "scontrol update JobId=1 StartTime=now")
	e.advance(e.now + 1)
	e.step()
	e.advance(e.now + 600)
	e.step()
	for _, tt := range []struct {
		id      int64
		runtime float64
		preempt int
		alloc   string
	}{{slo, 300, 0, "r1"}, {be, 600, 1, "r0"}} {
		v := e.job(key(tt.id))
		if v.State != "completed" || v.RuntimeS == nil || *v.RuntimeS != tt.runtime || v.Preemptions != tt.preempt ||
			len(v.Alloc) != 1 || v.Alloc[0].Partition != tt.alloc {
			t.Errorf("job %s: %s, runtime %v, %d preemptions, on %v; want completed after %g s, %d preemptions, on %s",
				v.ID, v.State, v.RuntimeS, v.Preemptions, v.Alloc, tt.runtime, tt.preempt, tt.alloc)
		}
	}
	checkCalls(t, f)
}

func TestBridgeEnds(t *testing.T) {
	e := newBridgeEnv(t, []int{4}, nodesOf("n", 4), Config{})
	f := e.f
	for range 5 {
		f.submit(Job{Name: "j", Nodes: 1}, time.Minute)
	}
	e.step()
	e.cycle(func(*planner.State) *planner.Decision {
		return &planner.Decision{Start: []planner.Placement{{JobID: 1, Alloc: []int{1}}, {JobID: 2, Alloc: []int{1}}, {JobID: 3, Alloc: []int{1}}}}
	})
	e.step()
	e.advance(e.now + 1)
	e.step()
	// Job 1 fails, job 2 ends and Slurm forgets it (the completion log
	// has it), job 3 vanishes from both, job 4 is cancelled while it
	// waits, job 5 ends in Slurm while the planner has it waiting.
	f.mu.Lock()
	f.job(1).State = StateFailed
	f.job(2).purged = true
	f.comp = append(f.comp, Record{Job: 2, State: StateCompleted, Start: f.job(2).Start, End: f.now.Add(42 * time.Second), Nodes: f.job(2).NodeList})
	f.job(3).purged = true
	f.job(4).State = StateCancelled
	f.job(5).State = StateTimeout
	f.mu.Unlock()
	for range maxMissingRounds {
		e.step()
	}
	for _, tt := range []struct {
		id           int64
		state, event string
	}{
		{1, "failed", "ended in Slurm: FAILED"},
		{2, "completed", ""},
		{3, "failed", "Slurm no longer knows the job"},
		{4, "cancelled", "cancelled in Slurm"},
		{5, "cancelled", "ended in Slurm (TIMEOUT) while the planner had it waiting"},
	} {
		v := e.job(key(tt.id))
		last := v.Events[len(v.Events)-1]
		if v.State != tt.state || last.Reason != tt.event {
			t.Errorf("job %s: %s (%s), want %s (%s)", v.ID, v.State, last.Reason, tt.state, tt.event)
		}
	}
	if v := e.job("slurm-2"); v.RuntimeS == nil || *v.RuntimeS != 42 {
		t.Errorf("job slurm-2's runtime %v, want 42 s from the completion log", v.RuntimeS)
	}
}

func TestBridgeCapacity(t *testing.T) {
	e := newBridgeEnv(t, []int{2, 2}, nodesOf("n", 4), Config{})
	f := e.f
	cluster := func() []service.PartitionView {
		var v service.ClusterView
		if _, err := e.c.Do(context.Background(), http.MethodGet, "/v1/cluster", nil, &v); err != nil {
			t.Fatal(err)
		}
		return v.Partitions
	}
	f.mu.Lock()
	f.nodes[0].State = "drained"
	f.nodes[1].NotResponding = true
	f.mu.Unlock()
	// A job that did not come through the planner holds n3.
	f.submit(Job{Name: "direct", Nodes: 1, State: StatePending, Reason: "None", Required: []string{"n3"}}, time.Hour)
	f.advance(f.now)
	e.step()
	p := cluster()
	if p[0].Drained != 1 || p[0].Lost != 1 || p[1].Drained != 1 || p[1].Lost != 0 || p[0].Available != 0 || p[1].Available != 1 {
		t.Errorf("capacity %+v; want r0 1 drained 1 lost, r1 1 drained (the direct job's node)", p)
	}
	f.mu.Lock()
	f.nodes[0].State = "idle"
	f.nodes[1].NotResponding = false
	f.job(1).State = StateCompleted
	f.mu.Unlock()
	e.step()
	if p := cluster(); p[0].Available != 2 || p[1].Available != 2 {
		t.Errorf("capacity %+v; want every node back", p)
	}
	if n := e.log.count("bridge: capacity"); n != 2 {
		t.Errorf("capacity reported %d times, want 2 (only changes)", n)
	}
}

func TestBridgeRestarts(t *testing.T) {
	e := newBridgeEnv(t, []int{2, 2}, nodesOf("n", 4), Config{})
	f := e.f
	f.submit(Job{Name: "a", Nodes: 2}, time.Minute)
	f.submit(Job{Name: "b", Nodes: 2}, 2*time.Minute)
	e.step()
	e.cycle(start(1, 2, 0))
	e.step()
	e.advance(e.now + 1)
	e.step()
	// The bridge stops; meanwhile the planner starts job 2 and job 1 ends.
	e.cycle(start(2, 0, 2))
	e.advance(e.now + 60)
	f.takeCalls()
	e.newBridge()
	e.step()
	checkCalls(t, f, "scontrol update JobId=2 NodeList=n3,n4", "scontrol release 2")
	if v := e.job("slurm-1"); v.State != "completed" || v.RuntimeS == nil || *v.RuntimeS != 60 {
		t.Errorf("job 1 after the restart: %s, runtime %v; want completed in 60 s", v.State, v.RuntimeS)
	}
	// A held job the restarted bridge finds again is submitted again,
	// idempotently.
	e.newBridge()
	f.submit(Job{Name: "c", Nodes: 1}, time.Minute)
	e.step()
	e.newBridge()
	e.step()
	if n := e.log.count(`"job":"slurm-3","class":"be"`); n != 1 {
		t.Errorf("job 3 submitted %d times, want 1", n)
	}
}

func TestBridgeStartFailures(t *testing.T) {
	e := newBridgeEnv(t, []int{2, 2}, nodesOf("n", 4), Config{})
	f := e.f
	f.submit(Job{Name: "a", Nodes: 2}, time.Minute)
	f.submit(Job{Name: "b", Nodes: 1}, time.Minute)
	e.step()
	f.fail["scontrol update JobId=1"] = "Requested node configuration is not available"
	// Job 2 asks Slurm for 1 node since its submission; the planner
	// placed the 1 node it asked for then.
	e.cycle(func(*planner.State) *planner.Decision {
		return &planner.Decision{Start: []planner.Placement{{JobID: 1, Alloc: []int{2, 0}}, {JobID: 2, Alloc: []int{0, 1}}}}
	})
	f.mu.Lock()
	f.job(2).Nodes = 2
	f.mu.Unlock()
	for range maxCommandErrors {
		e.step()
	}
	v := e.job("slurm-1")
	if last := v.Events[len(v.Events)-1]; v.State != "failed" || !strings.Contains(last.Reason, "Requested node configuration is not available") {
		t.Errorf("job 1: %s (%s); want failed with Slurm's refusal", v.State, last.Reason)
	}
	v = e.job("slurm-2")
	if last := v.Events[len(v.Events)-1]; v.State != "failed" || last.Reason != "the planner placed it on 1 nodes, it asks Slurm for 2" {
		t.Errorf("job 2: %s (%s)", v.State, last.Reason)
	}
}

func TestBridgeWaitsForNodes(t *testing.T) {
	e := newBridgeEnv(t, []int{2}, nodesOf("n", 2), Config{})
	f := e.f
	f.submit(Job{Name: "a", Nodes: 2}, time.Minute)
	e.step()
	// n1 is still held by a job Slurm is ending.
	f.submit(Job{Name: "ending", Nodes: 1, State: StateCompleting, NodeList: []string{"n1"}}, 0)
	e.cycle(start(1, 2))
	e.step()
	checkCalls(t, f)
	e.advance(e.now + deferWarn.Seconds())
	e.step()
	if n := e.log.count("a start waits for Slurm to free its nodes"); n != 1 {
		t.Errorf("%d warnings of the waiting start, want 1", n)
	}
	f.mu.Lock()
	f.job(2).State = StateCompleted
	f.mu.Unlock()
	e.step()
	checkCalls(t, f, "scontrol update JobId=1 NodeList=n1,n2", "scontrol release 1")
}

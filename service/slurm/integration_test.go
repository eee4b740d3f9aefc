package slurm_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
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

// The integration test runs the planner in front of a real Slurm on
// loopback (slurmtest): eight nodes, n1–n4 with feature r0 and n5–n8 with
// r1, the planner's two partitions of four nodes.
const (
	// interval is the planner's cycle.
	interval = time.Second
	// poll is the bridge's.
	poll = 250 * time.Millisecond
	// waitAll bounds the wait for every job of a scenario to end.
	waitAll = 90 * time.Second
	// startMargin is how long Slurm may take to start a released job and
	// the job's shell to start: an SLO job whose start the planner decided
	// at d with runtime r is expected to meet its deadline when d + r +
	// startMargin lies before it.
	startMargin = 5 * time.Second
)

// partitionOf is the planner partition of node nI.
func partitionOf(node string) string {
	i, _ := strconv.Atoi(strings.TrimPrefix(node, "n"))
	return fmt.Sprintf("r%d", (i-1)/4)
}

// testPlanner is a planner service on the wall clock on loopback.
type testPlanner struct {
	c    *service.Client
	url  string
	stop func()
}

func startPlanner(t *testing.T, scheduler string) *testPlanner {
	t.Helper()
	cluster := workloads.Cluster{PartitionNodes: []int{4, 4}, Slowdown: 1.5}
	svc, err := service.Open(service.Config{DataDir: t.TempDir(), Cluster: &cluster, Interval: interval, Scheduler: scheduler,
		Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.InfoLevel).With().Str("from", "planner").Logger()})
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
	url := "http://" + ln.Addr().String()
	p := &testPlanner{c: service.NewClient(url, ""), url: url}
	stopped := false
	p.stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil {
			t.Errorf("the planner: %v", err)
		}
	}
	t.Cleanup(p.stop)
	return p
}

// startBridge runs a bridge; the function returned stops it.
func startBridge(t *testing.T, cl *slurmtest.Cluster, p *testPlanner) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	b, err := slurm.New(ctx, slurm.Config{Slurm: &slurm.Slurm{Runner: slurm.Exec{Env: cl.Env}}, Planner: p.c, Poll: poll,
		Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.InfoLevel)})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if got, want := b.Nodes().String(), "r0=n1,n2,n3,n4 r1=n5,n6,n7,n8 (by feature)"; got != want {
		t.Errorf("node map %s, want %s", got, want)
	}
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil {
			t.Errorf("the bridge: %v", err)
		}
	}
	t.Cleanup(stop)
	return stop
}

// sleepJob is a job of a scenario: a batch job that sleeps.
type sleepJob struct {
	name    string
	nodes   int
	sleep   int    // seconds
	comment string // the planner's words: deadline, value, preferred
	id      int64
}

func (j *sleepJob) submit(t *testing.T, cl *slurmtest.Cluster) {
	t.Helper()
	args := []string{"--hold", "--nodes", strconv.Itoa(j.nodes), "--time", "2", "--job-name", j.name}
	if j.comment != "" {
		args = append(args, "--comment", j.comment)
	}
	j.id = cl.Submit(t, append(args, "--wrap", "sleep "+strconv.Itoa(j.sleep))...)
}

func (j *sleepJob) key() string { return slurm.DefaultIDPrefix + strconv.FormatInt(j.id, 10) }

// waitEnded waits until the planner has every job ended.
func waitEnded(t *testing.T, p *testPlanner, jobs []*sleepJob) map[string]*service.JobView {
	t.Helper()
	deadline := time.Now().Add(waitAll)
	for {
		views := map[string]*service.JobView{}
		for _, j := range jobs {
			v, err := p.c.Job(context.Background(), j.key())
			if err != nil {
				break
			}
			switch v.State {
			case "completed", "failed", "cancelled":
				views[j.key()] = v
			}
		}
		if len(views) == len(jobs) {
			return views
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %s, %d of %d jobs ended in the planner", waitAll, len(views), len(jobs))
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// decisions are the planner's decisions of one job, in order.
type decisions struct {
	starts   []service.DecisionView
	preempts int
}

func feed(t *testing.T, p *testPlanner) map[string]*decisions {
	t.Helper()
	var v service.DecisionsView
	if _, err := p.c.Do(context.Background(), http.MethodGet, "/v1/decisions?after=0&limit=10000", nil, &v); err != nil {
		t.Fatal(err)
	}
	out := map[string]*decisions{}
	for _, d := range v.Decisions {
		if out[d.Job] == nil {
			out[d.Job] = &decisions{}
		}
		if d.Action == "start" {
			out[d.Job].starts = append(out[d.Job].starts, d)
		} else {
			out[d.Job].preempts++
		}
	}
	return out
}

// runs are the runs of each Slurm job in the completion log, in order.
func runs(t *testing.T, cl *slurmtest.Cluster) map[int64][]slurm.Record {
	t.Helper()
	out, err := cl.Output("sacct", "--completion", "--noheader", "--parsable2", "--format", "jobid,state,start,end,nodelist")
	if err != nil {
		t.Fatal(err)
	}
	byJob := map[int64][]slurm.Record{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Split(line, "|")
		if len(f) != 5 {
			continue
		}
		id, _ := strconv.ParseInt(f[0], 10, 64)
		nodes, err := slurm.ExpandHostlist(f[4])
		if err != nil {
			t.Fatal(err)
		}
		byJob[id] = append(byJob[id], slurm.Record{Job: id, State: f[1], Nodes: nodes})
	}
	return byJob
}

// counts is an allocation as "r0:2 r1:1".
func counts(alloc []service.AllocView) string {
	m := map[string]int{}
	for _, a := range alloc {
		m[a.Partition] += a.Nodes
	}
	var parts []string
	for _, p := range []string{"r0", "r1"} {
		if m[p] > 0 {
			parts = append(parts, fmt.Sprintf("%s:%d", p, m[p]))
		}
	}
	return strings.Join(parts, " ")
}

func nodeCounts(nodes []string) string {
	var alloc []service.AllocView
	for _, n := range nodes {
		alloc = append(alloc, service.AllocView{Partition: partitionOf(n), Nodes: 1})
	}
	return counts(alloc)
}

// check checks a scenario's jobs: each completed, each of its runs in
// Slurm was on nodes of the partitions the planner's start decided, as
// many from each, its measured runtime reached the planner, and each SLO
// job met its deadline when the planner started it in time for it. It
// returns the preemptions the planner decided.
func check(t *testing.T, cl *slurmtest.Cluster, p *testPlanner, jobs []*sleepJob) (preemptions int) {
	t.Helper()
	views := waitEnded(t, p, jobs)
	decided := feed(t, p)
	ran := runs(t, cl)
	met, excused := 0, 0
	for _, j := range jobs {
		v, d, rs := views[j.key()], decided[j.key()], ran[j.id]
		if v.State != "completed" {
			t.Errorf("job %s (%s): %s, want completed; events %+v", v.ID, j.name, v.State, v.Events)
			continue
		}
		if d == nil || len(d.starts) != len(rs) {
			t.Errorf("job %s: the planner decided %d starts, Slurm ran it %d times (%+v)", v.ID, len(d.starts), len(rs), rs)
			continue
		}
		preemptions += d.preempts
		for k, r := range rs {
			if got, want := nodeCounts(r.Nodes), counts(d.starts[k].Alloc); got != want {
				t.Errorf("job %s run %d: on %v (%s), the planner chose %s", v.ID, k+1, r.Nodes, got, want)
			}
		}
		if last := rs[len(rs)-1]; last.State != slurm.StateCompleted {
			t.Errorf("job %s: its last run in Slurm is %s", v.ID, last.State)
		}
		if v.RuntimeS == nil || *v.RuntimeS < float64(j.sleep-1) || *v.RuntimeS > float64(j.sleep+5) {
			t.Errorf("job %s: the planner learnt runtime %v, the job slept %d s", v.ID, v.RuntimeS, j.sleep)
		}
		if v.Class != "slo" {
			continue
		}
		deadline, _ := time.Parse(time.RFC3339, v.Deadline)
		end, _ := time.Parse(time.RFC3339, v.End)
		at, _ := time.Parse(time.RFC3339Nano, d.starts[len(d.starts)-1].Time)
		if at.Add(time.Duration(j.sleep)*time.Second + startMargin).After(deadline) {
			excused++
			t.Logf("job %s: the planner started it at %s, too late for its deadline %s", v.ID, at.Format(time.TimeOnly), deadline.Format(time.TimeOnly))
			continue
		}
		met++
		if end.After(deadline) {
			t.Errorf("job %s: ended %s, after its deadline %s, though the planner started it at %s", v.ID,
				end.Format(time.TimeOnly), deadline.Format(time.TimeOnly), at.Format(time.TimeOnly))
		}
	}
	t.Logf("SLO jobs the plan started in time for their deadlines: %d (all met), too late: %d; preemptions: %d", met, excused, preemptions)
	return preemptions
}

// learnt is the planner's count of runtimes learnt (its metric).
func learnt(t *testing.T, p *testPlanner) int {
	t.Helper()
	resp, err := http.Get(p.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "planner_runtimes_learnt_total "); ok {
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			return int(n)
		}
	}
	t.Fatal("no planner_runtimes_learnt_total in /metrics")
	return 0
}

// history teaches the planner's predictor runtimes of the scenario's job
// names, as an accounting log would.
func history(t *testing.T, p *testPlanner, runtimes map[string]float64) int {
	t.Helper()
	var h service.HistorySpec
	names := make([]string, 0, len(runtimes))
	for n := range runtimes {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		for range 10 {
			rt := runtimes[n]
			h.Jobs = append(h.Jobs, service.HistoryJob{User: "root", Name: n, App: "partition=debug", RuntimeS: &rt})
		}
	}
	if err := p.c.History(context.Background(), h); err != nil {
		t.Fatal(err)
	}
	return len(h.Jobs)
}

// TestPlannerInFrontOfSlurm puts the planner (3sigma) in front of a real
// Slurm through the bridge, then (prio, which preempts best-effort jobs
// for SLO ones) checks preemptions end to end.
func TestPlannerInFrontOfSlurm(t *testing.T) {
	cl := slurmtest.Start(t, slurmtest.Options{Features: func(i int) string { return partitionOf("n" + strconv.Itoa(i)) }})

	t.Run("3sigma", func(t *testing.T) {
		p := startPlanner(t, "3sigma")
		trained := history(t, p, map[string]float64{"fill": 8, "slo-a": 3, "slo-b": 4})
		stop := startBridge(t, cl, p)
		jobs := []*sleepJob{
			{name: "fill", nodes: 2, sleep: 8}, {name: "fill", nodes: 2, sleep: 8},
			{name: "fill", nodes: 2, sleep: 8}, {name: "fill", nodes: 2, sleep: 8},
			{name: "slo-a", nodes: 1, sleep: 3, comment: "deadline=+40s value=5"},
			{name: "slo-a", nodes: 2, sleep: 3, comment: "deadline=+40s value=5"},
			{name: "slo-a", nodes: 3, sleep: 3, comment: "deadline=+50s value=5"},
			{name: "slo-b", nodes: 4, sleep: 4, comment: "deadline=+60s value=5 preferred=r1"},
			{name: "slo-b", nodes: 4, sleep: 4, comment: "deadline=+60s value=5"},
		}
		for _, j := range jobs {
			j.submit(t, cl)
		}
		check(t, cl, p, jobs)
		if got, want := learnt(t, p), trained+len(jobs); got != want {
			t.Errorf("the predictor learnt %d runtimes, want %d: the %d trained and the %d completions", got, want, trained, len(jobs))
		}
		stop()
		p.stop()
	})

	t.Run("preemption", func(t *testing.T) {
		p := startPlanner(t, "prio")
		startBridge(t, cl, p)
		var jobs []*sleepJob
		for range 4 {
			jobs = append(jobs, &sleepJob{name: "long", nodes: 2, sleep: 20})
		}
		for _, j := range jobs {
			j.submit(t, cl)
		}
		// Once the cluster is full, SLO jobs that fit only where the
		// best-effort jobs run. Those sleep 20 s: time for the bridge
		// to submit the SLO jobs and the planner to preempt for them
		// on a loaded machine before they end on their own.
		deadline := time.Now().Add(waitAll)
		for {
			out, err := cl.Output("squeue", "--noheader", "--states", "running", "--format", "%i")
			if err == nil && len(strings.Fields(out)) == 4 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the best-effort jobs are not all running after %s: %q %v", waitAll, out, err)
			}
			time.Sleep(poll)
		}
		urgent := []*sleepJob{{name: "urgent", nodes: 4, sleep: 2, comment: "deadline=+30s value=10"},
			{name: "urgent", nodes: 2, sleep: 2, comment: "deadline=+30s value=10 preferred=r0"}}
		for _, j := range urgent {
			j.submit(t, cl)
		}
		if n := check(t, cl, p, append(jobs, urgent...)); n == 0 {
			t.Error("the planner preempted no job; the scenario needs it to")
		}
	})
}

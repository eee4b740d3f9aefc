package service

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// LoadConfig is a load test of a running service (planner bench
// service): jobs submitted at Rate per second for Duration, open loop,
// while a cluster side acknowledges every start and completes each job
// after its runtime.
type LoadConfig struct {
	Rate     float64       // submissions per second
	Duration time.Duration // of the submissions
	// Workers send the requests (enough that a slow answer does not hold
	// the next submission back).
	Workers int
	// Runtime is the largest runtime of a job; each job's is uniform in
	// [Runtime/10, Runtime].
	Runtime time.Duration
	Seed    uint64
}

// LoadResult is what a load test measured. Latencies are those of every
// request (submissions and events), from the time the request was due,
// so that a stalled service is not hidden by requests that waited to be
// sent.
type LoadResult struct {
	Submitted, Events, Errors int
	FirstError                string
	P50, P99, Max             time.Duration
	Elapsed                   time.Duration
	// From the service's metrics after the run.
	Cycles, Overruns, Fallbacks, TimeLimited float64
	CycleMean                                time.Duration
	CycleMax                                 string // the histogram bucket of the slowest cycle
	Decisions                                float64
}

// Load runs a load test of the service c talks to.
func Load(ctx context.Context, c *Client, cfg LoadConfig) (*LoadResult, error) {
	if !(cfg.Rate > 0) || cfg.Duration <= 0 {
		return nil, fmt.Errorf("load: rate and duration must be positive, got %v/s for %s", cfg.Rate, cfg.Duration)
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 64
	}
	if cfg.Runtime <= 0 {
		cfg.Runtime = 2 * time.Minute
	}
	info, err := c.Info(ctx)
	if err != nil {
		return nil, err
	}
	type req struct {
		due  time.Time
		send func(context.Context) error
	}
	var (
		mu   sync.Mutex
		lat  []time.Duration
		res  LoadResult
		reqs = make(chan req, 1<<16)
		wg   sync.WaitGroup
	)
	note := func(due time.Time, kind string, err error) {
		d := time.Since(due)
		mu.Lock()
		defer mu.Unlock()
		lat = append(lat, d)
		if err != nil {
			res.Errors++
			if res.FirstError == "" {
				res.FirstError = err.Error()
			}
			return
		}
		if kind == "submit" {
			res.Submitted++
		} else {
			res.Events++
		}
	}
	for range cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range reqs {
				r.send(ctx)
			}
		}()
	}
	// The cluster side: acknowledge each start at once, complete the job
	// after its runtime.
	runCtx, stopCluster := context.WithCancel(ctx)
	defer stopCluster()
	var cluster sync.WaitGroup
	cluster.Add(1)
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x6c6f6164))
	runtimes := sync.Map{}
	go func() {
		defer cluster.Done()
		var after uint64
		for runCtx.Err() == nil {
			feed, err := c.Decisions(runCtx, after, 5*time.Second)
			if err != nil {
				if runCtx.Err() == nil {
					note(time.Now(), "event", err)
				}
				return
			}
			for _, d := range feed.Decisions {
				after = d.Seq
				if d.Action != "start" {
					continue
				}
				id := d.Job
				due := time.Now()
				reqs <- req{due, func(ctx context.Context) error {
					_, err := c.Event(ctx, id, EventSpec{Type: evStarted})
					note(due, "event", err)
					return err
				}}
				rt, _ := runtimes.Load(id)
				rtd, _ := rt.(time.Duration)
				time.AfterFunc(rtd, func() {
					if runCtx.Err() != nil {
						return
					}
					due := time.Now()
					reqs <- req{due, func(ctx context.Context) error {
						_, err := c.Event(ctx, id, EventSpec{Type: evCompleted})
						note(due, "event", err)
						return err
					}}
				})
			}
		}
	}()

	t0 := time.Now()
	n := int(cfg.Rate * cfg.Duration.Seconds())
	total := 0
	for _, p := range info.Cluster.Partitions {
		total += p.Available
	}
	names := make([]string, len(info.Cluster.Partitions))
	for i, p := range info.Cluster.Partitions {
		names[i] = p.Name
	}
	for i := range n {
		due := t0.Add(time.Duration(float64(i) / cfg.Rate * float64(time.Second)))
		if d := time.Until(due); d > 0 {
			select {
			case <-time.After(d):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		id := fmt.Sprintf("load-%d-%d", cfg.Seed, i)
		nodes := min(total, 1+rng.IntN(8))
		spec := JobSpec{ID: id, User: "u" + strconv.Itoa(rng.IntN(20)), Name: "app" + strconv.Itoa(rng.IntN(50)),
			Nodes: &nodes, Class: "be"}
		if rng.IntN(2) == 0 {
			spec.Class = "slo"
			spec.Deadline = time.Now().Add(time.Duration(1+rng.IntN(4)) * time.Hour).UTC().Format(time.RFC3339)
			spec.Preferred = []string{names[rng.IntN(len(names))]}
		}
		runtimes.Store(id, time.Duration(float64(cfg.Runtime)*(0.1+0.9*rng.Float64())))
		reqs <- req{due, func(ctx context.Context) error {
			_, _, err := c.Submit(ctx, spec)
			note(due, "submit", err)
			return err
		}}
	}
	// Let the last answers and a cycle come in (at most 30 s), then stop.
	time.Sleep(min(time.Duration(info.IntervalS*float64(time.Second)), 30*time.Second))
	stopCluster()
	cluster.Wait()
	close(reqs)
	wg.Wait()
	res.Elapsed = time.Since(t0)
	slices.Sort(lat)
	if len(lat) > 0 {
		res.P50, res.P99, res.Max = lat[len(lat)/2], lat[min(len(lat)-1, len(lat)*99/100)], lat[len(lat)-1]
	}
	if err := res.readMetrics(ctx, c); err != nil {
		return &res, err
	}
	return &res, nil
}

// readMetrics reads the cycle counters of the service's /metrics.
func (r *LoadResult) readMetrics(ctx context.Context, c *Client) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.Base+"/metrics", nil)
	if err != nil {
		return err
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var sum, count float64
	var buckets []string
	var counts []float64
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		name, val, ok := strings.Cut(line, " ")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		v, _ := strconv.ParseFloat(val, 64)
		switch {
		case strings.HasPrefix(name, `planner_cycles_total{outcome="planned"}`):
			r.Cycles = v
		case name == "planner_cycle_overruns_total":
			r.Overruns = v
		case name == "planner_fallbacks_total":
			r.Fallbacks = v
		case name == "planner_solver_time_limited_total":
			r.TimeLimited = v
		case name == "planner_cycle_seconds_sum":
			sum = v
		case name == "planner_cycle_seconds_count":
			count = v
		case strings.HasPrefix(name, `planner_decisions_total{action="start"}`):
			r.Decisions = v
		case strings.HasPrefix(name, "planner_cycle_seconds_bucket{le="):
			buckets = append(buckets, strings.TrimSuffix(strings.TrimPrefix(name, `planner_cycle_seconds_bucket{le="`), `"}`))
			counts = append(counts, v)
		}
	}
	if count > 0 {
		r.CycleMean = time.Duration(sum / count * float64(time.Second))
		for i, n := range counts {
			if n == count {
				r.CycleMax = "≤ " + buckets[i] + " s"
				break
			}
		}
	}
	return sc.Err()
}

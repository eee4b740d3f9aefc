package service

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// metrics are the service's Prometheus metrics (GET /metrics), in a
// registry of its own so that two services in one process (tests) do not
// collide. Latencies are in seconds.
type metrics struct {
	reg *prometheus.Registry

	cycle, solve     prometheus.Histogram
	cycles           *prometheus.CounterVec // by outcome: planned, idle, failed, invalid
	overruns         prometheus.Counter
	fallbacks        prometheus.Counter
	timeLimited      prometheus.Counter
	stageFailures    prometheus.Counter
	decisions        *prometheus.CounterVec // by action
	refused          prometheus.Counter
	pending, running prometheus.Gauge
	starting         prometheus.Gauge
	freeNodes        prometheus.Gauge
	unacked          prometheus.Gauge
	api              *prometheus.HistogramVec // by route, code
	submitted        prometheus.Counter
	events           *prometheus.CounterVec // by type
	commit           prometheus.Histogram
	snapshotBytes    prometheus.Gauge
	learnt           prometheus.Counter
}

// latencyBuckets cover API answers (sub-millisecond) to slow disks.
var latencyBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}

// cycleBuckets cover cycles and solves from milliseconds to a minute.
var cycleBuckets = []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 7.5, 10, 15, 30, 60}

func newMetrics() *metrics {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	f := promauto.With(reg)
	return &metrics{
		reg: reg,
		cycle: f.NewHistogram(prometheus.HistogramOpts{Name: "planner_cycle_seconds",
			Help: "Wall time of a planning cycle: state, Schedule, validation and the durable write of its decision.", Buckets: cycleBuckets}),
		solve: f.NewHistogram(prometheus.HistogramOpts{Name: "planner_solve_seconds",
			Help: "Wall time of the MILP solve of the cycles that ran one.", Buckets: cycleBuckets}),
		cycles: f.NewCounterVec(prometheus.CounterOpts{Name: "planner_cycles_total",
			Help: "Cycles by outcome: planned (Schedule ran), idle (nothing pending), failed (Schedule returned an error), invalid (the decision broke the contract)."}, []string{"outcome"}),
		overruns: f.NewCounter(prometheus.CounterOpts{Name: "planner_cycle_overruns_total",
			Help: "Cycles that took longer than the interval (the next boundary was missed)."}),
		fallbacks: f.NewCounter(prometheus.CounterOpts{Name: "planner_fallbacks_total",
			Help: "Cycles decided by the fallback heuristic."}),
		timeLimited: f.NewCounter(prometheus.CounterOpts{Name: "planner_solver_time_limited_total",
			Help: "Cycles whose solve hit its time limit."}),
		stageFailures: f.NewCounter(prometheus.CounterOpts{Name: "planner_stage_failures_total",
			Help: "Cycles in which a stage of the scheduler failed."}),
		decisions: f.NewCounterVec(prometheus.CounterOpts{Name: "planner_decisions_total",
			Help: "Decisions published to the feed, by action."}, []string{"action"}),
		refused: f.NewCounter(prometheus.CounterOpts{Name: "planner_refused_total",
			Help: "Starts and preemptions of valid decisions that no longer held when they were enacted."}),
		pending: f.NewGauge(prometheus.GaugeOpts{Name: "planner_pending_jobs", Help: "Jobs waiting for a start."}),
		starting: f.NewGauge(prometheus.GaugeOpts{Name: "planner_starting_jobs",
			Help: "Jobs whose start was decided and not yet acknowledged by a started event (they hold their nodes)."}),
		running: f.NewGauge(prometheus.GaugeOpts{Name: "planner_running_jobs", Help: "Jobs whose start was acknowledged, holding nodes."}),
		freeNodes: f.NewGauge(prometheus.GaugeOpts{Name: "planner_free_nodes",
			Help: "Idle nodes the planner may use, after the last cycle."}),
		unacked: f.NewGauge(prometheus.GaugeOpts{Name: "planner_unacknowledged_starts",
			Help: "Decided starts no event has acknowledged yet."}),
		api: f.NewHistogramVec(prometheus.HistogramOpts{Name: "planner_api_request_seconds",
			Help: "Wall time of API requests, by route and status code (long polls included).", Buckets: latencyBuckets}, []string{"route", "code"}),
		submitted: f.NewCounter(prometheus.CounterOpts{Name: "planner_jobs_submitted_total", Help: "Jobs accepted."}),
		events: f.NewCounterVec(prometheus.CounterOpts{Name: "planner_job_events_total",
			Help: "Job events accepted, by type."}, []string{"type"}),
		commit: f.NewHistogram(prometheus.HistogramOpts{Name: "planner_store_commit_seconds",
			Help: "Wall time of a durable write of the log (one per batch of requests).", Buckets: latencyBuckets}),
		snapshotBytes: f.NewGauge(prometheus.GaugeOpts{Name: "planner_predictor_snapshot_bytes",
			Help: "Size of the last predictor snapshot written."}),
		learnt: f.NewCounter(prometheus.CounterOpts{Name: "planner_runtimes_learnt_total",
			Help: "Runtimes the predictor learnt (completions and history)."}),
	}
}

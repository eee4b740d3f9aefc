package experiments

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"

	"github.com/plannerhq/planner/workloads"
)

// Metrics are the measurements of one run, with the names and definitions
// of DESIGN.md ("Metrics"). A metric that is undefined for the run (no SLO
// jobs, no completed best-effort job, no solve) is NaN, written as null in
// JSON and "-" in tables.
type Metrics struct {
	// SLOMissRate = SLO jobs that did not complete by their deadline
	// (never started, or late) / SLO jobs.
	SLOMissRate float64
	// Goodput = Σ nodes × (end − start) / 3600 over the final run of SLO
	// jobs that met their deadline (SLOGoodput) and of completed
	// best-effort jobs (BEGoodput), in machine-hours. A run under way at
	// the end of the simulated span (Sim.finish) counts within the span,
	// as it does for Utilization, so that goodput never exceeds the busy
	// time.
	Goodput, SLOGoodput, BEGoodput float64
	// BELatencyMean = mean(end − submit) over completed best-effort jobs (s).
	BELatencyMean float64
	// JCT* = completion − submit over all completed jobs (s); quantiles are
	// gonum's stat.Empirical (the smallest x with empirical CDF ≥ p).
	JCTMean, JCTP50, JCTP99 float64
	// Utilization = busy node-seconds (every run, including preempted
	// runs, and runs under way at the end within the span) / (nodes × the
	// simulated span SimResult.End).
	Utilization float64
	// SpanS is that span (seconds): the last completion when every job
	// completed by the drain limit (at least the window), else the limit.
	SpanS float64
	// CycleMsP50/P99: wall time of the Schedule call as the simulator
	// measures it; SolverMsP99: CycleStats.Solve over the cycles that ran
	// a solve, answered or not.
	// Wall-clock values: reported only outside deterministic mode.
	CycleMsP50, CycleMsP99, SolverMsP99 float64
	// SolverTimeLimited: cycles whose solve hit its limit; Fallbacks: cycles
	// decided by the fallback heuristic; StageFailures: cycles in which a
	// stage of the scheduler failed (an error, or a recovered panic), a
	// cause of fallbacks (from CycleStats).
	SolverTimeLimited, Fallbacks, StageFailures int
	// Cycles that called the scheduler; Preemptions in total.
	Cycles, Preemptions int
	// Job counts.
	SLOJobs, BEJobs, Completed int
}

// Metric is one named value of a report.
type Metric struct {
	Name  string
	Value float64
	// Timing marks wall-clock metrics (left out of deterministic reports).
	Timing bool
}

// List is the metrics in report order, with DESIGN.md's names.
func (m Metrics) List() []Metric {
	refs := m.refs()
	out := make([]Metric, len(refs))
	for i, r := range refs {
		v := math.NaN()
		switch {
		case r.f != nil:
			v = *r.f
		case r.i != nil:
			v = float64(*r.i)
		}
		out[i] = Metric{Name: r.name, Value: v, Timing: r.timing}
	}
	return out
}

// metricRef names one field of Metrics: f or i points at it.
type metricRef struct {
	name   string
	f      *float64
	i      *int
	timing bool
}

// refs is the one list of metric names, in report order, with the fields
// they name.
func (m *Metrics) refs() []metricRef {
	return []metricRef{
		{name: "slo_miss_rate", f: &m.SLOMissRate},
		{name: "goodput_machine_hours", f: &m.Goodput},
		{name: "slo_goodput_machine_hours", f: &m.SLOGoodput},
		{name: "be_goodput_machine_hours", f: &m.BEGoodput},
		{name: "be_latency_mean_s", f: &m.BELatencyMean},
		{name: "jct_mean_s", f: &m.JCTMean},
		{name: "jct_p50_s", f: &m.JCTP50},
		{name: "jct_p99_s", f: &m.JCTP99},
		{name: "utilization", f: &m.Utilization},
		{name: "span_s", f: &m.SpanS},
		{name: "cycle_ms_p50", f: &m.CycleMsP50, timing: true},
		{name: "cycle_ms_p99", f: &m.CycleMsP99, timing: true},
		{name: "solver_ms_p99", f: &m.SolverMsP99, timing: true},
		{name: "solver_time_limited", i: &m.SolverTimeLimited},
		{name: "fallbacks", i: &m.Fallbacks},
		{name: "stage_failures", i: &m.StageFailures},
		{name: "cycles", i: &m.Cycles},
		{name: "preemptions", i: &m.Preemptions},
		{name: "slo_jobs", i: &m.SLOJobs},
		{name: "be_jobs", i: &m.BEJobs},
		{name: "completed_jobs", i: &m.Completed},
	}
}

// ParseMetrics reads a "metrics" object as metricsJSON writes it. A float
// metric that is missing or null is NaN; unknown names are an error.
func ParseMetrics(raw json.RawMessage) (Metrics, error) {
	var in map[string]*float64
	if err := json.Unmarshal(raw, &in); err != nil {
		return Metrics{}, fmt.Errorf("metrics: %w", err)
	}
	var m Metrics
	known := map[string]bool{}
	for _, r := range m.refs() {
		known[r.name] = true
		v, ok := in[r.name]
		switch {
		case r.f != nil && (!ok || v == nil):
			*r.f = math.NaN()
		case r.f != nil:
			*r.f = *v
		case ok && v != nil:
			if *v != math.Trunc(*v) {
				return Metrics{}, fmt.Errorf("metrics: %s must be a whole number, got %v", r.name, *v)
			}
			*r.i = int(*v)
		}
	}
	names := make([]string, 0, len(in))
	for n := range in {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if !known[n] {
			return Metrics{}, fmt.Errorf("metrics: unknown metric %q", n)
		}
	}
	return m, nil
}

// metricsJSON writes the metrics as one JSON object in List order, without
// the timing metrics when deterministic.
func metricsJSON(m Metrics, deterministic bool) json.RawMessage {
	return metricListJSON(m.List(), deterministic)
}

// metricListJSON writes a metric list as one JSON object in its order,
// without the timing metrics when deterministic.
func metricListJSON(ms []Metric, deterministic bool) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	for _, v := range ms {
		if v.Timing && deterministic {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		name, _ := json.Marshal(v.Name)
		b.Write(name)
		b.WriteByte(':')
		b.Write(jsonNumber(v.Value))
	}
	b.WriteByte('}')
	return b.Bytes()
}

// jsonNumber is v as JSON, null for NaN or ±Inf.
func jsonNumber(v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null")
	}
	b, _ := json.Marshal(v)
	return b
}

// ComputeMetrics computes the metrics of a run from its job records (in
// the order given; SimResult.Jobs is by id) and its cycles. span is the
// simulated time the run covers and nodes the cluster size (utilisation's
// denominator); busy is the busy node-seconds of every run.
func ComputeMetrics(jobs []JobRecord, cycles []CycleRecord, span float64, nodes int, busy float64) Metrics {
	m := Metrics{}
	var sloMet int
	var beLat, jct []float64
	for i := range jobs {
		j := &jobs[i]
		m.Preemptions += j.Preemptions
		switch j.Class {
		case workloads.SLO:
			m.SLOJobs++
		case workloads.BestEffort:
			m.BEJobs++
		}
		if !j.Completed {
			continue
		}
		m.Completed++
		work := float64(j.Nodes) * (min(j.End, span) - j.Start) / 3600
		jct = append(jct, j.End-j.Submit)
		switch {
		case j.Class == workloads.SLO && j.MetDeadline:
			sloMet++
			m.SLOGoodput += work
		case j.Class == workloads.BestEffort:
			m.BEGoodput += work
			beLat = append(beLat, j.End-j.Submit)
		}
	}
	m.Goodput = m.SLOGoodput + m.BEGoodput
	m.SLOMissRate = math.NaN()
	if m.SLOJobs > 0 {
		m.SLOMissRate = float64(m.SLOJobs-sloMet) / float64(m.SLOJobs)
	}
	m.BELatencyMean = mean(beLat)
	m.JCTMean = mean(jct)
	m.JCTP50, m.JCTP99 = quantile(0.5, jct), quantile(0.99, jct)
	m.Utilization = math.NaN()
	m.SpanS = span
	if span > 0 && nodes > 0 {
		m.Utilization = busy / (span * float64(nodes))
	}
	var cyc, solve []float64
	for _, c := range cycles {
		m.Cycles++
		cyc = append(cyc, float64(c.Wall)/1e6)
		if c.Stats.Solve > 0 { // every solve that ran, answered or not
			solve = append(solve, float64(c.Stats.Solve)/1e6)
		}
		if c.Stats.TimeLimited {
			m.SolverTimeLimited++
		}
		if c.Stats.Fallback {
			m.Fallbacks++
		}
		if c.Stats.FailedStage != "" {
			m.StageFailures++
		}
	}
	m.CycleMsP50, m.CycleMsP99 = quantile(0.5, cyc), quantile(0.99, cyc)
	m.SolverMsP99 = quantile(0.99, solve)
	return m
}

// Metrics of a simulation result.
func (r *SimResult) Metrics() Metrics {
	return ComputeMetrics(r.Jobs, r.Cycles, r.End, r.Nodes, r.BusyNodeSeconds)
}

func mean(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	return stat.Mean(x, nil)
}

// quantile is stat.Quantile(p, stat.Empirical) of x (x is not modified);
// NaN for no data.
func quantile(p float64, x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	s := slices.Clone(x)
	slices.Sort(s)
	return stat.Quantile(p, stat.Empirical, s, nil)
}

package experiments

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"

	"github.com/plannerhq/planner/workloads"
)

// Metrics are the measurements of one run, with the names and definitions
// of DESIGN.md ("Metrics") and docs/user-guide.md ("Metrics"). A metric that is
// undefined for the run (no SLO jobs, no completed best-effort job, no
// solve) is NaN, written as null in JSON and "-" in tables.
type Metrics struct {
	// SLOMissRate = SLO jobs that did not complete by their deadline
	// (never started, preempted and never restarted, or late) / SLO jobs.
	SLOMissRate float64
	// Goodput = Σ nodes × (min(end, SpanS) − start) / 3600 over the final
	// run of SLO jobs that met their deadline (SLOGoodput) and of completed
	// best-effort jobs (BEGoodput), in machine-hours. A run under way at
	// the end of the simulated span (Sim.finish) counts up to the span, as
	// it does for Utilization, so that goodput never exceeds the busy
	// time. A task-level job counts per task: Σ task nodes × (min(end,
	// SpanS) − start) over its completed tasks (JobRecord.TaskWork), for a
	// best-effort job whether or not every task completed, for an SLO job
	// when the job met its deadline.
	Goodput, SLOGoodput, BEGoodput float64
	// BELatencyMean = mean(end − submit) over completed best-effort jobs (s).
	BELatencyMean float64
	// JCT* = completion − submit over all completed jobs (s); quantiles are
	// gonum's stat.Empirical (the smallest x with empirical CDF ≥ p). A
	// task-level job completes with its last task.
	JCTMean, JCTP50, JCTP99 float64
	// Wait* = start of the final run − submit (s; JobRecord.Wait): mean
	// and quantiles over the jobs whose final run started. A job that
	// waited earlier and was preempted waits again: the wait runs to the
	// start of its last run. A job whose final run never started (never
	// started, or preempted and never restarted) contributes nothing to
	// the wait statistics; it is counted by slo_miss_rate (SLO) and adds
	// no goodput (best-effort). In this simulator a final run that started
	// always completes (runs under way at the end go on to their ends), so
	// the wait statistics are over the completed jobs.
	WaitMean, WaitP50, WaitP99 float64
	// BSLD* is the bounded slowdown of each completed job (dimensionless;
	// JobRecord.BoundedSlowdown), Feitelson's definition:
	//
	//	bsld = max(1, (wait + run) / max(run, τ)),  τ = BSLDTau = 10 s,
	//
	// with run = end − start of the final, completed run (the runtime it
	// actually had, slowdown off its preferred nodes included). Mean and
	// p99 over all completed jobs, and per class (SLO jobs that completed,
	// late or not; completed best-effort jobs). Jobs that never completed
	// contribute nothing.
	BSLDMean, BSLDP99       float64
	SLOBSLDMean, SLOBSLDP99 float64
	BEBSLDMean, BEBSLDP99   float64
	// FairnessJain is Jain's index of the per-user mean bounded slowdown,
	//
	//	J = (Σ_u x_u)² / (n · Σ_u x_u²),  x_u = mean bsld of user u's completed jobs,
	//
	// over the n = FairnessUsers users with at least one completed job
	// (JobRecord.User; jobs without a user form one user, ""). J lies in
	// [1/n, 1]: 1 when every user sees the same mean slowdown, 1/n when one
	// user's slowdown dominates. A workload without users has one user,
	// and J = 1. NaN when no job completed.
	FairnessJain  float64
	FairnessUsers int
	// Utilization = busy node-seconds (every run, including preempted
	// runs, and runs under way at the end within the span) / (nodes × the
	// simulated span SimResult.End).
	Utilization float64
	// SpanS is that span (seconds): the last completion when every job
	// completed by the drain limit (at least the window), else the limit.
	SpanS float64
	// CycleMs*: wall time of the Schedule call as the simulator measures
	// it, over every cycle; SolverMs*: CycleStats.Solve over the cycles
	// that ran a solve, answered or not (ms). p50, p90, p99 and the
	// largest, the distribution 3Sigma's Fig. 11 draws (WriteCycleCDF).
	// Wall-clock values: reported only outside deterministic mode.
	CycleMsP50, CycleMsP90, CycleMsP99, CycleMsMax     float64
	SolverMsP50, SolverMsP90, SolverMsP99, SolverMsMax float64
	// SolverTimeLimited: cycles whose solve hit its limit; Fallbacks: cycles
	// decided by the fallback heuristic; StageFailures: cycles in which a
	// stage of the scheduler failed (an error, or a recovered panic), a
	// cause of fallbacks (from CycleStats).
	SolverTimeLimited, Fallbacks, StageFailures int
	// Cycles that called the scheduler; Preemptions in total.
	Cycles, Preemptions int
	// Job counts.
	SLOJobs, BEJobs, Completed int
	// Miss* count the SLO jobs that missed their deadline by cause
	// (MissCause: one cause per job, in its priority order); they add up
	// to SLOMissRate × SLOJobs.
	MissNeverStarted, MissPreempted, MissStartedLate, MissSlowed, MissOverran int
	// Idle* are the node-hours left idle while waiting work fitted
	// (IdleBreakdown): IdleFit in all, = IdleHeld (kept by the plan for
	// its next start) + IdleFragmented (no waiting gang fitted the rest
	// on its preferred partitions) + IdleOther. Zero without the runs
	// (ComputeMetrics alone); SimResult.Metrics fills them.
	IdleFit, IdleHeld, IdleFragmented, IdleOther float64
	// Task are the metrics of a run of task-level jobs (TaskMetrics),
	// listed after the others; nil for a workload of gang jobs, whose
	// reports do not name them.
	Task *TaskMetrics
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
	refs := []metricRef{
		{name: "slo_miss_rate", f: &m.SLOMissRate},
		{name: "goodput_machine_hours", f: &m.Goodput},
		{name: "slo_goodput_machine_hours", f: &m.SLOGoodput},
		{name: "be_goodput_machine_hours", f: &m.BEGoodput},
		{name: "be_latency_mean_s", f: &m.BELatencyMean},
		{name: "jct_mean_s", f: &m.JCTMean},
		{name: "jct_p50_s", f: &m.JCTP50},
		{name: "jct_p99_s", f: &m.JCTP99},
		{name: "wait_mean_s", f: &m.WaitMean},
		{name: "wait_p50_s", f: &m.WaitP50},
		{name: "wait_p99_s", f: &m.WaitP99},
		{name: "bsld_mean", f: &m.BSLDMean},
		{name: "bsld_p99", f: &m.BSLDP99},
		{name: "slo_bsld_mean", f: &m.SLOBSLDMean},
		{name: "slo_bsld_p99", f: &m.SLOBSLDP99},
		{name: "be_bsld_mean", f: &m.BEBSLDMean},
		{name: "be_bsld_p99", f: &m.BEBSLDP99},
		{name: "fairness_jain", f: &m.FairnessJain},
		{name: "fairness_users", i: &m.FairnessUsers},
		{name: "utilization", f: &m.Utilization},
		{name: "span_s", f: &m.SpanS},
		{name: "cycle_ms_p50", f: &m.CycleMsP50, timing: true},
		{name: "cycle_ms_p90", f: &m.CycleMsP90, timing: true},
		{name: "cycle_ms_p99", f: &m.CycleMsP99, timing: true},
		{name: "cycle_ms_max", f: &m.CycleMsMax, timing: true},
		{name: "solver_ms_p50", f: &m.SolverMsP50, timing: true},
		{name: "solver_ms_p90", f: &m.SolverMsP90, timing: true},
		{name: "solver_ms_p99", f: &m.SolverMsP99, timing: true},
		{name: "solver_ms_max", f: &m.SolverMsMax, timing: true},
		{name: "solver_time_limited", i: &m.SolverTimeLimited},
		{name: "fallbacks", i: &m.Fallbacks},
		{name: "stage_failures", i: &m.StageFailures},
		{name: "cycles", i: &m.Cycles},
		{name: "preemptions", i: &m.Preemptions},
		{name: "slo_jobs", i: &m.SLOJobs},
		{name: "be_jobs", i: &m.BEJobs},
		{name: "completed_jobs", i: &m.Completed},
		{name: "slo_miss_never_started", i: &m.MissNeverStarted},
		{name: "slo_miss_preempted", i: &m.MissPreempted},
		{name: "slo_miss_started_late", i: &m.MissStartedLate},
		{name: "slo_miss_slowed", i: &m.MissSlowed},
		{name: "slo_miss_overran", i: &m.MissOverran},
		{name: "idle_fit_node_hours", f: &m.IdleFit},
		{name: "idle_held_node_hours", f: &m.IdleHeld},
		{name: "idle_fragmented_node_hours", f: &m.IdleFragmented},
		{name: "idle_other_node_hours", f: &m.IdleOther},
	}
	if m.Task != nil {
		refs = append(refs, m.Task.refs()...)
	}
	return refs
}

// listFor is List, with the task metrics as undefined (NaN) when task is
// set and m has none: the columns of a report some of whose runs have them.
func (m Metrics) listFor(task bool) []Metric {
	if task && m.Task == nil {
		m.Task = &TaskMetrics{}
		l := m.List()
		for k := len(l) - len(m.Task.refs()); k < len(l); k++ {
			l[k].Value = math.NaN()
		}
		return l
	}
	return m.List()
}

// anyTask reports whether one of ms has task metrics.
func anyTask(ms []Metrics) bool {
	for _, m := range ms {
		if m.Task != nil {
			return true
		}
	}
	return false
}

// ParseMetrics reads a "metrics" object as metricsJSON writes it. A float
// metric that is missing or null is NaN; unknown names are an error. The
// task metrics are read when the object has nwt_mean.
func ParseMetrics(raw json.RawMessage) (Metrics, error) {
	var in map[string]*float64
	if err := json.Unmarshal(raw, &in); err != nil {
		return Metrics{}, fmt.Errorf("metrics: %w", err)
	}
	var m Metrics
	if _, ok := in["nwt_mean"]; ok {
		m.Task = &TaskMetrics{}
	}
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
	var beLat, jct, wait, bsld, sloBSLD, beBSLD []float64
	userBSLD := map[string][]float64{}
	for i := range jobs {
		j := &jobs[i]
		m.Preemptions += j.Preemptions
		switch j.Miss {
		case MissNeverStarted:
			m.MissNeverStarted++
		case MissPreempted:
			m.MissPreempted++
		case MissStartedLate:
			m.MissStartedLate++
		case MissSlowed:
			m.MissSlowed++
		case MissOverran:
			m.MissOverran++
		}
		switch j.Class {
		case workloads.SLO:
			m.SLOJobs++
		case workloads.BestEffort:
			m.BEJobs++
		}
		if w, ok := j.Wait(); ok {
			wait = append(wait, w)
		}
		if j.Tasks > 0 && j.Class == workloads.BestEffort && !j.Completed {
			m.BEGoodput += j.TaskWork / 3600 // goodput per task (Metrics.Goodput)
		}
		if !j.Completed {
			continue
		}
		m.Completed++
		work := float64(j.Nodes) * (min(j.End, span) - j.Start) / 3600
		if j.Tasks > 0 {
			work = j.TaskWork / 3600
		}
		jct = append(jct, j.End-j.Submit)
		b, _ := j.BoundedSlowdown()
		bsld = append(bsld, b)
		userBSLD[j.User] = append(userBSLD[j.User], b)
		switch j.Class {
		case workloads.SLO:
			sloBSLD = append(sloBSLD, b)
		case workloads.BestEffort:
			beBSLD = append(beBSLD, b)
		}
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
	m.WaitMean, m.WaitP50, m.WaitP99 = mean(wait), quantile(0.5, wait), quantile(0.99, wait)
	m.BSLDMean, m.BSLDP99 = mean(bsld), quantile(0.99, bsld)
	m.SLOBSLDMean, m.SLOBSLDP99 = mean(sloBSLD), quantile(0.99, sloBSLD)
	m.BEBSLDMean, m.BEBSLDP99 = mean(beBSLD), quantile(0.99, beBSLD)
	m.FairnessJain, m.FairnessUsers = userFairness(userBSLD)
	m.Utilization = math.NaN()
	m.SpanS = span
	if span > 0 && nodes > 0 {
		m.Utilization = busy / (span * float64(nodes))
	}
	cyc, solve := CycleTimes(cycles)
	for _, c := range cycles {
		m.Cycles++
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
	m.CycleMsP50, m.CycleMsP90, m.CycleMsP99, m.CycleMsMax = timeQuantiles(cyc)
	m.SolverMsP50, m.SolverMsP90, m.SolverMsP99, m.SolverMsMax = timeQuantiles(solve)
	return m
}

// CycleTimes are the wall times (ms) of every cycle's Schedule call and
// of every solve that ran, answered or not (CycleStats.Solve > 0), in
// cycle order.
func CycleTimes(cycles []CycleRecord) (cycle, solve []float64) {
	for _, c := range cycles {
		cycle = append(cycle, float64(c.Wall)/1e6)
		if c.Stats.Solve > 0 {
			solve = append(solve, float64(c.Stats.Solve)/1e6)
		}
	}
	return cycle, solve
}

// timeQuantiles are the p50, p90, p99 (quantile) and the largest of x;
// NaN for no data.
func timeQuantiles(x []float64) (p50, p90, p99, most float64) {
	if len(x) == 0 {
		return math.NaN(), math.NaN(), math.NaN(), math.NaN()
	}
	return quantile(0.5, x), quantile(0.9, x), quantile(0.99, x), slices.Max(x)
}

// Metrics of a simulation result.
func (r *SimResult) Metrics() Metrics {
	m := ComputeMetrics(r.Jobs, r.Cycles, r.End, r.Nodes, r.BusyNodeSeconds)
	idle := IdleBreakdown(r)
	m.IdleFit, m.IdleHeld = idle.Fit/3600, idle.Held/3600
	m.IdleFragmented, m.IdleOther = idle.Fragmented/3600, idle.Other/3600
	return m
}

// BSLDTau is the bounded slowdown's runtime floor τ (seconds): a job
// shorter than τ counts as running τ, so that a job of a second that
// waited a minute is not a slowdown of 60. Feitelson's customary 10 s.
const BSLDTau = 10.0

// Wait is the job's wait (seconds): the start of its final run − its
// submit time (the run that completed, or the last run to start). ok is
// false when the final run never started: the job never started, or it
// was preempted and not restarted.
func (j *JobRecord) Wait() (wait float64, ok bool) {
	if !j.Started && !j.Completed {
		return 0, false
	}
	return j.Start - j.Submit, true
}

// BoundedSlowdown is the job's bounded slowdown (dimensionless, ≥ 1):
//
//	max(1, (wait + run) / max(run, BSLDTau)),
//
// with wait = Start − Submit and run = End − Start of the final, completed
// run. ok is false when the job did not complete.
func (j *JobRecord) BoundedSlowdown() (bsld float64, ok bool) {
	if !j.Completed {
		return 0, false
	}
	wait, run := j.Start-j.Submit, j.End-j.Start
	return max(1, (wait+run)/max(run, BSLDTau)), true
}

// JainIndex is Jain's fairness index of x,
//
//	J = (Σ x)² / (n · Σ x²),
//
// in [1/n, 1] for x ≥ 0: 1 when all x are equal, 1/n when one is positive
// and the others zero. NaN for no x or when Σ x² = 0.
func JainIndex(x []float64) float64 {
	sq := floats.Dot(x, x)
	if len(x) == 0 || sq == 0 {
		return math.NaN()
	}
	s := floats.Sum(x)
	return s * s / (float64(len(x)) * sq)
}

// userFairness is JainIndex of the per-user mean bounded slowdowns (users
// in name order, so that the sums, and the result, do not depend on map
// order) and the number of users.
func userFairness(byUser map[string][]float64) (float64, int) {
	users := make([]string, 0, len(byUser))
	for u := range byUser {
		users = append(users, u)
	}
	slices.Sort(users)
	x := make([]float64, len(users))
	for i, u := range users {
		x[i] = stat.Mean(byUser[u], nil)
	}
	return JainIndex(x), len(users)
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

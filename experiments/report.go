package experiments

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/plannerhq/planner/workloads"
)

// Report is the outcome of a comparison as DESIGN.md's CLI contract prints
// it: {"config": {...}, "runs": [{"scheduler", "workload", "seed",
// "params", "metrics"}]}.
type Report struct {
	// Config is marshalled as the "config" object (the caller's settings,
	// in the caller's field order).
	Config any
	Runs   []RunResult
	// Deterministic leaves the wall-clock metrics (cycle_ms_*,
	// solver_ms_*) out of JSON, CSV and the table, so that the same
	// settings give byte-identical output whenever no solve hit its limit.
	Deterministic bool
	// Provenance, when set, is written into results.json (WriteDir), not
	// into WriteJSON's output: the standard output of the same settings
	// stays byte-identical.
	Provenance *Provenance
	// SpeedupReference, when it names a run's scheduler, adds the JCT
	// speedups of that scheduler over every other run (Speedups) to the
	// JSON ("speedup_reference", "speedups") and to the table.
	SpeedupReference string
}

type runJSON struct {
	Scheduler string `json:"scheduler"`
	Workload  string `json:"workload"`
	// Meta is the workload file's meta object, absent when it has none.
	Meta    json.RawMessage `json:"workload_meta,omitempty"`
	Seed    uint64          `json:"seed"`
	Params  Params          `json:"params"`
	Metrics json.RawMessage `json:"metrics"`
}

// WriteJSON writes the report as one indented JSON object and a newline.
// Keys are in a fixed order: struct fields and Metrics.List.
func (r *Report) WriteJSON(w io.Writer) error { return r.writeJSON(w, nil) }

// writeResultsJSON is results.json: WriteJSON's object with the provenance.
func (r *Report) writeResultsJSON(w io.Writer) error { return r.writeJSON(w, r.Provenance) }

func (r *Report) writeJSON(w io.Writer, prov *Provenance) error {
	out := struct {
		Provenance *Provenance `json:"provenance,omitempty"`
		Config     any         `json:"config"`
		Runs       []runJSON   `json:"runs"`
		Reference  string      `json:"speedup_reference,omitempty"`
		Speedups   []Speedup   `json:"speedups,omitempty"`
	}{Provenance: prov, Config: r.Config, Runs: make([]runJSON, len(r.Runs)), Speedups: Speedups(r.Runs, r.SpeedupReference)}
	if out.Speedups != nil {
		out.Reference = r.SpeedupReference
	}
	for i, run := range r.Runs {
		out.Runs[i] = runJSON{Scheduler: run.Scheduler, Workload: run.Workload, Meta: run.WorkloadMeta, Seed: run.Seed,
			Params: run.Params, Metrics: metricsJSON(run.Metrics, r.Deterministic)}
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}

// WriteTable writes one row per run: the scheduler, when it decided
// ("decisions": events or cycle, Params.Decisions, marked * and explained
// under the table when derived from the workload), the headline metrics of
// the paper's Fig. 5, then mean wait, mean bounded slowdown ("BSLD"), Jain's
// fairness index ("Jain"), utilisation, the missed SLO jobs by cause
// (never started / preempted / started late / slowed / overran), the
// idle node-hours while waiting work fitted by cause (fragmented / held by
// the plan / other), preemptions and the solver's health (timing included
// unless deterministic). The CSV and JSON have every metric.
func (r *Report) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	cols := []struct {
		head string
		get  func(m Metrics) string
	}{
		{"SLO miss %", func(m Metrics) string { return fmtF(100*m.SLOMissRate, 1) }},
		{"goodput M-h", func(m Metrics) string { return fmtF(m.Goodput, 1) }},
		{"SLO M-h", func(m Metrics) string { return fmtF(m.SLOGoodput, 1) }},
		{"BE M-h", func(m Metrics) string { return fmtF(m.BEGoodput, 1) }},
		{"BE latency s", func(m Metrics) string { return fmtF(m.BELatencyMean, 0) }},
		{"JCT mean s", func(m Metrics) string { return fmtF(m.JCTMean, 0) }},
		{"JCT p99 s", func(m Metrics) string { return fmtF(m.JCTP99, 0) }},
		{"wait s", func(m Metrics) string { return fmtF(m.WaitMean, 0) }},
		{"BSLD", func(m Metrics) string { return fmtF(m.BSLDMean, 1) }},
		{"Jain", func(m Metrics) string { return fmtF(m.FairnessJain, 2) }},
		{"util %", func(m Metrics) string { return fmtF(100*m.Utilization, 1) }},
		{"misses n/p/l/s/o", func(m Metrics) string {
			return fmt.Sprintf("%d/%d/%d/%d/%d", m.MissNeverStarted, m.MissPreempted, m.MissStartedLate, m.MissSlowed, m.MissOverran)
		}},
		{"idle M-h f/h/o", func(m Metrics) string {
			return fmtF(m.IdleFragmented, 0) + "/" + fmtF(m.IdleHeld, 0) + "/" + fmtF(m.IdleOther, 0)
		}},
		{"preempt", func(m Metrics) string { return strconv.Itoa(m.Preemptions) }},
		{"limited", func(m Metrics) string { return strconv.Itoa(m.SolverTimeLimited) }},
		{"fallback", func(m Metrics) string { return strconv.Itoa(m.Fallbacks) }},
	}
	if !r.Deterministic {
		cols = append(cols,
			struct {
				head string
				get  func(m Metrics) string
			}{"cycle ms p50/p90/p99/max", func(m Metrics) string {
				return fmtF(m.CycleMsP50, 0) + "/" + fmtF(m.CycleMsP90, 0) + "/" + fmtF(m.CycleMsP99, 0) + "/" + fmtF(m.CycleMsMax, 0)
			}},
			struct {
				head string
				get  func(m Metrics) string
			}{"solve ms p50/p90/p99/max", func(m Metrics) string {
				return fmtF(m.SolverMsP50, 0) + "/" + fmtF(m.SolverMsP90, 0) + "/" + fmtF(m.SolverMsP99, 0) + "/" + fmtF(m.SolverMsMax, 0)
			}})
	}
	head := []string{"scheduler", "decisions"}
	for _, c := range cols {
		head = append(head, c.head)
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, run := range r.Runs {
		dec := run.Params.Decisions
		if run.Params.DecisionsReason != "" {
			dec += "*"
		}
		row := []string{run.Scheduler, dec}
		for _, c := range cols {
			row = append(row, c.get(run.Metrics))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := writeTimingReasons(w, r.Runs); err != nil {
		return err
	}
	for _, run := range r.Runs {
		if run.Metrics.Task != nil {
			return r.writeTaskTable(w)
		}
	}
	return nil
}

// writeTimingReasons writes, under the table, a line per distinct reason
// of the runs whose timing was derived from the workload (marked * in the
// decisions column), in run order.
func writeTimingReasons(w io.Writer, runs []RunResult) error {
	var seen []string
	for _, run := range runs {
		why := run.Params.DecisionsReason
		if why == "" || slices.Contains(seen, why) {
			continue
		}
		seen = append(seen, why)
		if _, err := fmt.Fprintf(w, "* derived from the workload: %s\n", why); err != nil {
			return err
		}
	}
	return nil
}

func fmtF(v float64, prec int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', prec, 64)
}

// WriteCSV writes one row per run: scheduler, workload, seed, then every
// metric of Metrics.List (timing ones only when not deterministic). An
// undefined metric is an empty field.
func (r *Report) WriteCSV(w io.Writer) error {
	return writeRunsCSV(w, r.Runs, r.Deterministic, nil, nil)
}

// runColumns are the columns naming a run in the CSV outputs, before its
// metrics.
var runColumns = []string{"scheduler", "workload", "seed"}

// writeRunsCSV writes one row per run: the lead columns (head, and their
// values per run from lead), scheduler, workload, seed, then every metric
// (without the timing ones when deterministic, as they would differ
// between identical runs).
func writeRunsCSV(w io.Writer, runs []RunResult, deterministic bool, head []string, lead func(*RunResult) []string) error {
	cw := csv.NewWriter(w)
	head = append(slices.Clone(head), runColumns...)
	ms := make([]Metrics, len(runs))
	for i := range runs {
		ms[i] = runs[i].Metrics
	}
	task := anyTask(ms)
	for _, m := range (Metrics{}).listFor(task) {
		if !(m.Timing && deterministic) {
			head = append(head, m.Name)
		}
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	for i := range runs {
		run := &runs[i]
		var row []string
		if lead != nil {
			row = lead(run)
		}
		row = append(row, run.Scheduler, run.Workload, strconv.FormatUint(run.Seed, 10))
		for _, m := range run.Metrics.listFor(task) {
			if !(m.Timing && deterministic) {
				row = append(row, csvFloat(m.Value))
			}
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvFloat writes v in the shortest form that reads back exactly; empty for
// NaN.
func csvFloat(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// JobsCSVHeader is the header of jobs.csv: the columns of DESIGN.md's CLI
// contract, in its order, then user, wait_s and bounded_slowdown, from
// which the wait, slowdown and fairness metrics are recomputed; miss, the
// MissCause of an SLO job that missed its deadline; then tasks and
// task_work_node_s, a task-level job's tasks and the node-seconds of its
// completed tasks within the span (its goodput; both empty for a gang
// job); then source_id, the job's id in its trace, and meta, its
// extension object as compact JSON (both empty when it has none).
var JobsCSVHeader = []string{"scheduler", "job_id", "class", "submit_s", "deadline_s", "nodes", "runtime_s",
	"partition", "start_s", "end_s", "completed", "met_deadline", "preemptions",
	"user", "wait_s", "bounded_slowdown", "miss", "tasks", "task_work_node_s", "source_id", "meta"}

// WriteJobsCSV writes one row per (run, job): runs in report order, jobs by
// id. Times are written in the shortest form that reads back exactly;
// partition is the partitions of the final run joined by ';'. user is the
// job's user (empty when unknown); wait_s is JobRecord.Wait (empty when the
// final run never started) and bounded_slowdown JobRecord.BoundedSlowdown
// (empty when the job did not complete); miss is JobRecord.Miss (empty
// for a job that did not miss).
func (r *Report) WriteJobsCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(JobsCSVHeader); err != nil {
		return err
	}
	for _, run := range r.Runs {
		if run.Sim == nil {
			continue
		}
		for _, j := range run.Sim.Jobs {
			parts := make([]string, len(j.Partitions))
			for i, p := range j.Partitions {
				parts[i] = strconv.Itoa(p)
			}
			row := []string{run.Scheduler, strconv.Itoa(j.JobID), j.Class.String(), csvFloat(j.Submit), "",
				strconv.Itoa(j.Nodes), csvFloat(j.Runtime), strings.Join(parts, ";"), "", "",
				strconv.FormatBool(j.Completed), "", strconv.Itoa(j.Preemptions), j.User, "", "", j.Miss.String(), "", "",
				j.SourceID, workloads.CompactMeta(j.Meta)}
			if j.Class == workloads.SLO {
				row[4] = csvFloat(j.Deadline)
				row[11] = strconv.FormatBool(j.MetDeadline)
			}
			if j.Started || j.Completed {
				row[8] = csvFloat(j.Start)
			}
			if j.Completed {
				row[9] = csvFloat(j.End)
			}
			if w, ok := j.Wait(); ok {
				row[14] = csvFloat(w)
			}
			if b, ok := j.BoundedSlowdown(); ok {
				row[15] = csvFloat(b)
			}
			if j.Tasks > 0 {
				row[17], row[18] = strconv.Itoa(j.Tasks), csvFloat(j.TaskWork)
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteDir writes into dir (created if needed) results.json, jobs.csv and
// chart.png, and for the simulated runs (those with a SimResult)
// timeseries.png (WriteTimeSeriesChart), cycle-cdf.png (WriteCycleCDF) and per run
// timeseries-<scheduler>.csv (WriteTimeSeriesCSV), gantt-<scheduler>.png
// (WriteGantt), jobs-<scheduler>.batsim.csv (WriteBatsimJobs, for evalys)
// and schedule-<scheduler>.swf (WriteScheduleSWF). A scheduler's name is used as it is in the file names,
// with characters other than letters, digits, '.', '_' and '-' as '_'; two
// runs whose files would have the same name are an error.
func (r *Report) WriteDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	type file struct {
		name  string
		write func(io.Writer) error
	}
	files := []file{
		{"results.json", r.writeResultsJSON},
		{"jobs.csv", r.WriteJobsCSV},
		{"chart.png", r.WriteChart},
	}
	seen := map[string]string{}
	for _, run := range r.Runs {
		if run.Sim == nil {
			continue
		}
		if len(seen) == 0 {
			files = append(files, file{"timeseries.png", r.WriteTimeSeriesChart}, file{"cycle-cdf.png", r.WriteCycleCDF})
		}
		base := fileNamePart(run.Scheduler)
		if other, dup := seen[base]; dup {
			return fmt.Errorf("%s: runs %q and %q would write the same files", dir, other, run.Scheduler)
		}
		seen[base] = run.Scheduler
		files = append(files,
			file{"timeseries-" + base + ".csv", func(w io.Writer) error { return WriteTimeSeriesCSV(w, run.Sim) }},
			file{"gantt-" + base + ".png", func(w io.Writer) error { return WriteGantt(w, run.Scheduler, run.Sim) }},
			file{"jobs-" + base + ".batsim.csv", func(w io.Writer) error { return WriteBatsimJobs(w, run.Workload, run.Sim) }},
			file{"schedule-" + base + ".swf", func(w io.Writer) error { return WriteScheduleSWF(w, run.Scheduler, run.Workload, run.Sim) }})
	}
	for _, f := range files {
		if err := WriteFileAtomic(filepath.Join(dir, f.name), f.write); err != nil {
			return WithPath(filepath.Join(dir, f.name), err)
		}
	}
	return nil
}

// fileNamePart is name with every character other than an ASCII letter, a
// digit, '.', '_' or '-' replaced by '_'.
func fileNamePart(name string) string {
	return strings.Map(func(c rune) rune {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '_', c == '-':
			return c
		}
		return '_'
	}, name)
}

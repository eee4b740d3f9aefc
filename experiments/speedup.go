package experiments

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Speedup is the JCT speedup of a report's reference scheduler over one
// baseline (SLearn §5.2.1: a JCT under the baseline over the JCT under the
// reference), over the jobs that completed in both runs:
//
//	Mean = Σ_j JCT_baseline(j) / Σ_j JCT_reference(j)  (the ratio of mean JCTs),
//	P50  = the median over j of JCT_baseline(j) / JCT_reference(j).
//
// Above 1: the reference completes jobs sooner.
type Speedup struct {
	Baseline string  `json:"baseline"`
	Mean     float64 `json:"jct_mean_speedup"`
	P50      float64 `json:"jct_p50_speedup"`
	Jobs     int     `json:"jobs"`
}

// Speedups are the speedups of the run of reference over every other run
// of runs, in their order; nil when reference is not among them or a run
// has no job records (SimResult).
func Speedups(runs []RunResult, reference string) []Speedup {
	var ref *RunResult
	for i := range runs {
		if runs[i].Scheduler == reference {
			ref = &runs[i]
		}
	}
	if ref == nil || ref.Sim == nil {
		return nil
	}
	refJCT := map[int]float64{}
	for _, j := range ref.Sim.Jobs {
		if j.Completed {
			refJCT[j.JobID] = j.End - j.Submit
		}
	}
	var out []Speedup
	for i := range runs {
		run := &runs[i]
		if run == ref {
			continue
		}
		if run.Sim == nil {
			return nil
		}
		var sumB, sumR float64
		var ratios []float64
		for _, j := range run.Sim.Jobs {
			r, ok := refJCT[j.JobID]
			if !ok || !j.Completed {
				continue
			}
			b := j.End - j.Submit
			sumB += b
			sumR += r
			if r > 0 {
				ratios = append(ratios, b/r)
			}
		}
		s := Speedup{Baseline: run.Scheduler, Mean: math.NaN(), P50: quantile(0.5, ratios), Jobs: len(ratios)}
		if sumR > 0 {
			s.Mean = sumB / sumR
		}
		out = append(out, s)
	}
	return out
}

// writeTaskTable writes, for the runs with task metrics, the table of
// SLearn §5.2: mean and P50 JCT, normalised waiting time, the P50
// prediction error and the share of wide jobs in the right queue, and,
// when the report has a reference, the JCT speedups of the reference over
// each run.
func (r *Report) writeTaskTable(w io.Writer) error {
	speed := map[string]Speedup{}
	for _, s := range Speedups(r.Runs, r.SpeedupReference) {
		speed[s.Baseline] = s
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "scheduler\tJCT mean s\tJCT p50 s\tNWT mean\tpred err p50 %\tright queue %\twide estimated\t"
	if len(speed) > 0 {
		head += fmt.Sprintf("%s speedup mean\t%s speedup p50\t", r.SpeedupReference, r.SpeedupReference)
	}
	// DAG columns only when a run has DAG jobs.
	dags := slices.ContainsFunc(r.Runs, func(run RunResult) bool { return run.Metrics.Task != nil && run.Metrics.Task.DAGs > 0 })
	if dags {
		head += "DAG JCT mean s\tDAG JCT p50 s\t"
	}
	fmt.Fprintln(tw, head)
	for _, run := range r.Runs {
		t := run.Metrics.Task
		if t == nil {
			continue
		}
		row := []string{run.Scheduler, fmtF(run.Metrics.JCTMean, 0), fmtF(run.Metrics.JCTP50, 0), fmtF(t.NWTMean, 2),
			fmtF(t.PredErrP50, 1), fmtF(100*t.RightQueue, 1), strconv.Itoa(t.Estimated)}
		if len(speed) > 0 {
			s, ok := speed[run.Scheduler]
			if !ok { // the reference itself
				s = Speedup{Mean: 1, P50: 1}
			}
			row = append(row, fmtF(s.Mean, 2), fmtF(s.P50, 2))
		}
		if dags {
			row = append(row, fmtF(t.DAGJCTMean, 0), fmtF(t.DAGJCTP50, 0))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	return tw.Flush()
}

package wing

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/plannerhq/planner/workloads/datalake"
)

// Report is what `planner wing profile` prints: the §2.3 statistics the
// profile inferred (with the calibration targets), the profile judged
// against the lake's truth, the classes, the arrival predictor and the
// value Algorithm 1 found per iteration (Fig. 6).
type Report struct {
	Workload string  `json:"workload"`
	Seed     uint64  `json:"seed"`
	Scale    float64 `json:"scale"`
	// Jobs are the log's jobs, Analysed those of the observed period.
	Jobs      int `json:"jobs"`
	Analysed  int `json:"analysed_jobs"`
	Templates int `json:"templates"`
	Edges     int `json:"edges"`
	datalake.Shares
	Evaluation
	Targets      []TargetResult `json:"targets"`
	Classes      map[string]int `json:"classes"`
	Dependencies map[string]int `json:"dependencies"`
	// Threshold is tr; ArrivalPairs the recurring template dependencies
	// the predictor learned, Predicted those it predicts; TTDMedian the
	// median of their predicted times to dependency (s).
	Threshold    float64 `json:"threshold"`
	ArrivalPairs int     `json:"arrival_pairs"`
	Predicted    int     `json:"arrivals_predicted"`
	TTDMedian    float64 `json:"ttd_median_s"`
	// Iterations is how many Algorithm 1 ran; ValuePerIteration the value
	// found after each (Fig. 6); HiddenShare the share of aggregate value
	// job-local value misses (1 − iteration 0's total share).
	Iterations        int              `json:"iterations"`
	ValuePerIteration []IterationValue `json:"value_per_iteration"`
	HiddenShare       float64          `json:"hidden_value_share"`
}

// TargetResult is one §2.3 statistic against its calibration target.
type TargetResult struct {
	Name     string  `json:"name"`
	Target   float64 `json:"target"`
	Bound    string  `json:"bound"`
	Measured float64 `json:"measured"`
	Met      bool    `json:"met"`
}

// NewReport reports profile p of the lake of params, judged by ev.
func NewReport(p *Profile, params datalake.Params, ev Evaluation) Report {
	r := Report{
		Workload: datalake.Generator, Seed: params.Seed, Scale: params.Scale,
		Jobs: len(p.log.Jobs), Templates: len(p.Templates), Edges: len(p.Edges),
		Shares: p.Shares, Evaluation: ev,
		Classes:      map[string]int{"periodic": 0, "aperiodic": 0, "polling": 0, "adhoc": 0},
		Dependencies: map[string]int{},
		Threshold:    p.opts.Threshold, Iterations: p.Iterations, ValuePerIteration: p.Convergence,
	}
	for i := range p.log.Jobs {
		if p.analysed(i) {
			r.Analysed++
		}
	}
	for _, tg := range datalake.Targets {
		v, _ := p.Shares.Get(tg.Name)
		b := "±"
		switch {
		case tg.Above:
			b = ">"
		case tg.AtMost:
			b = "≤"
		}
		r.Targets = append(r.Targets, TargetResult{Name: tg.Name, Target: tg.Value, Bound: b, Measured: v, Met: tg.Met(v)})
	}
	for t := range p.Templates {
		r.Classes[p.Templates[t].Class()]++
	}
	for _, k := range []datalake.DepKind{datalake.Hard, datalake.PollingDep, datalake.Soft} {
		r.Dependencies[k.String()] = 0
	}
	for _, e := range p.Edges {
		r.Dependencies[p.EdgeKind(e).String()]++
	}
	var ttd []float64
	for _, a := range p.Arrivals {
		r.ArrivalPairs++
		if a.Predicted {
			r.Predicted++
			ttd = append(ttd, a.TTD)
		}
	}
	r.TTDMedian = median(ttd)
	if len(p.Convergence) > 0 {
		r.HiddenShare = 1 - p.Convergence[0].TotalShare
	}
	return r
}

// labels are the table's names of the statistics.
var labels = map[string]string{
	"recurring_jobs_share":          "recurring jobs",
	"recurring_deps_share":          "recurring dependencies",
	"jobs_with_upstream_share":      "jobs with an upstream job",
	"cross_org_share":               "cross-organisation dependencies",
	"invertible_templates_share":    "invertible templates",
	"uncoordinated_recurring_share": "recurring jobs submitted blind",
	"largest_component_share":       "largest connected component",
	"component10_share":             "in components of ≥ 10 jobs",
	"zipf_s":                        "Zipf exponent of job-local value",
	"priority_value_spearman_max":   "priority–value Spearman (max queue)",
}

// WriteTable writes the report as text.
func (r *Report) WriteTable(w io.Writer) error {
	pct := func(v float64) string { return fmt.Sprintf("%.1f %%", 100*v) }
	fmt.Fprintf(w, "workload %s seed %d scale %g: %d jobs in the log (%d analysed), %d templates, %d edges\n\n",
		r.Workload, r.Seed, r.Scale, r.Jobs, r.Analysed, r.Templates, r.Edges)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "§2.3 statistic\tpaper\tprofile\tmet")
	for _, t := range r.Targets {
		target, measured := fmt.Sprintf("%s %s", t.Bound, pct(t.Target)), pct(t.Measured)
		switch t.Name {
		case "zipf_s":
			target, measured = fmt.Sprintf("%g ± %g", t.Target, datalake.Tolerance), fmt.Sprintf("%.3f", t.Measured)
		case "priority_value_spearman_max":
			target, measured = fmt.Sprintf("≤ %g", t.Target), fmt.Sprintf("%.3f", t.Measured)
		}
		if t.Bound == "±" && t.Name != "zipf_s" {
			target = fmt.Sprintf("%s ± 5", pct(t.Target))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", labels[t.Name], target, measured, yesNo(t.Met))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nagainst the generator's truth: edge precision %.4f, recall %.4f; job-local values agree for %s;\n",
		r.EdgePrecision, r.EdgeRecall, pct(r.ValueAgreement))
	fmt.Fprintf(w, "Table 1 classes right for %s of templates, dependency kinds for %s of edges\n",
		pct(r.ClassAccuracy), pct(r.DepKindAccuracy))
	fmt.Fprintf(w, "templates: %d periodic, %d aperiodic, %d polling, %d ad-hoc; edges: %d hard, %d polling, %d soft\n",
		r.Classes["periodic"], r.Classes["aperiodic"], r.Classes["polling"], r.Classes["adhoc"],
		r.Dependencies["hard"], r.Dependencies["polling"], r.Dependencies["soft"])
	fmt.Fprintf(w, "arrival predictor (tr %s): %d template pairs, %d predicted, median time to dependency %s; on week 3 precision %.3f, recall %.3f\n",
		pct(r.Threshold), r.ArrivalPairs, r.Predicted, duration(r.TTDMedian), r.ArrivalPrecision, r.ArrivalRecall)
	fmt.Fprintf(w, "\nAlgorithm 1: %d iterations; job-local value hides %s of aggregate value (Fig. 6)\n", r.Iterations, pct(r.HiddenShare))
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "iteration\tmean share found\tshare of all value")
	for _, it := range r.ValuePerIteration {
		fmt.Fprintf(tw, "%d\t%s\t%s\n", it.Iteration, pct(it.MeanShare), pct(it.TotalShare))
	}
	return tw.Flush()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// duration writes seconds as hours and minutes.
func duration(s float64) string {
	m := int(math.Round(s / 60))
	return fmt.Sprintf("%dh%02dm", m/60, m%60)
}

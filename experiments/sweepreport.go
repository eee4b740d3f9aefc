package experiments

import (
	"bytes"
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
)

// SweepReport is the outcome of a sweep: the runs of every (value, seed,
// scheduler) and their means over seeds per (value, scheduler).
type SweepReport struct {
	// Config is marshalled as the "config" object (the caller's settings).
	Config any
	// Flag is the varied setting, Label the x axis's label with its unit
	// ("deadline slack (%)").
	Flag, Label string
	// Values are the varied setting's values in sweep order, X their
	// positions on the x axis (nil when some value is not a number: the
	// axis is then nominal).
	Values []string
	X      []float64
	// LogX draws the x axis on a log scale.
	LogX       bool
	Schedulers []string
	Seeds      []uint64
	// Runs are in (value, seed, scheduler) order.
	Runs          []RunResult
	Deterministic bool
	// Command is the command line that produced the report (report.md).
	Command string
	// Provenance, when set, goes into results.json and report.md
	// (WriteDir), not into WriteJSON's output.
	Provenance *Provenance
}

// SweepMean is the mean over seeds of one (value, scheduler).
type SweepMean struct {
	Value     string
	Scheduler string
	Seeds     []uint64
	Metrics   []Metric // Metrics.List order
}

// Means returns one SweepMean per (value, scheduler), in that order.
func (r *SweepReport) Means() []SweepMean {
	ns, nseeds := len(r.Schedulers), len(r.Seeds)
	out := make([]SweepMean, 0, len(r.Values)*ns)
	for vi, v := range r.Values {
		for si, name := range r.Schedulers {
			ms := make([]Metrics, nseeds)
			for k := range nseeds {
				ms[k] = r.Runs[(vi*nseeds+k)*ns+si].Metrics
			}
			out = append(out, SweepMean{Value: v, Scheduler: name, Seeds: r.Seeds, Metrics: MeanMetrics(ms)})
		}
	}
	return out
}

type meanJSON struct {
	Scheduler string          `json:"scheduler"`
	Flag      string          `json:"flag"`
	Value     string          `json:"value"`
	Seeds     []uint64        `json:"seeds"`
	Metrics   json.RawMessage `json:"metrics"`
}

// WriteJSON writes {"config", "runs", "means"}: runs as in the CLI
// contract (each with params.sweep naming the flag and value), means only
// when there are several seeds.
func (r *SweepReport) WriteJSON(w io.Writer) error { return r.writeJSON(w, nil) }

func (r *SweepReport) writeJSON(w io.Writer, prov *Provenance) error {
	out := struct {
		Provenance *Provenance `json:"provenance,omitempty"`
		Config     any         `json:"config"`
		Runs       []runJSON   `json:"runs"`
		Means      []meanJSON  `json:"means,omitempty"`
	}{Provenance: prov, Config: r.Config, Runs: make([]runJSON, len(r.Runs))}
	for i, run := range r.Runs {
		out.Runs[i] = runJSON{Scheduler: run.Scheduler, Workload: run.Workload, Seed: run.Seed,
			Params: run.Params, Metrics: metricsJSON(run.Metrics, r.Deterministic)}
	}
	if len(r.Seeds) > 1 {
		for _, m := range r.Means() {
			out.Means = append(out.Means, meanJSON{Scheduler: m.Scheduler, Flag: r.Flag, Value: m.Value,
				Seeds: m.Seeds, Metrics: metricListJSON(m.Metrics, r.Deterministic)})
		}
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// tableColumns are the columns of the sweep table: metric name, heading,
// scale and precision.
var tableColumns = []struct {
	name, head string
	scale      float64
	prec       int
}{
	{"slo_miss_rate", "SLO miss %", 100, 1},
	{"goodput_machine_hours", "goodput M-h", 1, 1},
	{"slo_goodput_machine_hours", "SLO M-h", 1, 1},
	{"be_goodput_machine_hours", "BE M-h", 1, 1},
	{"be_latency_mean_s", "BE latency s", 1, 0},
	{"jct_mean_s", "JCT mean s", 1, 0},
	{"wait_mean_s", "wait s", 1, 0},
	{"bsld_mean", "BSLD", 1, 1},
	{"fairness_jain", "Jain", 1, 2},
	{"utilization", "util %", 100, 1},
	{"solver_time_limited", "limited", 1, 1},
	{"fallbacks", "fallback", 1, 1},
}

// WriteTable writes one row per (value, scheduler) with the means over
// seeds of the headline metrics.
func (r *SweepReport) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := []string{r.Flag, "scheduler", "seeds"}
	for _, c := range tableColumns {
		head = append(head, c.head)
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, m := range r.Means() {
		row := []string{m.Value, m.Scheduler, strconv.Itoa(len(m.Seeds))}
		for _, c := range tableColumns {
			row = append(row, fmtF(c.scale*metricValue(m.Metrics, c.name), c.prec))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	return tw.Flush()
}

func metricValue(ms []Metric, name string) float64 {
	for _, m := range ms {
		if m.Name == name {
			return m.Value
		}
	}
	return math.NaN()
}

// WriteCSV writes one row per run: the varied flag's value, scheduler,
// workload, seed, then the metrics as Report.WriteCSV writes them. The
// first column is named after the flag, "vary_workload" for --vary workload
// (the value as given; the workload column has its name).
func (r *SweepReport) WriteCSV(w io.Writer) error {
	col := r.Flag
	if slices.Contains(runColumns, col) {
		col = "vary_" + col
	}
	return writeRunsCSV(w, r.Runs, r.Deterministic, []string{col}, func(run *RunResult) []string {
		if run.Params.Sweep != nil {
			return []string{run.Params.Sweep.Value}
		}
		return []string{""}
	})
}

// WriteDir writes results.json, a line plot per metric (PNG and SVG) and
// report.md into dir (created if needed).
func (r *SweepReport) WriteDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var b bytes.Buffer
	if err := r.writeJSON(&b, r.Provenance); err != nil {
		return fmt.Errorf("results.json: %w", err)
	}
	if err := writeFileAtomic(filepath.Join(dir, "results.json"), b.Bytes()); err != nil {
		return WithPath(filepath.Join(dir, "results.json"), err)
	}
	plots := r.plotMetrics()
	for _, pm := range plots {
		for _, format := range []string{"png", "svg"} {
			b.Reset()
			if err := r.writeLinePlot(&b, pm, format); err != nil {
				return fmt.Errorf("plot %s: %w", pm.name, err)
			}
			if err := writeFileAtomic(filepath.Join(dir, pm.name+"."+format), b.Bytes()); err != nil {
				return WithPath(filepath.Join(dir, pm.name+"."+format), err)
			}
		}
	}
	b.Reset()
	r.writeMarkdown(&b, plots)
	if err := writeFileAtomic(filepath.Join(dir, "report.md"), b.Bytes()); err != nil {
		return WithPath(filepath.Join(dir, "report.md"), err)
	}
	return nil
}

// writeMarkdown is report.md: the command, the plots, the mean table.
func (r *SweepReport) writeMarkdown(w *bytes.Buffer, plots []plotMetric) {
	fmt.Fprintf(w, "# Sweep of --%s\n\n", r.Flag)
	seeds := make([]string, len(r.Seeds))
	for i, s := range r.Seeds {
		seeds[i] = strconv.FormatUint(s, 10)
	}
	fmt.Fprintf(w, "Values: %s. Schedulers: %s. Seeds: %s", strings.Join(r.Values, ", "),
		strings.Join(r.Schedulers, ", "), strings.Join(seeds, ", "))
	if len(r.Seeds) > 1 {
		w.WriteString(" (each point is the mean over the seeds; results.json keeps every seed's run)")
	}
	w.WriteString(".\n\nProduced by:\n\n```\n" + r.Command + "\n```\n\n")
	if p := r.Provenance; p != nil {
		rev := p.Revision
		if rev == "" {
			rev = "unknown"
		} else if p.Modified {
			rev += " (with uncommitted changes)"
		}
		fmt.Fprintf(w, "planner %s, revision %s, %s, executable %s; started %s, %.0f s on %d × %s.\n\n",
			p.Version, rev, p.GoVersion, p.Executable, p.Start, p.WallS, p.Host.CPUs, p.Host.CPU)
	}
	for _, pm := range plots {
		fmt.Fprintf(w, "## %s\n\n![%s vs %s](%s.png)\n\n([SVG](%s.svg))\n\n", pm.title, pm.title, r.Label, pm.name, pm.name)
	}
	w.WriteString("## Means\n\n```\n")
	_ = r.WriteTable(w)
	w.WriteString("```\n")
}

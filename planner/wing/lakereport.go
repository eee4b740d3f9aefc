package wing

import (
	"encoding/csv"
	"fmt"
	"image/color"
	"io"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// LakeRun is one (seed, capacity, scheduler) run of a capacity sweep.
type LakeRun struct {
	Seed uint64 `json:"seed"`
	LakeResult
}

// LakeMean is the mean over seeds of one (capacity, scheduler): the
// analogue of one bar of Figs. 10–12.
type LakeMean struct {
	Scheduler          string  `json:"scheduler"`
	Capacity           float64 `json:"capacity_pct"`
	Queues             string  `json:"queues"`
	Seeds              int     `json:"seeds"`
	ValueAttained      float64 `json:"value_attained"`
	JobsFailed         float64 `json:"jobs_failed"`
	JobsFailedShare    float64 `json:"jobs_failed_share"`
	PriorityInversions float64 `json:"priority_inversions"`
	// JobsCompletedShare is the share of the window's jobs completed.
	JobsCompletedShare float64 `json:"jobs_completed_share"`
}

// LakeSweep is a capacity sweep: every run and the means over seeds, in
// (capacity, scheduler) order as given.
type LakeSweep struct {
	Runs  []LakeRun  `json:"runs"`
	Means []LakeMean `json:"means"`
}

// NewLakeSweep averages runs over seeds for each capacity and scheduler.
func NewLakeSweep(runs []LakeRun, capacities []float64, schedulers []string) *LakeSweep {
	sw := &LakeSweep{Runs: runs}
	for _, c := range capacities {
		for _, n := range schedulers {
			m := LakeMean{Scheduler: n, Capacity: c}
			for _, r := range runs {
				if r.Capacity == c && r.Scheduler == n {
					m.Queues = r.Queues
					m.Seeds++
					m.ValueAttained += r.ValueAttained
					m.JobsFailed += float64(r.JobsFailed)
					m.JobsFailedShare += r.JobsFailedShare
					m.PriorityInversions += float64(r.PriorityInversions)
					m.JobsCompletedShare += float64(r.JobsCompleted) / float64(max(1, r.Jobs))
				}
			}
			if k := float64(m.Seeds); k > 0 {
				m.ValueAttained, m.JobsFailed, m.JobsFailedShare, m.PriorityInversions = m.ValueAttained/k, m.JobsFailed/k, m.JobsFailedShare/k, m.PriorityInversions/k
				m.JobsCompletedShare /= k
			}
			sw.Means = append(sw.Means, m)
		}
	}
	return sw
}

// WriteCSV writes the means, one row per (capacity, scheduler).
func (sw *LakeSweep) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"queues", "capacity_pct", "scheduler", "seeds", "value_attained", "jobs_failed", "jobs_failed_share", "priority_inversions", "jobs_completed_share"})
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, m := range sw.Means {
		cw.Write([]string{m.Queues, f(m.Capacity), m.Scheduler, strconv.Itoa(m.Seeds), f(m.ValueAttained), f(m.JobsFailed), f(m.JobsFailedShare), f(m.PriorityInversions), f(m.JobsCompletedShare)})
	}
	cw.Flush()
	return cw.Error()
}

// WriteTable writes the means as an aligned text table.
func (sw *LakeSweep) WriteTable(w io.Writer) error {
	if _, err := fmt.Fprintf(w, "%-13s %12s %-19s %5s %14s %11s %17s %19s %20s\n", "queues", "capacity_pct", "scheduler", "seeds", "value_attained", "jobs_failed", "jobs_failed_share", "priority_inversions", "jobs_completed_share"); err != nil {
		return err
	}
	for _, m := range sw.Means {
		if _, err := fmt.Fprintf(w, "%-13s %12g %-19s %5d %14.4f %11.1f %17.4f %19.1f %20.4f\n", m.Queues, m.Capacity, m.Scheduler, m.Seeds, m.ValueAttained, m.JobsFailed, m.JobsFailedShare, m.PriorityInversions, m.JobsCompletedShare); err != nil {
			return err
		}
	}
	return nil
}

var lakeColors = []color.Color{
	color.RGBA{0x1f, 0x77, 0xb4, 0xff}, color.RGBA{0xff, 0x7f, 0x0e, 0xff}, color.RGBA{0x2c, 0xa0, 0x2c, 0xff},
	color.RGBA{0xd6, 0x27, 0x28, 0xff}, color.RGBA{0x94, 0x67, 0xbd, 0xff}, color.RGBA{0x8c, 0x56, 0x4b, 0xff},
	color.RGBA{0xe3, 0x77, 0xc2, 0xff}, color.RGBA{0x7f, 0x7f, 0x7f, 0xff},
}

// WritePlot draws one metric of the means (value_attained or
// jobs_failed_share, in percent) against capacity, a line per scheduler
// (the analogue of Fig. 10 for hierarchical queues, Fig. 12 for a global
// one), as SVG.
func (sw *LakeSweep) WritePlot(w io.Writer, metric string) error {
	p := plot.New()
	p.X.Label.Text = "cluster capacity (% of nominal)"
	switch metric {
	case "value_attained":
		p.Y.Label.Text = "value attained (% of achievable)"
	case "jobs_failed_share":
		p.Y.Label.Text = "jobs failed (% of jobs)"
	default:
		return fmt.Errorf("wing: no plot of %q", metric)
	}
	if len(sw.Means) > 0 {
		p.Title.Text = sw.Means[0].Queues + " queues"
	}
	var names []string
	for _, m := range sw.Means {
		if !slices.Contains(names, m.Scheduler) {
			names = append(names, m.Scheduler)
		}
	}
	for k, n := range names {
		var pts plotter.XYs
		for _, m := range sw.Means {
			if m.Scheduler != n {
				continue
			}
			y := m.ValueAttained
			if metric == "jobs_failed_share" {
				y = m.JobsFailedShare
			}
			pts = append(pts, plotter.XY{X: m.Capacity, Y: 100 * y})
		}
		slices.SortFunc(pts, func(a, b plotter.XY) int {
			switch {
			case a.X < b.X:
				return -1
			case a.X > b.X:
				return 1
			}
			return 0
		})
		l, s, err := plotter.NewLinePoints(pts)
		if err != nil {
			return fmt.Errorf("wing: plot %s: %w", n, err)
		}
		l.Color, s.Color = lakeColors[k%len(lakeColors)], lakeColors[k%len(lakeColors)]
		p.Add(l, s)
		p.Legend.Add(n, l, s)
	}
	p.Legend.Top, p.Legend.Left = true, true
	wt, err := p.WriterTo(6*vg.Inch, 4*vg.Inch, "svg")
	if err != nil {
		return err
	}
	_, err = wt.WriteTo(w)
	return err
}

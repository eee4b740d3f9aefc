package experiments

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// TimeSeriesCSVHeader is the header of timeseries-<scheduler>.csv: one row
// per scheduling cycle the simulator ran (CycleRecord), with the cluster as
// the cycle's decision left it.
//
//   - t_s: the cycle's time (seconds from the workload's start);
//   - utilization: busy_nodes / the cluster's nodes;
//   - busy_nodes, free_nodes: nodes held by a run, idle;
//   - pending_jobs, pending_nodes: jobs waiting, and the nodes they ask for;
//   - running_jobs: jobs holding nodes;
//   - started, preempted: the cycle's starts and preemptions;
//   - preempted_node_s: the work those preemptions threw away, Σ nodes ×
//     (t − start of the run) in node-seconds;
//   - held_nodes: idle nodes the cycle's plan kept for its next start
//     (planner.CycleStats.HeldNodes; 0 for a policy without a plan).
var TimeSeriesCSVHeader = []string{"t_s", "utilization", "busy_nodes", "free_nodes", "pending_jobs",
	"pending_nodes", "running_jobs", "started", "preempted", "preempted_node_s", "held_nodes"}

// WriteTimeSeriesCSV writes the cycles of res as TimeSeriesCSVHeader
// describes them, in time order.
func WriteTimeSeriesCSV(w io.Writer, res *SimResult) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(TimeSeriesCSVHeader); err != nil {
		return err
	}
	for _, c := range res.Cycles {
		util := math.NaN()
		if res.Nodes > 0 {
			util = float64(c.BusyNodes) / float64(res.Nodes)
		}
		row := []string{csvFloat(c.Now), csvFloat(util), strconv.Itoa(c.BusyNodes), strconv.Itoa(c.FreeNodes),
			strconv.Itoa(c.PendingJobs), strconv.Itoa(c.PendingNodes), strconv.Itoa(c.RunningJobs),
			strconv.Itoa(c.Started), strconv.Itoa(c.Preempt), csvFloat(c.PreemptedNodeSeconds),
			strconv.Itoa(c.Stats.HeldNodes)}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteTimeSeriesChart draws every simulated run over time (hours, to the
// end of its span) as a PNG of two panels, one line per scheduler:
//
//   - utilisation (%): busy nodes / nodes, from the runs (SimResult.Runs),
//     so that it is exact between cycles too (runs end between cycles, and
//     no cycle runs while nothing is pending); at each cycle it is the
//     utilization of timeseries-<scheduler>.csv;
//   - pending nodes: the nodes the waiting jobs ask for, as each cycle's
//     decision left them (CycleRecord.PendingNodes), held until the next
//     cycle: jobs are admitted and started only at cycles.
func (r *Report) WriteTimeSeriesChart(w io.Writer) error {
	util, pend := plot.New(), plot.New()
	util.Title.Text = "Utilisation"
	util.Y.Label.Text = "busy nodes (%)"
	util.Y.Min, util.Y.Max = 0, 100
	pend.Title.Text = "Pending work after each scheduling cycle"
	pend.Y.Label.Text = "pending nodes"
	pend.Y.Min = 0
	for _, p := range []*plot.Plot{util, pend} {
		p.X.Label.Text = "time (h)"
		p.X.Min = 0
		p.X.Tick.Marker = shortTicks{}
		p.Y.Tick.Marker = shortTicks{}
		p.Add(plotter.NewGrid())
	}
	// One legend for both panels, at their right.
	leg := plot.NewLegend()
	leg.Top, leg.Left = true, true
	leg.TextStyle.Font.Size = vg.Points(10)
	leg.ThumbnailWidth = vg.Points(20)
	lines := 0
	for i, run := range r.Runs {
		res := run.Sim
		if res == nil {
			continue
		}
		end := res.End / 3600
		u := busyNodeSteps(res)
		for k := range u {
			u[k].X /= 3600
			if res.Nodes > 0 {
				u[k].Y *= 100 / float64(res.Nodes)
			}
		}
		q := plotter.XYs{{X: 0, Y: 0}}
		for _, c := range res.Cycles {
			q = append(q, plotter.XY{X: c.Now / 3600, Y: float64(c.PendingNodes)})
			pend.Y.Max = max(pend.Y.Max, float64(c.PendingNodes))
		}
		q = append(q, plotter.XY{X: end, Y: q[len(q)-1].Y})
		util.X.Max, pend.X.Max = max(util.X.Max, end), max(pend.X.Max, end)
		var first *plotter.Line
		for _, pl := range []struct {
			p   *plot.Plot
			xys plotter.XYs
		}{{util, clipSteps(u, end)}, {pend, q}} {
			l, err := plotter.NewLine(pl.xys)
			if err != nil {
				return fmt.Errorf("time series %s: %w", run.Scheduler, err)
			}
			l.StepStyle = plotter.PostStep
			l.Color = lineColors[i%len(lineColors)]
			l.Width = vg.Points(1)
			if i >= len(lineColors) {
				l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
			}
			pl.p.Add(l)
			if first == nil {
				first = l
			}
		}
		leg.Add(run.Scheduler, first)
		lines++
	}
	if lines == 0 {
		return fmt.Errorf("time series: no simulated run")
	}
	util.Y.Max = 105
	pend.Y.Max = max(1, pend.Y.Max) * 1.05
	img := vgimg.New(12*vg.Inch, 8*vg.Inch)
	dc := draw.New(img)
	legendW := 1.8 * vg.Inch
	tiles := draw.Tiles{Rows: 2, Cols: 1, PadY: vg.Millimeter * 6, PadTop: vg.Millimeter * 2,
		PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 4}
	panels := [][]*plot.Plot{{util}, {pend}}
	canvases := plot.Align(panels, tiles, draw.Crop(dc, 0, -legendW, 0, 0))
	for k := range panels {
		panels[k][0].Draw(canvases[k][0])
	}
	leg.Draw(draw.Crop(dc, dc.Max.X-legendW, 0, 0, -vg.Inch/2))
	_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
	return err
}

// busyNodeSteps is the nodes res's runs hold over time (seconds) as a
// post-step function: from xs[i] on, ys[i] nodes are busy (runs hold their
// nodes over [Start, End)). It starts at (0, 0).
func busyNodeSteps(res *SimResult) plotter.XYs {
	type event struct {
		t     float64
		delta int
	}
	ev := make([]event, 0, 2*len(res.Runs))
	for _, run := range res.Runs {
		n := 0
		for _, k := range run.Alloc {
			n += k
		}
		ev = append(ev, event{run.Start, n}, event{run.End, -n})
	}
	slices.SortStableFunc(ev, func(a, b event) int { return cmp.Compare(a.t, b.t) })
	out := plotter.XYs{{X: 0, Y: 0}}
	busy := 0
	for i := 0; i < len(ev); {
		t := ev[i].t
		for ; i < len(ev) && ev[i].t == t; i++ {
			busy += ev[i].delta
		}
		if last := &out[len(out)-1]; last.X == t {
			last.Y = float64(busy)
		} else {
			out = append(out, plotter.XY{X: t, Y: float64(busy)})
		}
	}
	return out
}

// clipSteps is the post-step function xys up to x = end, ending with a
// point at end.
func clipSteps(xys plotter.XYs, end float64) plotter.XYs {
	i := 0
	for i < len(xys) && xys[i].X <= end {
		i++
	}
	out := slices.Clone(xys[:i])
	if len(out) > 0 && out[len(out)-1].X < end {
		out = append(out, plotter.XY{X: end, Y: out[len(out)-1].Y})
	}
	return out
}

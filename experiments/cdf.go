package experiments

import (
	"fmt"
	"io"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// WriteCycleCDF draws 3Sigma's Fig. 11 for the simulated runs as a PNG of
// two panels side by side, one line per scheduler: (a) the empirical CDF
// of the wall time of every scheduling cycle and (b) of every solve
// (CycleTimes), on a logarithmic time axis in milliseconds. Each legend
// entry gives the run's p50, p99 and largest time. The times are wall
// times in either solve mode: in deterministic mode a solve runs every
// step of its backend, so they are what the cycles cost without a limit.
func (r *Report) WriteCycleCDF(w io.Writer) error {
	cyc, sol := plot.New(), plot.New()
	cyc.Title.Text = "(a) Scheduling cycle"
	sol.Title.Text = "(b) Solver"
	lo, hi := math.Inf(1), 0.0
	lines := 0
	for i, run := range r.Runs {
		if run.Sim == nil {
			continue
		}
		c, s := CycleTimes(run.Sim.Cycles)
		for _, pl := range []struct {
			p *plot.Plot
			x []float64
		}{{cyc, c}, {sol, s}} {
			if len(pl.x) == 0 {
				continue
			}
			xys := cdfSteps(pl.x)
			lo, hi = min(lo, xys[0].X), max(hi, xys[len(xys)-1].X)
			l, err := plotter.NewLine(xys)
			if err != nil {
				return fmt.Errorf("cycle CDF %s: %w", run.Scheduler, err)
			}
			l.StepStyle = plotter.PostStep
			l.Color = lineColors[i%len(lineColors)]
			l.Width = vg.Points(1.2)
			if i >= len(lineColors) {
				l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
			}
			pl.p.Add(l)
			p50, _, p99, most := timeQuantiles(pl.x)
			pl.p.Legend.Add(fmt.Sprintf("%s: p50 %s, p99 %s, max %s ms", run.Scheduler, msLabel(p50), msLabel(p99), msLabel(most)), l)
		}
		lines++
	}
	if lines == 0 {
		return fmt.Errorf("cycle CDF: no simulated run")
	}
	if math.IsInf(lo, 1) { // no cycle ran
		lo, hi = 1, 10
	}
	for _, p := range []*plot.Plot{cyc, sol} {
		p.X.Label.Text = "wall time (ms, log scale)"
		p.Y.Label.Text = "fraction of cycles ≤ time"
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
		p.X.Min, p.X.Max = lo/1.2, hi*1.2
		p.Y.Min, p.Y.Max = 0, 1.02
		p.Legend.Top, p.Legend.Left = false, false
		p.Legend.XOffs, p.Legend.YOffs = -vg.Millimeter*2, vg.Millimeter*2
		p.Legend.TextStyle.Font.Size = vg.Points(8)
		p.Add(plotter.NewGrid())
	}
	sol.Y.Label.Text = "fraction of solves ≤ time"
	img := vgimg.New(12*vg.Inch, 4.5*vg.Inch)
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Millimeter * 6, PadTop: vg.Millimeter * 2,
		PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 4}
	panels := [][]*plot.Plot{{cyc, sol}}
	canvases := plot.Align(panels, tiles, dc)
	for k, p := range panels[0] {
		p.Draw(canvases[0][k])
	}
	_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
	return err
}

// cdfSteps is the empirical CDF of x (ms, > 0) as post-steps: at the
// i-th smallest value the fraction rises to i/n. Values at or below 0 are
// drawn at 1 µs, the log axis's floor.
func cdfSteps(x []float64) plotter.XYs {
	s := slices.Clone(x)
	slices.Sort(s)
	xys := make(plotter.XYs, 0, len(s)+1)
	for i, v := range s {
		v = max(v, 1e-3)
		if i == 0 {
			xys = append(xys, plotter.XY{X: v, Y: 0})
		}
		xys = append(xys, plotter.XY{X: v, Y: float64(i+1) / float64(len(s))})
	}
	return xys
}

// msLabel is a time in ms with three significant digits.
func msLabel(v float64) string { return fmt.Sprintf("%.3g", v) }

package experiments

import (
	"cmp"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// plotMetric is one metric a sweep plots: its file name (the metric's
// name), title, y-axis unit and the factor from the metric to the unit.
type plotMetric struct {
	name, title, unit string
	scale             float64
	timing            bool
}

// sweepPlots are the metrics a sweep draws, in report order.
var sweepPlots = []plotMetric{
	{"slo_miss_rate", "SLO miss rate", "%", 100, false},
	{"goodput_machine_hours", "Goodput", "machine-hours", 1, false},
	{"slo_goodput_machine_hours", "SLO goodput", "machine-hours", 1, false},
	{"be_goodput_machine_hours", "Best-effort goodput", "machine-hours", 1, false},
	{"be_latency_mean_s", "Best-effort latency (mean)", "s", 1, false},
	{"jct_mean_s", "Job completion time (mean)", "s", 1, false},
	{"jct_p99_s", "Job completion time (p99)", "s", 1, false},
	{"wait_mean_s", "Wait (mean)", "s", 1, false},
	{"bsld_mean", "Bounded slowdown (mean, τ = 10 s)", "slowdown", 1, false},
	{"fairness_jain", "Fairness: Jain's index of per-user mean slowdown", "index", 1, false},
	{"utilization", "Utilisation", "%", 100, false},
	{"preemptions", "Preemptions", "preemptions", 1, false},
	{"fallbacks", "Cycles decided by the fallback", "cycles", 1, false},
	{"solver_time_limited", "Cycles whose solve hit its limit", "cycles", 1, false},
	{"cycle_ms_p99", "Cycle time (p99)", "ms", 1, true},
	{"solver_ms_p99", "Solve time (p99)", "ms", 1, true},
}

// plotMetrics are sweepPlots without the wall-clock ones when deterministic.
func (r *SweepReport) plotMetrics() []plotMetric {
	var out []plotMetric
	for _, p := range sweepPlots {
		if !(p.timing && r.Deterministic) {
			out = append(out, p)
		}
	}
	return out
}

// lineColors is a colour-blind-safe palette (Okabe–Ito) for the schedulers'
// lines, reused in order.
var lineColors = []color.Color{
	color.RGBA{0x00, 0x72, 0xb2, 0xff}, color.RGBA{0xd5, 0x5e, 0x00, 0xff},
	color.RGBA{0x00, 0x9e, 0x73, 0xff}, color.RGBA{0xcc, 0x79, 0xa7, 0xff},
	color.RGBA{0xe6, 0x9f, 0x00, 0xff}, color.RGBA{0x56, 0xb4, 0xe9, 0xff},
	color.RGBA{0x00, 0x00, 0x00, 0xff}, color.RGBA{0xf0, 0xe4, 0x42, 0xff},
}

// lineSegments returns the pieces a line through the points (xs[i], ys[i])
// is drawn in, as indices: the points in x order (ties in the given
// order), cut where y is undefined (NaN or infinite), so that the line
// leaves a gap there.
func lineSegments(xs, ys []float64) [][]int {
	order := make([]int, len(xs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(xs[a], xs[b]) })
	var segs [][]int
	var cur []int
	for _, i := range order {
		if math.IsNaN(ys[i]) || math.IsInf(ys[i], 0) {
			if cur != nil {
				segs, cur = append(segs, cur), nil
			}
			continue
		}
		cur = append(cur, i)
	}
	if cur != nil {
		segs = append(segs, cur)
	}
	return segs
}

// writeLinePlot draws one metric against the varied value: a line per
// scheduler through the means over seeds (undefined means leave a gap),
// and with several seeds a bar from the lowest to the highest seed's value.
// format is "png" or "svg".
func (r *SweepReport) writeLinePlot(w io.Writer, pm plotMetric, format string) error {
	p := plot.New()
	p.Title.Text = pm.title
	p.X.Label.Text = r.Label
	p.Y.Label.Text = pm.unit
	xs := r.X
	if xs == nil { // a nominal axis: the values in order
		xs = make([]float64, len(r.Values))
		for i := range xs {
			xs[i] = float64(i)
		}
		p.NominalX(r.Values...)
	} else {
		// A labelled tick at every swept value: the reader sees the values
		// that were run, not round numbers between them.
		p.X.Tick.Marker = valueTicks(xs)
		if r.LogX {
			p.X.Scale = plot.LogScale{}
		}
	}
	p.Y.Tick.Marker = shortTicks{}
	means := r.Means()
	nsch, nseeds := len(r.Schedulers), len(r.Seeds)
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for si, name := range r.Schedulers {
		c := lineColors[si%len(lineColors)]
		ys := make([]float64, len(r.Values))
		var pts plotter.XYs // every defined mean, for the bars
		var errs plotter.YErrors
		for vi := range r.Values {
			y := pm.scale * metricValue(means[vi*nsch+si].Metrics, pm.name)
			ys[vi] = y
			if math.IsNaN(y) || math.IsInf(y, 0) {
				continue
			}
			lo, hi := y, y
			for k := range nseeds {
				v := pm.scale * metricValue(r.Runs[(vi*nseeds+k)*nsch+si].Metrics.List(), pm.name)
				if !math.IsNaN(v) && !math.IsInf(v, 0) {
					lo, hi = math.Min(lo, v), math.Max(hi, v)
				}
			}
			pts = append(pts, plotter.XY{X: xs[vi], Y: y})
			errs = append(errs, struct{ Low, High float64 }{y - lo, hi - y})
			ymin, ymax = math.Min(ymin, lo), math.Max(ymax, hi)
		}
		for k, seg := range lineSegments(xs, ys) {
			segPts := make(plotter.XYs, len(seg))
			for i, vi := range seg {
				segPts[i] = plotter.XY{X: xs[vi], Y: ys[vi]}
			}
			line, points, err := plotter.NewLinePoints(segPts)
			if err != nil {
				return err
			}
			line.Color, points.Color = c, c
			line.Width = vg.Points(1.5)
			points.Shape = shapes[si%len(shapes)]
			p.Add(line, points)
			if k == 0 {
				p.Legend.Add(name, line, points)
			}
		}
		if nseeds > 1 && len(pts) > 0 {
			eb, err := plotter.NewYErrorBars(struct {
				plotter.XYs
				plotter.YErrors
			}{pts, errs})
			if err != nil {
				return err
			}
			eb.Color = c
			p.Add(eb)
		}
	}
	if ymin <= ymax {
		// Room above the highest point for the legend. A metric that is
		// 0 everywhere (fallbacks, preemptions) gets the axis [0, 1.3],
		// not one of 1e-9.
		p.Y.Min = math.Min(0, ymin)
		p.Y.Max = ymax + 0.3*(ymax-p.Y.Min)
		if ymax <= p.Y.Min {
			p.Y.Max = p.Y.Min + 1.3*math.Max(1, math.Abs(ymax))
		}
	}
	// A margin either side of the first and last value, so that their
	// points and bars are not cut by the frame.
	if lo, hi := slices.Min(xs), slices.Max(xs); r.X != nil && r.LogX {
		f := math.Pow(hi/lo, 0.04)
		p.X.Min, p.X.Max = lo/f, hi*f
	} else if pad := 0.04 * (hi - lo); pad > 0 {
		p.X.Min, p.X.Max = lo-pad, hi+pad
	} else {
		p.X.Min, p.X.Max = lo-0.5, hi+0.5
	}
	if nseeds > 1 {
		p.Title.Text += fmt.Sprintf(" (mean of %d seeds, bars: lowest to highest)", nseeds)
	}
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	width, height := 6*vg.Inch, 4*vg.Inch
	switch format {
	case "png":
		c := vgimg.New(width, height)
		p.Draw(draw.New(c))
		_, err := vgimg.PngCanvas{Canvas: c}.WriteTo(w)
		return err
	case "svg":
		c := vgsvg.New(width, height)
		p.Draw(draw.New(c))
		_, err := c.WriteTo(w)
		return err
	}
	return fmt.Errorf("unknown plot format %q", format)
}

// shapes mark the points of each scheduler's line (told apart without
// colour).
var shapes = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.BoxGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{},
	draw.RingGlyph{}, draw.SquareGlyph{}, draw.PlusGlyph{}, draw.CrossGlyph{},
}

// valueTicks marks and labels exactly these values (those within the axis).
type valueTicks []float64

// Ticks implements plot.Ticker.
func (v valueTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for _, x := range v {
		if x >= lo && x <= hi {
			ticks = append(ticks, plot.Tick{Value: x, Label: tickLabel(x)})
		}
	}
	return ticks
}

// shortTicks are gonum's default ticks labelled without trailing zeros
// (25, not 25.00).
type shortTicks struct{}

// Ticks implements plot.Ticker.
func (shortTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = tickLabel(ticks[i].Value)
		}
	}
	return ticks
}

// tickLabel is v without trailing zeros: whole numbers in full, others
// with at most four significant digits.
func tickLabel(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', -1, 64) // 98400, not 9.84e+04
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

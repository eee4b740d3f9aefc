package experiments

import (
	"fmt"
	"image/color"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// WriteChart draws the paper's Fig. 5 for the report's runs as a PNG: three
// bar panels side by side — SLO miss rate (%), goodput (machine-hours,
// stacked SLO + best-effort) and mean best-effort latency (s) — one bar per
// scheduler in report order. An undefined value is drawn as zero.
func (r *Report) WriteChart(w io.Writer) error {
	names := make([]string, len(r.Runs))
	miss := make(plotter.Values, len(r.Runs))
	sloGP := make(plotter.Values, len(r.Runs))
	beGP := make(plotter.Values, len(r.Runs))
	lat := make(plotter.Values, len(r.Runs))
	for i, run := range r.Runs {
		m := run.Metrics
		names[i] = run.Scheduler
		miss[i] = finiteOr0(100 * m.SLOMissRate)
		sloGP[i] = finiteOr0(m.SLOGoodput)
		beGP[i] = finiteOr0(m.BEGoodput)
		lat[i] = finiteOr0(m.BELatencyMean)
	}
	width := vg.Length(3+0.45*float64(len(r.Runs))) * vg.Inch
	if len(r.Runs) == 0 {
		return fmt.Errorf("chart: no runs")
	}
	panels := make([]*plot.Plot, 3)
	var err error
	if panels[0], err = barPanel("SLO miss rate", "%", names, []plotter.Values{miss}, []string{""}); err != nil {
		return err
	}
	if panels[1], err = barPanel("Goodput", "machine-hours", names, []plotter.Values{sloGP, beGP}, []string{"SLO", "BE"}); err != nil {
		return err
	}
	if panels[2], err = barPanel("BE latency (mean)", "s", names, []plotter.Values{lat}, []string{""}); err != nil {
		return err
	}
	img := vgimg.New(3*width, 4*vg.Inch)
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 1, Cols: 3, PadX: vg.Millimeter * 4, PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2,
		PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	canvases := plot.Align([][]*plot.Plot{panels}, tiles, dc)
	for i, p := range panels {
		p.Draw(canvases[0][i])
	}
	png := vgimg.PngCanvas{Canvas: img}
	_, err = png.WriteTo(w)
	return err
}

var barColors = []color.Color{
	color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
	color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
}

// barPanel is one panel: a bar per scheduler, stacks of series bottom up.
func barPanel(title, unit string, names []string, series []plotter.Values, labels []string) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = unit
	p.Y.Min = 0
	p.X.Tick.Label.Rotation = math.Pi / 4
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	// Room for the legend above the tallest stack, half a bar's slot at
	// either end.
	top := 0.0
	for k := range names {
		h := 0.0
		for _, v := range series {
			h += v[k]
		}
		top = max(top, h)
	}
	if top == 0 {
		top = 1
	}
	p.Y.Max = 1.25 * top
	p.X.Min, p.X.Max = -0.5, float64(len(names))-0.5
	var below *plotter.BarChart
	for i, v := range series {
		b, err := plotter.NewBarChart(v, vg.Points(18))
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", title, err)
		}
		b.Color = barColors[i%len(barColors)]
		b.LineStyle.Width = 0
		if below != nil {
			b.StackOn(below)
		}
		p.Add(b)
		if labels[i] != "" {
			p.Legend.Add(labels[i], b)
		}
		below = b
	}
	p.Legend.Top = true
	p.NominalX(names...)
	return p, nil
}

func finiteOr0(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

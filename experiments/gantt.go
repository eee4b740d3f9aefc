package experiments

import (
	"cmp"
	"fmt"
	"image/color"
	"io"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/plannerhq/planner/workloads"
)

// GanttMaxRuns is the most runs a Gantt chart draws one by one; past it
// WriteGantt draws the summary (busy nodes per partition over time by
// class) and says so in the title. At 2,000 runs on 256 node rows the
// rectangles are still a few pixels each.
const GanttMaxRuns = 2000

// Colours of the Gantt chart (Okabe–Ito, colour-blind safe).
var (
	ganttSLO       = color.RGBA{0x00, 0x72, 0xb2, 0xff} // SLO runs: blue
	ganttBE        = color.RGBA{0xe6, 0x9f, 0x00, 0xff} // best-effort runs: orange
	ganttPreempted = color.RGBA{0xbb, 0xbb, 0xbb, 0xff} // preempted runs: grey, crossed
	ganttMissed    = color.RGBA{0xd0, 0x00, 0x00, 0xff} // missed SLO: red outline (summary: red area)
	ganttEdge      = color.RGBA{0x33, 0x33, 0x33, 0xff}
	ganttBand      = color.RGBA{0x00, 0x00, 0x00, 0xff}
)

// ganttKind is how a run is drawn.
type ganttKind int

const (
	ganttKindSLO       ganttKind = iota // final run of an SLO job that met its deadline
	ganttKindMissed                     // final run of an SLO job that completed late
	ganttKindBE                         // final run of a best-effort job
	ganttKindPreempted                  // a run stopped by a preemption (its work lost)
	ganttKinds
)

var ganttKindNames = [ganttKinds]string{"SLO, met", "SLO, missed", "best-effort", "preempted (work lost)"}

// runKind is the kind of run, for job (nil when unknown: drawn as
// best-effort).
func runKind(run *RunRecord, job *JobRecord) ganttKind {
	switch {
	case run.Preempted:
		return ganttKindPreempted
	case job != nil && job.Class == workloads.SLO && job.MetDeadline:
		return ganttKindSLO
	case job != nil && job.Class == workloads.SLO:
		return ganttKindMissed
	}
	return ganttKindBE
}

// ganttRows gives each run of res (in res.Runs order: by start) its node
// rows. Partition r owns rows base[r] … base[r]+PartitionNodes[r]−1 (base
// is returned). Runs are placed in start order; within each partition a
// run takes the first block of consecutive rows free at its start (a row
// is free once the run before on it has ended), else the lowest free rows,
// so concurrent runs never share a row and the same result always gets the
// same rows.
func ganttRows(res *SimResult) (rows [][]int, base []int, err error) {
	base = make([]int, len(res.PartitionNodes)+1)
	for r, n := range res.PartitionNodes {
		base[r+1] = base[r] + n
	}
	freeAt := make([]float64, base[len(base)-1]) // the end of the last run on the row
	for i := range freeAt {
		freeAt[i] = -1
	}
	rows = make([][]int, len(res.Runs))
	for i, run := range res.Runs {
		for r, k := range run.Alloc {
			if k == 0 {
				continue
			}
			if r >= len(res.PartitionNodes) {
				return nil, nil, fmt.Errorf("gantt: job %d's run at %g s holds nodes of partition %d of %d", run.JobID, run.Start, r, len(res.PartitionNodes))
			}
			got := pickRows(freeAt[base[r]:base[r+1]], run.Start, k)
			if got == nil {
				return nil, nil, fmt.Errorf("gantt: job %d's run at %g s holds %d nodes of partition %d, which has fewer free", run.JobID, run.Start, k, r)
			}
			for _, row := range got {
				freeAt[base[r]+row] = run.End
				rows[i] = append(rows[i], base[r]+row)
			}
		}
	}
	return rows, base, nil
}

// pickRows returns k rows of a partition free at t (freeAt ≤ t): the
// first block of k consecutive free rows, else the lowest k free rows;
// nil when fewer than k are free.
func pickRows(freeAt []float64, t float64, k int) []int {
	run := 0
	for i, f := range freeAt {
		if f > t {
			run = 0
			continue
		}
		if run++; run == k {
			out := make([]int, k)
			for j := range out {
				out[j] = i - k + 1 + j
			}
			return out
		}
	}
	var out []int
	for i, f := range freeAt {
		if f <= t {
			if out = append(out, i); len(out) == k {
				return out
			}
		}
	}
	return nil
}

// WriteGantt draws the runs of res (the run of scheduler name) as a PNG
// Gantt chart: time (hours) on x; on y the partitions top down, each a band
// of one row per node. Each run is a rectangle per block of consecutive
// node rows it holds (ganttRows), coloured by class; an SLO job that missed
// its deadline has a red outline, and a preempted run is grey and crossed.
// A dashed line marks the end of the simulated span. Past GanttMaxRuns runs
// it draws the summary instead: per partition, the busy nodes over time as
// stacked areas by kind.
func WriteGantt(w io.Writer, name string, res *SimResult) error {
	p, leg, _, err := ganttPlot(name, res)
	if err != nil {
		return err
	}
	height := vg.Length(min(10, max(4, 1.5+0.025*float64(res.Nodes)))) * vg.Inch
	img := vgimg.New(13*vg.Inch, height)
	dc := draw.New(img)
	// The legend to the right of the plot, where it hides no run.
	legendW := 2.6 * vg.Inch
	p.Draw(draw.Crop(dc, 0, -legendW, 0, 0))
	lc := draw.Crop(dc, dc.Max.X-legendW+vg.Millimeter*3, 0, 0, -vg.Inch/2)
	leg.Draw(lc)
	_, err = vgimg.PngCanvas{Canvas: img}.WriteTo(w)
	return err
}

// ganttPlot builds the Gantt chart of WriteGantt and its legend, or the
// summary (summary true) when res has more than GanttMaxRuns runs.
func ganttPlot(name string, res *SimResult) (p *plot.Plot, leg plot.Legend, summary bool, err error) {
	nodes := 0
	for _, n := range res.PartitionNodes {
		nodes += n
	}
	if nodes == 0 {
		return nil, leg, false, fmt.Errorf("gantt %s: the cluster has no nodes", name)
	}
	jobs := func(id int) *JobRecord {
		i, ok := slices.BinarySearchFunc(res.Jobs, id, func(j JobRecord, id int) int { return cmp.Compare(j.JobID, id) })
		if !ok {
			return nil
		}
		return &res.Jobs[i]
	}
	var counts [ganttKinds]int
	tmax := res.End
	for i := range res.Runs {
		counts[runKind(&res.Runs[i], jobs(res.Runs[i].JobID))]++
		tmax = max(tmax, res.Runs[i].End)
	}
	p = plot.New()
	p.X.Label.Text = "time (h)"
	p.Y.Label.Text = "nodes, by partition"
	p.X.Min, p.X.Max = 0, max(tmax/3600, 1.0/60)
	p.X.Tick.Marker = shortTicks{}
	p.Y.Min, p.Y.Max = 0, float64(nodes)
	summary = len(res.Runs) > GanttMaxRuns
	var g ganttPlotter
	g.nodes, g.span = nodes, res.End/3600
	if summary {
		p.Title.Text = fmt.Sprintf("%s: busy nodes per partition by kind — a summary: %d runs are more than the %d a Gantt chart draws",
			name, len(res.Runs), GanttMaxRuns)
		g.areas = ganttAreas(res, jobs)
	} else {
		p.Title.Text = fmt.Sprintf("%s: Gantt chart of %d runs", name, len(res.Runs))
		rows, _, err := ganttRows(res)
		if err != nil {
			return nil, leg, false, fmt.Errorf("gantt %s: %w", name, err)
		}
		for i := range res.Runs {
			run := &res.Runs[i]
			kind := runKind(run, jobs(run.JobID))
			for _, b := range rowBlocks(rows[i]) {
				g.boxes = append(g.boxes, ganttBox{x0: run.Start / 3600, x1: run.End / 3600,
					y0: float64(nodes - b[1]), y1: float64(nodes - b[0]), kind: kind})
			}
		}
	}
	// Partition bands, top down: tick labels at their middles, lines
	// between them. Many partitions are labelled every few.
	every := max(1, (len(res.PartitionNodes)+15)/16)
	var ticks []plot.Tick
	top := nodes
	for r, n := range res.PartitionNodes {
		g.bands = append(g.bands, float64(top))
		if r%every == 0 {
			ticks = append(ticks, plot.Tick{Value: float64(top) - float64(n)/2, Label: "partition " + strconv.Itoa(r)})
		}
		top -= n
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.Add(&g)
	leg = plot.NewLegend()
	leg.Top, leg.Left = true, true
	leg.TextStyle.Font.Size = vg.Points(10)
	leg.ThumbnailWidth = vg.Points(16)
	leg.Padding = vg.Points(4)
	for k := range ganttKinds {
		label := fmt.Sprintf("%s: %d runs", ganttKindNames[k], counts[k])
		if k == ganttKindMissed {
			label = fmt.Sprintf("%s: %d jobs", ganttKindNames[k], counts[k])
		}
		leg.Add(label, ganttThumb{kind: k, summary: summary})
	}
	leg.Add("end of the simulated span", ganttThumb{kind: -1})
	return p, leg, summary, nil
}

// rowBlocks cuts ascending rows into blocks of consecutive rows
// [first, last+1).
func rowBlocks(rows []int) [][2]int {
	var out [][2]int
	for i, r := range rows {
		if i > 0 && r == rows[i-1]+1 {
			out[len(out)-1][1] = r + 1
			continue
		}
		out = append(out, [2]int{r, r + 1})
	}
	return out
}

// ganttArea is one partition's busy nodes of one kind over time, stacked
// on the kinds before it: between xs[i] and xs[i+1] (hours) it fills lo[i]
// to hi[i] (node rows from the bottom).
type ganttArea struct {
	xs, lo, hi []float64
	kind       ganttKind
}

// ganttAreas is the summary of WriteGantt: per partition, the nodes its
// runs hold over time, by kind, stacked in ganttKind order from the
// partition's lowest row.
func ganttAreas(res *SimResult, jobs func(int) *JobRecord) []ganttArea {
	type event struct {
		t     float64
		delta int
		kind  ganttKind
	}
	nodes := 0
	for _, n := range res.PartitionNodes {
		nodes += n
	}
	var out []ganttArea
	top := nodes
	for r, n := range res.PartitionNodes {
		bottom := top - n
		top = bottom
		var ev []event
		for i := range res.Runs {
			run := &res.Runs[i]
			if r < len(run.Alloc) && run.Alloc[r] > 0 {
				kind := runKind(run, jobs(run.JobID))
				ev = append(ev, event{run.Start / 3600, run.Alloc[r], kind}, event{run.End / 3600, -run.Alloc[r], kind})
			}
		}
		if len(ev) == 0 {
			continue
		}
		slices.SortStableFunc(ev, func(a, b event) int { return cmp.Compare(a.t, b.t) })
		var busy [ganttKinds]int
		var xs []float64
		var level [][ganttKinds]int // busy nodes by kind after each time in xs
		for i := 0; i < len(ev); {
			t := ev[i].t
			for ; i < len(ev) && ev[i].t == t; i++ {
				busy[ev[i].kind] += ev[i].delta
			}
			xs = append(xs, t)
			level = append(level, busy)
		}
		for k := range ganttKinds {
			a := ganttArea{xs: xs, kind: k, lo: make([]float64, len(xs)), hi: make([]float64, len(xs))}
			for i, l := range level {
				below := 0
				for j := range k {
					below += l[j]
				}
				a.lo[i] = float64(bottom + below)
				a.hi[i] = float64(bottom + below + l[k])
			}
			out = append(out, a)
		}
	}
	return out
}

// ganttBox is one rectangle of a run: time x0…x1 (hours), rows y0…y1.
type ganttBox struct {
	x0, x1, y0, y1 float64
	kind           ganttKind
}

// ganttPlotter draws the boxes (or the summary's areas), the partition
// bands and the end of the span.
type ganttPlotter struct {
	boxes []ganttBox
	areas []ganttArea
	bands []float64 // the top row of each partition
	nodes int
	span  float64 // hours
}

func ganttFill(k ganttKind) color.Color {
	switch k {
	case ganttKindSLO, ganttKindMissed:
		return ganttSLO
	case ganttKindBE:
		return ganttBE
	}
	return ganttPreempted
}

func (g *ganttPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	edge := draw.LineStyle{Color: ganttEdge, Width: vg.Points(0.25)}
	missed := draw.LineStyle{Color: ganttMissed, Width: vg.Points(1)}
	cross := draw.LineStyle{Color: ganttEdge, Width: vg.Points(0.4)}
	for _, b := range g.boxes {
		x0, x1, y0, y1 := trX(b.x0), trX(b.x1), trY(b.y0), trY(b.y1)
		box := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}, {X: x0, Y: y0}}
		c.FillPolygon(ganttFill(b.kind), c.ClipPolygonXY(box))
		switch b.kind {
		case ganttKindPreempted:
			c.StrokeLines(cross, c.ClipLinesXY([]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y1}}, []vg.Point{{X: x0, Y: y1}, {X: x1, Y: y0}})...)
			c.StrokeLines(edge, c.ClipLinesXY(box)...)
		case ganttKindMissed:
		default:
			c.StrokeLines(edge, c.ClipLinesXY(box)...)
		}
	}
	// Missed outlines last, so that neighbours do not paint over them.
	for _, b := range g.boxes {
		if b.kind == ganttKindMissed {
			x0, x1, y0, y1 := trX(b.x0), trX(b.x1), trY(b.y0), trY(b.y1)
			c.StrokeLines(missed, c.ClipLinesXY([]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}, {X: x0, Y: y0}})...)
		}
	}
	for _, a := range g.areas {
		fill := ganttFill(a.kind)
		if a.kind == ganttKindMissed {
			fill = ganttMissed
		}
		// One polygon per area (pieces would leave seams): the upper step
		// function forwards, the lower one back; level i holds from xs[i]
		// to xs[i+1].
		n := len(a.xs) - 1
		if n < 1 {
			continue
		}
		pts := make([]vg.Point, 0, 4*n)
		for i := range n {
			pts = append(pts, vg.Point{X: trX(a.xs[i]), Y: trY(a.hi[i])}, vg.Point{X: trX(a.xs[i+1]), Y: trY(a.hi[i])})
		}
		for i := n - 1; i >= 0; i-- {
			pts = append(pts, vg.Point{X: trX(a.xs[i+1]), Y: trY(a.lo[i])}, vg.Point{X: trX(a.xs[i]), Y: trY(a.lo[i])})
		}
		c.FillPolygon(fill, c.ClipPolygonXY(pts))
	}
	band := draw.LineStyle{Color: ganttBand, Width: vg.Points(0.6)}
	for _, y := range g.bands[1:] {
		c.StrokeLine2(band, c.Min.X, trY(y), c.Max.X, trY(y))
	}
	end := draw.LineStyle{Color: ganttBand, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
	c.StrokeLine2(end, trX(g.span), c.Min.Y, trX(g.span), c.Max.Y)
}

func (g *ganttPlotter) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0, g.span, 0, float64(g.nodes)
}

// ganttThumb is a legend entry: a run of kind (summary: an area of it), or
// the end of the span (kind < 0).
type ganttThumb struct {
	kind    ganttKind
	summary bool
}

func (t ganttThumb) Thumbnail(c *draw.Canvas) {
	box := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Max.Y},
		{X: c.Min.X, Y: c.Max.Y}, {X: c.Min.X, Y: c.Min.Y}}
	if t.kind < 0 {
		mid := (c.Min.X + c.Max.X) / 2
		c.StrokeLine2(draw.LineStyle{Color: ganttBand, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(2), vg.Points(2)}},
			mid, c.Min.Y, mid, c.Max.Y)
		return
	}
	fill := ganttFill(t.kind)
	if t.summary && t.kind == ganttKindMissed {
		fill = ganttMissed
	}
	c.FillPolygon(fill, box)
	switch {
	case t.summary:
	case t.kind == ganttKindMissed:
		c.StrokeLines(draw.LineStyle{Color: ganttMissed, Width: vg.Points(1.2)}, box)
	case t.kind == ganttKindPreempted:
		c.StrokeLines(draw.LineStyle{Color: ganttEdge, Width: vg.Points(0.4)},
			[]vg.Point{box[0], box[2]}, []vg.Point{box[1], box[3]})
	}
}

var (
	_ plot.Plotter     = (*ganttPlotter)(nil)
	_ plot.DataRanger  = (*ganttPlotter)(nil)
	_ plot.Thumbnailer = ganttThumb{}
)

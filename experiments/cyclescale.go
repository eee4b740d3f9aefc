package experiments

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/solver"
	"github.com/plannerhq/planner/workloads"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// backlogBusy is the share of the GOOGLE cluster's nodes that runs jobs in
// GoogleBacklog.
const backlogBusy = 0.85

// GoogleBacklog is one scheduling cycle at Google scale with a backlog:
// the GOOGLE cluster (12,583 nodes in six partitions) and two hours of
// SCALABILITY-4000 jobs (the seed's), the first of them running on about
// 85% of the nodes (each started between 0 and 96/97 of its runtime ago),
// the next `pending` waiting, submitted in the ten minutes before now
// (SLO jobs keep their deadline slack). It returns the state, at
// Now = 10 h with the given interval, and the workload's history (for a
// scheduler's Train). Pending beyond what two hours hold is an error.
func GoogleBacklog(seed uint64, pending int, interval time.Duration) (*planner.State, []workloads.Job, error) {
	name := workloads.ScalabilityName(4000)
	p, err := workloads.DefaultParams(name)
	if err != nil {
		return nil, nil, err
	}
	p.Hours, p.Seed = 2, seed
	w, err := workloads.Generate(name, p)
	if err != nil {
		return nil, nil, err
	}
	cl := w.Header.Cluster
	now := 36000.0
	st := &planner.State{Now: now, Cluster: cl, Free: slices.Clone(cl.PartitionNodes), Interval: interval.Seconds()}
	busy, target := 0, int(backlogBusy*float64(cl.TotalNodes()))
	next := 0
	for ; next < len(w.Jobs) && busy < target; next++ {
		j := &w.Jobs[next]
		alloc := make([]int, len(cl.PartitionNodes))
		left := j.Nodes
		for r := range alloc {
			t := min(left, st.Free[r])
			alloc[r], st.Free[r], left = t, st.Free[r]-t, left-t
		}
		if left > 0 { // does not fit the free nodes: it waits instead
			for r, t := range alloc {
				st.Free[r] += t
			}
			continue
		}
		busy += j.Nodes
		frac := float64(next%97) / 97 // how far into its run
		st.Running = append(st.Running, &planner.Running{Job: j, Start: now - frac*j.Runtime, Alloc: alloc})
	}
	for ; next < len(w.Jobs) && len(st.Pending) < pending; next++ {
		j := w.Jobs[next]
		j.Submit = now - float64(len(st.Pending)%600)
		if j.Class == workloads.SLO {
			j.Deadline = j.Submit + (w.Jobs[next].Deadline - w.Jobs[next].Submit)
		}
		st.Pending = append(st.Pending, &planner.Pending{Job: &j})
	}
	if len(st.Pending) < pending {
		return nil, nil, fmt.Errorf("google backlog: %d pending jobs asked, two hours of %s hold %d beside the running ones", pending, name, len(st.Pending))
	}
	return st, w.History, nil
}

// CycleScaleConfig is a cycle-time-against-backlog measurement
// (RunCycleScale).
type CycleScaleConfig struct {
	Pending  []int         // backlog sizes (pending jobs), each ≥ 1
	Cycles   int           // timed cycles per size, ≥ 1
	Seed     uint64        // workload seed (GoogleBacklog)
	Interval time.Duration // time between cycles
	// New builds the scheduler under test from Options (Cluster and
	// Interval are set per size; Horizon, when 0, from Horizon below).
	New     func(planner.Options) (planner.Scheduler, error)
	Options planner.Options
	// Horizon derives the plan-ahead horizon from the workload's history
	// when Options.Horizon is 0 (nil: the policy's default).
	Horizon func(history []workloads.Job, interval time.Duration) time.Duration
}

// CycleScalePoint is the measurement at one backlog size.
type CycleScalePoint struct {
	Pending int `json:"pending"`
	// WallMS are the timed cycles' wall times (ms), in order.
	WallMS []float64 `json:"wall_ms"`
	// CPUMS is the processor time (user + system) of the process and of
	// the solver's workers per timed cycle, ms (the workers are closed
	// before and after the timed cycles, so one worker start-up of about
	// 10 ms is in the total); 0 where it cannot be read. A shared machine
	// inflates the wall time by the wait for a processor, not this.
	CPUMS     float64 `json:"cpu_ms"`
	SolveMS   float64 `json:"solve_ms_median"`
	Options   int     `json:"options"`
	Vars      int     `json:"vars"`
	Rows      int     `json:"rows"`
	Fallbacks int     `json:"fallbacks"`
}

// MedianWallMS is the median of the point's cycle wall times.
func (p CycleScalePoint) MedianWallMS() float64 { return medianOf(p.WallMS) }

// PowerFit is t = Coef·n^Slope fitted by least squares on log t against
// log n; R2 is the coefficient of determination of that fit. Slope ≤ 1
// is linear or better.
type PowerFit struct {
	Slope float64 `json:"slope"`
	Coef  float64 `json:"coef"`
	R2    float64 `json:"r2"`
}

// FitPower fits t = Coef·n^Slope to the points (n_i, t_i), n and t > 0;
// it needs two distinct n.
func FitPower(n, t []float64) (PowerFit, error) {
	if len(n) != len(t) {
		return PowerFit{}, fmt.Errorf("power fit: %d sizes but %d times", len(n), len(t))
	}
	x, y := make([]float64, len(n)), make([]float64, len(t))
	for i := range n {
		if !(n[i] > 0) || !(t[i] > 0) {
			return PowerFit{}, fmt.Errorf("power fit: point %d (%g, %g) is not positive", i, n[i], t[i])
		}
		x[i], y[i] = math.Log(n[i]), math.Log(t[i])
	}
	if len(x) < 2 || slices.Min(x) == slices.Max(x) {
		return PowerFit{}, errors.New("power fit: needs two distinct sizes")
	}
	a, b := stat.LinearRegression(x, y, nil, false)
	return PowerFit{Slope: b, Coef: math.Exp(a), R2: stat.RSquared(x, y, nil, a, b)}, nil
}

// RunCycleScale measures a scheduler's cycle against GoogleBacklog at
// each size of cfg.Pending: a fresh scheduler, trained on the history,
// runs one untimed cycle (its estimates and first plan), then cfg.Cycles
// timed cycles, each one interval later on the same backlog (decisions
// are not carried out: a steady backlog). progress, if not nil, gets each
// point when it is done.
func RunCycleScale(ctx context.Context, cfg CycleScaleConfig, progress func(CycleScalePoint)) ([]CycleScalePoint, error) {
	if cfg.Cycles < 1 {
		return nil, fmt.Errorf("cycle scale: %d timed cycles, want ≥ 1", cfg.Cycles)
	}
	if cfg.Interval <= 0 {
		return nil, fmt.Errorf("cycle scale: interval %s, want > 0", cfg.Interval)
	}
	var pts []CycleScalePoint
	for _, n := range cfg.Pending {
		if n < 1 {
			return nil, fmt.Errorf("cycle scale: %d pending jobs, want ≥ 1", n)
		}
		st, history, err := GoogleBacklog(cfg.Seed, n, cfg.Interval)
		if err != nil {
			return nil, err
		}
		o := cfg.Options
		o.Cluster, o.Interval = st.Cluster, cfg.Interval
		if o.Horizon == 0 && cfg.Horizon != nil {
			o.Horizon = cfg.Horizon(history, cfg.Interval)
		}
		s, err := cfg.New(o)
		if err != nil {
			return nil, fmt.Errorf("cycle scale at %d pending: %w", n, err)
		}
		s.Train(history)
		if _, err := s.Schedule(ctx, st); err != nil {
			return nil, fmt.Errorf("cycle scale at %d pending: %w", n, err)
		}
		pt := CycleScalePoint{Pending: n}
		var solves []float64
		// The solver's workers count once they have exited.
		solver.CloseIdleWorkers()
		cpu0 := ProcessTreeCPU()
		for range cfg.Cycles {
			st.Now += st.Interval
			t0 := time.Now()
			d, err := s.Schedule(ctx, st)
			wall := time.Since(t0)
			if err != nil {
				return nil, fmt.Errorf("cycle scale at %d pending: %w", n, err)
			}
			pt.WallMS = append(pt.WallMS, float64(wall)/1e6)
			solves = append(solves, float64(d.Stats.Solve)/1e6)
			pt.Options, pt.Vars, pt.Rows = d.Stats.Options, d.Stats.Vars, d.Stats.Rows
			if d.Stats.Fallback {
				pt.Fallbacks++
			}
		}
		solver.CloseIdleWorkers()
		pt.CPUMS = float64(ProcessTreeCPU()-cpu0) / 1e6 / float64(cfg.Cycles)
		pt.SolveMS = medianOf(solves)
		pts = append(pts, pt)
		if progress != nil {
			progress(pt)
		}
	}
	return pts, nil
}

// FitCycleScale fits the points' median wall time and, when every point
// has one, their processor time against the backlog (FitPower); cpuOK
// says whether the second fit exists.
func FitCycleScale(pts []CycleScalePoint) (wall, cpu PowerFit, cpuOK bool, err error) {
	n, w, c := make([]float64, len(pts)), make([]float64, len(pts)), make([]float64, len(pts))
	cpuOK = true
	for i, p := range pts {
		n[i], w[i], c[i] = float64(p.Pending), p.MedianWallMS(), p.CPUMS
		cpuOK = cpuOK && p.CPUMS > 0
	}
	if wall, err = FitPower(n, w); err != nil {
		return PowerFit{}, PowerFit{}, false, err
	}
	if cpuOK {
		if cpu, err = FitPower(n, c); err != nil {
			return PowerFit{}, PowerFit{}, false, err
		}
	}
	return wall, cpu, cpuOK, nil
}

// WriteCycleScaleChart draws the cycle time against the pending jobs as a
// PNG on log–log axes (3Sigma §6.5): every timed cycle's wall time as a
// point, the median wall time and the processor time per size as lines,
// and each fitted power law (FitCycleScale) dashed, its slope in the
// legend, with the slope-1 (linear) line through the smallest size's
// median for reference.
func WriteCycleScaleChart(w io.Writer, pts []CycleScalePoint) error {
	if len(pts) == 0 {
		return errors.New("cycle scale chart: no point")
	}
	wallFit, cpuFit, cpuOK, err := FitCycleScale(pts)
	if err != nil {
		return fmt.Errorf("cycle scale chart: %w", err)
	}
	p := plot.New()
	p.Title.Text = "Scheduling cycle against the backlog"
	p.X.Label.Text = "pending jobs (log scale)"
	p.Y.Label.Text = "cycle time (ms, log scale)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	var ticks []plot.Tick // a labelled tick at every size measured
	for _, pt := range pts {
		ticks = append(ticks, plot.Tick{Value: float64(pt.Pending), Label: strconv.Itoa(pt.Pending)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	var all, med, cpu plotter.XYs
	lo, hi := math.Inf(1), 0.0
	for _, pt := range pts {
		x := float64(pt.Pending)
		for _, v := range pt.WallMS {
			all = append(all, plotter.XY{X: x, Y: max(v, 1e-3)})
			lo, hi = min(lo, v), max(hi, v)
		}
		med = append(med, plotter.XY{X: x, Y: max(pt.MedianWallMS(), 1e-3)})
		if cpuOK {
			cpu = append(cpu, plotter.XY{X: x, Y: pt.CPUMS})
			lo, hi = min(lo, pt.CPUMS), max(hi, pt.CPUMS)
		}
	}
	fitLine := func(f PowerFit) plotter.XYs {
		xs := plotter.XYs{}
		for _, pt := range []float64{float64(pts[0].Pending), float64(pts[len(pts)-1].Pending)} {
			xs = append(xs, plotter.XY{X: pt, Y: f.Coef * math.Pow(pt, f.Slope)})
		}
		return xs
	}
	sc, err := plotter.NewScatter(all)
	if err != nil {
		return fmt.Errorf("cycle scale chart: %w", err)
	}
	sc.Color = lineColors[0]
	sc.Radius = vg.Points(1.5)
	p.Add(sc)
	p.Legend.Add("each cycle, wall", sc)
	series := []scaleSeries{
		{med, 0, false, "median wall"},
		{fitLine(wallFit), 0, true, fmt.Sprintf("fit: wall ~ n^%.2f (R² %.3f)", wallFit.Slope, wallFit.R2)},
	}
	if cpuOK {
		series = append(series,
			scaleSeries{cpu, 1, false, "processor time with solver workers"},
			scaleSeries{fitLine(cpuFit), 1, true, fmt.Sprintf("fit: processor ~ n^%.2f (R² %.3f)", cpuFit.Slope, cpuFit.R2)})
	}
	linear := PowerFit{Slope: 1, Coef: med[0].Y / med[0].X}
	series = append(series, scaleSeries{fitLine(linear), 2, true, "linear (slope 1) for reference"})
	for _, s := range series {
		l, err := plotter.NewLine(s.xy)
		if err != nil {
			return fmt.Errorf("cycle scale chart: %w", err)
		}
		l.Color = lineColors[s.color%len(lineColors)]
		l.Width = vg.Points(1.2)
		if s.dash {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		}
		p.Add(l)
		p.Legend.Add(s.label, l)
		for _, xy := range s.xy {
			lo, hi = min(lo, xy.Y), max(hi, xy.Y)
		}
	}
	lo = max(lo, 1e-3)
	p.Y.Min, p.Y.Max = lo/1.5, hi*1.5
	p.X.Min, p.X.Max = float64(pts[0].Pending)/1.2, float64(pts[len(pts)-1].Pending)*1.2
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	p.Add(plotter.NewGrid())
	img := vgimg.New(7*vg.Inch, 5*vg.Inch)
	p.Draw(draw.New(img))
	_, err = vgimg.PngCanvas{Canvas: img}.WriteTo(w)
	return err
}

// scaleSeries is a line of the cycle scale chart: its points, colour
// index, dashed or not, and legend.
type scaleSeries struct {
	xy    plotter.XYs
	color int
	dash  bool
	label string
}

// medianOf is the median of x (NaN for none; x is not modified).
func medianOf(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	s := slices.Clone(x)
	slices.Sort(s)
	return median(s)
}

package service

import (
	_ "embed"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"slices"
	"time"

	"github.com/plannerhq/planner/workloads"
)

// The operator page (GET /): a read-only view of the service, rendered on
// the server (no script), that reloads itself every interval (2–30 s). It
// shows the plan ahead as a Gantt chart per partition (runs under way to
// their predicted median end, with a whisker to the 90th percentile, and
// the starts the last plan foresees), the pending jobs with their
// predicted runtimes and deadlines, the recent decisions and cycles.
// Elements carry data- attributes naming jobs and partitions, so that a
// test can compare the page with the API.

//go:embed page.html
var pageHTML string

var pageTmpl = template.Must(template.New("page").Funcs(template.FuncMap{
	"f1": func(v float64) string { return fmt.Sprintf("%.1f", v) },
	"secs": func(v float64) string {
		return (time.Duration(math.Round(v)) * time.Second).String()
	},
	"add": func(a, b float64) float64 { return a + b },
	"mid": func(y, h float64) float64 { return y + h/2 },
}).Parse(pageHTML))

// Bounds of what the page draws, so that it stays light with thousands of
// jobs waiting.
const (
	pagePending   = 200
	pageDecisions = 50
	pageCycles    = 20
	pageBars      = 2000
	ganttWidth    = 1200.0
	ganttLabelW   = 70.0
	ganttAxisH    = 22.0
)

type pageData struct {
	Scheduler, Clock, Now, Version string
	Refresh                        int
	Cycle                          uint64
	Pending, Starting, Running     int
	Completed, Failed, Cancelled   int
	Free, Available                int
	Fallbacks, TimeLimited         int
	Partitions                     []PartitionView
	Gantt                          gantt
	PendingJobs                    []pendingRow
	MorePending                    int
	Decisions                      []DecisionView
	Cycles                         []CycleView
}

type pendingRow struct {
	Job, Class, Submitted, Deadline string
	Nodes                           int
	Wait                            float64
	Pred                            PredictionView
	Slack                           string // time to the deadline minus the predicted median
}

type gantt struct {
	Width, Height, LabelW, AxisH, NowX float64
	RowW                               float64 // width of the time axis
	Ticks                              []tick
	Rows                               []ganttRow
	Bars                               int
}

type tick struct {
	X     float64
	Label string
}

type ganttRow struct {
	Name     string
	Y, H     float64
	Nodes    int
	Bars     []ganttBar
	LabelY   float64
	Capacity string
}

type ganttBar struct {
	Job, Class, Kind, Title string
	X, Y, W, H, P90X        float64
	Nodes                   int
}

// handlePage: GET /.
func (s *Service) handlePage(w http.ResponseWriter, r *http.Request) {
	now := s.clock.now()
	refresh := int(math.Round(min(30, max(2, s.cfg.Interval.Seconds()))))
	s.mu.RLock()
	d := s.pageData(now, refresh)
	s.mu.RUnlock()
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:")
	h.Set("Refresh", fmt.Sprint(refresh))
	if err := pageTmpl.Execute(w, d); err != nil {
		s.log.Debug().Err(err).Msg("writing the operator page")
	}
}

// pageData gathers the page under the state's read lock.
func (s *Service) pageData(now float64, refresh int) *pageData {
	st := s.st
	d := &pageData{Scheduler: s.cfg.Scheduler, Clock: s.cfg.Clock.String(), Now: st.tl.format(now),
		Version: s.cfg.Version, Refresh: refresh, Cycle: st.cycle,
		Pending: st.counts[statusPending], Starting: st.counts[statusStarting], Running: st.counts[statusRunning],
		Completed: st.counts[statusCompleted], Failed: st.counts[statusFailed], Cancelled: st.counts[statusCancelled]}
	cv := st.clusterView()
	d.Partitions = cv.Partitions
	for _, p := range cv.Partitions {
		d.Free += p.Free
		d.Available += p.Available
	}
	for _, c := range st.cycles {
		if c.Fallback {
			d.Fallbacks++
		}
		if c.TimeLimited {
			d.TimeLimited++
		}
	}
	for i, js := range st.pendingByPrio() {
		if i == pagePending {
			d.MorePending = len(st.books.Pending()) - pagePending
			break
		}
		row := pendingRow{Job: js.key, Class: js.job.Class.String(), Submitted: st.tl.format(js.job.Submit),
			Nodes: js.job.Nodes, Wait: max(0, now-js.job.Submit), Pred: js.pred}
		if js.job.Class == workloads.SLO {
			row.Deadline = st.tl.format(js.job.Deadline)
			row.Slack = (time.Duration(math.Round(js.job.Deadline-now-js.p50())) * time.Second).String()
		}
		d.PendingJobs = append(d.PendingJobs, row)
	}
	for i := len(st.feed) - 1; i >= 0 && len(d.Decisions) < pageDecisions; i-- {
		d.Decisions = append(d.Decisions, st.feedView(st.feed[i]))
	}
	for i := len(st.cycles) - 1; i >= 0 && len(d.Cycles) < pageCycles; i-- {
		d.Cycles = append(d.Cycles, st.cycles[i])
	}
	d.Gantt = st.gantt(now, st.planView(now, s.cfg.Scheduler))
	return d
}

// gantt lays out the plan as one row per partition: time on x from a
// little before now to the latest predicted end (at least ten minutes,
// at most a day ahead); within a row, each run is a box as tall as its
// nodes there, stacked first-fit so that boxes that overlap in time do
// not overlap in nodes.
func (st *state) gantt(now float64, plan PlanView) gantt {
	g := gantt{Width: ganttWidth, LabelW: ganttLabelW, AxisH: ganttAxisH, RowW: ganttWidth - ganttLabelW - 10}
	type run struct {
		pv   PlannedView
		kind string
	}
	var runs []run
	end := now + 600
	for _, pv := range plan.Running {
		runs = append(runs, run{pv, "running"})
		end = max(end, pv.EndP90S)
	}
	for _, pv := range plan.Planned {
		runs = append(runs, run{pv, "planned"})
		end = max(end, pv.EndP90S)
	}
	end = min(end, now+86400)
	start := now - 0.1*(end-now)
	x := func(t float64) float64 {
		t = min(max(t, start), end)
		return g.LabelW + (t-start)/(end-start)*g.RowW
	}
	g.NowX = x(now)
	step := tickStep(end - start)
	for t := math.Ceil((start-now)/step) * step; now+t <= end; t += step {
		label := "now"
		if t != 0 {
			label = fmt.Sprintf("%+g min", math.Round(t/60*10)/10)
		}
		g.Ticks = append(g.Ticks, tick{X: x(now + t), Label: label})
	}
	y := g.AxisH
	for _, p := range plan.Cluster.Partitions {
		nodes := max(p.Nodes, p.Used, 1)
		h := min(160, max(28, 3*float64(nodes)))
		row := ganttRow{Name: p.Name, Y: y, H: h, Nodes: p.Nodes, LabelY: y + h/2 + 4,
			Capacity: fmt.Sprintf("%s: %d nodes, %d available, %d used, %d free", p.Name, p.Nodes, p.Available, p.Used, p.Free)}
		type placed struct{ t0, t1, lo, hi float64 }
		var done []placed
		for _, rn := range runs {
			k := 0
			for _, a := range rn.pv.Alloc {
				if a.Partition == p.Name {
					k = a.Nodes
				}
			}
			if k == 0 || g.Bars >= pageBars {
				continue
			}
			t0, t1 := rn.pv.StartS, rn.pv.EndP50S
			// The lowest node offset whose band is free over [t0, t1).
			off := 0.0
			for {
				moved := false
				for _, q := range done {
					if q.t0 < t1 && t0 < q.t1 && q.lo < off+float64(k) && off < q.hi {
						off, moved = q.hi, true
					}
				}
				if !moved || off+float64(k) > float64(nodes) {
					break
				}
			}
			if off+float64(k) > float64(nodes) {
				off = 0 // more than the partition holds over time: draw over
			}
			done = append(done, placed{t0, t1, off, off + float64(k)})
			px := h / float64(nodes)
			b := ganttBar{Job: rn.pv.Job, Class: rn.pv.Class, Kind: rn.kind, Nodes: k,
				X: x(t0), W: max(1, x(t1)-x(t0)), P90X: x(rn.pv.EndP90S),
				Y: y + off*px, H: max(1, float64(k)*px-0.5)}
			b.Title = fmt.Sprintf("%s (%s, %s): %d nodes of %s from %s, predicted end %s (p90 %s)",
				rn.pv.Job, rn.pv.Class, rn.kind, k, p.Name, rn.pv.Start, st.tl.format(t1), st.tl.format(rn.pv.EndP90S))
			row.Bars = append(row.Bars, b)
			g.Bars++
		}
		g.Rows = append(g.Rows, row)
		y += h + 6
	}
	g.Height = y + 4
	return g
}

// tickStep is a round step for about eight ticks over span seconds.
func tickStep(span float64) float64 {
	steps := []float64{60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200}
	i := slices.IndexFunc(steps, func(s float64) bool { return span/s <= 8 })
	if i < 0 {
		return 86400
	}
	return steps[i]
}

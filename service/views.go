package service

import (
	"math"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/estimate"
	"github.com/plannerhq/planner/workloads"
)

// The views are built under the state's read lock.

// predictionView summarises 3σPredict's answer for f as the planners use
// it: a job without history is planned at estimate.DefaultRuntime.
func predictionView(p estimate.Sigma, f workloads.Features) PredictionView {
	pr := p.Prediction(f)
	v := PredictionView{Source: pr.Source.String(), History: pr.History}
	if pr.Source == distributions.SourceNone || pr.Dist == nil || !finite(pr.Estimate) {
		v.Source = distributions.SourceNone.String()
		v.EstimateS = estimate.DefaultRuntime
		return v
	}
	if pr.Source == distributions.SourceExpert {
		v.Expert = pr.Expert.Feature.String() + " " + pr.Expert.Estimator.String()
	} else {
		v.Expert = pr.Expert.Estimator.String()
	}
	v.EstimateS = pr.Estimate
	d := pr.Dist
	v.RuntimeS = &Quantiles{Mean: d.Mean(), P10: d.Quantile(0.1), P50: d.Quantile(0.5), P90: d.Quantile(0.9), P99: d.Quantile(0.99)}
	return v
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// p50 and p90 are a job's predicted median and 90th-percentile runtimes
// (seconds), the default runtime without history.
func (js *jobState) p50() float64 {
	if q := js.pred.RuntimeS; q != nil {
		return q.P50
	}
	return js.pred.EstimateS
}

func (js *jobState) p90() float64 {
	if q := js.pred.RuntimeS; q != nil {
		return q.P90
	}
	return js.pred.EstimateS
}

func (st *state) allocView(alloc []int) []AllocView {
	var out []AllocView
	for r, k := range alloc {
		if k > 0 {
			out = append(out, AllocView{Partition: st.cluster.PartitionName(r), Nodes: k})
		}
	}
	return out
}

func (st *state) jobView(js *jobState) JobView {
	j := &js.job
	v := JobView{ID: js.key, State: js.status.String(), User: j.Features.User, Name: j.Features.Name,
		App: j.Features.App, Nodes: j.Nodes, Class: j.Class.String(), Value: j.Value,
		Resources: j.Features.Resources, TimeLimitS: j.Requested, Submitted: st.tl.format(j.Submit),
		Prediction: js.pred, Preemptions: js.preemptions, Events: make([]EventView, len(js.events))}
	if j.Class == workloads.SLO {
		v.Deadline = st.tl.format(j.Deadline)
	}
	for _, r := range j.Preferred {
		v.Preferred = append(v.Preferred, st.cluster.PartitionName(r))
	}
	if js.status != statusPending && js.alloc != nil {
		v.Start = st.tl.format(js.start)
		v.Alloc = st.allocView(js.alloc)
	}
	if js.status == statusCompleted {
		v.End = st.tl.format(js.end)
		rt := js.runtime
		v.RuntimeS = &rt
	}
	for i, e := range js.events {
		ev := EventView{Seq: e.seq, Type: e.typ, Time: st.tl.format(e.at), Reason: e.reason}
		if e.typ == evCompleted {
			rt := e.runtime
			ev.RuntimeS = &rt
		}
		v.Events[i] = ev
	}
	return v
}

func (st *state) feedView(it *feedItem) DecisionView {
	v := DecisionView{Seq: it.seq, Time: st.tl.format(it.at), Cycle: it.cycle, Action: "start",
		Job: it.job.key, Acknowledged: it.acked}
	if it.preempt {
		v.Action = "preempt"
	} else {
		v.Alloc = st.allocView(it.alloc)
		if it.shortest > 0 {
			sh := it.shortest
			v.ShortestRuntimeS = &sh
		}
	}
	return v
}

func (st *state) clusterView() ClusterView {
	v := ClusterView{Name: st.cluster.Name, Slowdown: st.cluster.Slowdown, Partitions: make([]PartitionView, len(st.caps))}
	for r, c := range st.caps {
		v.Partitions[r] = PartitionView{Name: st.cluster.PartitionName(r), Speed: st.cluster.Speed(r),
			Nodes: c.Nodes, Drained: c.Drained, Lost: c.Lost, Available: c.available(), Used: st.books.Used(r),
			Free: max(0, c.available()-st.books.Used(r))}
	}
	return v
}

// planView is the plan ahead: the runs under way to their predicted ends,
// then the starts the last cycle's plan foresees that still wait.
func (st *state) planView(now float64, scheduler string) PlanView {
	v := PlanView{Now: st.tl.format(now), Scheduler: scheduler, Cluster: st.clusterView(), Pending: len(st.books.Pending()),
		Running: []PlannedView{}, Planned: []PlannedView{}}
	if n := len(st.cycles); n > 0 {
		c := st.cycles[n-1]
		v.LastCycle = &c
	}
	for _, js := range st.holding() {
		pv := st.plannedView(js, js.start, js.alloc)
		pv.Acked = js.status == statusRunning
		v.Running = append(v.Running, pv)
	}
	for _, p := range st.plan {
		js := st.byID[p.JobID]
		if js == nil || js.status != statusPending {
			continue
		}
		pv := st.plannedView(js, p.At, p.Alloc)
		pv.PlannedBy = st.planCycle
		v.Planned = append(v.Planned, pv)
	}
	return v
}

func (st *state) plannedView(js *jobState, start float64, alloc []int) PlannedView {
	f := st.cluster.Factor(&js.job, alloc) // a run's runtime factor off its preferred nodes or on slower ones
	pv := PlannedView{Job: js.key, Class: js.job.Class.String(), Start: st.tl.format(start), StartS: start,
		EndP50S: start + f*js.p50(), EndP90S: start + f*js.p90(), Alloc: st.allocView(alloc)}
	if js.job.Class == workloads.SLO {
		pv.Deadline = st.tl.format(js.job.Deadline)
	}
	return pv
}

// pendingByPrio are the pending jobs in priority order
// (planner.ComparePrio): SLO jobs by deadline, then best-effort jobs by
// submit time.
func (st *state) pendingByPrio() []*jobState {
	ps := planner.PrioOrder(st.books.Pending()) // a sorted copy
	out := make([]*jobState, len(ps))
	for i, p := range ps {
		out[i] = st.byID[p.Job.ID]
	}
	return out
}

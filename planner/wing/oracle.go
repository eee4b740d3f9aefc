package wing

import (
	"github.com/plannerhq/planner/workloads"
	"github.com/plannerhq/planner/workloads/datalake"
)

// TrueValue is a window job's value as an oracle knows it: from the true
// dependencies between window jobs and their real-world downloads and
// times, aggregated as the profiler aggregates the history (Owl's
// functions, dependents within ω of the job's real-world end).
type TrueValue struct {
	Local      float64 `json:"local_value"`
	AggValue   float64 `json:"agg_value"`
	Compute    float64 `json:"compute_hours"`
	AggCompute float64 `json:"agg_compute_hours"`
	// Efficiency and DirectEfficiency are the aggregate and job-local
	// value efficiencies the oracle schedulers rank by.
	Efficiency       float64 `json:"efficiency"`
	DirectEfficiency float64 `json:"direct_efficiency"`
}

// Oracle is the true value of each window job (jobs and tr from
// datalake.Lake's WindowJobs and Truth, in their order), for the oracle
// variants of Wing's schedulers.
func Oracle(jobs []workloads.Job, tr *datalake.Truth, valueWindow float64) []TrueValue {
	idx := make(map[int]int, len(jobs))
	local := make([]float64, len(jobs))
	compute := make([]float64, len(jobs))
	for i := range jobs {
		idx[jobs[i].ID] = i
		local[i] = float64(tr.Jobs[i].Value())
		compute[i] = float64(jobs[i].Nodes) * jobs[i].Runtime / datalake.Hour
	}
	var edges []Edge
	for _, e := range tr.Edges() {
		edges = append(edges, Edge{Up: idx[e[0]], Down: idx[e[1]]})
	}
	keep := func(job, depOn int) bool { return tr.Jobs[job].RealStart-tr.Jobs[depOn].RealEnd <= valueWindow }
	rows, _ := MultiHop(edges, Owl, keep, nil)
	agg, aggC := Downstream(local, rows), Downstream(compute, rows)
	out := make([]TrueValue, len(jobs))
	for i := range out {
		out[i] = TrueValue{
			Local: local[i], AggValue: agg[i], Compute: compute[i], AggCompute: aggC[i],
			Efficiency: ratio(agg[i], aggC[i]), DirectEfficiency: ratio(local[i], compute[i]),
		}
	}
	return out
}

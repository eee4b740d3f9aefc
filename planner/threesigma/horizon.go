package threesigma

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/plannerhq/planner/workloads"
)

// HorizonFor is the plan-ahead horizon for a workload whose history is
// given, at a scheduling interval (a driver uses it when no horizon is
// set; Config.Horizon): the runtime at which half the history's work
// (Σ nodes × runtime) lies in shorter jobs, the work-weighted median,
//
//	h = min r such that Σ_{runtime ≤ r} nodes × runtime ≥ ½ Σ nodes × runtime,
//
// so that the plan sees the ends of the jobs that hold most of the
// cluster; but at least the default horizon of DefaultSlices intervals
// and at most MaxSlices intervals, rounded up to a whole interval. With
// no history (or no interval) it is the default horizon.
//
// On the Google-like workload half the work lies in jobs under an hour,
// and the horizon stays the default 1 h; on HPC logs it lies in jobs of
// hours (the 24 h KTH SP2 windows: 8.9 h).
func HorizonFor(history []workloads.Job, interval time.Duration) time.Duration {
	if interval <= 0 {
		interval = time.Duration(DefaultInterval * float64(time.Second))
	}
	lo, hi := DefaultSlices*interval, MaxSlices*interval
	type run struct{ runtime, work float64 }
	runs := make([]run, 0, len(history))
	total := 0.0
	for i := range history {
		j := &history[i]
		w := float64(j.Nodes) * j.Runtime
		if !(w > 0) || math.IsInf(w, 0) {
			continue
		}
		runs = append(runs, run{j.Runtime, w})
		total += w
	}
	if total == 0 {
		return lo
	}
	slices.SortFunc(runs, func(a, b run) int { return cmp.Compare(a.runtime, b.runtime) })
	med, sum := runs[len(runs)-1].runtime, 0.0
	for _, r := range runs {
		if sum += r.work; sum >= total/2 {
			med = r.runtime
			break
		}
	}
	h := time.Duration(math.Ceil(med/interval.Seconds())) * interval
	return min(hi, max(lo, h))
}

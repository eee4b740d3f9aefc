package traces

import (
	"fmt"
	"math"
	"sort"

	"github.com/plannerhq/planner/workloads"
)

// LoadTolerance is how far the offered load of a window cut for a target
// load (Options.Load with Options.Hours) may lie from that target: ±0.05,
// and ±5% of a target below 1 (loadBand). A window holds whole jobs, so
// its work moves in steps of one job's node-seconds; the target is met to
// the nearest step within this band.
const LoadTolerance = 0.05

// loadBand is the half-width of the band around target load L (see
// LoadTolerance).
func loadBand(L float64) float64 { return LoadTolerance * min(L, 1) }

// FewJobs is the job count below which a window is a thin sample of its
// trace (the importer warns).
const FewJobs = 200

// window is where Build cuts the sorted trace: records [from, to) are the
// window, the earlier ones history, the later ones left out. Trace time
// start maps to window time 0 and trace time t to (t − start)·factor; the
// window covers the trace times [start, end) and lasts windowS seconds.
type window struct {
	from, to   int
	start, end float64
	factor     float64
	windowS    float64
	// moved is how many kept jobs at or after the asked start went to the
	// history because no run of whole jobs from there met the load.
	moved int
}

// cutByTime is the window [start, start + Hours) of the trace's own
// arrivals, or [start, past the last submit] when Hours is 0.
func cutByTime(recs []Record, start float64, o Options) window {
	end := start + o.Hours*3600
	if o.Hours == 0 {
		end = math.Max(recs[len(recs)-1].Submit+1, start+1) // past the last submit
	}
	return window{
		from: firstAt(recs, start), to: firstAt(recs, end),
		start: start, end: end, factor: 1, windowS: end - start,
	}
}

// firstAt is the index of the first record submitted at or after t.
func firstAt(recs []Record, t float64) int {
	return sort.Search(len(recs), func(i int) bool { return recs[i].Submit >= t })
}

// cutForLoad is the window of Hours at offered load Load (o.Hours and
// o.Load > 0) cut from the used jobs at or after start (Build, step 3).
// Without such jobs it is cutByTime's, whose emptiness Build explains.
// The error, a *workloads.FieldError on Hours matching ErrLoadUnmet, says
// why no window meets the load; source names the trace in it.
func cutForLoad(recs []Record, cands []candidate, start float64, o Options, source string) (window, error) {
	from := firstAt(recs, start)
	var idx []int // the used jobs from start on, by their index in recs
	var sub, work []float64
	for i := from; i < len(recs); i++ {
		if cands[i].used() {
			idx = append(idx, i)
			sub = append(sub, recs[i].Submit)
			work = append(work, float64(cands[i].job.Nodes)*cands[i].job.Runtime)
		}
	}
	if len(idx) == 0 {
		return cutByTime(recs, start, o), nil
	}
	windowS := o.Hours * 3600
	if windowS > workloads.MaxSeconds {
		return window{}, workloads.BadField("Hours", "hours", "%v makes the window last %.3g s, more than %g s; ask for a shorter window",
			o.Hours, windowS, float64(workloads.MaxSeconds))
	}
	capacity := float64(o.Nodes) * windowS // node-seconds
	target, tol := o.Load*capacity, loadBand(o.Load)*capacity
	// From the default start (the middle of the trace) the window is a
	// real sample when some start allows: at least FewJobs jobs, the
	// first such run from the middle on; an asked start is kept.
	i, k, ok := 0, 0, false
	if o.StartHours < 0 {
		i, k, ok = loadRun(sub, work, target, tol, FewJobs)
	}
	if !ok {
		i, k, ok = loadRun(sub, work, target, tol, 1)
	}
	if !ok {
		return window{}, loadUnmet(sub, work, start-recs[0].Submit, capacity, o, source)
	}
	c := window{from: from, to: len(recs), start: start, factor: 1, windowS: windowS, moved: i}
	if i > 0 {
		c.start = sub[i]
		c.from = firstAt(recs, sub[i])
	}
	span := runSpan(sub, c.start, i, k)
	c.end = c.start + span
	if k < len(sub) {
		c.end, c.to = sub[k], firstAt(recs, sub[k])
	}
	if span > 0 {
		c.factor = windowS / span
	}
	return c, nil
}

// loadUnmet explains why loadRun found no run (cutForLoad): the jobs
// from the window start (startS after the first submit) to the trace's
// end carry too little work, or the job that crosses the target from
// every start overshoots the band.
func loadUnmet(sub, work []float64, startS, capacity float64, o Options, source string) error {
	total, largest := 0.0, 0.0
	for _, w := range work {
		total += w
		largest = max(largest, w)
	}
	var problem string
	if total < (o.Load-loadBand(o.Load))*capacity {
		hint := "a lower load"
		if startS > 0 {
			hint += " or an earlier start"
		}
		if h := math.Floor(total/(o.Load*float64(o.Nodes)*3600)*100) / 100; h >= minHours {
			hint = fmt.Sprintf("at most %g hours, %s", h, hint)
		}
		problem = fmt.Sprintf("%v at load %v needs %.3g node-seconds of jobs on %d nodes, but %s runs out: its %s from the window start (%.2f h) to its end carry %.3g (load %.3g over %v h); ask for %s",
			o.Hours, o.Load, o.Load*capacity, o.Nodes, source, jobsText(len(work)), startS/3600, total, total/capacity, o.Hours, hint)
	} else {
		problem = fmt.Sprintf("%v at load %v: no run of whole jobs of %s from the window start (%.2f h) on carries load %v ± %.3g over %v h; the jobs that cross it are too large (the largest alone carries load %.3g) and the trace runs out; ask for more hours or an earlier start",
			o.Hours, o.Load, source, startS/3600, o.Load, loadBand(o.Load), o.Hours, largest/capacity)
	}
	return &workloads.FieldError{Field: "Hours", Name: "hours", Problem: problem, Err: ErrLoadUnmet}
}

// jobsText is "1 job" or "n jobs".
func jobsText(n int) string {
	if n == 1 {
		return "1 job"
	}
	return fmt.Sprintf("%d jobs", n)
}

// loadRun is the run of consecutive jobs [i, k) of a trace whose work is
// nearest to target within ±tol, for a window cut to a target load. sub
// are the jobs' submit times (non-decreasing), work their node-seconds
// (> 0). A run neither starts nor ends inside a group of equal submit
// times, since no arrival factor can split one. The run starts at job 0
// when some run from there is within the band, else at the first later
// start from which one is (the jobs before it become history); among the
// runs within the band from that start, the one nearest to target wins,
// the shortest on a tie. ok is false when no run is within the band: the
// jobs from every start run out below target − tol, or overshoot
// target + tol with the job that crosses it. A run must hold at least
// minJobs jobs (FewJobs for a window that should be a real sample of the
// trace, 1 for any); starts whose runs hold fewer are passed over.
//
// The work of the first qualifying end only shrinks as the start moves
// on, so that end never moves back: the search is linear in len(sub) plus
// the runs it compares within the band.
func loadRun(sub, work []float64, target, tol float64, minJobs int) (i, k int, ok bool) {
	n := len(sub)
	pre := make([]float64, n+1) // pre[j]: work of jobs 0…j−1
	for j, w := range work {
		pre[j+1] = pre[j] + w
	}
	// boundary: a run may start or end before job j.
	boundary := func(j int) bool { return j == 0 || j == n || sub[j] > sub[j-1] }
	for i = 0; i < n; i++ {
		if !boundary(i) {
			continue
		}
		k = max(k, i+1)
		for k <= n && !(boundary(k) && pre[k]-pre[i] >= target-tol) {
			k++
		}
		if k > n {
			return 0, 0, false // the trace runs out from here and every later start
		}
		if pre[k]-pre[i] > target+tol {
			continue // the job that crosses the band overshoots it
		}
		best := k
		for c := k + 1; c <= n && pre[c]-pre[i] <= target+tol; c++ {
			if boundary(c) && math.Abs(pre[c]-pre[i]-target) < math.Abs(pre[best]-pre[i]-target) {
				best = c
			}
		}
		if best-i < minJobs {
			continue // too few jobs from this start
		}
		return i, best, true
	}
	return 0, 0, false
}

// runSpan is the trace time a run of jobs [i, k) stands for, from start
// (≤ sub[i]) on: up to the next job's submit, which the arrival factor
// puts at the window's end. A run that ends the trace is given one more
// of its mean inter-arrival gaps; 0 when all its jobs come at start.
func runSpan(sub []float64, start float64, i, k int) float64 {
	if k < len(sub) {
		return sub[k] - start
	}
	span := sub[k-1] - start
	if k-i > 1 {
		span += (sub[k-1] - sub[i]) / float64(k-i-1)
	}
	return span
}

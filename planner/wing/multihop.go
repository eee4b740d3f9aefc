package wing

import (
	"cmp"
	"slices"
)

// Row is one tuple (job, depOn, wt) of Algorithm 1's tables: job depends
// on depOn, directly or through other jobs, and wt aggregates the weights
// of the paths between them found so far.
type Row struct {
	Job, DepOn int
	Wt         float64
}

// Aggregation is a downstream multi-hop analysis's aggregation functions
// (§4.4).
type Aggregation struct {
	// Weight is wt_fn: the weight of each in-edge of a job with n
	// upstream jobs.
	Weight func(n int) float64
	// Edge is e_op, joining a path's weight to the weight of the path it
	// extends; it must distribute over Path.
	Edge func(a, b float64) float64
	// Path is p_op, aggregating the weights of two paths between the same
	// pair; it must be associative.
	Path func(a, b float64) float64
}

// Owl is the aggregation of Owl's equal-contribution valuation (§4.5.2):
// a job with N upstream jobs gives each 1/N of its value, weights
// multiply along a path and add over paths.
var Owl = Aggregation{
	Weight: func(n int) float64 { return 1 / float64(n) },
	Edge:   func(a, b float64) float64 { return a * b },
	Path:   func(a, b float64) float64 { return a + b },
}

// MultiHop runs Algorithm 1 on the single-hop dependencies edges: it
// returns the converged base table — every pair (job, depOn) with depOn
// reachable upstream of job, wt aggregated over all paths (for Owl, Σ
// over paths of Π over edges of 1/N) — sorted by (Job, DepOn), and the
// number of iterations, ⌊log₂ diameter⌋ + 1 for a DAG whose longest path
// has diameter ≥ 1 edges (0 without edges). keep, when not nil, prunes
// every pair it refuses as it is formed (a time window); it must be
// monotone along paths — a pair refused stays refused when a path is
// extended at either end — so that pruning during the iteration equals
// filtering the result. each, when not nil, sees the base table after
// each iteration i ≥ 1, which then covers every path of up to 2^i hops,
// in parts (a pair may be in several; its weight is then their p_op).
//
// Iteration i holds the frontier ftr_i, the pairs joined by a path of
// exactly 2^i hops, and base, those joined by a path of up to 2^i hops:
//
//	ftr_i  = extend(ftr_{i−1}, ftr_{i−1})
//	base_i = group(extend(ftr_{i−1}, base_{i−1} − ftr_{i−1}) ∪ base_{i−1}) ∪ ftr_i
//
// and it stops when ftr_i is empty. The paper writes base − ftr and the
// unions as set operations on (job, depOn, wt) tuples, which would drop
// a tuple of the grouped base equal to a frontier tuple; its evident
// intent, kept here, is bag semantics: base is its grouped part and the
// frontier held apart, and base − ftr is the grouped part.
func MultiHop(edges []Edge, agg Aggregation, keep func(job, depOn int) bool, each func(i int, base ...[]Row)) ([]Row, int) {
	ftr := preprocess(edges, agg, keep)
	if len(ftr) == 0 {
		return nil, 0
	}
	var grouped []Row
	i := 0
	for {
		i++
		next := group(join(nil, ftr, ftr, agg, keep), agg)
		tmp := make([]Row, 0, joinBound(ftr, grouped)+len(grouped)+len(ftr))
		tmp = join(tmp, ftr, grouped, agg, keep)
		tmp = append(tmp, grouped...)
		tmp = append(tmp, ftr...)
		grouped = group(tmp, agg)
		ftr = next
		if each != nil {
			each(i, grouped, ftr)
		}
		if len(ftr) == 0 {
			return grouped, i
		}
	}
}

// preprocess is Algorithm 1's preprocess: each job's in-edges weighted by
// wt_fn of its number of upstream jobs, as rows (job = Down, depOn = Up).
func preprocess(edges []Edge, agg Aggregation, keep func(job, depOn int) bool) []Row {
	n := map[int]int{}
	for _, e := range edges {
		n[e.Down]++
	}
	rows := make([]Row, 0, len(edges))
	for _, e := range edges {
		if keep == nil || keep(e.Down, e.Up) {
			rows = append(rows, Row{Job: e.Down, DepOn: e.Up, Wt: agg.Weight(n[e.Down])})
		}
	}
	return group(rows, agg)
}

// join is the join of Algorithm 1's extend_reach before its GROUP BY,
// appended to dst: t1 ⋈_{t1.depOn = t2.job} t2, each joined pair
// (t1.job, t2.depOn) weighted e_op(t1.wt, t2.wt); extend_reach is
// group(join(t1, t2)). t2 must be sorted by Job.
func join(dst, t1, t2 []Row, agg Aggregation, keep func(job, depOn int) bool) []Row {
	if len(t1) == 0 || len(t2) == 0 {
		return dst
	}
	if dst == nil {
		dst = make([]Row, 0, joinBound(t1, t2))
	}
	for _, a := range t1 {
		lo, hi := jobRange(t2, a.DepOn)
		for _, b := range t2[lo:hi] {
			if keep == nil || keep(a.Job, b.DepOn) {
				dst = append(dst, Row{Job: a.Job, DepOn: b.DepOn, Wt: agg.Edge(a.Wt, b.Wt)})
			}
		}
	}
	return dst
}

// joinBound is the size of t1 ⋈ t2 before pruning, to size its table.
func joinBound(t1, t2 []Row) int {
	n := 0
	for _, a := range t1 {
		lo, hi := jobRange(t2, a.DepOn)
		n += hi - lo
	}
	return n
}

// jobRange is the range of t's rows (sorted by Job) of job j.
func jobRange(t []Row, j int) (lo, hi int) {
	lo, _ = slices.BinarySearchFunc(t, j, func(r Row, j int) int { return cmp.Compare(r.Job, j) })
	hi = lo
	for hi < len(t) && t[hi].Job == j {
		hi++
	}
	return lo, hi
}

// group is GROUP BY (job, depOn) with p_op over wt, sorted by pair: a
// counting sort by job, then each job's rows folded per depOn in the
// order given (which the callers make deterministic) and its pairs
// sorted by depOn.
func group(rows []Row, agg Aggregation) []Row {
	if len(rows) == 0 {
		return rows
	}
	n := 0
	for _, r := range rows {
		n = max(n, r.Job+1, r.DepOn+1)
	}
	start := make([]int, n+1)
	for _, r := range rows {
		start[r.Job+1]++
	}
	for j := range n {
		start[j+1] += start[j]
	}
	sorted := make([]Row, len(rows))
	next := slices.Clone(start[:n])
	for _, r := range rows {
		sorted[next[r.Job]] = r
		next[r.Job]++
	}
	slot := make([]int, n) // depOn's row in out while its job is folded, −1 otherwise
	for i := range slot {
		slot[i] = -1
	}
	out := rows[:0]
	for j := range n {
		first := len(out)
		for _, r := range sorted[start[j]:start[j+1]] {
			if k := slot[r.DepOn]; k >= 0 {
				out[k].Wt = agg.Path(out[k].Wt, r.Wt)
				continue
			}
			slot[r.DepOn] = len(out)
			out = append(out, r)
		}
		seg := out[first:]
		for _, r := range seg {
			slot[r.DepOn] = -1
		}
		slices.SortFunc(seg, func(a, b Row) int { return cmp.Compare(a.DepOn, b.DepOn) })
	}
	return out
}

// Downstream is ds_op for value: each job's local value plus, over the
// rows naming it as depOn (of every table given), the row's weight times
// the downstream job's local value — Owl's aggregate value
//
//	agg(j) = k_j + Σ_{d downstream of j} (Σ_{paths j→d} Π_{e} w_e) · k_d.
func Downstream(local []float64, tables ...[]Row) []float64 {
	out := slices.Clone(local)
	for _, rows := range tables {
		for _, r := range rows {
			out[r.DepOn] += r.Wt * local[r.Job]
		}
	}
	return out
}

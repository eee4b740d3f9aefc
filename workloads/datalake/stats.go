package datalake

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Shares are the statistics of §2.3 the lake is calibrated to. The
// generator measures them on its truth (Lake.Shares); the profiler
// infers them from the log alone. Both count the jobs of weeks 1–2 in
// the log (the analysed jobs) and the dependencies into them:
//
//   - RecurringJobs: analysed jobs of recurring templates / analysed jobs;
//   - RecurringDeps: dependencies whose two jobs are recurring / all;
//   - JobsWithUpstream: analysed jobs that read another job's output;
//   - CrossOrg: dependencies between jobs of two organisations / all;
//   - InvertibleTemplates: recurring templates read by a recurring
//     template of strictly higher priority / recurring templates
//     (Observation 2: "jobs of 21 % of job templates have the chance to be
//     systematically priority-inverted"; the paper's denominator is all
//     templates, but an ad-hoc one cannot be inverted systematically, so
//     both sides count recurring templates);
//   - Uncoordinated: recurring jobs that are not polling and have a hard
//     input (or failed for a missing one) / recurring jobs;
//   - LargestComponent: the largest weakly connected component of the
//     analysed jobs' DAG / analysed jobs; Component10: jobs in components
//     of 10 jobs or more / analysed jobs;
//   - ZipfS: the exponent s of job-local value against its rank, fitted
//     over the jobs completed a ValueWindow before the log's end (whose
//     downloads the log holds in full) with at least ZipfMinValue
//     downloads;
//   - PrioritySpearman: the largest, over queues with at least
//     SpearmanMinJobs of those jobs, Spearman correlation of user
//     priority and job-local value.
type Shares struct {
	RecurringJobs       float64 `json:"recurring_jobs_share"`
	RecurringDeps       float64 `json:"recurring_deps_share"`
	JobsWithUpstream    float64 `json:"jobs_with_upstream_share"`
	CrossOrg            float64 `json:"cross_org_share"`
	InvertibleTemplates float64 `json:"invertible_templates_share"`
	Uncoordinated       float64 `json:"uncoordinated_recurring_share"`
	LargestComponent    float64 `json:"largest_component_share"`
	Component10         float64 `json:"component10_share"`
	ZipfS               float64 `json:"zipf_s"`
	PrioritySpearman    float64 `json:"priority_value_spearman_max"`
}

// Fit bounds of the statistics.
const (
	// ZipfMinValue is the smallest job-local value the Zipf fit uses:
	// below it the integer counts flatten the curve.
	ZipfMinValue = 10
	// SpearmanMinJobs is the fewest jobs a queue needs for its
	// correlation to count.
	SpearmanMinJobs = 30
)

// Target is one calibration target of §2.3.
type Target struct {
	// Name is the statistic's JSON name in Shares.
	Name string `json:"name"`
	// Value is the paper's figure; Above marks a lower bound ("more than
	// 50 %"), AtMost an upper bound.
	Value  float64 `json:"value"`
	Above  bool    `json:"above,omitempty"`
	AtMost bool    `json:"at_most,omitempty"`
}

// Targets are the §2.3 figures the issue lists, in Shares' order.
var Targets = []Target{
	{Name: "recurring_jobs_share", Value: 0.68},
	{Name: "recurring_deps_share", Value: 0.79},
	{Name: "jobs_with_upstream_share", Value: 0.80},
	{Name: "cross_org_share", Value: 0.33},
	{Name: "invertible_templates_share", Value: 0.21},
	{Name: "uncoordinated_recurring_share", Value: 0.34},
	{Name: "largest_component_share", Value: 0.50, Above: true},
	{Name: "component10_share", Value: 0.80, Above: true},
	{Name: "zipf_s", Value: 1},
	{Name: "priority_value_spearman_max", Value: 0.3, AtMost: true},
}

// Tolerance is the calibration's tolerance: ±0.05 (five points of a
// share, 0.05 of the Zipf exponent).
const Tolerance = 0.05

// Get is the statistic of that JSON name.
func (s *Shares) Get(name string) (float64, error) {
	switch name {
	case "recurring_jobs_share":
		return s.RecurringJobs, nil
	case "recurring_deps_share":
		return s.RecurringDeps, nil
	case "jobs_with_upstream_share":
		return s.JobsWithUpstream, nil
	case "cross_org_share":
		return s.CrossOrg, nil
	case "invertible_templates_share":
		return s.InvertibleTemplates, nil
	case "uncoordinated_recurring_share":
		return s.Uncoordinated, nil
	case "largest_component_share":
		return s.LargestComponent, nil
	case "component10_share":
		return s.Component10, nil
	case "zipf_s":
		return s.ZipfS, nil
	case "priority_value_spearman_max":
		return s.PrioritySpearman, nil
	}
	return 0, fmt.Errorf("datalake: no statistic %q", name)
}

// Met reports whether v meets the target: within Tolerance of it, or
// on the right side of a bound.
func (t Target) Met(v float64) bool {
	switch {
	case t.Above:
		return v > t.Value
	case t.AtMost:
		return v <= t.Value
	}
	return math.Abs(v-t.Value) <= Tolerance
}

// Analysed reports whether a job submitted at submit and ended at end is
// one of the analysed jobs: in the log (ended before the window) and
// submitted in weeks 1–2.
func Analysed(submit, end float64) bool { return submit >= HistoryStart && end < 0 }

// Valued reports whether a job that ended at end has its whole
// ValueWindow of downloads in the log.
func Valued(end float64) bool { return end <= -ValueWindow }

// Shares measures the §2.3 statistics on the lake's truth: the
// templates' kinds, the jobs' real inputs and downloads.
func (l *Lake) Shares() Shares {
	var s Shares
	ts := l.Templates
	analysed := func(j *Job) bool { return Analysed(j.Submit, j.End) }
	var nA, nRec, nUp, nUncoord int
	var nDeps, nRecDeps, nCross int
	var edges [][2]int
	used := map[int]bool{}
	for i := range l.Jobs {
		j := &l.Jobs[i]
		if !analysed(j) {
			continue
		}
		nA++
		t := &ts[j.Template]
		used[j.Template] = true
		if t.Kind.Recurring() {
			nRec++
			if t.Kind != Polling && slices.ContainsFunc(t.Deps, func(d Dep) bool { return d.Kind == Hard }) {
				nUncoord++
			}
		}
		ups := map[int]bool{}
		for _, in := range j.Inputs {
			if in.Writer >= 0 && !in.Missing {
				ups[in.Writer] = true
			}
		}
		if len(ups) > 0 {
			nUp++
		}
		for _, w := range sortedKeys(ups) {
			u := &l.Jobs[w]
			nDeps++
			if ts[u.Template].Kind.Recurring() && t.Kind.Recurring() {
				nRecDeps++
			}
			if ts[u.Template].Org != t.Org {
				nCross++
			}
			if analysed(u) {
				edges = append(edges, [2]int{w, i})
			}
		}
	}
	s.RecurringJobs = ratio(nRec, nA)
	s.JobsWithUpstream = ratio(nUp, nA)
	s.RecurringDeps = ratio(nRecDeps, nDeps)
	s.CrossOrg = ratio(nCross, nDeps)
	s.Uncoordinated = ratio(nUncoord, nRec)
	// Invertible templates, on the template graph.
	inverted := map[int]bool{}
	for d := range ts {
		if !ts[d].Kind.Recurring() || !used[d] {
			continue
		}
		for _, dep := range ts[d].Deps {
			u := dep.Upstream
			if u != d && ts[u].Kind.Recurring() && ts[d].Priority > ts[u].Priority {
				inverted[u] = true
			}
		}
	}
	nTpl, nInv := 0, 0
	for t := range ts {
		if ts[t].Kind.Recurring() && used[t] {
			nTpl++
			if inverted[t] {
				nInv++
			}
		}
	}
	s.InvertibleTemplates = ratio(nInv, nTpl)
	ids := make([]int, 0, nA)
	for i := range l.Jobs {
		if analysed(&l.Jobs[i]) {
			ids = append(ids, i)
		}
	}
	s.LargestComponent, s.Component10 = ComponentShares(ids, edges)
	var values []float64
	byQueue := map[string][][2]float64{}
	for i := range l.Jobs {
		j := &l.Jobs[i]
		if !analysed(j) || !Valued(j.End) {
			continue
		}
		v := float64(j.LocalValue())
		if j.Status != Completed {
			v = 0 // the log has no downloads of a job that never ran
		}
		values = append(values, v)
		q := l.Orgs[ts[j.Template].Org].Name
		byQueue[q] = append(byQueue[q], [2]float64{float64(j.Priority), v})
	}
	s.ZipfS = ZipfExponent(values)
	s.PrioritySpearman = MaxSpearman(byQueue)
	return s
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func sortedKeys(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// ComponentShares are the share of jobs in the largest weakly connected
// component of the DAG on jobs with edges (pairs of job ids; edges to
// other jobs are ignored) and the share in components of 10 or more.
func ComponentShares(jobs []int, edges [][2]int) (largest, atLeast10 float64) {
	if len(jobs) == 0 {
		return 0, 0
	}
	idx := make(map[int]int, len(jobs))
	for i, j := range jobs {
		idx[j] = i
	}
	parent := make([]int, len(jobs))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for _, e := range edges {
		a, ok1 := idx[e[0]]
		b, ok2 := idx[e[1]]
		if !ok1 || !ok2 {
			continue
		}
		ra, rb := find(a), find(b)
		if ra != rb {
			parent[ra] = rb
		}
	}
	size := map[int]int{}
	for i := range jobs {
		size[find(i)]++
	}
	big, in10 := 0, 0
	for _, n := range size {
		big = max(big, n)
		if n >= 10 {
			in10 += n
		}
	}
	return ratio(big, len(jobs)), ratio(in10, len(jobs))
}

// ZipfExponent fits value ∝ rank^−s to values (any order): least
// squares of ln value on ln rank over the values of at least
// ZipfMinValue, ranked from the largest. It is 0 with fewer than three
// such values.
func ZipfExponent(values []float64) float64 {
	v := slices.Clone(values)
	slices.SortFunc(v, func(a, b float64) int { return cmp.Compare(b, a) })
	var xs, ys []float64
	for r, x := range v {
		if x < ZipfMinValue {
			break
		}
		xs = append(xs, math.Log(float64(r+1)))
		ys = append(ys, math.Log(x))
	}
	if len(xs) < 3 {
		return 0
	}
	return -slope(xs, ys)
}

func slope(xs, ys []float64) float64 {
	var mx, my float64
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx /= float64(len(xs))
	my /= float64(len(ys))
	var sxy, sxx float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	return sxy / sxx
}

// Spearman is the rank correlation of the pairs (x, y): Pearson's
// correlation of their ranks, ties given their mean rank; 0 when either
// side is constant.
func Spearman(pairs [][2]float64) float64 {
	n := len(pairs)
	if n < 2 {
		return 0
	}
	rx, ry := make([]float64, n), make([]float64, n)
	for k := range 2 {
		r := rx
		if k == 1 {
			r = ry
		}
		ord := make([]int, n)
		for i := range ord {
			ord[i] = i
		}
		slices.SortFunc(ord, func(a, b int) int { return cmp.Compare(pairs[a][k], pairs[b][k]) })
		for i := 0; i < n; {
			j := i
			for j+1 < n && pairs[ord[j+1]][k] == pairs[ord[i]][k] {
				j++
			}
			mean := float64(i+j)/2 + 1
			for m := i; m <= j; m++ {
				r[ord[m]] = mean
			}
			i = j + 1
		}
	}
	return pearson(rx, ry)
}

func pearson(x, y []float64) float64 {
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(len(x))
	my /= float64(len(y))
	var sxy, sxx, syy float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
		syy += (y[i] - my) * (y[i] - my)
	}
	if sxx == 0 || syy == 0 {
		return 0
	}
	return sxy / math.Sqrt(sxx*syy)
}

// MaxSpearman is the largest Spearman correlation over the queues (name
// → (priority, value) pairs) with at least SpearmanMinJobs pairs.
func MaxSpearman(byQueue map[string][][2]float64) float64 {
	names := make([]string, 0, len(byQueue))
	for q := range byQueue {
		names = append(names, q)
	}
	slices.Sort(names)
	best := math.Inf(-1)
	for _, q := range names {
		if len(byQueue[q]) >= SpearmanMinJobs {
			best = max(best, Spearman(byQueue[q]))
		}
	}
	if math.IsInf(best, -1) {
		return 0
	}
	return best
}

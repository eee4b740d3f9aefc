package workloads

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"text/tabwriter"
)

// Summary describes the window jobs of a workload (history is only
// counted, except in the CoV distributions). Loads are offered node-hours
// (nodes × runtime on preferred nodes) / (Nodes × window hours).
type Summary struct {
	Generator string `json:"generator"`
	Seed      uint64 `json:"seed"`
	// Nodes is the cluster size loads are computed for: the workload's
	// cluster (ClusterNodes) unless StatsAt was given another.
	Nodes        int     `json:"nodes"`
	ClusterNodes int     `json:"cluster_nodes"`
	WindowS      float64 `json:"window_s"`
	// SpanS is the last window submit − the first (seconds).
	SpanS       float64 `json:"span_s"`
	Jobs        int     `json:"jobs"`
	HistoryJobs int     `json:"history_jobs"`
	NodeHours   float64 `json:"node_hours"`
	Load        float64 `json:"load"`
	// ByClass has one row per service class present (slo, then be).
	ByClass []Group `json:"by_class"`
	// ByKind has one row per Job.Kind ("" when unlabelled), in order of
	// median runtime.
	ByKind []Group `json:"by_kind"`
	// Runtime (seconds) and GangSize (nodes) over window jobs.
	Runtime  Quantiles `json:"runtime_s"`
	GangSize Quantiles `json:"gang_size"`
	// ArrivalSCV is the squared coefficient of variation (variance/mean²,
	// population variance) of the gaps between consecutive submit times;
	// 0 with fewer than 3 jobs or all gaps zero.
	ArrivalSCV float64 `json:"arrival_scv"`
	// Slack counts SLO jobs by deadline slack, (deadline − submit −
	// runtime)/runtime in percent rounded to an integer.
	Slack []Count `json:"slack_pct"`
	// CoVByUser and CoVByResources are the distributions, over user ids
	// and over requested-resource values, of the coefficient of variation
	// of runtimes within each group (3Sigma Fig. 2(b) and 2(c)), over
	// history and window jobs.
	CoVByUser      CoVDist `json:"cov_by_user"`
	CoVByResources CoVDist `json:"cov_by_resources"`
	// Tasks is the variability of task-level jobs' runtimes across time
	// and space (SLearn Table 4); nil when the window has none.
	Tasks *TaskVariability `json:"task_variability,omitempty"`
}

// CoVDist is the distribution of the runtime CoV = σ/μ (population σ)
// over the groups of jobs that share a feature value; groups with fewer
// than MinCoVJobs jobs or an unknown (empty) value are left out.
type CoVDist struct {
	Groups int `json:"groups"`
	// Jobs is the number of jobs in those groups.
	Jobs int       `json:"jobs"`
	CoV  Quantiles `json:"cov"`
	// AboveOne is the share of groups with CoV > 1, the CoV of the
	// exponential distribution: "high variability" in 3Sigma §2.1.
	AboveOne float64 `json:"above_one"`
}

// MinCoVJobs is the fewest jobs a group needs for its CoV to count.
const MinCoVJobs = 2

// Group is the jobs of one class or kind.
type Group struct {
	Name       string  `json:"name"`
	Jobs       int     `json:"jobs"`
	NodeHours  float64 `json:"node_hours"`
	Load       float64 `json:"load"`
	RuntimeP50 float64 `json:"runtime_p50_s"`
}

// Count is how many jobs have a value.
type Count struct {
	Value float64 `json:"value"`
	Jobs  int     `json:"jobs"`
}

// Quantiles of a sample (linear interpolation between order statistics,
// "type 7"); all zero for an empty sample.
type Quantiles struct {
	Min  float64 `json:"min"`
	P10  float64 `json:"p10"`
	P25  float64 `json:"p25"`
	P50  float64 `json:"p50"`
	P75  float64 `json:"p75"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
	Mean float64 `json:"mean"`
}

// Stats summarises w's window jobs on w's cluster.
func Stats(w *Workload) Summary { return StatsAt(w, 0) }

// StatsAt summarises w's window jobs with loads for a cluster of nodes
// nodes (w's own cluster when nodes ≤ 0).
func StatsAt(w *Workload, nodes int) Summary {
	cluster := w.Header.Cluster.TotalNodes()
	if nodes <= 0 {
		nodes = cluster
	}
	s := Summary{
		Generator:    w.Header.Generator,
		Seed:         w.Header.Seed,
		Nodes:        nodes,
		ClusterNodes: cluster,
		WindowS:      w.Header.WindowS,
		Jobs:         len(w.Jobs),
		HistoryJobs:  len(w.History),
	}
	if n := len(w.Jobs); n > 0 {
		s.SpanS = w.Jobs[n-1].Submit - w.Jobs[0].Submit
	}
	capacity := float64(nodes) * w.Header.WindowS / 3600 // node-hours
	load := func(nh float64) float64 {
		if capacity <= 0 {
			return 0
		}
		return nh / capacity
	}
	type acc struct {
		nh       float64
		runtimes []float64
	}
	classes := map[Class]*acc{}
	kinds := map[string]*acc{}
	slack := map[float64]int{}
	var runtimes, gangs []float64
	for i := range w.Jobs {
		j := &w.Jobs[i]
		nh := float64(j.Nodes) * j.Runtime / 3600
		s.NodeHours += nh
		for _, a := range []*acc{get(classes, j.Class), get(kinds, j.Kind)} {
			a.nh += nh
			a.runtimes = append(a.runtimes, j.Runtime)
		}
		runtimes = append(runtimes, j.Runtime)
		gangs = append(gangs, float64(j.Nodes))
		if j.Class == SLO {
			slack[math.Round((j.Deadline-j.Submit-j.Runtime)/j.Runtime*100)]++
		}
	}
	s.Load = load(s.NodeHours)
	group := func(name string, a *acc) Group {
		slices.Sort(a.runtimes)
		return Group{Name: name, Jobs: len(a.runtimes), NodeHours: a.nh, Load: load(a.nh), RuntimeP50: quantile(a.runtimes, 0.5)}
	}
	for _, c := range []Class{SLO, BestEffort} {
		if a, ok := classes[c]; ok {
			s.ByClass = append(s.ByClass, group(c.String(), a))
		}
	}
	for k, a := range kinds {
		s.ByKind = append(s.ByKind, group(k, a))
	}
	slices.SortFunc(s.ByKind, func(a, b Group) int {
		return cmp.Or(cmp.Compare(a.RuntimeP50, b.RuntimeP50), cmp.Compare(a.Name, b.Name))
	})
	for v, n := range slack {
		s.Slack = append(s.Slack, Count{Value: v, Jobs: n})
	}
	slices.SortFunc(s.Slack, func(a, b Count) int { return cmp.Compare(a.Value, b.Value) })
	s.Runtime = quantiles(runtimes)
	s.GangSize = quantiles(gangs)
	s.ArrivalSCV = arrivalSCV(w.Jobs)
	s.CoVByUser = covDist(w, func(j *Job) string { return j.Features.User })
	s.CoVByResources = covDist(w, func(j *Job) string { return j.Features.Resources })
	if v, ok := TaskVariabilityOf(w); ok {
		s.Tasks = &v
	}
	return s
}

// covDist groups w's history and window jobs by key (empty keys left out)
// and summarises the runtime CoV of the groups of ≥ MinCoVJobs jobs.
func covDist(w *Workload, key func(*Job) string) CoVDist {
	groups := map[string][]float64{}
	for _, sec := range [][]Job{w.History, w.Jobs} {
		for i := range sec {
			if k := key(&sec[i]); k != "" {
				groups[k] = append(groups[k], sec[i].Runtime)
			}
		}
	}
	keys := make([]string, 0, len(groups))
	for k, rt := range groups {
		if len(rt) >= MinCoVJobs {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys) // sums below in a fixed order
	var d CoVDist
	covs := make([]float64, 0, len(keys))
	for _, k := range keys {
		c := math.Sqrt(scv(groups[k]))
		covs = append(covs, c)
		d.Jobs += len(groups[k])
		if c > 1 {
			d.AboveOne++
		}
	}
	d.Groups = len(covs)
	if d.Groups > 0 {
		d.AboveOne /= float64(d.Groups)
	}
	d.CoV = quantiles(covs)
	return d
}

func get[K comparable, V any](m map[K]*V, k K) *V {
	v, ok := m[k]
	if !ok {
		v = new(V)
		m[k] = v
	}
	return v
}

// arrivalSCV is variance/mean² of the gaps between consecutive submits.
func arrivalSCV(jobs []Job) float64 {
	if len(jobs) < 3 {
		return 0
	}
	gaps := make([]float64, len(jobs)-1)
	for i := 1; i < len(jobs); i++ {
		gaps[i-1] = jobs[i].Submit - jobs[i-1].Submit
	}
	return scv(gaps)
}

// scv is the squared coefficient of variation (population variance / mean²)
// of x; 0 when the mean is 0.
func scv(x []float64) float64 {
	mean := 0.0
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	if mean == 0 {
		return 0
	}
	ss := 0.0
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return ss / float64(len(x)) / (mean * mean)
}

func quantiles(x []float64) Quantiles {
	if len(x) == 0 {
		return Quantiles{}
	}
	x = slices.Clone(x)
	slices.Sort(x)
	sum := 0.0
	for _, v := range x {
		sum += v
	}
	return Quantiles{
		Min: x[0], P10: quantile(x, 0.1), P25: quantile(x, 0.25), P50: quantile(x, 0.5),
		P75: quantile(x, 0.75), P90: quantile(x, 0.9), P99: quantile(x, 0.99),
		Max: x[len(x)-1], Mean: sum / float64(len(x)),
	}
}

// quantile of sorted x by linear interpolation between order statistics
// (Hyndman & Fan type 7); 0 for empty x.
func quantile(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	h := q * float64(n-1)
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// WriteText prints s as a short human-readable report.
func (s Summary) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "generator %s, seed %d: %d nodes, window %.0f s (submits span %.0f s), %d jobs (+%d history), load %.3f (%.1f node-hours), c²a %.2f\n",
		s.Generator, s.Seed, s.ClusterNodes, s.WindowS, s.SpanS, s.Jobs, s.HistoryJobs, s.Load, s.NodeHours, s.ArrivalSCV)
	if s.Nodes != s.ClusterNodes {
		fmt.Fprintf(tw, "loads below are offered on %d nodes, not the workload's %d\n", s.Nodes, s.ClusterNodes)
	}
	fmt.Fprintln(tw, "group\tjobs\tnode-hours\tload\truntime p50 (s)")
	for _, g := range append(slices.Clone(s.ByClass), s.ByKind...) {
		name := g.Name
		if name == "" {
			name = "(no kind)"
		}
		fmt.Fprintf(tw, "%s\t%d\t%.1f\t%.3f\t%.0f\n", name, g.Jobs, g.NodeHours, g.Load, g.RuntimeP50)
	}
	fmt.Fprintln(tw, "quantile\tmin\tp10\tp25\tp50\tp75\tp90\tp99\tmax\tmean")
	for _, r := range []struct {
		name string
		q    Quantiles
	}{{"runtime (s)", s.Runtime}, {"gang size", s.GangSize}} {
		q := r.q
		fmt.Fprintf(tw, "%s\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.1f\n",
			r.name, q.Min, q.P10, q.P25, q.P50, q.P75, q.P90, q.P99, q.Max, q.Mean)
	}
	for _, r := range []struct {
		name string
		d    CoVDist
	}{{"runtime CoV per user", s.CoVByUser}, {"runtime CoV per resources", s.CoVByResources}} {
		q := r.d.CoV
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t(%d groups of ≥ %d jobs, %.0f%% with CoV > 1)\n",
			r.name, q.Min, q.P10, q.P25, q.P50, q.P75, q.P90, q.P99, q.Max, q.Mean, r.d.Groups, MinCoVJobs, 100*r.d.AboveOne)
	}
	if v := s.Tasks; v != nil {
		fmt.Fprintf(tw, "task runtime CoV (SLearn Table 4)\tover time p50 %.2f, p90 %.2f (%d jobs)\tover space p50 %.2f, p90 %.2f (%d jobs of ≥ 2 tasks, %g%% sampled)\n",
			v.TimeP50, v.TimeP90, v.TimeJobs, v.SpaceP50, v.SpaceP90, v.SpaceJobs, 100*PilotShare)
	}
	if len(s.Slack) > 0 {
		fmt.Fprint(tw, "slo slack (%):")
		for _, c := range s.Slack {
			fmt.Fprintf(tw, " %g%%×%d", c.Value, c.Jobs)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

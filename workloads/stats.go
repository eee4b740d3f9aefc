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
// counted). Loads are offered node-hours (nodes × runtime on preferred
// nodes) / (cluster nodes × window hours).
type Summary struct {
	Generator   string  `json:"generator"`
	Seed        uint64  `json:"seed"`
	Nodes       int     `json:"nodes"`
	WindowS     float64 `json:"window_s"`
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
}

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

// Stats summarises w's window jobs.
func Stats(w *Workload) Summary {
	nodes := w.Header.Cluster.TotalNodes()
	s := Summary{
		Generator:   w.Header.Generator,
		Seed:        w.Header.Seed,
		Nodes:       nodes,
		WindowS:     w.Header.WindowS,
		Jobs:        len(w.Jobs),
		HistoryJobs: len(w.History),
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
	return s
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
	fmt.Fprintf(tw, "generator %s, seed %d: %d nodes, window %.0f s, %d jobs (+%d history), load %.3f (%.1f node-hours), c²a %.2f\n",
		s.Generator, s.Seed, s.Nodes, s.WindowS, s.Jobs, s.HistoryJobs, s.Load, s.NodeHours, s.ArrivalSCV)
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
	if len(s.Slack) > 0 {
		fmt.Fprint(tw, "slo slack (%):")
		for _, c := range s.Slack {
			fmt.Fprintf(tw, " %g%%×%d", c.Value, c.Jobs)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

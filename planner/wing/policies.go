package wing

import (
	"fmt"
	"slices"
	"strings"

	"github.com/plannerhq/planner/workloads"
	"github.com/plannerhq/planner/workloads/datalake"
)

// Names of the data-lake schedulers (§6.2, §7.2). Each orders a queue's
// pending jobs; SimulateLake admits them with gang semantics.
const (
	// PrioUser is Cosmos's default: the user's priority within a queue.
	PrioUser = "prio-user"
	// Direct is Wing-Direct: predicted job-local value efficiency.
	Direct = "wing-direct"
	// Agg is Wing-Agg: predicted aggregate value efficiency (§5).
	Agg = "wing-agg"
	// MIL is Wing-MIL: Millennium's value at the expected completion per
	// resource-time, on Wing's decaying value function (Fig. 5).
	MIL = "wing-mil"
	// OracleSuffix names a policy's variant given the true values.
	OracleSuffix = "-oracle"
)

// LakeEnv is what the data-lake schedulers read: the window's submission
// records, the profile of the history (predictions) and, for the oracle
// variants only, the window's truth.
type LakeEnv struct {
	Jobs    []workloads.Job
	Profile *Profile
	Truth   *datalake.Truth

	est    []Estimate
	oracle []TrueValue
	// children[i] are job i's in-window readers with their in-edge count
	// (the oracle value function's steps).
	children [][]child
}

type child struct {
	job  int
	n    int
	hard bool
}

// NewLakeEnv prepares the predictions of every window job.
func NewLakeEnv(jobs []workloads.Job, p *Profile, tr *datalake.Truth) *LakeEnv {
	e := &LakeEnv{Jobs: jobs, Profile: p, Truth: tr, est: make([]Estimate, len(jobs))}
	for i := range jobs {
		f := jobs[i].Features
		e.est[i] = p.Estimate(f.Name, f.User, jobs[i].Submit)
	}
	return e
}

// oracleValues computes the true values once, on first use.
func (e *LakeEnv) oracleValues() {
	if e.oracle != nil {
		return
	}
	e.oracle = Oracle(e.Jobs, e.Truth, e.Profile.Options().ValueWindow)
	idx := make(map[int]int, len(e.Jobs))
	for i := range e.Jobs {
		idx[e.Jobs[i].ID] = i
	}
	e.children = make([][]child, len(e.Jobs))
	for r := range e.Truth.Jobs {
		kinds := map[int]bool{}
		var writers []int
		for _, in := range e.Truth.Jobs[r].Inputs {
			if !in.InWindow || in.Missing {
				continue
			}
			w := idx[in.Writer]
			if _, seen := kinds[w]; !seen {
				writers = append(writers, w)
			}
			kinds[w] = kinds[w] || in.Kind == datalake.Hard
		}
		for _, w := range writers {
			e.children[w] = append(e.children[w], child{job: r, n: len(writers), hard: kinds[w]})
		}
	}
}

// LakePolicy is one row of the data-lake schedulers' table.
type LakePolicy struct {
	Name string
	Doc  string
	New  func(e *LakeEnv) Priority
}

// LakePolicies is the table of data-lake schedulers, one row each.
var LakePolicies = []LakePolicy{
	{PrioUser, "user priority within a queue (the Cosmos default)", func(e *LakeEnv) Priority {
		return Priority{Rank: func(i int, _ float64) float64 { return e.Jobs[i].Value }}
	}},
	{Direct, "predicted job-local value efficiency", func(e *LakeEnv) Priority {
		return Priority{Rank: func(i int, _ float64) float64 { return e.est[i].DirectEfficiency }}
	}},
	{Agg, "predicted aggregate value efficiency", func(e *LakeEnv) Priority {
		return Priority{Rank: func(i int, _ float64) float64 { return e.est[i].Efficiency }}
	}},
	{MIL, "Millennium on Wing's predicted value functions", newMIL},
	{Direct + OracleSuffix, "true job-local value efficiency", func(e *LakeEnv) Priority {
		e.oracleValues()
		return Priority{Rank: func(i int, _ float64) float64 { return e.oracle[i].DirectEfficiency }}
	}},
	{Agg + OracleSuffix, "true aggregate value efficiency", func(e *LakeEnv) Priority {
		e.oracleValues()
		return Priority{Rank: func(i int, _ float64) float64 { return e.oracle[i].Efficiency }}
	}},
	{MIL + OracleSuffix, "Millennium on the true value functions", newMILOracle},
}

// NewLakePolicy is the named policy on e, or an error naming the known ones.
func NewLakePolicy(name string, e *LakeEnv) (Priority, error) {
	if err := CheckLakePolicy(name); err != nil {
		return Priority{}, err
	}
	i := slices.IndexFunc(LakePolicies, func(p LakePolicy) bool { return p.Name == name })
	return LakePolicies[i].New(e), nil
}

// CheckLakePolicy reports whether name is a data-lake scheduler.
func CheckLakePolicy(name string) error {
	if slices.ContainsFunc(LakePolicies, func(p LakePolicy) bool { return p.Name == name }) {
		return nil
	}
	var names []string
	for _, p := range LakePolicies {
		names = append(names, p.Name)
	}
	return fmt.Errorf("unknown data-lake scheduler %q (want one of %s)", name, strings.Join(names, ", "))
}

// newMIL ranks a job by VF(now + expected runtime) / aggregate
// compute-hours (Millennium's value per resource-time, §6.2), with the
// VF of Estimate and the aggregate compute Wing-Agg divides by
// (Value / Efficiency), so that with no step passed it ranks as
// Wing-Agg. The expected runtime is the template's median compute-hours
// over the job's width; an ad-hoc job's VF is flat.
func newMIL(e *LakeEnv) Priority {
	runtime := make([]float64, len(e.Jobs))
	for i, j := range e.Jobs {
		if t, ok := e.Profile.Template(j.Features.Name); ok && e.est[i].Recurring && j.Nodes > 0 {
			runtime[i] = e.Profile.Stats[t].Compute * datalake.Hour / float64(j.Nodes)
		}
	}
	return Priority{Rank: func(i int, now float64) float64 {
		es := &e.est[i]
		if es.Efficiency <= 0 || es.Value <= 0 {
			return 0
		}
		return es.VF.At(now+runtime[i]) * es.Efficiency / es.Value
	}}
}

// newMILOracle is Wing-MIL with the true value function: the job's own
// downloads after its completion at now + its true runtime, plus each
// in-window reader's aggregate value over its in-edge count (Owl's
// share), lost for a hard reader submitted before the completion; per
// true aggregate compute-hours.
func newMILOracle(e *LakeEnv) Priority {
	e.oracleValues()
	return Priority{Rank: func(i int, now float64) float64 {
		o := &e.oracle[i]
		if o.AggCompute <= 0 {
			return 0
		}
		c := now + e.Jobs[i].Runtime
		v := 0.0
		for _, out := range e.Truth.Jobs[i].Outputs {
			k, _ := slices.BinarySearch(out.Downloads, c)
			v += float64(len(out.Downloads) - k)
		}
		for _, ch := range e.children[i] {
			if ch.hard && e.Jobs[ch.job].Submit < c {
				continue
			}
			v += e.oracle[ch.job].AggValue / float64(ch.n)
		}
		return v / o.AggCompute
	}}
}

// RunLake runs each named policy on lake l's window at capacity percent
// of nominal with queues mode, predicting from profile p of l's log.
func RunLake(l *datalake.Lake, p *Profile, mode datalake.QueueMode, capacity float64, names []string) ([]LakeResult, error) {
	lay, err := l.Layout(mode, capacity)
	if err != nil {
		return nil, err
	}
	env := NewLakeEnv(l.WindowJobs(), p, l.Truth())
	out := make([]LakeResult, 0, len(names))
	for _, name := range names {
		pol, err := NewLakePolicy(name, env)
		if err != nil {
			return nil, err
		}
		r, err := SimulateLake(env.Jobs, env.Truth, lay, pol)
		if err != nil {
			return nil, err
		}
		r.Scheduler = name
		out = append(out, *r)
	}
	return out, nil
}

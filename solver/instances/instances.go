package instances

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/plannerhq/planner/solver"
)

// Tolerances of the generated models.
const (
	// CoefTol: expected-usage coefficients 1 − CDF(t − s) below it are dropped
	// from the capacity rows, and the job's coverage of later slices ends at
	// the first such slice (the survival function only decreases). A dropped
	// coefficient understates a row's activity by less than CoefTol per node,
	// so the model can overbook a rack by at most CoefTol × nodes in a slice —
	// far below one node — and the rows shrink by a third or more.
	CoefTol = 1e-3
	// UtilTol: an option whose expected utility is below UtilTol × the job's
	// value V counts as zero-utility and is dropped (DESIGN.md, "Drop
	// zero-utility options").
	UtilTol = 1e-6
)

// Params describe an instance family. Start from DefaultParams; every field
// is validated by Generate.
type Params struct {
	Jobs         int     // pending jobs, ≥ 1
	Racks        int     // partitions of identical nodes, ≥ 1
	RackNodes    int     // nodes per rack, ≥ 1
	Starts       int     // start slices: the first Starts of 0, 1, 2, 4, 8, …; each must be < Slices
	Slices       int     // plan-ahead horizon in slices, ≥ 1
	BusyFraction float64 // share of nodes held by running jobs at t = 0, in [0, 1]
	Seed         uint64  // seed of the instance's PCG source
}

// DefaultParams is the 300-job RC256 instance of SOLVERS.md: 8 racks of 32
// nodes, 60 slices, starts {0,1,2,4,8,16,32}, 60% of nodes busy.
func DefaultParams() Params {
	return Params{Jobs: 300, Racks: 8, RackNodes: 32, Starts: 7, Slices: 60, BusyFraction: 0.6, Seed: 1}
}

// Validate reports the first invalid field of p.
func (p Params) Validate() error {
	switch {
	case p.Jobs < 1:
		return fmt.Errorf("instances: Jobs must be ≥ 1, got %d", p.Jobs)
	case p.Racks < 1:
		return fmt.Errorf("instances: Racks must be ≥ 1, got %d", p.Racks)
	case p.RackNodes < 1:
		return fmt.Errorf("instances: RackNodes must be ≥ 1, got %d", p.RackNodes)
	case p.Slices < 1:
		return fmt.Errorf("instances: Slices must be ≥ 1, got %d", p.Slices)
	case p.Starts < 1:
		return fmt.Errorf("instances: Starts must be ≥ 1, got %d", p.Starts)
	case !StartsFit(p.Starts, p.Slices):
		return fmt.Errorf("instances: Starts = %d needs start slices beyond the %d slices", p.Starts, p.Slices)
	case math.IsNaN(p.BusyFraction) || p.BusyFraction < 0 || p.BusyFraction > 1:
		return fmt.Errorf("instances: BusyFraction must be in [0, 1], got %v", p.BusyFraction)
	// The size limits, as float64 products so that they cannot overflow.
	case float64(p.Jobs)*float64(p.Starts)*2*float64(p.Racks+1) > maxColumns:
		return fmt.Errorf("instances: %d jobs × %d starts × %d racks is %w", p.Jobs, p.Starts, p.Racks, ErrTooManyColumns)
	case float64(p.Jobs)*float64(p.Starts)*2*float64(p.Racks)*float64(p.Slices) > maxEntries:
		return fmt.Errorf("instances: %d jobs × %d starts × %d racks × %d slices is %w", p.Jobs, p.Starts, p.Racks, p.Slices, ErrModelTooLarge)
	case float64(p.Racks)*float64(p.RackNodes)*float64(p.Slices) > maxNodeSlices:
		return fmt.Errorf("instances: %d racks × %d nodes × %d slices is %w", p.Racks, p.RackNodes, p.Slices, ErrClusterTooLarge)
	}
	return nil
}

// The size errors of Validate. ErrTooManyColumns is the ErrModelTooLarge
// of the column limit, whose product (jobs × starts × racks) has no slices
// in it.
var (
	ErrModelTooLarge   = errors.New("too large a model")
	ErrTooManyColumns  = fmt.Errorf("%w", ErrModelTooLarge)
	ErrClusterTooLarge = errors.New("too large a cluster")
)

// Size limits of Validate: generating an instance past them would take
// minutes or run out of memory before a solver saw it.
const (
	// maxColumns bounds the columns, Jobs·Starts·2·(Racks+1).
	maxColumns = 1 << 26
	// maxEntries bounds Jobs·Starts·2·Racks·Slices, the most capacity-row
	// entries the options can have (the 300-job default: 2.0M, of which
	// 1.1M are above CoefTol).
	maxEntries = 1 << 28
	// maxNodeSlices bounds Racks·RackNodes·Slices: the running jobs that
	// fill the busy nodes are drawn one by one, each evaluated at every
	// slice (the default: 15,360).
	maxNodeSlices = 1 << 30
)

// StartSlice returns the i-th start slice of the geometric sequence
// 0, 1, 2, 4, 8, …
func StartSlice(i int) int {
	if i == 0 {
		return 0
	}
	return 1 << (i - 1)
}

// StartsFit reports whether n start options (start slices 0, 1, 2, 4, …)
// all fall within slices; false for n < 1, and for n so large that the
// last start slice would not fit in an int.
func StartsFit(n, slices int) bool {
	return n >= 1 && n-1 < 63 && StartSlice(n-1) < slices
}

// Class is a job's service class.
type Class int

const (
	SLO        Class = iota // value V if it completes by its deadline
	BestEffort              // value decaying linearly with completion time
)

var classNames = [...]string{"slo", "be"}

func (c Class) String() string {
	if c < 0 || int(c) >= len(classNames) {
		return fmt.Sprintf("Class(%d)", int(c))
	}
	return classNames[c]
}

// ParseClass is the inverse of Class.String.
func ParseClass(s string) (Class, error) {
	for i, n := range classNames {
		if n == s {
			return Class(i), nil
		}
	}
	return 0, fmt.Errorf("instances: unknown class %q", s)
}

// Runtime is a lognormal runtime distribution in slices: ln T ~ N(Mu, Sigma²).
type Runtime struct {
	Mu, Sigma float64
}

// CDF returns P(T ≤ t); 0 for t ≤ 0.
func (d Runtime) CDF(t float64) float64 {
	if t <= 0 {
		return 0
	}
	return phi((math.Log(t) - d.Mu) / d.Sigma)
}

// Survival returns P(T > t) = 1 − CDF(t) without cancellation.
func (d Runtime) Survival(t float64) float64 {
	if t <= 0 {
		return 1
	}
	return phi(-(math.Log(t) - d.Mu) / d.Sigma)
}

// Median returns exp(Mu).
func (d Runtime) Median() float64 { return math.Exp(d.Mu) }

// Scaled returns the distribution of f·T (f > 0).
func (d Runtime) Scaled(f float64) Runtime { return Runtime{Mu: d.Mu + math.Log(f), Sigma: d.Sigma} }

// partialMean returns E[T · 1{T ≤ a}] = e^{μ+σ²/2} Φ((ln a − μ − σ²)/σ).
func (d Runtime) partialMean(a float64) float64 {
	if a <= 0 {
		return 0
	}
	return math.Exp(d.Mu+d.Sigma*d.Sigma/2) * phi((math.Log(a)-d.Mu-d.Sigma*d.Sigma)/d.Sigma)
}

// phi is the standard normal CDF.
func phi(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

// Job is the metadata of one pending job.
type Job struct {
	Nodes   int     // gang size k
	Class   Class   //
	Runtime Runtime // on its preferred racks; ×1.5 on all racks
	// Value is V: the SLO value, or the BE value at completion time 0.
	Value float64
	// Deadline (SLO) or zero-utility time (BE), in slices from now.
	Deadline  float64
	Preferred []int // preferred racks, ascending
	Options   []int // indices into Instance.Options
	DemandRow int   // row Σ_o x[j,o] ≤ 1
}

// Option is one placement option (job, start slice, rack set).
type Option struct {
	Job      int
	Start    int   // start slice
	AllRacks bool  // all racks with the 1.5× slowdown, else the preferred racks
	Racks    []int // allowed racks, ascending
	X        int   // column of the binary x[j,o]
	Y        []int // columns of y[j,o,r], parallel to Racks
	LinkRow  int   // row Σ_r y[j,o,r] − k·x[j,o] = 0
	Utility  float64
}

// Instance is a generated model with the metadata that explains it.
type Instance struct {
	Params   Params
	Model    *solver.Model
	Jobs     []Job
	Options  []Option
	Capacity [][]float64 // C[r][t], expected free nodes of rack r in slice t
	CapRow   [][]int     // row of (r, t), −1 when no option covers it
}

// Slowdown is the runtime factor of an option on all racks (not only the
// preferred ones), as in the 3Sigma papers.
const Slowdown = 1.5

// Generate builds a random instance from p, deterministically in p.Seed.
//
// Each job j has a gang size k (half 1–4 nodes, 30% 5–32, 20% large 33–128,
// capped by the cluster), a class (half SLO), a lognormal runtime in slices
// (median 3–40, σ 0.2–0.9) and a preferred set of round(0.75·Racks) racks.
// Its options are start slice s × {preferred racks, all racks with the
// runtime ×1.5}; an option's utility is
//
//	SLO: V · P(s + T ≤ D)
//	BE:  E[V · max(0, 1 − (s + T)/D)] = V/D · (a·Φ(z) − E[T·1{T ≤ a}]), a = D − s
//
// in closed form for the lognormal; both decay with s, and options below
// UtilTol·V are dropped. The model is
//
//	max Σ U[j,o] x[j,o]
//	Σ_r y[j,o,r] − k·x[j,o] = 0                   per option (link)
//	Σ_o x[j,o] ≤ 1                                per job (demand)
//	Σ (1 − CDF_{j,o}(t − s_o)) · y[j,o,r] ≤ C[r,t]  per rack r, slice t
//
// with binary x, integer y[j,o,r] ∈ [0, min(k, RackNodes)], coefficients below
// CoefTol dropped, and C[r,t] = RackNodes − Σ_running n_i(r)·S_i(e_i + t)/S_i(e_i)
// for running jobs filling BusyFraction of the nodes at t = 0.
func Generate(p Params) (*Instance, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(p.Seed, 0x3516a))
	in := &Instance{Params: p, Model: &solver.Model{Name: fmt.Sprintf("rack-j%d-s%d", p.Jobs, p.Seed), Maximize: true}}
	in.Capacity = capacity(p, rng)
	m := in.Model

	nodes := p.Racks * p.RackNodes
	nPref := max(1, int(math.Round(0.75*float64(p.Racks))))
	all := make([]int, p.Racks)
	for r := range all {
		all[r] = r
	}
	// Entries of the capacity rows, gathered per (r, t) then added in order.
	capIdx := make([][]int, p.Racks*p.Slices)
	capCoef := make([][]float64, p.Racks*p.Slices)
	usage := make([]float64, p.Slices)

	for j := 0; j < p.Jobs; j++ {
		job := Job{}
		switch u := rng.Float64(); {
		case u < 0.5:
			job.Nodes = 1 + rng.IntN(4)
		case u < 0.8:
			job.Nodes = 5 + rng.IntN(28)
		default:
			job.Nodes = 33 + rng.IntN(96)
		}
		job.Nodes = min(job.Nodes, nodes)
		median := math.Exp(math.Log(3) + rng.Float64()*(math.Log(40)-math.Log(3)))
		job.Runtime = Runtime{Mu: math.Log(median), Sigma: 0.2 + 0.7*rng.Float64()}
		if rng.Float64() < 0.5 {
			job.Class = SLO
			// Deadline from the paper's slack set, minus the time already waited.
			slack := []float64{0.2, 0.4, 0.6, 0.8}[rng.IntN(4)]
			waited := 0.3 * rng.Float64() * median
			job.Deadline = median*(1+slack) - waited
			job.Value = float64(job.Nodes) * median * (1 + 2*rng.Float64())
		} else {
			job.Class = BestEffort
			job.Deadline = median * (2 + 4*rng.Float64())
			job.Value = float64(job.Nodes) * median * (0.3 + 0.7*rng.Float64())
		}
		perm := rng.Perm(p.Racks)[:nPref]
		job.Preferred = sortedCopy(perm)
		job.DemandRow = -1

		var demand []int
		for si := 0; si < p.Starts; si++ {
			s := StartSlice(si)
			for _, allRacks := range []bool{false, true} {
				racks, rt := job.Preferred, job.Runtime
				if allRacks {
					if nPref == p.Racks {
						continue // the same racks, only slower: dominated
					}
					racks, rt = all, job.Runtime.Scaled(Slowdown)
				}
				if job.Nodes > len(racks)*p.RackNodes {
					continue
				}
				u := utilityOf(&job, rt, float64(s))
				if !(u >= UtilTol*job.Value) {
					continue
				}
				o := Option{Job: j, Start: s, AllRacks: allRacks, Racks: racks, Utility: u}
				oi := len(in.Options)
				o.X = m.AddVar(fmt.Sprintf("x[%d,%d]", j, oi), solver.Binary, 0, 1, u)
				link := make([]int, 0, len(racks)+1)
				linkCoef := make([]float64, 0, len(racks)+1)
				// Expected usage per node in each slice, cut at CoefTol.
				end := s
				for t := s; t < p.Slices; t++ {
					c := rt.Survival(float64(t - s))
					if c < CoefTol {
						break
					}
					usage[t] = c
					end = t + 1
				}
				o.Y = make([]int, len(racks))
				for ri, r := range racks {
					y := m.AddVar(fmt.Sprintf("y[%d,%d,%d]", j, oi, r), solver.Integer, 0, float64(min(job.Nodes, p.RackNodes)), 0)
					o.Y[ri] = y
					link = append(link, y)
					linkCoef = append(linkCoef, 1)
					for t := s; t < end; t++ {
						capIdx[r*p.Slices+t] = append(capIdx[r*p.Slices+t], y)
						capCoef[r*p.Slices+t] = append(capCoef[r*p.Slices+t], usage[t])
					}
				}
				link = append(link, o.X)
				linkCoef = append(linkCoef, -float64(job.Nodes))
				o.LinkRow = m.AddRow(fmt.Sprintf("link[%d,%d]", j, oi), link, linkCoef, solver.EQ, 0)
				demand = append(demand, o.X)
				job.Options = append(job.Options, oi)
				in.Options = append(in.Options, o)
			}
		}
		if len(demand) > 0 {
			coef := make([]float64, len(demand))
			for i := range coef {
				coef[i] = 1
			}
			job.DemandRow = m.AddRow(fmt.Sprintf("demand[%d]", j), demand, coef, solver.LE, 1)
		}
		in.Jobs = append(in.Jobs, job)
	}
	in.CapRow = make([][]int, p.Racks)
	for r := 0; r < p.Racks; r++ {
		in.CapRow[r] = make([]int, p.Slices)
		for t := 0; t < p.Slices; t++ {
			in.CapRow[r][t] = -1
			if idx := capIdx[r*p.Slices+t]; len(idx) > 0 {
				in.CapRow[r][t] = m.AddRow(fmt.Sprintf("cap[%d,%d]", r, t), idx, capCoef[r*p.Slices+t], solver.LE, in.Capacity[r][t])
			}
		}
	}
	return in, nil
}

// utilityOf returns the expected utility of starting job at slice s with
// runtime distribution rt (see Generate).
func utilityOf(job *Job, rt Runtime, s float64) float64 {
	a := job.Deadline - s
	if a <= 0 {
		return 0
	}
	if job.Class == SLO {
		return job.Value * rt.CDF(a)
	}
	e := a*rt.CDF(a) - rt.partialMean(a)
	return job.Value / job.Deadline * math.Max(e, 0)
}

// capacity returns C[r][t]: running jobs of 1–16 nodes fill
// round(BusyFraction·nodes) nodes at t = 0, rack by rack in random order;
// each has a lognormal runtime (as pending jobs) and has run for e slices
// with S(e) ≥ 0.05, and holds n_i(r) nodes of rack r with expected remaining
// consumption RRC_i(t) = S_i(e_i + t)/S_i(e_i). Slice 0 is exact (RRC = 1).
func capacity(p Params, rng *rand.Rand) [][]float64 {
	c := make([][]float64, p.Racks)
	for r := range c {
		c[r] = make([]float64, p.Slices)
		for t := range c[r] {
			c[r][t] = float64(p.RackNodes)
		}
	}
	free := make([]int, p.Racks)
	for r := range free {
		free[r] = p.RackNodes
	}
	busy := int(math.Round(p.BusyFraction * float64(p.Racks*p.RackNodes)))
	order := rng.Perm(p.Racks)
	oi := 0
	for busy > 0 {
		n := min(busy, 1+rng.IntN(16))
		median := math.Exp(math.Log(3) + rng.Float64()*(math.Log(40)-math.Log(3)))
		rt := Runtime{Mu: math.Log(median), Sigma: 0.2 + 0.7*rng.Float64()}
		// Elapsed time e uniform on [0, q95], so S(e) ≥ 0.05.
		q95 := math.Exp(rt.Mu + 1.6448536269514722*rt.Sigma)
		e := rng.Float64() * q95
		se := rt.Survival(e)
		busy -= n
		for n > 0 {
			for free[order[oi]] == 0 {
				oi++
			}
			r := order[oi]
			take := min(n, free[r])
			free[r] -= take
			n -= take
			for t := 0; t < p.Slices; t++ {
				c[r][t] -= float64(take) * rt.Survival(e+float64(t)) / se
			}
		}
	}
	for r := range c {
		c[r][0] = float64(free[r]) // exact: running jobs hold whole nodes now
		for t := range c[r] {
			c[r][t] = math.Max(c[r][t], 0)
		}
	}
	return c
}

func sortedCopy(a []int) []int {
	b := append([]int(nil), a...)
	for i := 1; i < len(b); i++ {
		for k := i; k > 0 && b[k] < b[k-1]; k-- {
			b[k], b[k-1] = b[k-1], b[k]
		}
	}
	return b
}

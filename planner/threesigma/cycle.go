package threesigma

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/solver"
	"github.com/plannerhq/planner/utility"
)

// cycle is the per-cycle state of one planning cycle (CONVENTIONS 6): built
// by newCycle, filled in by the stages in order, dropped after.
type cycle struct {
	s   *ThreeSigma
	ctx context.Context
	st  *planner.State
	id  uint64

	// Time grid. q is the slice length (seconds); the horizon is H slices.
	// starts are the option start slices below H; checks the slices that get
	// capacity rows (ascending, starting at 0), checkT their times from now.
	q        float64
	abs      int64   // absolute index of slice 0: floor(now / q)
	interval float64 // the scheduling interval: one exp-inc "cycle"
	H        int
	starts   []int
	checks   []int
	checkT   []float64

	// Partition groups: partitions every job treats alike (same preference
	// membership for every pending job) are planned as one pool.
	groupOf []int     // partition → group
	parts   [][]int   // group → partitions, ascending
	gNodes  []int     // group → nodes
	gSpeed  []float64 // group → the speed of its nodes

	// capacity: C[g·len(checks)+k], expected free nodes of group g at check k
	// once the non-preemptible running jobs are accounted for.
	C []float64
	// fixed are the running jobs the plan cannot preempt, by group.
	fixed []utility.Running
	keeps []keep

	jobs []*pjob
	opts []option
	// tasks are the task-level jobs planned as gangs (gangView), by id.
	tasks map[int]*planner.Pending

	m      *solver.Model
	res    *solver.Result
	solved bool // the solver gave a usable answer
	// solveWall is the wall time of the solve call, limit its wall limit.
	solveWall, limit time.Duration

	failed  string // the stage that failed, if any
	failErr error
	dec     *planner.Decision
}

// keep is a running best-effort job the plan may preempt: its keep-variable
// z (1 = keep running) is worth its remaining expected utility.
type keep struct {
	run   *planner.Running
	nodes []int     // per group
	rrc   []float64 // per check: expected remaining consumption per node
	value float64
	z     int // column
}

// pjob is a pending job being planned.
type pjob struct {
	p     *planner.Pending
	info  *jobInfo
	curve utility.Curve
	sets  []allowedSet
}

// allowedSet is one allowed partition set of a job: its preferred groups
// (runtime as estimated) or all groups (runtime × slowdown), each down to
// one speed (runtime / that speed; see options).
type allowedSet struct {
	all    bool
	groups []int
	rt     *utility.Runtime
	util   []float64 // expected utility per start (index into cycle.starts)
	surv   []float64 // surv[m]: P(T > m·q), m < len(surv); cut below CoefTol
}

// option is one (job, allowed set, start) choice that survived valuation.
type option struct {
	job   int // index into cycle.jobs
	set   int // index into jobs[job].sets
	start int // start slice
	util  float64
	x     int   // column of x[j,o]
	y     []int // columns of y[j,o,g], parallel to the set's groups; nil for a single group
}

// newCycle checks the state and lays out the time grid.
func (s *ThreeSigma) newCycle(ctx context.Context, st *planner.State) (*cycle, error) {
	if st == nil {
		return nil, fmt.Errorf("threesigma: %s: nil state", s.name)
	}
	np := len(st.Cluster.PartitionNodes)
	if len(st.Free) != np {
		return nil, fmt.Errorf("threesigma: %s: state has %d free counts for %d partitions", s.name, len(st.Free), np)
	}
	for _, r := range st.Running {
		if len(r.Alloc) != np {
			return nil, fmt.Errorf("threesigma: %s: running job %d has %d allocation counts for %d partitions", s.name, r.Job.ID, len(r.Alloc), np)
		}
	}
	s.cycles++
	c := &cycle{s: s, ctx: ctx, st: st, id: s.cycles}
	cfg := &s.cfg
	c.interval = st.Interval
	if !(c.interval > 0) {
		c.interval = DefaultInterval
	}
	c.q = cfg.Slice
	if c.q <= 0 {
		c.q = c.interval
	}
	c.H = cfg.Slices
	if cfg.Horizon > 0 {
		c.q = math.Max(c.q, cfg.Horizon/float64(max(cfg.Slices, MaxSlices)))
		c.H = max(1, int(math.Ceil(cfg.Horizon/c.q-1e-9)))
	}
	c.abs = int64(math.Floor(st.Now/c.q + 1e-9))
	starts := cfg.Starts
	if !cfg.FixedStarts && len(starts) > 1 {
		// Past the configured starts, one more at each doubling of the
		// last, up to the horizon: a long horizon keeps the near starts
		// of a short one and adds a few far ones.
		for last := starts[len(starts)-1]; 2*last < c.H; last *= 2 {
			starts = append(slices.Clone(starts), 2*last)
		}
	}
	if cfg.FixedStarts {
		for _, v := range starts {
			if v < c.H {
				c.starts = append(c.starts, v)
			}
		}
	} else {
		c.starts = alignedStarts(starts, c.H, c.abs)
	}
	c.checks = checkSlices(c.H, cfg.DenseSlices, c.starts)
	c.checkT = make([]float64, len(c.checks))
	for k, t := range c.checks {
		c.checkT[k] = float64(t) * c.q
	}
	return c, nil
}

// alignedStarts places the option starts on the absolute slice grid, so
// that a start the plan chose stays an option in later cycles until it
// comes due. starts[0] = 0 is kept; every later starts[i] stands for the
// range [starts[i], starts[i] + w) with w = starts[i+1] − starts[i] (for
// the last, twice the gap before it), and becomes the one slice s of that
// range with abs + s a multiple of w. abs is the absolute index of slice 0
// (now / q).
//
// With relative starts {0,1,2,4,8,16,32} a plan "start at slice 8" finds no
// option at slice 7 one cycle later: it has to move to 4 or slip to 8, and
// a job deferred this way slips a little every cycle while the plan keeps
// its nodes reserved. With power-of-two widths the ranges nest: a slice
// that is a multiple of w is a multiple of every smaller width, so the
// planned start stays on the grid as it moves into the finer ranges.
func alignedStarts(starts []int, H int, abs int64) []int {
	out := make([]int, 0, len(starts))
	for i, lo := range starts {
		if i == 0 {
			out = append(out, lo)
			continue
		}
		var w int
		if i+1 < len(starts) {
			w = starts[i+1] - lo
		} else {
			w = 2 * (lo - starts[i-1])
		}
		w = max(w, 1)
		s := lo + int(((-(abs+int64(lo)))%int64(w)+int64(w))%int64(w))
		if s < H && s > out[len(out)-1] {
			out = append(out, s)
		}
	}
	return out
}

// checkSlices returns the slices that get capacity rows: every slice below
// dense, then a stride that doubles each time the slice index doubles, plus
// every start slice; all of them when dense < 0.
func checkSlices(H, dense int, starts []int) []int {
	mark := make([]bool, H)
	if dense < 0 || dense >= H {
		for t := range mark {
			mark[t] = true
		}
	} else {
		dense = max(dense, 1)
		for t := 0; t < dense; t++ {
			mark[t] = true
		}
		stride, bound := 2, 2*dense
		for t := dense; t < H; t += stride {
			mark[t] = true
			if t+stride >= bound {
				stride, bound = stride*2, bound*2
			}
		}
		for _, s := range starts {
			mark[s] = true
		}
	}
	out := make([]int, 0, H)
	for t, ok := range mark {
		if ok {
			out = append(out, t)
		}
	}
	return out
}

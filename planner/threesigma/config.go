package threesigma

import (
	"fmt"
	"time"

	"github.com/plannerhq/planner/solver"
	"github.com/plannerhq/planner/utility"
)

// SolveMode selects how the planning cycle bounds its solve.
type SolveMode int

const (
	// SolveWall bounds the solve by wall-clock time: Config.SolveFraction of
	// the scheduling interval (3Sigma §4.3: 75%). Answers can depend on the
	// machine's speed and load.
	SolveWall SolveMode = iota
	// SolveDeterministic makes the solve independent of the clock
	// (solver.Settings.Deterministic): the clp and greedy backends run
	// every step to its end, cbc and lpsolve stop at Config.WorkLimit
	// nodes, so the same inputs always give the same decisions; the
	// wall-clock limit is then only a guard against a runaway solve. Use it
	// for reproducible experiments.
	SolveDeterministic
)

var solveModeNames = [...]string{"wall", "deterministic"}

// String returns "wall" or "deterministic".
func (m SolveMode) String() string {
	if m < 0 || int(m) >= len(solveModeNames) {
		return fmt.Sprintf("SolveMode(%d)", int(m))
	}
	return solveModeNames[m]
}

// ParseSolveMode is the inverse of String.
func ParseSolveMode(s string) (SolveMode, error) {
	for i, n := range solveModeNames {
		if n == s {
			return SolveMode(i), nil
		}
	}
	return 0, fmt.Errorf("threesigma: unknown solve mode %q (want wall or deterministic)", s)
}

// Defaults of Config. Each is the value a zero field takes.
const (
	// DefaultSlices is the plan-ahead horizon in slices (3Sigma §4.3 bounds
	// it; SOLVERS.md measured models of 60 slices).
	DefaultSlices = 60
	// MaxSlices bounds the slices of a horizon given in seconds
	// (Config.Horizon): up to it slices are the interval long, beyond it
	// they grow to Horizon / MaxSlices.
	MaxSlices = 1440
	// DefaultSolveFraction of the interval is the wall-clock solve limit
	// (3Sigma §4.3: "a timeout of 75% of its scheduling interval").
	DefaultSolveFraction = 0.75
	// DefaultDenseSlices: capacity rows are checked at every slice up to
	// here and at a doubling stride after (see Config.DenseSlices).
	DefaultDenseSlices = 16
	// DefaultInterval is the slice length when neither the state nor the
	// config gives an interval (seconds).
	DefaultInterval = 60.0
	// DefaultBEDecay is how long (seconds) a best-effort job's value takes to
	// fall from Value at submission to BEFloor·Value.
	DefaultBEDecay = 3600.0
	// DefaultBEFloor is the fraction of its value a best-effort job keeps
	// however late it completes.
	DefaultBEFloor = 0.1
	// DefaultEarlyBias: an option starting at the end of the horizon loses
	// 2% of its value (see Config.EarlyBias).
	DefaultEarlyBias = 0.02
	// DefaultSlowPenalty: an option on all partitions (runtime × the
	// cluster's slowdown) of a job that prefers some of them loses 5% of its
	// value (see Config.SlowPenalty).
	DefaultSlowPenalty = 0.05
	// DefaultCommitPenalty: deferring a job past its planned start costs 5%
	// of its value (see Config.CommitPenalty).
	DefaultCommitPenalty = 0.05
	// DefaultLostWork: preempting a running best-effort job loses half its
	// value times the share of its expected runtime done (see
	// Config.LostWork). Without it the plan swaps best-effort jobs of equal
	// value from cycle to cycle (LANL CM-5 at load 1.4: 8,200–10,900
	// preemptions per day); at 1 SLO jobs wait more for nodes.
	DefaultLostWork = 0.5
)

// Tolerances of the model.
const (
	// CoefTol: expected-usage coefficients 1 − CDF(t − s) below it are dropped
	// from the capacity rows (and a job's coverage of later slices ends
	// there: the survival function only decreases). The model can then
	// overbook a partition by less than CoefTol per node in a future slice,
	// far below one node; slice 0 is always exact.
	CoefTol = 1e-3
	// ReserveTol: at an SLO job's reservation a job (started now, or
	// running and not preemptible) counts its whole gang while it runs
	// past the reservation with at least this probability: the 95th
	// percentile of its runtime, as EASY backfilling uses a job's
	// requested time (reserve.go).
	ReserveTol = 0.05
	// UtilTol: an option whose expected utility is below UtilTol × the job's
	// value counts as zero-utility and is dropped (DESIGN.md).
	UtilTol = 1e-6
)

// DefaultStarts are the start slices of every pending job's options
// (SOLVERS.md: {0,1,2,4,8,16,32}); starts at or beyond the horizon are cut.
var DefaultStarts = []int{0, 1, 2, 4, 8, 16, 32}

// Config parameterises a 3Sigma-style planning cycle. The zero value of
// every field means its default; Name, estimate.Estimator and Overestimate are set by
// the variant constructors.
type Config struct {
	// Solver is the backend name (solver.New); "" means solver.Default().
	Solver string
	// Mode bounds the solve by wall time (default) or by work.
	Mode SolveMode
	// SolveFraction of the scheduling interval is the wall-clock solve limit
	// in SolveWall mode (default 0.75).
	SolveFraction float64
	// SolveTimeout, when > 0, overrides SolveFraction·interval (for sweeps
	// of the solver timeout and for tests).
	SolveTimeout time.Duration
	// WorkLimit is the work budget of SolveDeterministic for the backends
	// that take one (branch-and-bound nodes of cbc and lpsolve); zero means
	// the backend's default. The wall-clock limit of a deterministic solve
	// is only a guard against a runaway one: max(10 s, 10 × SolveTimeout).
	WorkLimit int64

	// Slice is the slice length q in seconds; 0 means the state's interval.
	Slice float64
	// Slices is the horizon H in slices (default 60).
	Slices int
	// Horizon, when > 0, is the horizon in seconds instead: Horizon / q
	// slices of the slice length q, which grows to Horizon / MaxSlices
	// (or / Slices, when larger) so as not to need more slices.
	// HorizonFor derives one from a workload's history.
	Horizon float64
	// Starts are the start slices of the options (default DefaultStarts).
	// Slice 0 must be among them: only s = 0 options are enacted. Unless
	// FixedStarts, a horizon longer than twice the last start adds one
	// start at each doubling of it (64, 128, … below the horizon).
	Starts []int
	// FixedStarts uses Starts as slices from now in every cycle. By default
	// each start after the first is aligned to the absolute slice grid
	// (alignedStarts), so that a planned start stays an option as it
	// approaches instead of slipping.
	FixedStarts bool
	// DenseSlices: capacity rows sit at every slice below DenseSlices and at
	// slices d, 2d, 4d… apart after it (stride doubling each time the slice
	// index doubles), always including every start slice. Far slices are
	// re-planned many times before they come; checking them coarsely keeps
	// the model small. Negative means every slice (the paper's full grid).
	DenseSlices int

	// RackSlices: capacity rows per partition group for the first
	// RackSlices slices, one row over the whole cluster after (see the model
	// stage). Default 1: slice 0, where decisions are enacted, is exact per
	// partition. A value ≥ the horizon gives the full per-partition model.
	RackSlices int

	// NoSetRows drops the capacity rows per preferred set past RackSlices
	// (see the model stage).
	NoSetRows bool

	// Overestimate is the SLO over-estimate handling (3Sigma §4.2).
	Overestimate utility.Overestimate
	// OverestimateThreshold of the adaptive switch; 0 means
	// utility.DefaultOverestimateThreshold.
	OverestimateThreshold float64
	// BEDecay (seconds) and BEFloor shape a best-effort job's utility:
	// Value at submission, falling linearly to BEFloor·Value at submit +
	// BEDecay, flat after (so a late job never becomes worthless and is
	// never starved by a zero value).
	BEDecay float64
	BEFloor float64
	// EarlyBias breaks ties toward earlier starts: an option starting at
	// slice s is worth U·(1 − EarlyBias·s/H). Without it an SLO job whose
	// deadline is far is worth the same now and later, and a plan that
	// defers it (re-planned every cycle) can defer it forever while nodes
	// sit idle. Default DefaultEarlyBias; negative means none.
	EarlyBias float64
	// SlowPenalty: an option that may place a job off its preferred
	// partitions is worth U·(1 − SlowPenalty). Its expected utility already
	// counts the slowdown, but two options of equal expected utility are not
	// equal: the slowed one holds its nodes Slowdown× longer and has less
	// margin when the runtime estimate is low. Without the penalty the
	// solver breaks such ties arbitrarily, and an SLO job that would have met
	// its deadline on its preferred racks misses it slowed. Default
	// DefaultSlowPenalty; negative means none.
	SlowPenalty float64
	// CommitPenalty: an option that starts a job later than the slice the
	// previous cycle's plan chose for it is worth U·(1 − CommitPenalty).
	// Only starts in slice 0 are enacted and the rest is re-planned every
	// cycle, so without it a deferral costs only the early bias of one
	// slice, and a job whose planned start keeps losing its slot to new
	// arrivals slips cycle after cycle while the plan holds nodes for it
	// (a 98-node SLO job slipped for 35 minutes with ~90 nodes idle, then
	// missed its deadline). Default DefaultCommitPenalty; negative means none.
	CommitPenalty float64
	// NoReserve drops the reservation rows (reserve.go): the planned start
	// of an SLO job then holds its nodes only in expectation, and start-now
	// options of other jobs may take them.
	NoReserve bool
	// NoPreempt disables the keep-variables of running best-effort jobs.
	NoPreempt bool
	// LostWork weighs the work a running best-effort job has done in its
	// keep value, as a share of its value (remainingUtility): keeping it
	// is worth its expected utility plus LostWork · V · elapsed /
	// E[T | T > elapsed]. Default DefaultLostWork; negative means none.
	LostWork float64

	// MaxPending bounds the pending jobs planned per cycle (0: all): the
	// first MaxPending by class (SLO first), then deadline or submit time.
	MaxPending int

	// Fallback is the rule that decides a cycle whose solve gives no
	// usable answer (default FallbackGS).
	Fallback Fallback
	// FailRate, in [0, 1], fails that share of the solves on purpose
	// before they start, so that the fallback's quality can be measured:
	// each cycle's draw comes from Seed and the cycle's number
	// (failOnPurpose). Solver planner.SolverNone fails every solve.
	FailRate float64
	// Seed seeds the planner's own random choices (the failed solves of
	// FailRate, the pilots of FallbackSLearn).
	Seed uint64
}

// withDefaults returns c with every zero field set to its default.
func (c Config) withDefaults() Config {
	if c.Solver == "" {
		c.Solver = solver.Default()
	}
	if c.SolveFraction <= 0 {
		c.SolveFraction = DefaultSolveFraction
	}
	if c.Slices <= 0 {
		c.Slices = DefaultSlices
	}
	if len(c.Starts) == 0 {
		c.Starts = DefaultStarts
	}
	if c.EarlyBias == 0 {
		c.EarlyBias = DefaultEarlyBias
	} else if c.EarlyBias < 0 {
		c.EarlyBias = 0
	}
	if c.SlowPenalty == 0 {
		c.SlowPenalty = DefaultSlowPenalty
	} else if c.SlowPenalty < 0 {
		c.SlowPenalty = 0
	}
	if c.CommitPenalty == 0 {
		c.CommitPenalty = DefaultCommitPenalty
	} else if c.CommitPenalty < 0 {
		c.CommitPenalty = 0
	}
	if c.LostWork == 0 {
		c.LostWork = DefaultLostWork
	} else if c.LostWork < 0 {
		c.LostWork = 0
	}
	if c.RackSlices <= 0 {
		c.RackSlices = 1
	}
	if c.DenseSlices == 0 {
		c.DenseSlices = DefaultDenseSlices
	}
	if c.BEDecay <= 0 {
		c.BEDecay = DefaultBEDecay
	}
	if c.BEFloor <= 0 {
		c.BEFloor = DefaultBEFloor
	}
	return c
}

// validate reports the first invalid field of a defaulted config.
func (c Config) validate() error {
	switch {
	case c.Starts[0] != 0:
		return fmt.Errorf("threesigma: start slices must begin with 0, got %v", c.Starts)
	case c.EarlyBias >= 1:
		return fmt.Errorf("threesigma: EarlyBias must be below 1, got %v", c.EarlyBias)
	case c.SlowPenalty >= 1:
		return fmt.Errorf("threesigma: SlowPenalty must be below 1, got %v", c.SlowPenalty)
	case c.CommitPenalty >= 1:
		return fmt.Errorf("threesigma: CommitPenalty must be below 1, got %v", c.CommitPenalty)
	case c.BEFloor >= 1:
		return fmt.Errorf("threesigma: BEFloor must be below 1, got %v", c.BEFloor)
	case c.Slice < 0 || c.Horizon < 0:
		return fmt.Errorf("threesigma: slice and horizon must be ≥ 0, got %v and %v", c.Slice, c.Horizon)
	case c.Mode != SolveWall && c.Mode != SolveDeterministic:
		return fmt.Errorf("threesigma: unknown solve mode %d", int(c.Mode))
	case c.Fallback < 0 || int(c.Fallback) >= len(fallbackNames):
		return fmt.Errorf("threesigma: unknown fallback %d", int(c.Fallback))
	case !(c.FailRate >= 0 && c.FailRate <= 1):
		return fmt.Errorf("threesigma: solver fail rate must be in [0, 1], got %v", c.FailRate)
	}
	for i := 1; i < len(c.Starts); i++ {
		if c.Starts[i] <= c.Starts[i-1] {
			return fmt.Errorf("threesigma: start slices must increase, got %v", c.Starts)
		}
	}
	return nil
}

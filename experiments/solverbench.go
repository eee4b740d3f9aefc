package experiments

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/plannerhq/planner/solver"
	"github.com/plannerhq/planner/solver/instances"
)

// SolverBenchConfig describes a solver comparison: every listed backend on
// every (jobs, seed) instance of the rack formulation, under one time limit.
type SolverBenchConfig struct {
	Jobs      []int // pending jobs per instance
	Racks     int
	RackNodes int
	Starts    int // start-slice options per job: 0, 1, 2, 4, …
	Slices    int // plan-ahead horizon in slices
	Seeds     []uint64
	Timeout   time.Duration // wall limit of each solve
	Solvers   []string
	// Deterministic solves independently of the clock: greedy and clp run
	// their steps to the end, cbc and lpsolve stop at Work nodes (zero:
	// their default).
	Deterministic bool
	Work          int64
	// Reference, when positive, computes the best objective known for each
	// instance with a long solve: CBC warm-started for this long from the
	// best answer of the listed solvers. BestPct is then measured against
	// the best of it and of every listed solver.
	Reference time.Duration
	// Known holds best objectives known from earlier runs (ReadBestKnown),
	// so that a long Reference need not be recomputed on every run; BestPct
	// is measured against the best of them and of this run's solves.
	Known map[BenchInstance]float64
}

// BenchInstance names one instance of a solver comparison (the other
// generator parameters are those of the run).
type BenchInstance struct {
	Jobs int
	Seed uint64
}

// SolverBenchRow is one solve. Bound is the instance's LP relaxation bound
// (from the clp backend), the same for every solver of an instance; GapPct is
// (Bound − Objective)/Bound × 100; BestPct is Objective over the best
// objective any listed solver reached on the instance, × 100.
type SolverBenchRow struct {
	Solver    string  `json:"solver"`
	Jobs      int     `json:"jobs"`
	Seed      uint64  `json:"seed"`
	Status    string  `json:"status"`
	Objective float64 `json:"objective"`
	Bound     float64 `json:"bound"`
	GapPct    float64 `json:"gap_pct"`
	BestPct   float64 `json:"best_pct"`
	WallMS    float64 `json:"wall_ms"`
	// BestKnown is the best objective known for the instance (see BestPct).
	BestKnown float64 `json:"best_known"`
	Vars      int     `json:"vars"`
	Rows      int     `json:"rows"`
	Nonzeros  int     `json:"nonzeros"`
	// GuardStopped: the wall-clock guard (SolverBenchConfig.Timeout) stopped
	// a deterministic solve before it ended, so its answer depends on the
	// machine's speed and load (solver.Result.GuardStopped).
	GuardStopped bool `json:"guard_stopped,omitempty"`
}

// instanceParams are the generator's parameters of instance (jobs, seed).
func (cfg SolverBenchConfig) instanceParams(jobs int, seed uint64) instances.Params {
	return instances.Params{Jobs: jobs, Racks: cfg.Racks, RackNodes: cfg.RackNodes,
		Starts: cfg.Starts, Slices: cfg.Slices, BusyFraction: instances.DefaultParams().BusyFraction, Seed: seed}
}

// ValidateInstances reports the first job count whose instances the
// generator refuses (a zero field, start options past the slices, a model
// too large), so that a run fails before its first solve, not midway.
func (cfg SolverBenchConfig) ValidateInstances() error {
	for _, jobs := range cfg.Jobs {
		if err := cfg.instanceParams(jobs, 0).Validate(); err != nil {
			return err
		}
	}
	return nil
}

// RunSolverBench solves every instance with every solver, one solve at a time
// (solves in parallel would distort each other's wall times), reporting each
// finished row to progress when it is not nil.
func RunSolverBench(ctx context.Context, cfg SolverBenchConfig, progress func(SolverBenchRow)) ([]SolverBenchRow, error) {
	if err := cfg.ValidateInstances(); err != nil {
		return nil, err
	}
	solvers := make([]solver.Solver, len(cfg.Solvers))
	for i, name := range cfg.Solvers {
		s, err := solver.New(name)
		if err != nil {
			return nil, err
		}
		solvers[i] = s
	}
	var rows []SolverBenchRow
	for _, jobs := range cfg.Jobs {
		for _, seed := range cfg.Seeds {
			inst, err := instances.Generate(cfg.instanceParams(jobs, seed))
			if err != nil {
				return nil, err
			}
			m := inst.Model
			bound, nonzeros := lpBound(ctx, m, cfg), m.NumNonzeros()
			first := len(rows)
			var bestX []float64 // the best answer of the listed solvers, to warm-start the reference
			for _, s := range solvers {
				set := &solver.Settings{TimeLimit: cfg.Timeout, Threads: 1, Deterministic: cfg.Deterministic, WorkLimit: cfg.Work}
				res, err := s.Solve(ctx, m, set)
				if err != nil {
					return nil, fmt.Errorf("%s on %d jobs, seed %d: %w", s.Name(), jobs, seed, err)
				}
				row := SolverBenchRow{Solver: s.Name(), Jobs: jobs, Seed: seed,
					Status: res.Status.String(), Objective: res.Objective, Bound: bound,
					GapPct: math.NaN(), BestPct: math.NaN(), WallMS: float64(res.Wall.Microseconds()) / 1000,
					Vars: len(m.Vars), Rows: len(m.Rows), Nonzeros: nonzeros, GuardStopped: res.GuardStopped}
				if res.X == nil {
					row.Objective = math.NaN()
				} else {
					if bound > 0 {
						row.GapPct = (bound - res.Objective) / bound * 100
					}
					if bestX == nil || res.Objective > m.ObjectiveValue(bestX) {
						bestX = res.X
					}
				}
				rows = append(rows, row)
				if progress != nil {
					progress(row)
				}
			}
			best := math.Inf(-1)
			if v, ok := cfg.Known[BenchInstance{jobs, seed}]; ok {
				// No answer beats the LP bound: a best known above it was
				// found on other instance parameters (--racks, --slices, …).
				if v > bound+1e-6*math.Abs(bound) {
					return nil, fmt.Errorf("%w: %g for %d jobs, seed %d, above the instance's LP bound %.6g (found on other instance parameters?)", ErrKnownAboveBound, v, jobs, seed, bound)
				}
				best = v
			}
			if cfg.Reference > 0 {
				best = math.Max(best, referenceObjective(ctx, m, cfg.Reference, bestX))
			}
			for _, r := range rows[first:] {
				if !math.IsNaN(r.Objective) {
					best = math.Max(best, r.Objective)
				}
			}
			for i := first; i < len(rows); i++ {
				rows[i].BestKnown = best
				if !math.IsNaN(rows[i].Objective) && best > 0 {
					rows[i].BestPct = rows[i].Objective / best * 100
				}
			}
		}
	}
	return rows, nil
}

// referenceObjective is the objective of CBC warm-started from start for
// limit (−Inf when it finds no answer).
func referenceObjective(ctx context.Context, m *solver.Model, limit time.Duration, start []float64) float64 {
	cbc, err := solver.New(solver.CBCName)
	if err != nil {
		return math.Inf(-1)
	}
	res, err := cbc.Solve(ctx, m, &solver.Settings{TimeLimit: limit, Threads: 1, Start: start})
	if err != nil || res.X == nil {
		return math.Inf(-1)
	}
	return res.Objective
}

// lpBound is the LP relaxation bound of m (NaN when the clp backend is not
// compiled in or does not finish within ten times the benchmark limit).
func lpBound(ctx context.Context, m *solver.Model, cfg SolverBenchConfig) float64 {
	clp, err := solver.New(solver.CLPName)
	if err != nil {
		return math.NaN()
	}
	limit := 10 * cfg.Timeout
	if limit < 10*time.Second {
		limit = 10 * time.Second
	}
	res, err := clp.Solve(ctx, m, &solver.Settings{TimeLimit: limit, Threads: 1})
	if err != nil || res.TimeLimited {
		return math.NaN()
	}
	return res.Bound
}

// ErrKnownAboveBound is RunSolverBench's error for a best known objective
// (SolverBenchConfig.Known) above its instance's LP bound, which no answer
// can reach.
var ErrKnownAboveBound = errors.New("a best known objective no answer can reach")

// ReadBestKnown reads the best objective known per instance from the JSON
// output of an earlier run (WriteSolverBenchJSON): for each (jobs, seed) the
// largest best_known or objective of its rows.
func ReadBestKnown(r io.Reader) (map[BenchInstance]float64, error) {
	var rows []struct {
		Jobs      int      `json:"jobs"`
		Seed      uint64   `json:"seed"`
		Objective *float64 `json:"objective"`
		BestKnown *float64 `json:"best_known"`
	}
	dec := json.NewDecoder(r)
	if err := dec.Decode(&rows); err != nil {
		var typeErr *json.UnmarshalTypeError
		var synErr *json.SyntaxError
		switch {
		case errors.As(err, &typeErr):
			return nil, fmt.Errorf("best known objectives: want a JSON list of objects with jobs, seed and objective or best_known (a bench solver --format json output), byte %d holds a JSON %s", typeErr.Offset, typeErr.Value)
		case err == io.EOF:
			return nil, errors.New("empty file (want the JSON of best-known objectives: a bench solver --format json output)")
		case err == io.ErrUnexpectedEOF:
			return nil, errors.New("best known objectives: the JSON ends early (a file cut short?)")
		case errors.As(err, &synErr):
			return nil, fmt.Errorf("best known objectives: bad JSON at byte %d: %w", synErr.Offset, err)
		}
		return nil, fmt.Errorf("best known objectives: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("best known objectives: data after the JSON list, at byte %d", dec.InputOffset())
	}
	if rows == nil {
		return nil, errors.New("best known objectives: want a JSON list of objects with jobs, seed and objective or best_known (a bench solver --format json output), got null")
	}
	known := make(map[BenchInstance]float64)
	for i, row := range rows {
		// objective and best_known may both be null: a row of a solver
		// that found no answer.
		if row.Jobs < 1 {
			return nil, fmt.Errorf("best known objectives: item %d: want jobs ≥ 1, seed, and objective or best_known", i+1)
		}
		k := BenchInstance{row.Jobs, row.Seed}
		for _, v := range []*float64{row.Objective, row.BestKnown} {
			if v == nil {
				continue
			}
			if old, ok := known[k]; !ok || *v > old {
				known[k] = *v
			}
		}
	}
	return known, nil
}

// WriteSolverBenchTable prints rows as an aligned text table, then their
// summary per solver and instance size (SummariseSolverBench).
func WriteSolverBenchTable(w io.Writer, rows []SolverBenchRow) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "solver\tjobs\tseed\tstatus\tobjective\tLP bound\tgap %\t% of best\twall ms\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%d\t", r.Solver, r.Jobs, r.Seed)
		status := r.Status
		if r.GuardStopped {
			status += " (guard)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.0f\t\n", status,
			num(r.Objective, 2), num(r.Bound, 2), num(r.GapPct, 2), num(r.BestPct, 2), r.WallMS)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(rows) == 0 {
		return nil
	}
	if _, err := fmt.Fprintln(w); err != nil {
		return err
	}
	return writeSolverBenchSummary(w, rows)
}

// SolverBenchSummary sums up the solves of one solver at one instance size.
type SolverBenchSummary struct {
	Solver    string
	Jobs      int
	Instances int // distinct instance seeds
	Solves    int
	// Answered counts the solves with an answer. The shares are over
	// those whose share of the best known is defined (NaN when none is).
	Answered     int
	MeanBestPct  float64
	WorstBestPct float64
	MedianWallMS float64 // over every solve
	MaxWallMS    float64
}

// SummariseSolverBench groups rows by solver and instance size, in the
// order they first appear.
func SummariseSolverBench(rows []SolverBenchRow) []SolverBenchSummary {
	type key struct {
		solver string
		jobs   int
	}
	var order []key
	groups := map[key][]SolverBenchRow{}
	for _, r := range rows {
		k := key{r.Solver, r.Jobs}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	out := make([]SolverBenchSummary, 0, len(order))
	for _, k := range order {
		g := groups[k]
		sum := SolverBenchSummary{Solver: k.solver, Jobs: k.jobs, Solves: len(g),
			MeanBestPct: math.NaN(), WorstBestPct: math.NaN()}
		seeds := map[uint64]bool{}
		walls := make([]float64, 0, len(g))
		total := 0.0
		shares := 0
		for _, r := range g {
			seeds[r.Seed] = true
			walls = append(walls, r.WallMS)
			if !math.IsNaN(r.Objective) {
				sum.Answered++
			}
			if math.IsNaN(r.BestPct) {
				continue
			}
			shares++
			total += r.BestPct
			if shares == 1 || r.BestPct < sum.WorstBestPct {
				sum.WorstBestPct = r.BestPct
			}
		}
		if shares > 0 {
			sum.MeanBestPct = total / float64(shares)
		}
		slices.Sort(walls)
		sum.MaxWallMS = walls[len(walls)-1]
		sum.MedianWallMS = median(walls)
		sum.Instances = len(seeds)
		out = append(out, sum)
	}
	return out
}

// median of sorted, non-empty xs.
func median(xs []float64) float64 {
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// writeSolverBenchSummary prints the summary of rows as a second table.
func writeSolverBenchSummary(w io.Writer, rows []SolverBenchRow) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "solver\tjobs\tinstances\tsolves\tanswered\tmean % of best\tworst\twall ms, median\tmax\t")
	for _, sm := range SummariseSolverBench(rows) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%s\t%.0f\t%.0f\t\n", sm.Solver, sm.Jobs, sm.Instances,
			sm.Solves, sm.Answered, num(sm.MeanBestPct, 2), num(sm.WorstBestPct, 2),
			sm.MedianWallMS, sm.MaxWallMS)
	}
	return tw.Flush()
}

// WriteSolverBenchJSON prints rows as a JSON list (NaN becomes null).
func WriteSolverBenchJSON(w io.Writer, rows []SolverBenchRow) error {
	type jsonRow struct {
		SolverBenchRow
		Objective *float64 `json:"objective"`
		Bound     *float64 `json:"bound"`
		GapPct    *float64 `json:"gap_pct"`
		BestPct   *float64 `json:"best_pct"`
		BestKnown *float64 `json:"best_known"`
	}
	out := make([]jsonRow, len(rows))
	for i, r := range rows {
		out[i] = jsonRow{SolverBenchRow: r, Objective: nullable(r.Objective), Bound: nullable(r.Bound),
			GapPct: nullable(r.GapPct), BestPct: nullable(r.BestPct), BestKnown: nullable(r.BestKnown)}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func nullable(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func num(v float64, prec int) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf("%.*f", prec, v)
}

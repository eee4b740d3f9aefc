package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/plannerhq/planner/experiments"
	"github.com/plannerhq/planner/solver"
	"github.com/plannerhq/planner/solver/instances"
	"github.com/spf13/pflag"
)

func runBenchSolver(args []string, stdout, stderr io.Writer) (err error) {
	fs := pflag.NewFlagSet("bench solver", pflag.ContinueOnError)
	defer func() { err = inConfig(fs, err) }()
	fs.SetOutput(stdout) // --help prints the usage there
	var (
		cfg     experiments.SolverBenchConfig
		seeds   string
		solvers []string
		format  string
		quiet   bool
		known   []string
		config  string
	)
	fs.IntSliceVar(&cfg.Jobs, "jobs", []int{300}, "pending jobs per instance (a list runs each size)")
	decimalVar(fs, &cfg.Racks, "racks", 8, "racks (partitions of identical nodes)")
	decimalVar(fs, &cfg.RackNodes, "rack-nodes", 32, "nodes per rack")
	decimalVar(fs, &cfg.Starts, "starts", 7, "start-slice options per job: 0, 1, 2, 4, …")
	decimalVar(fs, &cfg.Slices, "slices", 60, "plan-ahead horizon in slices")
	fs.StringVar(&seeds, "seeds", "1-5", "instance seeds: a list and ranges, e.g. 1-5 or 1,3,7-9")
	fs.DurationVar(&cfg.Timeout, "timeout", time.Second, "wall-clock limit of each solve (at most 1h)")
	fs.StringSliceVar(&solvers, "solvers", defaultBenchSolvers(), "backends to compare")
	fs.StringVar(&format, "format", "table", "output: table or json")
	fs.BoolVar(&cfg.Deterministic, "deterministic", false, "solve independently of the clock: every step to its end, cbc and lpsolve to --work nodes (--timeout then only guards, by default "+deterministicGuard.String()+"; a solve it stops is an error)")
	decimalVar(fs, &cfg.Work, "work", 0, "with --deterministic: the branch-and-bound node limit of cbc and lpsolve; 0: their default")
	fs.BoolVarP(&quiet, "quiet", "q", false, "no progress on stderr")
	fs.StringVar(&config, "config", "", configUsage)
	fs.DurationVar(&cfg.Reference, "reference", 0, "also find the best objective known per instance with CBC warm-started from the best answer for this long (e.g. 60s, at most 1h); '% of best' is then against it")
	fs.StringSliceVar(&known, "best-known", nil, "JSON outputs of earlier runs (e.g. with --reference) whose best objectives per instance count as known")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: planner bench solver [flags]\n\nSolves random 3Sigma-shaped MILPs (rack formulation) with each backend and\nprints status, objective, LP bound, gap to the bound, share of the best answer\nand wall time per solver and seed, then a summary per solver and size.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := parseNoArgs(fs, args, "bench solver"); err != nil {
		return err
	}
	if config != "" {
		if err := applyConfigFile(fs, config); err != nil {
			return usageError{err}
		}
	}
	if cfg.Seeds, err = parseSeeds(seeds); err != nil {
		return usageError{fmt.Errorf("--seeds: %w", err)}
	}
	if format != "table" && format != "json" {
		return usageError{fmt.Errorf("--format: want table or json, got %q", format)}
	}
	if cfg.Work < 0 {
		return usageError{fmt.Errorf("--work: must be ≥ 0, got %d", cfg.Work)}
	}
	if cfg.Work > 0 && !cfg.Deterministic {
		return usageError{errors.New("--work needs --deterministic")}
	}
	if cfg.Deterministic && !fs.Changed("timeout") {
		cfg.Timeout = deterministicGuard
	}
	if cfg.Timeout <= 0 || cfg.Timeout > maxSolveLimit {
		return usageError{fmt.Errorf("--timeout: must be in (0, %s], got %s", maxSolveLimit, cfg.Timeout)}
	}
	if cfg.Reference < 0 || cfg.Reference > maxSolveLimit {
		return usageError{fmt.Errorf("--reference: must be in [0, %s], got %s", maxSolveLimit, cfg.Reference)}
	}
	if cfg.Reference > 0 && cfg.Deterministic {
		return usageError{errors.New("--reference: a timed reference solve would make a --deterministic run's best known (and % of best) depend on the machine")}
	}
	for _, j := range cfg.Jobs {
		if j < 1 {
			return usageError{fmt.Errorf("--jobs: must be ≥ 1, got %d", j)}
		}
	}
	if j, ok := firstDuplicate(cfg.Jobs); ok {
		return usageError{fmt.Errorf("--jobs: %d is given twice", j)}
	}
	for _, f := range []struct {
		flag string
		v    int
	}{{"racks", cfg.Racks}, {"rack-nodes", cfg.RackNodes}, {"starts", cfg.Starts}, {"slices", cfg.Slices}} {
		if f.v < 1 {
			return usageError{fmt.Errorf("--%s: must be ≥ 1, got %d", f.flag, f.v)}
		}
	}
	if !instances.StartsFit(cfg.Starts, cfg.Slices) {
		return usageError{fmt.Errorf("--starts: %d start options (slices 0, 1, 2, 4, …) reach beyond --slices %d", cfg.Starts, cfg.Slices)}
	}
	if err := cfg.ValidateInstances(); err != nil {
		return usageError{fmt.Errorf("--%s: %w", oversizedFlag(cfg, err), err)}
	}
	if len(solvers) == 0 {
		return usageError{fmt.Errorf("--solvers: give at least one backend (this build has: %s)", strings.Join(solver.Backends(), ", "))}
	}
	for _, name := range solvers {
		if _, err := solver.New(name); err != nil {
			return usageError{fmt.Errorf("--solvers: %w", err)}
		}
	}
	if name, ok := firstDuplicate(solvers); ok {
		return usageError{fmt.Errorf("--solvers: %s is given twice", name)}
	}
	cfg.Solvers = solvers
	for _, path := range known {
		if err := readBestKnown(path, &cfg); err != nil {
			return usageError{fmt.Errorf("--best-known: %w", err)}
		}
	}
	progress := func(r experiments.SolverBenchRow) {
		if !quiet {
			guard := ""
			if r.GuardStopped {
				guard = " (stopped by the --timeout guard)"
			}
			fmt.Fprintf(stderr, "bench: %s jobs=%d seed=%d %s %.0f ms%s\n", r.Solver, r.Jobs, r.Seed, r.Status, r.WallMS, guard)
		}
	}
	rows, err := experiments.RunSolverBench(context.Background(), cfg, progress)
	if errors.Is(err, experiments.ErrKnownAboveBound) {
		return usageError{fmt.Errorf("--best-known: %w", err)}
	}
	if err != nil {
		return err
	}
	if format == "json" {
		err = experiments.WriteSolverBenchJSON(stdout, rows)
	} else {
		err = experiments.WriteSolverBenchTable(stdout, rows)
	}
	if err != nil {
		return err
	}
	// The rows are out (no lost work), but a run asked to be deterministic
	// that is not fails.
	if n := countGuardStopped(rows); n > 0 {
		return fmt.Errorf("--timeout: the %s guard stopped %d of %d deterministic solves before they ended (guard_stopped), so their answers depend on the machine; give a longer --timeout or a smaller --work", cfg.Timeout, n, len(rows))
	}
	return nil
}

// countGuardStopped is how many rows the wall-clock guard stopped.
func countGuardStopped(rows []experiments.SolverBenchRow) int {
	n := 0
	for _, r := range rows {
		if r.GuardStopped {
			n++
		}
	}
	return n
}

// deterministicGuard is the wall-clock guard of a --deterministic solve
// when --timeout is not given: cbc's and lpsolve's default work at 300
// jobs takes minutes, not the 1 s of a timed solve.
const deterministicGuard = 2 * time.Minute

// readBestKnown merges the best objectives of the JSON output at path into cfg.Known.
func readBestKnown(path string, cfg *experiments.SolverBenchConfig) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	known, err := experiments.ReadBestKnown(f)
	if err != nil {
		return experiments.WithPath(path, err)
	}
	if cfg.Known == nil {
		cfg.Known = known
		return nil
	}
	for k, v := range known {
		if old, ok := cfg.Known[k]; !ok || v > old {
			cfg.Known[k] = v
		}
	}
	return nil
}

// defaultBenchSolvers is every backend of the build, the default first
// (a build without cgo has greedy alone).
func defaultBenchSolvers() []string {
	var names []string
	for _, n := range solver.Backends() {
		if n == solver.DefaultName {
			names = append([]string{n}, names...)
		} else {
			names = append(names, n)
		}
	}
	return names
}

// oversizedFlag names the flag to lower when the instances are too large
// (err from ValidateInstances): the limits are on products of flags — jobs
// × starts × racks for the model's columns, × slices for its entries,
// racks × rack-nodes × slices for the cluster — so it is the factor of the
// product that failed furthest above its default.
func oversizedFlag(cfg experiments.SolverBenchConfig, err error) string {
	type factor struct {
		flag        string
		value, dflt int
	}
	d := instances.DefaultParams()
	factors := []factor{{"jobs", slices.Max(cfg.Jobs), d.Jobs}, {"starts", cfg.Starts, d.Starts},
		{"racks", cfg.Racks, d.Racks}, {"slices", cfg.Slices, d.Slices}}
	switch {
	case errors.Is(err, instances.ErrTooManyColumns):
		factors = factors[:3]
	case errors.Is(err, instances.ErrClusterTooLarge):
		factors = []factor{{"racks", cfg.Racks, d.Racks}, {"rack-nodes", cfg.RackNodes, d.RackNodes},
			{"slices", cfg.Slices, d.Slices}}
	}
	best, most := factors[0].flag, 0.0
	for _, f := range factors {
		if r := float64(f.value) / float64(f.dflt); r > most {
			best, most = f.flag, r
		}
	}
	return best
}

// parseSeeds reads "1-5", "1,3,7-9" or "4" into a list of seeds; its
// errors name the item in the words of the flags (`empty item in "1,,3"`,
// `"x" is not a whole number ≥ 0`, `3 is given twice`).
func parseSeeds(s string) ([]uint64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, errors.New("give at least one seed")
	}
	var out []uint64
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, fmt.Errorf("empty item in %q", s)
		}
		lo, hi, isRange := strings.Cut(part, "-")
		if lo == "" { // "-5"
			lo, isRange = part, false
		}
		a, err := parseSeed(lo)
		if err != nil {
			return nil, err
		}
		b := a
		if isRange && hi == "" {
			return nil, fmt.Errorf("seed range %q has no end", part)
		}
		if isRange {
			if b, err = parseSeed(hi); err != nil {
				return nil, err
			}
			if b < a {
				return nil, fmt.Errorf("seed range %q runs backwards", part)
			}
			if b-a >= 10000 {
				return nil, fmt.Errorf("seed range %q has more than 10000 seeds", part)
			}
		}
		for v := a; ; v++ { // v <= b would never fail at b = 2⁶⁴−1
			out = append(out, v)
			if v == b {
				break
			}
		}
	}
	if v, ok := firstDuplicate(out); ok {
		return nil, fmt.Errorf("%d is given twice", v)
	}
	return out, nil
}

// parseSeed reads one seed, a whole number ≥ 0 in base 10.
func parseSeed(s string) (uint64, error) {
	v, err := strconv.ParseUint(s, 10, 64)
	var num *strconv.NumError
	if errors.As(err, &num) {
		return 0, errors.New(numberProblem(num))
	}
	return v, err
}

package experiments

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/rs/zerolog"

	"github.com/plannerhq/planner/planner"
)

// Sweep plays every scheduler at every point of a parameter sweep: one
// value of the varied setting with one seed. Each finished (point,
// scheduler) run is stored in Dir/points as its own JSON file, written
// atomically and named by a hash of the run's effective configuration
// (Point.Config and the scheduler), so running the sweep again — after an
// interruption, or with more values, seeds or schedulers — computes only
// what is missing, and a run whose settings changed is never reused.
type Sweep struct {
	Points     []SweepPoint
	Schedulers []string
	Registry   planner.Registry
	// Dir stores the finished runs ("": nothing is stored or reused).
	Dir string
	// Parallel bounds the simulations running at once and the points being
	// prepared (≤ 0: runtime.NumCPU()). Results do not depend on it.
	Parallel int
	// Deterministic leaves the wall-clock metrics out of the stored runs.
	Deterministic bool
	// Code identifies the code computing the runs (ExecutableHash): it is
	// part of every stored run's key, so that a run computed by other code
	// is recomputed, never reused. "" leaves it out.
	Code string
	// Provenance, when set, is stored with every run computed.
	Provenance *Provenance
	// Progress, when set, is told of every run: the sweep expects them
	// all, and takes those reused from Dir out.
	Progress *Progress
	// Log receives the runs' log lines.
	Log zerolog.Logger
}

// SweepPoint is one value of the varied setting with one seed.
type SweepPoint struct {
	// Value is the varied setting's value as given; Seed the point's seed.
	Value string
	Seed  uint64
	// Config is every setting that affects the point's results (marshalled
	// to JSON for the hash that names its stored runs).
	Config any
	// Param is reported as every run's Params.Sweep (stored runs included).
	Param *SweepParam
	// Load builds the point's input and run configuration (called only
	// when some scheduler's run is not stored yet). Schedulers, Slots and
	// Progress of the RunConfig are set by the sweep.
	Load func() (Input, RunConfig, error)
	// Registry builds the point's schedulers (nil: Sweep.Registry), for
	// settings that change how a scheduler is built.
	Registry planner.Registry
}

// SweepStats counts a sweep's runs: Computed now, Reused from Dir.
type SweepStats struct {
	Computed, Reused int
}

// sweepFormat versions the stored run files: a change of what a stored run
// means changes every key. 2: runs under way when a simulation stops go on
// to their ends (SLO outcomes, goodput within the span), and solver_ms_p99
// counts every solve. 3: the wait, bounded slowdown and fairness metrics
// (runs stored before lack them: they are recomputed, not shown as
// missing).
const sweepFormat = 3

// storedRun is the file of one finished run.
type storedRun struct {
	Key        string          `json:"key"`
	Scheduler  string          `json:"scheduler"`
	Config     json.RawMessage `json:"config"`
	Provenance *Provenance     `json:"provenance,omitempty"`
	Run        runJSON         `json:"run"`
}

// RunKey is the hash naming a run: SHA-256 (first 16 bytes, hex) of the
// JSON of {format, scheduler, config, code}; code ("" for none) identifies
// the code that computes it.
func RunKey(config any, scheduler, code string) (string, json.RawMessage, error) {
	return runKey(sweepFormat, config, scheduler, code)
}

// runKey is RunKey at a given format.
func runKey(format int, config any, scheduler, code string) (string, json.RawMessage, error) {
	cfg, err := json.Marshal(config)
	if err != nil {
		return "", nil, fmt.Errorf("sweep: configuration: %w", err)
	}
	b, err := json.Marshal(struct {
		Format    int             `json:"format"`
		Scheduler string          `json:"scheduler"`
		Config    json.RawMessage `json:"config"`
		Code      string          `json:"code,omitempty"`
	}{format, scheduler, cfg, code})
	if err != nil {
		return "", nil, err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16]), cfg, nil
}

// Run plays the sweep and returns its runs in point order, schedulers in
// order within a point (len(Points)·len(Schedulers) runs). The first error
// cancels the rest; runs finished before it stay stored.
func (s *Sweep) Run(ctx context.Context) ([]RunResult, SweepStats, error) {
	var stats SweepStats
	if err := s.Registry.Check(s.Schedulers); err != nil {
		return nil, stats, err
	}
	par := s.Parallel
	if par <= 0 {
		par = runtime.NumCPU()
	}
	if s.Dir != "" {
		if err := os.MkdirAll(filepath.Join(s.Dir, "points"), 0o755); err != nil {
			return nil, stats, fmt.Errorf("sweep: %w", err)
		}
	}
	ns := len(s.Schedulers)
	results := make([]RunResult, len(s.Points)*ns)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	slots := make(chan struct{}, par)  // simulations running
	points := make(chan struct{}, par) // points in flight
	s.Progress.Expect(len(s.Points) * ns)
	var (
		wg sync.WaitGroup
		mu sync.Mutex // stats
	)
	for pi := range s.Points {
		select {
		case points <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-points }()
			computed, reused, err := s.runPoint(ctx, pi, results[pi*ns:(pi+1)*ns], slots)
			if err != nil {
				cancel(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			stats.Computed += computed
			stats.Reused += reused
		}()
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return nil, stats, err
	}
	return results, stats, nil
}

// runPoint fills out (one run per scheduler) for point pi from the store
// or by simulating the missing schedulers, each holding one of slots.
func (s *Sweep) runPoint(ctx context.Context, pi int, out []RunResult, slots chan struct{}) (computed, reused int, err error) {
	p := s.Points[pi]
	keys := make([]string, len(s.Schedulers))
	cfgs := make([]json.RawMessage, len(s.Schedulers))
	var missing []int
	for i, name := range s.Schedulers {
		if keys[i], cfgs[i], err = RunKey(p.Config, name, s.Code); err != nil {
			return 0, 0, err
		}
		if s.Dir != "" {
			r, ok, err := readStoredRun(s.pointFile(keys[i]), keys[i])
			if err != nil {
				return 0, 0, err
			}
			if ok {
				out[i] = r
				reused++
				continue
			}
		}
		missing = append(missing, i)
	}
	defer func() {
		for i := range out {
			out[i].Params.Sweep = p.Param
		}
	}()
	s.Progress.Skip(reused)
	if len(missing) == 0 {
		return 0, reused, nil
	}
	reg := p.Registry
	if reg == nil {
		reg = s.Registry
	}
	in, cfg, err := p.Load()
	if err != nil {
		return 0, 0, fmt.Errorf("sweep point %s seed %d: %w", p.Value, p.Seed, err)
	}
	cfg.Slots, cfg.Progress, cfg.Log = slots, s.Progress, s.Log
	errs := make([]error, len(missing))
	var wg sync.WaitGroup
	for k, i := range missing {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := cfg
			c.Schedulers = []string{s.Schedulers[i]}
			runs, err := Run(ctx, in, reg, c)
			if err != nil {
				errs[k] = fmt.Errorf("sweep point %s seed %d: %w", p.Value, p.Seed, err)
				return
			}
			r := runs[0]
			r.Sim = nil // the job records are not kept: a sweep reports metrics
			out[i] = r
			if s.Dir != "" {
				errs[k] = s.store(keys[i], cfgs[i], r)
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return 0, 0, err
	}
	return len(missing), reused, nil
}

// Missing are the indices of the points, in order, of which some
// scheduler's run is not stored in Dir (every point when Dir is ""): those
// Run would compute. A stored run that does not read is an error, as in
// Run.
func (s *Sweep) Missing() ([]int, error) {
	var out []int
	for pi, p := range s.Points {
		for _, name := range s.Schedulers {
			if s.Dir == "" {
				out = append(out, pi)
				break
			}
			key, _, err := RunKey(p.Config, name, s.Code)
			if err != nil {
				return nil, err
			}
			_, ok, err := readStoredRun(s.pointFile(key), key)
			if err != nil {
				return nil, err
			}
			if !ok {
				out = append(out, pi)
				break
			}
		}
	}
	return out, nil
}

func (s *Sweep) pointFile(key string) string {
	return filepath.Join(s.Dir, "points", key+".json")
}

// store writes one finished run atomically: a temporary file in the same
// directory, renamed into place.
func (s *Sweep) store(key string, cfg json.RawMessage, r RunResult) error {
	b, err := json.MarshalIndent(storedRun{Key: key, Scheduler: r.Scheduler, Config: cfg, Provenance: s.Provenance,
		Run: runJSON{Scheduler: r.Scheduler, Workload: r.Workload, Seed: r.Seed, Params: r.Params,
			Metrics: metricsJSON(r.Metrics, s.Deterministic)}}, "", "  ")
	if err != nil {
		return fmt.Errorf("sweep: storing run %s: %w", key, err)
	}
	return writeFileAtomic(s.pointFile(key), append(b, '\n'))
}

// readStoredRun reads a stored run; ok is false when there is none. A file
// that does not parse, or whose key is not its name, is an error naming it
// (delete it to recompute the run).
func readStoredRun(path, key string) (RunResult, bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return RunResult{}, false, nil
	}
	if err != nil {
		return RunResult{}, false, err
	}
	var st storedRun
	if err := json.Unmarshal(b, &st); err != nil {
		return RunResult{}, false, fmt.Errorf("sweep: stored run %s: %w (delete it to recompute)", path, err)
	}
	if st.Key != key {
		return RunResult{}, false, fmt.Errorf("sweep: stored run %s has key %q (delete it to recompute)", path, st.Key)
	}
	m, err := ParseMetrics(st.Run.Metrics)
	if err != nil {
		return RunResult{}, false, fmt.Errorf("sweep: stored run %s: %w (delete it to recompute)", path, err)
	}
	return RunResult{Scheduler: st.Run.Scheduler, Workload: st.Run.Workload, Seed: st.Run.Seed,
		Params: st.Run.Params, Metrics: m}, true, nil
}

// MeanMetrics is the per-metric mean of ms in Metrics.List order, each over
// the runs where the metric is defined (NaN when it is defined in none).
func MeanMetrics(ms []Metrics) []Metric {
	task := anyTask(ms)
	out := (Metrics{}).listFor(task)
	for k := range out {
		sum, n := 0.0, 0
		for _, m := range ms {
			if v := m.listFor(task)[k].Value; !math.IsNaN(v) && !math.IsInf(v, 0) {
				sum += v
				n++
			}
		}
		out[k].Value = math.NaN()
		if n > 0 {
			out[k].Value = sum / float64(n)
		}
	}
	return out
}

package service

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/estimate"
	"github.com/plannerhq/planner/planner/registry"
	"github.com/plannerhq/planner/planner/threesigma"
	"github.com/plannerhq/planner/solver"
	"github.com/plannerhq/planner/workloads"
)

// Defaults of Config.
const (
	// DefaultInterval is the time between cycles: short enough that a job
	// waits a few seconds for its start, long enough for a solve of a few
	// hundred pending jobs (75% of it).
	DefaultInterval = 10 * time.Second
	// DefaultScheduler is the policy a service runs.
	DefaultScheduler = threesigma.Name3Sigma
	// DefaultMaxPending bounds the jobs one cycle plans (the
	// planner.Options.MaxPending of the service): the first 300 by
	// priority, the size of the reference cycle whose solve the solver
	// benchmarks measure (BENCHMARKS.md).
	DefaultMaxPending = 300
	// DefaultSnapshotEvery is how often, at most, the predictor's snapshot
	// is rewritten (when it learnt something); the log holds what it
	// learnt since.
	DefaultSnapshotEvery = time.Minute
	// MinInterval is the shortest interval between cycles.
	MinInterval = time.Second
)

// Config is how a service runs. Zero fields take their defaults.
type Config struct {
	// DataDir holds the database (created if missing).
	DataDir string
	// Cluster is the cluster of a new data directory (default: 256 nodes
	// in 8 racks). A directory keeps the cluster it was created with;
	// giving another one is an error (PUT /v1/cluster changes capacity).
	Cluster *workloads.Cluster
	// Token, when set, is the bearer token every request must carry.
	Token []byte
	// Hosts are the host names a request's Host may name besides IP
	// addresses and localhost (the machine's names).
	Hosts []string
	// Interval between cycles.
	Interval time.Duration
	// Scheduler is the policy's registry name; Registry the table it
	// comes from (default registry.Default()).
	Scheduler string
	Registry  planner.Registry
	// Solver, SolverTimeout (default 75% of Interval) and Horizon are the
	// planning policies' (planner.Options).
	Solver        string
	SolverTimeout time.Duration
	Horizon       time.Duration
	// Deterministic bounds solves by work instead of the clock (as
	// planner simulate's --deterministic); Seed seeds the policy.
	Deterministic bool
	Seed          uint64
	// MaxPending bounds the pending jobs one cycle plans (default
	// DefaultMaxPending; negative: all).
	MaxPending int
	// Clock is the wall clock or the virtual test clock.
	Clock ClockMode
	// SnapshotEvery: see DefaultSnapshotEvery; negative: after every cycle
	// that learnt something.
	SnapshotEvery time.Duration
	// Log receives a line per cycle at debug, per decision at info.
	Log zerolog.Logger
	// Version is reported by GET /v1/info.
	Version string
	// Wall is the wall clock (default time.Now) and Location the zone of
	// submit hours and weekdays on it (default time.Local).
	Wall     func() time.Time
	Location *time.Location
}

// Service is one planner service: its state, its scheduler, its database
// and its HTTP API. Open it, serve it (Run, or Handler in tests), Close it.
type Service struct {
	cfg     Config
	log     zerolog.Logger
	store   *store
	tl      timeline
	clock   clock
	vclock  *virtualClock // the virtual clock, or nil
	sched   planner.Scheduler
	metrics *metrics
	// statDisk reads the free space of --data (a fake in tests).
	statDisk func(dir string) (diskSpace, error)

	mu sync.RWMutex // guards st
	st *state

	// cycleMu serialises cycles (the scheduler is used by one goroutine
	// at a time); nextK is the index of the next virtual boundary.
	cycleMu      sync.Mutex
	nextK        int64
	lastSnapshot time.Time
	// learned counts the runtimes learnt since the last snapshot (the
	// state's learned, readable without its lock).
	learned atomic.Int64

	ops         chan *op
	stopJournal chan struct{}
	journalDone chan struct{}

	failure   atomic.Pointer[error]
	failCh    chan struct{}
	stopping  atomic.Bool
	stopCh    chan struct{} // closed when the service starts to stop
	closeOnce sync.Once
	closeErr  error
}

// readOnly is the predictor as the policies see it: they read its
// estimates, and their Observe and Train change nothing, because the
// service feeds it each completion once, when the client reports it.
type readOnly struct{ estimate.Sigma }

func (readOnly) Observe(workloads.Features, float64) {}

// Open opens (creating) the data directory, replays its log, restores the
// predictor and builds the scheduler. It does not serve: see Run.
func Open(cfg Config) (*Service, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	st, err := openStore(cfg.DataDir, cfg.Wall())
	if errors.Is(err, errDamaged) {
		return nil, fmt.Errorf("%w; planner serve --check reports, --recover-to copies what is readable", err)
	}
	if err != nil {
		return nil, err
	}
	s, err := open(cfg, st)
	if err != nil {
		st.close()
		return nil, err
	}
	return s, nil
}

func (c Config) withDefaults() (Config, error) {
	if c.Interval == 0 {
		c.Interval = DefaultInterval
	}
	if c.Scheduler == "" {
		c.Scheduler = DefaultScheduler
	}
	if c.Registry == nil {
		c.Registry = registry.Default()
	}
	if c.MaxPending == 0 {
		c.MaxPending = DefaultMaxPending
	}
	if c.SnapshotEvery == 0 {
		c.SnapshotEvery = DefaultSnapshotEvery
	}
	if c.Wall == nil {
		c.Wall = time.Now
	}
	if c.Location == nil {
		c.Location = time.Local
	}
	switch {
	case c.Interval < MinInterval:
		return c, fmt.Errorf("--interval: must be ≥ %s, got %s", MinInterval, c.Interval)
	case c.SolverTimeout < 0:
		return c, fmt.Errorf("--solver-timeout: must be ≥ 0, got %s", c.SolverTimeout)
	case c.Clock == ClockWall && !c.Deterministic && c.SolverTimeout >= c.Interval:
		return c, fmt.Errorf("--solver-timeout: %s is not shorter than --interval %s: every cycle would overrun", c.SolverTimeout, c.Interval)
	case c.Horizon < 0:
		return c, fmt.Errorf("--horizon: must be ≥ 0, got %s", c.Horizon)
	case c.Clock != ClockWall && c.Clock != ClockVirtual:
		return c, fmt.Errorf("--clock: unknown clock %d", int(c.Clock))
	}
	if err := c.Registry.Check([]string{c.Scheduler}); err != nil {
		return c, fmt.Errorf("--scheduler: %w", err)
	}
	if c.Scheduler == threesigma.NamePointPerfEst {
		return c, fmt.Errorf("--scheduler: %s plans with the true runtimes, which a service does not know", c.Scheduler)
	}
	if c.Solver != "" {
		if _, err := solver.New(c.Solver); err != nil {
			return c, fmt.Errorf("--solver: %w", err)
		}
	}
	if c.Cluster != nil {
		if err := c.Cluster.Validate(); err != nil {
			return c, fmt.Errorf("--cluster: %w", err)
		}
	}
	return c, nil
}

func open(cfg Config, db *store) (*Service, error) {
	if db.warning != "" {
		cfg.Log.Warn().Msg(db.warning)
	}
	m, err := db.meta()
	if err != nil {
		return nil, fmt.Errorf("--data: %w", err)
	}
	if m == nil {
		m = &meta{Clock: cfg.Clock.String(), Epoch: VirtualEpoch}
		if cfg.Clock == ClockWall {
			// Midnight UTC of the creation day: cycle boundaries fall on
			// round wall times.
			m.Epoch = cfg.Wall().UTC().Truncate(24 * time.Hour)
		}
		c := workloads.DefaultCluster(256, workloads.DefaultRacks)
		if cfg.Cluster != nil {
			c = cfg.Cluster.Canonical()
		}
		m.Cluster = c
		if err := db.putMeta(m); err != nil {
			return nil, fmt.Errorf("--data: %w", err)
		}
	}
	if m.Clock != cfg.Clock.String() {
		return nil, fmt.Errorf("--clock: %s was created with --clock %s, not %s", cfg.DataDir, m.Clock, cfg.Clock)
	}
	if cfg.Cluster != nil && !reflect.DeepEqual(cfg.Cluster.Canonical(), m.Cluster) {
		return nil, fmt.Errorf("--cluster: %s was created with another cluster (%d nodes in %d partitions); leave --cluster out to use it, and change capacity with PUT /v1/cluster",
			cfg.DataDir, m.Cluster.TotalNodes(), len(m.Cluster.PartitionNodes))
	}
	s := &Service{cfg: cfg, log: cfg.Log, store: db, metrics: newMetrics(), statDisk: statDisk,
		ops: make(chan *op), stopJournal: make(chan struct{}), journalDone: make(chan struct{}),
		failCh: make(chan struct{}), stopCh: make(chan struct{}), lastSnapshot: cfg.Wall()}
	s.tl = timeline{epoch: m.Epoch, mode: cfg.Clock, loc: cfg.Location}
	if cfg.Clock == ClockVirtual {
		s.vclock = &virtualClock{}
		s.clock = s.vclock
	} else {
		s.clock = wallClock{tl: s.tl, wall: cfg.Wall}
	}

	// The predictor: its snapshot, then what the log learnt after it.
	p, err := distributions.NewPredictor(nil)
	if err != nil {
		return nil, err
	}
	snap, err := db.predictor()
	if err != nil {
		return nil, fmt.Errorf("--data: predictor: %w", err)
	}
	var learnFrom uint64
	if snap != nil {
		if err := p.UnmarshalBinary(snap.Data); err != nil {
			return nil, fmt.Errorf("--data: predictor snapshot: %w", err)
		}
		learnFrom = snap.Seq
	}
	sigma := estimate.Sigma{P: p}
	s.st = newState(s.tl, m.Cluster, cfg.Interval.Seconds(), sigma)
	s.st.learnFrom = learnFrom
	err = db.records(func(rec *record) error {
		s.st.apply(rec, false)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("--data: %w", err)
	}
	s.st.learnFrom = 0
	s.learned.Store(int64(s.st.learned))
	if s.vclock != nil && s.st.hasClock {
		s.vclock.set(s.st.clock)
		s.nextK = int64(math.Floor(s.st.clock/cfg.Interval.Seconds())) + 1
	}

	opts := planner.Options{Cluster: m.Cluster.Clone(), Interval: cfg.Interval, Horizon: cfg.Horizon,
		Solver: cfg.Solver, SolverTimeout: cfg.SolverTimeout, Deterministic: cfg.Deterministic,
		Seed: cfg.Seed, Predictor: readOnly{sigma}, MaxPending: max(cfg.MaxPending, 0)}
	if s.sched, err = cfg.Registry.New(cfg.Scheduler, opts); err != nil {
		return nil, fmt.Errorf("--scheduler: %w", err)
	}
	s.updateGauges()
	go s.journal()
	s.log.Info().Str("data", cfg.DataDir).Uint64("records", s.st.seq).Int("jobs", len(s.st.order)).
		Uint64("predictor_snapshot", learnFrom).Uint64("runtimes_known", p.Count()).Msg("state restored")
	return s, nil
}

// fail stops the service on an error it cannot recover from (a failed
// write of the log); it returns the error the requests get.
func (s *Service) fail(err error) error {
	err = fmt.Errorf("service stopped: %w", err)
	if s.failure.CompareAndSwap(nil, &err) {
		s.log.Error().Err(err).Msg("stopping: the state on disk is no longer certain; restart to replay the log")
		close(s.failCh)
	}
	return *s.failure.Load()
}

// failed is the error that stopped the service, or nil.
func (s *Service) failed() error {
	if p := s.failure.Load(); p != nil {
		return *p
	}
	return nil
}

// Run serves the API on ln and, on the wall clock, runs a cycle at every
// interval boundary, until ctx is cancelled (SIGTERM): then the cycle in
// flight finishes, the requests under way are answered, the predictor's
// snapshot is written and the database closed. It returns nil after a
// clean stop, and closes the service in every case.
func (s *Service) Run(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		WriteTimeout:      maxWait + time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          httpErrorLog(s.log),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	loopCtx, stopLoop := context.WithCancel(context.Background())
	loopDone := make(chan struct{})
	if s.cfg.Clock == ClockWall {
		go func() {
			defer close(loopDone)
			s.loop(loopCtx)
		}()
	} else {
		close(loopDone)
	}
	s.log.Info().Str("addr", ln.Addr().String()).Str("scheduler", s.cfg.Scheduler).Str("clock", s.cfg.Clock.String()).
		Dur("interval", s.cfg.Interval).Msg("serving")
	var runErr error
	select {
	case <-ctx.Done():
		s.log.Info().Msg("stopping: finishing the cycle in flight and the requests under way")
	case err := <-served:
		runErr = fmt.Errorf("serving: %w", err)
	case <-s.failCh:
		runErr = s.failed()
	}
	s.stopping.Store(true)
	close(s.stopCh)
	stopLoop()
	<-loopDone
	shutCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutCtx); err != nil && runErr == nil {
		runErr = fmt.Errorf("stopping the server: %w", err)
	}
	if err := s.Close(); err != nil && runErr == nil {
		runErr = err
	}
	if errors.Is(runErr, http.ErrServerClosed) {
		runErr = nil
	}
	return runErr
}

// Close writes the predictor's snapshot, stops the journal and closes the
// database. Requests after it get 503.
func (s *Service) Close() error {
	s.closeOnce.Do(func() {
		s.stopping.Store(true)
		s.cycleMu.Lock() // no cycle in flight
		defer s.cycleMu.Unlock()
		if s.failed() == nil {
			if _, err := s.submitOp(&op{run: noRecord, snap: true}); err != nil {
				s.closeErr = err
			}
		}
		close(s.stopJournal)
		<-s.journalDone
		if err := s.store.close(); err != nil && s.closeErr == nil {
			s.closeErr = fmt.Errorf("closing the database: %w", err)
		}
		s.log.Info().Msg("stopped")
	})
	return s.closeErr
}

// noRecord is an op that changes nothing (a snapshot alone).
func noRecord(*state) (*record, answer, error) { return nil, nil, nil }

// updateGauges sets the gauges of the state.
func (s *Service) updateGauges() {
	s.mu.RLock()
	g := s.st.gauges()
	s.mu.RUnlock()
	s.metrics.setGauges(g)
}

// gauges are the state's numbers the metrics show.
type gauges struct{ pending, starting, running, free int }

func (st *state) gauges() gauges {
	return gauges{pending: len(st.books.Pending()), starting: st.counts[statusStarting], running: st.counts[statusRunning],
		free: st.books.FreeNodes()}
}

func (m *metrics) setGauges(g gauges) {
	m.pending.Set(float64(g.pending))
	m.starting.Set(float64(g.starting))
	m.running.Set(float64(g.running))
	m.freeNodes.Set(float64(g.free))
	m.unacked.Set(float64(g.starting))
}

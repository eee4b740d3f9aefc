package planner

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/plannerhq/planner/planner/estimate"
	"github.com/plannerhq/planner/workloads"
)

// Options are the settings of one run that a policy's constructor may
// read. Every run builds its own scheduler instance from them.
type Options struct {
	Cluster workloads.Cluster
	// Interval is the time between cycles; Horizon the plan-ahead horizon
	// (zero: the policy's default).
	Interval, Horizon time.Duration
	// Solver is the MILP backend name ("" = the solver package's default);
	// SolverTimeout the limit of one solve (zero: the policy's default).
	Solver        string
	SolverTimeout time.Duration
	// Deterministic asks for solves bounded by work limits, not the clock,
	// so the same input gives the same decisions.
	Deterministic bool
	// Seed for any randomness of the policy (math/rand/v2).
	Seed uint64
	// SamplesPerFeature, when > 0, restricts 3σPredict to that many
	// runtimes per feature value (3Sigma §6.4, Fig. 10).
	SamplesPerFeature int
	// Synthetic, when set, replaces 3σPredict's estimates (3Sigma §6.3,
	// Fig. 8); its Seed is the run's.
	Synthetic *estimate.Synthetic
	// Predictor, when set, is the runtime predictor that the policies
	// planning with 3σPredict's estimates read instead of a fresh one of
	// their own (ignored with SamplesPerFeature or Synthetic). They learn
	// into it through its Observe: the service hands them a view whose
	// Observe does nothing, because it feeds and persists the predictor
	// itself.
	Predictor estimate.RuntimePredictor
	// Fallback names the rule that decides a planning policy's cycle when
	// its solve gives no usable answer ("" = the policy's default; the
	// 3sigma variants take gs, slearn or prio).
	Fallback string
	// SolverFailRate, in [0, 1], fails that share of a planning policy's
	// solves on purpose, each cycle's choice drawn from Seed, so that the
	// fallback's decisions can be measured; SolverNone as Solver fails
	// every solve.
	SolverFailRate float64
	// MaxPending, when > 0, bounds the pending jobs a planning policy puts
	// into one cycle's model (the first MaxPending by priority,
	// PrioOrder); the others wait for a later cycle. It keeps a cycle's
	// work bounded when thousands of jobs wait (the service).
	MaxPending int
}

// Reads is the set of groups of Options a policy reads beyond the
// cluster, the interval and the seed, which every policy may read. A
// front end uses it to refuse a setting that no chosen policy would read.
type Reads uint8

const (
	// ReadsSolver: the policy plans with a MILP, whose backend, time limit
	// and horizon it takes from Solver, SolverTimeout and Horizon.
	ReadsSolver Reads = 1 << iota
	// ReadsEstimates: the policy plans with 3σPredict's estimates, which
	// SamplesPerFeature restricts and Synthetic replaces.
	ReadsEstimates
	// ReadsFallback: a cycle whose solve gives no answer is decided by
	// the rule Fallback names.
	ReadsFallback
)

// SolverNone is the Solver name of a planning policy whose every solve
// fails at once (nothing is solved): each cycle is decided by its
// fallback, whose quality can then be measured alone.
const SolverNone = "none"

// Policy is one row of the registry: a policy's name, a one-line summary,
// its constructor, the settings it reads, whether it is part of the
// default comparison, whether it schedules task-level jobs and when it
// decides.
type Policy struct {
	Name    string
	Summary string
	New     func(Options) (Scheduler, error)
	Reads   Reads
	Default bool
	// Tasks: the policy starts task-level jobs by tasks
	// (Decision.StartTasks); a policy without it runs gang jobs only.
	Tasks bool
	// Decisions is when a driver asks the policy for a decision unless told
	// otherwise: OnCycle (the zero value; the planners) or OnEvents (the
	// heuristics, which cost little a decision).
	Decisions Timing
	// TimingFor, when set, derives the policy's timing from the workload's
	// history at the driver's interval, with a one-line reason; a driver
	// told neither the timing nor the interval uses it instead of
	// Decisions (the planners: threesigma.TimingFor).
	TimingFor func(history []workloads.Job, interval time.Duration) (Timing, string)
}

// Registry is the table of policies a driver can run, in report order
// (CONVENTIONS 5: one explicit table, read by cmd/ and the service).
type Registry []Policy

// ErrUnknownScheduler is wrapped when a name is not in the registry.
var ErrUnknownScheduler = errors.New("unknown scheduler")

// Lookup returns the row of name.
func (r Registry) Lookup(name string) (Policy, bool) {
	i := slices.IndexFunc(r, func(p Policy) bool { return p.Name == name })
	if i < 0 {
		return Policy{}, false
	}
	return r[i], true
}

// Names are the registered names, sorted.
func (r Registry) Names() []string {
	names := make([]string, len(r))
	for i, p := range r {
		names[i] = p.Name
	}
	slices.Sort(names)
	return names
}

// Defaults are the names of the default comparison, in table order.
func (r Registry) Defaults() []string {
	var names []string
	for _, p := range r {
		if p.Default {
			names = append(names, p.Name)
		}
	}
	return names
}

// TaskNames are the names of the policies that schedule task-level jobs,
// sorted.
func (r Registry) TaskNames() []string {
	var names []string
	for _, p := range r {
		if p.Tasks {
			names = append(names, p.Name)
		}
	}
	slices.Sort(names)
	return names
}

// ErrNoTasks is wrapped when a policy that runs gang jobs only is asked
// to schedule task-level jobs.
var ErrNoTasks = errors.New("does not schedule task-level jobs")

// CheckTasks reports the first of names that does not schedule
// task-level jobs (a workload that has them, named workload, cannot run
// it), listing those that do.
func (r Registry) CheckTasks(names []string, workload string) error {
	for _, n := range names {
		if p, ok := r.Lookup(n); ok && !p.Tasks {
			do := "none is registered"
			if names := r.TaskNames(); len(names) > 0 {
				do = "schedulers that do: " + strings.Join(names, ", ")
			}
			return fmt.Errorf("scheduler %s %w, which workload %s has (%s)", n, ErrNoTasks, workload, do)
		}
	}
	return nil
}

// Check reports the first name that is not registered, or no name at all.
func (r Registry) Check(names []string) error {
	if len(names) == 0 {
		return fmt.Errorf("no scheduler given (registered: %s)", strings.Join(r.Names(), ", "))
	}
	for _, n := range names {
		if _, ok := r.Lookup(n); !ok {
			return fmt.Errorf("%w %q (registered: %s)", ErrUnknownScheduler, n, strings.Join(r.Names(), ", "))
		}
	}
	return nil
}

// New builds a fresh instance of the policy name from o.
func (r Registry) New(name string, o Options) (Scheduler, error) {
	p, ok := r.Lookup(name)
	if !ok {
		return nil, r.Check([]string{name})
	}
	return p.New(o)
}

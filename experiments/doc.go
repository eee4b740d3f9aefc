// Package experiments owns the measurement harness: the discrete-event
// cluster simulator (Sim), the metrics
// of DESIGN.md, the runner that plays one workload through many schedulers
// (Run, with a planner.Registry), reports (table, JSON, CSV, jobs.csv,
// per-cycle time series, PNG charts, Gantt charts) and the solver
// benchmark.
package experiments

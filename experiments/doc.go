// Package experiments owns the measurement harness: the discrete-event
// cluster simulator (Sim, with the recording Harness for tests), the metrics
// of DESIGN.md, the runner that plays one workload through many schedulers
// (Run, with a Registry built in cmd/), reports (table, JSON, CSV, jobs.csv,
// PNG chart) and the solver benchmark.
package experiments

// Package experiments owns the measurement harness: the solver benchmark
// today, and the discrete-event simulator, metrics, sweeps and reports that
// play one workload through many schedulers.
package experiments

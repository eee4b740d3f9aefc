// Package workloads owns the job model, workload generators, trace importers
// and workload files.
package workloads

// Package workloads owns the job model, workload files (JSON Lines: a
// header, the pre-training history, the window's jobs), the workload
// generators (GenerateGoogle: 3Sigma's Google-derived E2E workload), their
// statistics, and trace importers.
package workloads

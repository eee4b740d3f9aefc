// Package workloads owns the job model, the cluster model and its files
// (Cluster; cluster files in JSON or YAML), workload files (JSON Lines: a
// header, the pre-training history, the window's jobs), the workload
// generators (Generate: one engine with three environment models from
// 3Sigma §2.1 and §5 — Google-like, HedgeFund-like and Mustang-like), their
// statistics, and trace importers.
package workloads

// Package instances generates random 3Sigma-shaped MILP instances in the rack
// formulation of DESIGN.md, for testing and benchmarking the solver package.
//
// best-known-default.json, beside this file, holds the best objective known
// for the instances of DefaultParams at 100 and 300 jobs, seeds 1–5 (how
// each was found is in BENCHMARKS.md); `planner bench solver --best-known`
// reads it to report each answer as a share of the best known. It says
// nothing about instances of other parameters.
package instances

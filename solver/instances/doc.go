// Package instances generates random 3Sigma-shaped MILP instances in the rack
// formulation of DESIGN.md, for testing and benchmarking the solver package.
//
// best-known-default.json, beside this file, holds the best objective known
// for the instances of DefaultParams at 100 and 300 jobs, seeds 1–5 (how
// each was found is in BENCHMARKS.md); `planner bench solver --best-known`
// reads it to report each answer as a share of the best known. It says
// nothing about instances of other parameters.
//
// best-known-validation.json holds the same for seeds 6–10, from one
// `--reference 60s` run and the best answers found since (1 s solves and
// longer deterministic ones, each checked feasible): instances that no
// parameter of the solver was chosen on, to confirm on them what a change
// gains on seeds 1–5 (BENCHMARKS.md at 5238421, "Validation instances").
package instances

// Package instances generates random 3Sigma-shaped MILP instances in the rack
// formulation of DESIGN.md, for testing and benchmarking the solver package.
//
// best-known-default.json, beside this file, holds the best objective known
// for the instances of DefaultParams at 100 and 300 jobs, seeds 1–5, and
// best-known-validation.json the same for seeds 6–10; `planner bench
// solver --best-known` reads them to report each answer as a share of the
// best known. They say nothing about instances of other parameters. The
// values are answers found and checked feasible by 60 s searches of the
// former portfolio backend and CBC warm-started from them (the search is
// in the git history, before commit dd9d130; BENCHMARKS.md at 5238421):
// within 2–3.5% of the optimum by proven bounds.
package instances

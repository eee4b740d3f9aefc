// Package instances generates random 3Sigma-shaped MILP instances in the rack
// formulation of DESIGN.md, for testing and benchmarking the solver package.
package instances

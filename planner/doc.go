// Package planner owns the scheduler interface every policy implements and
// the 3Sigma planning cycle (options → MILP → decisions) with its variants.
package planner

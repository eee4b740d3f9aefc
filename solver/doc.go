// Package solver owns a solver-neutral MILP model and its backends: greedy
// constructions, CLP's LP relaxation with rounding and repair (the
// default), CBC and lp_solve, each under a hard wall-clock limit.
package solver

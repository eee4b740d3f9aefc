// Package solver owns a solver-neutral MILP model and its backends: greedy
// constructions, CLP's LP relaxation with rounding and repair (the
// default), CBC and lp_solve, each under a hard wall-clock limit. One table
// (BackendTable) says of each backend what it runs, whether it runs in
// this process or in a worker process killed at the deadline, and which C
// library, of which version, it binds.
package solver

// Package planner owns the contract between scheduling policies and the
// drivers that run them (the simulator, the service): the Scheduler
// interface, the cluster State a cycle sees, the Decision it returns and
// its rules (Decision.Validate), what a driver reports back (ApplyResult,
// Completion), the shared placement helpers, and the Registry type. Each
// policy lives in a package of its own (threesigma, prio, backfill); the
// table of them is package registry.
package planner

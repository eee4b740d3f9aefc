// Package planner owns the contract between scheduling policies and the
// drivers that run them (the simulator, the service, the test harness):
// the Scheduler interface, the cluster State a cycle sees, the Decision
// it returns and its rules (Decision.Validate), what a driver reports
// back (ApplyResult, Completion), the shared placement helpers, and the
// Registry type. It also owns the cluster core every driver adapts: the
// Ledger, the cluster's books, which carries decisions out by the same
// rules and makes every Completion, and RunCycle, one cycle from the view
// to the log with any policy's panic recovered. A driver brings only its
// clock and its events. Each policy lives in a package of its own
// (threesigma, prio, backfill, gs, slearn); the table of them is package
// registry.
package planner

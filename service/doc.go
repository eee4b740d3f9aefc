// Package service owns `planner serve`: the planning cycle of the
// simulator's schedulers run on a clock (the wall clock, or a virtual one
// a test drives) in front of a cluster manager, behind a versioned
// HTTP/JSON API, with its state in an embedded database.
//
// The service is a driver of the planner contract like the simulator
// (planner.Scheduler, planner.Decision.Validate, Applied, Observe): it
// never plans by itself. The cluster manager, or a bridge to it, is a
// client: it submits jobs (POST /v1/jobs), reads the ordered decisions to
// enact (GET /v1/decisions), and reports what happened (POST
// /v1/jobs/{id}/events) and what capacity there is (PUT /v1/cluster).
// Nothing in this package knows a particular cluster manager.
//
// Every change of state is a record of an append-only log in the
// database, written durably before the API acknowledges it; a restart
// replays the log. The runtime predictor (3σPredict) is the service's:
// it learns from the completions the clients report, policies read it
// (planner.Options.Predictor), and its state is kept as a snapshot with
// the log records after it.
package service

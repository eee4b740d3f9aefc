// Package plannertest is the one test harness of schedulers and drivers: a
// recording fake cluster that steps a scheduler cycle by cycle under the
// cluster contract (planner.Decision.Validate), a scheduler made of a
// function, and job fixture builders.
package plannertest

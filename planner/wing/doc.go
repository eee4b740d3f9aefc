// Package wing is the Wing dependency profiler (Wing §3, §4): from a
// data lake's provenance log alone it infers the single-hop inter-job
// dependencies, the job and dependency classes of Table 1, the arrival
// predictor of §3, every job's aggregate value by Algorithm 1 with Owl's
// aggregation functions, the templates' and users' value efficiencies
// and the value functions Wing's schedulers rank jobs by.
package wing

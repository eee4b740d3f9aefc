// Package wing is the Wing dependency profiler (Wing §3, §4): from a
// data lake's provenance log alone it infers the single-hop inter-job
// dependencies, the job and dependency classes of Table 1, the arrival
// predictor of §3, every job's aggregate value by Algorithm 1 with Owl's
// aggregation functions, the templates' and users' value efficiencies
// and the value functions Wing's schedulers rank jobs by.
//
// It also holds the data-lake schedulers of §6.2 (LakePolicies:
// prio-user, wing-direct, wing-agg, wing-mil and their oracles) and the
// window simulator they are judged on (SimulateLake): week 3 of a lake
// under §6's semantics with gang admission in hierarchical or global
// queues, reporting value attained, jobs failed and priority inversions.
package wing

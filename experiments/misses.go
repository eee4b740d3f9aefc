package experiments

import (
	"fmt"
	"math"

	"github.com/plannerhq/planner/workloads"
)

// MissCause is why an SLO job missed its deadline: one cause per missed
// job, the first of this order that applies (JobRecord.classifyMiss).
//
//  1. MissNeverStarted: no run of the job ever started.
//  2. MissPreempted: a run of the job was preempted (whatever followed:
//     the preemption threw its work away).
//  3. MissStartedLate: its final run started too late for any runtime the
//     scheduler expected, start > deadline − r_min, with r_min the shortest
//     nominal runtime (on preferred nodes of speed 1) of the scheduler's
//     estimate (planner.EstimateReporter; for a scheduler without
//     estimates, the job's true runtime).
//  4. MissSlowed: its final run ran slower than nominal (off its preferred
//     partitions, or on slower nodes: end − start > runtime) and would
//     have met the deadline at its nominal runtime, start + runtime ≤
//     deadline.
//  5. MissOverran: the rest. It started in time for the shortest runtime
//     the scheduler expected, and its true runtime (on the nodes it got)
//     was longer than the time left to the deadline.
//
// For a scheduler without estimates r_min is the true runtime, so that a
// job it started in time and did not slow meets its deadline: its misses
// are never started, started late or slowed.
type MissCause int

// The causes, in priority order; MissNone is a job that did not miss.
const (
	MissNone MissCause = iota
	MissNeverStarted
	MissPreempted
	MissStartedLate
	MissSlowed
	MissOverran
)

var missCauseNames = [...]string{"", "never_started", "preempted", "started_late", "slowed", "overran"}

// MissCauses are the causes of a miss in priority order (MissNone left out).
var MissCauses = []MissCause{MissNeverStarted, MissPreempted, MissStartedLate, MissSlowed, MissOverran}

// String is the cause's name as jobs.csv writes it ("" for MissNone).
func (c MissCause) String() string {
	if c < 0 || int(c) >= len(missCauseNames) {
		return fmt.Sprintf("MissCause(%d)", int(c))
	}
	return missCauseNames[c]
}

// ParseMissCause is the inverse of String.
func ParseMissCause(s string) (MissCause, error) {
	for i, n := range missCauseNames {
		if n == s {
			return MissCause(i), nil
		}
	}
	return 0, fmt.Errorf("unknown miss cause %q (want never_started, preempted, started_late, slowed or overran)", s)
}

// slowTol is the relative margin by which a run must outlast its nominal
// runtime to count as slowed: far above rounding in end − start.
const slowTol = 1e-9

// classifyMiss is the job's MissCause (MissNone for a best-effort job and
// for an SLO job that met its deadline).
func (j *JobRecord) classifyMiss() MissCause {
	if j.Class != workloads.SLO || j.MetDeadline {
		return MissNone
	}
	switch {
	case !j.Started && !j.Completed && j.Preemptions == 0:
		return MissNeverStarted
	case j.Preemptions > 0:
		return MissPreempted
	}
	rmin := j.Runtime
	if j.ShortestEstimate > 0 && !math.IsInf(j.ShortestEstimate, 0) {
		rmin = j.ShortestEstimate
	}
	switch {
	case j.Start > j.Deadline-rmin:
		return MissStartedLate
	case j.Completed && j.End-j.Start > j.Runtime*(1+slowTol) && j.Start+j.Runtime <= j.Deadline:
		return MissSlowed
	}
	return MissOverran
}

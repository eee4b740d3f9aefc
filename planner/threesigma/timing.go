package threesigma

import (
	"fmt"
	"time"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/workloads"
)

// CycleMissLimit is the share of SLO jobs a planner may lose to the wait
// for its next cycle before it decides on events instead (TimingFor): 1%,
// the size of the SLO miss rates the planners reach on events on the
// Google-like workload (0.6%) and on the LLNL Thunder window (0.3%).
const CycleMissLimit = 0.01

// CycleMissShare is the share of the SLO jobs of history that a planner
// deciding only every interval would make miss by the wait for its cycle
// alone, even starting them there on their preferred nodes. A job
// submitted at a uniform phase of the cycle waits U(0, interval) for the
// next one, and misses when that wait exceeds its slack
// s = deadline − submit − runtime (seconds), with probability
//
//	max(0, 1 − s / interval),
//
// averaged over the SLO jobs (a job with s < 0 misses on any timing and
// counts 0). It returns the share and the number of SLO jobs; with none,
// or no interval, both are 0.
func CycleMissShare(history []workloads.Job, interval time.Duration) (share float64, sloJobs int) {
	iv := interval.Seconds()
	if !(iv > 0) {
		return 0, 0
	}
	sum := 0.0
	for i := range history {
		j := &history[i]
		if j.Class != workloads.SLO {
			continue
		}
		sloJobs++
		if s := j.Deadline - j.Submit - j.Runtime; s >= 0 && s < iv {
			sum += 1 - s/iv
		}
	}
	if sloJobs == 0 {
		return 0, 0
	}
	return sum / float64(sloJobs), sloJobs
}

// DerivedTiming is a planner's decision timing derived from a workload's
// history (TimingFor): the timing, and why.
type DerivedTiming struct {
	Decisions planner.Timing
	// CycleMiss is CycleMissShare of the history at Interval, over SLOJobs
	// SLO jobs.
	CycleMiss float64
	SLOJobs   int
	Interval  time.Duration
}

// TimingFor derives when a planner decides, for a workload whose history
// is given, at a scheduling interval (a driver uses it when neither the
// timing nor the interval is set): on events (every arrival and
// completion, and every interval) when the wait for the next cycle alone
// would make more than CycleMissLimit of the history's SLO jobs miss
// (CycleMissShare), otherwise at the cycle, as 3Sigma's scheduler does.
//
// On the Google-like workload at 60 s that share is 6–11%, on the 24 h
// windows of the SWF logs 26–44%: events. Without SLO jobs it is 0: the
// cycle.
func TimingFor(history []workloads.Job, interval time.Duration) DerivedTiming {
	share, n := CycleMissShare(history, interval)
	t := DerivedTiming{Decisions: planner.OnCycle, CycleMiss: share, SLOJobs: n, Interval: interval}
	if share > CycleMissLimit {
		t.Decisions = planner.OnEvents
	}
	return t
}

// Reason says in one line why the timing was chosen, for reports.
func (t DerivedTiming) Reason() string {
	if t.SLOJobs == 0 {
		return fmt.Sprintf("%s: the history has no SLO job", t.Decisions)
	}
	rel := "≤"
	if t.CycleMiss > CycleMissLimit {
		rel = ">"
	}
	return fmt.Sprintf("%s: a %g s cycle alone would miss %.1f%% of the history's %d SLO jobs (%s %g%%)",
		t.Decisions, t.Interval.Seconds(), 100*t.CycleMiss, t.SLOJobs, rel, 100*CycleMissLimit)
}

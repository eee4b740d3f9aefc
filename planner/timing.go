package planner

import "fmt"

// Timing is when a driver asks a scheduler for a decision. Every timing
// decides at the driver's cycles, k · Interval for k = 0, 1, …; OnEvents
// adds the moments the cluster changes.
type Timing int

const (
	// OnCycle decides at the cycles only: an arrival or a completion
	// between two cycles waits for the next one. The planners decide so,
	// as 3Sigma's scheduler does (§4.3): a plan is made for a cycle.
	OnCycle Timing = iota
	// OnEvents also decides at every arrival and every completion, as
	// EASY backfilling (Mu'alem & Feitelson 2001) and Slurm's main
	// scheduler react to each submission and each job end: the heuristics
	// decide so. A driver groups the events of one instant into one
	// decision (completions first, then arrivals); the cycles stay, so
	// that a policy whose choice depends on the time alone (a job
	// overrunning its estimate) is asked again within an interval.
	OnEvents
)

var timingNames = [...]string{"cycle", "events"}

// String returns "cycle" or "events".
func (t Timing) String() string {
	if t < 0 || int(t) >= len(timingNames) {
		return fmt.Sprintf("Timing(%d)", int(t))
	}
	return timingNames[t]
}

// ParseTiming is the inverse of String.
func ParseTiming(s string) (Timing, error) {
	for i, n := range timingNames {
		if n == s {
			return Timing(i), nil
		}
	}
	return 0, fmt.Errorf("unknown decision timing %q (want cycle or events)", s)
}

package service

import (
	"github.com/plannerhq/planner/workloads"
)

// A record is one change of the service's state, in the order of Seq:
// the log the database keeps and a restart replays (state.apply). Every
// record holds the outcome of a request or a cycle, already checked, so
// that applying it never fails and gives the same state every time.
type record struct {
	Seq      uint64       `json:"seq"`
	Submit   *submitRec   `json:"submit,omitempty"`
	Event    *eventRec    `json:"event,omitempty"`
	Decision *decisionRec `json:"decision,omitempty"`
	Cluster  *clusterRec  `json:"cluster,omitempty"`
	History  *historyRec  `json:"history,omitempty"`
	Clock    *clockRec    `json:"clock,omitempty"`
}

// submitRec accepts a job: the client's spec (for idempotent re-submits),
// the job the planner sees and its prediction at submission.
type submitRec struct {
	Spec JobSpec        `json:"spec"`
	Job  workloads.Job  `json:"job"`
	Pred PredictionView `json:"pred"`
}

// eventRec is a client's event of job Job at time At (seconds); Runtime
// is a completed run's measured runtime (seconds).
type eventRec struct {
	Job     int       `json:"job"`
	Type    string    `json:"type"`
	At      float64   `json:"at"`
	Runtime float64   `json:"runtime,omitempty"`
	Spec    EventSpec `json:"spec"`
}

// decisionRec is what the service enacted of one cycle's decision at Now:
// the preemptions, then the starts (each job's nodes per partition).
type decisionRec struct {
	Cycle    uint64         `json:"cycle"`
	Now      float64        `json:"now"`
	Preempts []int          `json:"preempts,omitempty"`
	Starts   []placementRec `json:"starts,omitempty"`
	Stats    CycleView      `json:"stats"`
}

type placementRec struct {
	Job   int   `json:"job"`
	Alloc []int `json:"alloc"`
	// ShortestS is the shortest runtime the scheduler's estimate allowed
	// (DecisionView.ShortestRuntimeS); 0 for none.
	ShortestS float64 `json:"shortest_s,omitempty"`
}

// clusterRec is the capacity of every partition after a change.
type clusterRec struct {
	Caps []capacity `json:"caps"`
}

// capacity is one partition's installed, drained and lost nodes.
type capacity struct {
	Nodes   int `json:"nodes"`
	Drained int `json:"drained"`
	Lost    int `json:"lost"`
}

// available is the nodes the planner plans with.
func (c capacity) available() int { return max(0, c.Nodes-c.Drained-c.Lost) }

// historyRec is a batch of runs completed elsewhere, for the predictor.
type historyRec struct {
	Jobs []histRec `json:"jobs"`
}

type histRec struct {
	Features workloads.Features `json:"features"`
	Runtime  float64            `json:"runtime"`
}

// clockRec moves the virtual clock to Now.
type clockRec struct {
	Now float64 `json:"now"`
}

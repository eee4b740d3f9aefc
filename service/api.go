package service

// The bodies of the HTTP/JSON API, version 1. Times are RFC 3339 strings,
// durations and runtimes seconds (fields ending in _s), node counts whole
// numbers. Requests reject unknown fields; responses may gain fields.

// JobSpec is the body of POST /v1/jobs: a job as its client describes it.
// Pointer fields tell "absent" from zero. Re-submitting an id with an
// equal JobSpec is idempotent.
type JobSpec struct {
	// ID is the client's name of the job: 1–128 characters of letters,
	// digits and . _ : @ + -, starting with a letter or digit.
	ID string `json:"id"`
	// User, Name and App are what the runtime predictor learns from
	// (3Sigma §4.1), with the submit hour and weekday and Resources.
	User string `json:"user,omitempty"`
	Name string `json:"name,omitempty"`
	App  string `json:"app,omitempty"`
	// Nodes is the gang size: all start together.
	Nodes *int `json:"nodes"`
	// Class is "slo" (a deadline) or "be" (best effort).
	Class string `json:"class"`
	// Deadline is an SLO job's completion deadline (RFC 3339).
	Deadline string `json:"deadline,omitempty"`
	// Value is the utility of completing the job (default 1).
	Value *float64 `json:"value,omitempty"`
	// Preferred names the partitions the job prefers (default: all); off
	// them it runs the cluster's slowdown longer.
	Preferred []string `json:"preferred,omitempty"`
	// Resources is the requested resources as the cluster manager names
	// them, a predictor feature (default "nodes=N").
	Resources string `json:"resources,omitempty"`
	// TimeLimitS is the user's requested time limit in seconds (the
	// backfilling policies plan with it); absent when unknown.
	TimeLimitS *float64 `json:"time_limit_s,omitempty"`
	// Submitted is when the job was submitted to the cluster manager
	// (RFC 3339; default: when the service receives it). It may not lie
	// ahead of the wall clock.
	Submitted string `json:"submitted,omitempty"`
}

// EventSpec is the body of POST /v1/jobs/{id}/events.
type EventSpec struct {
	// Type is "started", "completed", "failed" or "cancelled".
	Type string `json:"type"`
	// Time is when it happened (RFC 3339; default: now).
	Time string `json:"time,omitempty"`
	// RuntimeS is the measured runtime of a completed run in seconds
	// (default: time − the run's start); the predictor learns it.
	RuntimeS *float64 `json:"runtime_s,omitempty"`
	// Reason says why a job failed or was cancelled (≤ 1,024 bytes).
	Reason string `json:"reason,omitempty"`
}

// ClusterSpec is the body of PUT /v1/cluster: the partitions whose
// capacity changed, each with the fields that changed.
type ClusterSpec struct {
	Partitions []PartitionSpec `json:"partitions"`
}

// PartitionSpec is one partition's capacity: its installed nodes (raised
// when nodes are added), the nodes drained (no new work, running jobs go
// on) and the nodes lost (down). The planner plans with nodes − drained −
// lost.
type PartitionSpec struct {
	Name    string `json:"name"`
	Nodes   *int   `json:"nodes,omitempty"`
	Drained *int   `json:"drained,omitempty"`
	Lost    *int   `json:"lost,omitempty"`
}

// HistorySpec is the body of POST /v1/history: runs completed elsewhere
// (an accounting log, a previous system) for the predictor to learn from.
type HistorySpec struct {
	Jobs []HistoryJob `json:"jobs"`
}

// HistoryJob is one completed run: the job's features and its runtime on
// preferred nodes.
type HistoryJob struct {
	User      string   `json:"user,omitempty"`
	Name      string   `json:"name,omitempty"`
	App       string   `json:"app,omitempty"`
	Nodes     *int     `json:"nodes,omitempty"`
	Resources string   `json:"resources,omitempty"`
	Submitted string   `json:"submitted,omitempty"`
	RuntimeS  *float64 `json:"runtime_s"`
}

// ClockSpec is the body of POST /v1/clock (virtual clock only).
type ClockSpec struct {
	Now string `json:"now"`
}

// ErrorView is the body of every error response: what was wrong and, for
// a request body, the field (a JSON path such as "partitions[1].nodes").
type ErrorView struct {
	Error string `json:"error"`
	Field string `json:"field,omitempty"`
}

// JobView is a job and its state (POST /v1/jobs, GET /v1/jobs/{id}).
type JobView struct {
	ID         string         `json:"id"`
	State      string         `json:"state"`
	User       string         `json:"user,omitempty"`
	Name       string         `json:"name,omitempty"`
	App        string         `json:"app,omitempty"`
	Nodes      int            `json:"nodes"`
	Class      string         `json:"class"`
	Deadline   string         `json:"deadline,omitempty"`
	Value      float64        `json:"value"`
	Preferred  []string       `json:"preferred,omitempty"`
	Resources  string         `json:"resources,omitempty"`
	TimeLimitS float64        `json:"time_limit_s,omitempty"`
	Submitted  string         `json:"submitted"`
	Prediction PredictionView `json:"prediction"`
	// Start and Alloc are those of the current run (starting or running),
	// or of the last one (completed).
	Start       string      `json:"start,omitempty"`
	Alloc       []AllocView `json:"alloc,omitempty"`
	End         string      `json:"end,omitempty"`
	RuntimeS    *float64    `json:"runtime_s,omitempty"`
	Preemptions int         `json:"preemptions"`
	Events      []EventView `json:"events"`
}

// PredictionView summarises the runtime distribution 3σPredict gave the
// job at submission (seconds on preferred nodes).
type PredictionView struct {
	// Source is "expert" (a feature value's history), "global" (every
	// job's) or "none" (no history: the planners assume EstimateS).
	Source string `json:"source"`
	// Expert is the chosen feature value and estimator, e.g.
	// "user=ana median".
	Expert string `json:"expert,omitempty"`
	// History is the number of runtimes behind the distribution.
	History uint64 `json:"history"`
	// EstimateS is the expert's point estimate.
	EstimateS float64 `json:"estimate_s"`
	// RuntimeS are the distribution's mean and quantiles; absent for
	// source "none".
	RuntimeS *Quantiles `json:"runtime_s,omitempty"`
}

// Quantiles of a runtime distribution, in seconds.
type Quantiles struct {
	Mean float64 `json:"mean"`
	P10  float64 `json:"p10"`
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
}

// EventView is one event of a job: submitted, started, completed, failed,
// cancelled, or the service's own decided (a start) and preempted.
type EventView struct {
	Seq      uint64   `json:"seq"`
	Type     string   `json:"type"`
	Time     string   `json:"time"`
	RuntimeS *float64 `json:"runtime_s,omitempty"`
	Reason   string   `json:"reason,omitempty"`
}

// AllocView is the nodes of one partition a run holds or a decision gives.
type AllocView struct {
	Partition string `json:"partition"`
	Nodes     int    `json:"nodes"`
}

// DecisionView is one decision to enact, in the order of Seq.
type DecisionView struct {
	Seq   uint64 `json:"seq"`
	Time  string `json:"time"`
	Cycle uint64 `json:"cycle"`
	// Action is "start" (on Alloc) or "preempt" (stop the job and requeue
	// it: its progress is lost).
	Action string      `json:"action"`
	Job    string      `json:"job"`
	Alloc  []AllocView `json:"alloc,omitempty"`
	// ShortestRuntimeS is, for a start, the shortest runtime (seconds, on
	// preferred nodes of speed 1) the scheduler's estimate of the job
	// allowed when it started it (planner.EstimateReporter); absent for a
	// scheduler without estimates.
	ShortestRuntimeS *float64 `json:"shortest_runtime_s,omitempty"`
	// Acknowledged: an event of the job followed the decision (a start's
	// started, failed, cancelled or completed; for a preemption any).
	Acknowledged bool `json:"acknowledged"`
}

// DecisionsView is the body of GET /v1/decisions: the decisions after the
// asked sequence number, and the last sequence number given out so far
// (pass it as after= next time).
type DecisionsView struct {
	Decisions []DecisionView `json:"decisions"`
	Last      uint64         `json:"last"`
}

// ClusterView is the cluster as the service plans for it.
type ClusterView struct {
	Name       string          `json:"name,omitempty"`
	Slowdown   float64         `json:"slowdown"`
	Partitions []PartitionView `json:"partitions"`
}

// PartitionView is one partition: installed nodes, drained and lost ones,
// those the planner plans with (available), held by jobs (used) and idle
// among the available ones (free).
type PartitionView struct {
	Name      string  `json:"name"`
	Speed     float64 `json:"speed"`
	Nodes     int     `json:"nodes"`
	Drained   int     `json:"drained"`
	Lost      int     `json:"lost"`
	Available int     `json:"available"`
	Used      int     `json:"used"`
	Free      int     `json:"free"`
}

// CycleView is one cycle the service ran.
type CycleView struct {
	Cycle       uint64  `json:"cycle"`
	Time        string  `json:"time"`
	TimeS       float64 `json:"time_s"`
	Pending     int     `json:"pending"`
	Running     int     `json:"running"`
	Started     int     `json:"started"`
	Preempted   int     `json:"preempted"`
	Refused     int     `json:"refused"`
	Solved      bool    `json:"solved"`
	TimeLimited bool    `json:"time_limited"`
	Fallback    bool    `json:"fallback"`
	FailedStage string  `json:"failed_stage,omitempty"`
	Failure     string  `json:"failure,omitempty"`
	Panicked    bool    `json:"panicked,omitempty"`
	Invalid     string  `json:"invalid,omitempty"`
	Objective   float64 `json:"objective"`
	Options     int     `json:"options"`
	Vars        int     `json:"vars"`
	Rows        int     `json:"rows"`
	// HeldNodes are the idle nodes the plan keeps for its next starts
	// (planner.CycleStats.HeldNodes).
	HeldNodes int     `json:"held_nodes"`
	SolveMS   float64 `json:"solve_ms"`
	CycleMS   float64 `json:"cycle_ms"`
}

// ClockView is the body of POST /v1/clock's answer: the clock and the
// cycles the move ran.
type ClockView struct {
	Now    string      `json:"now"`
	NowS   float64     `json:"now_s"`
	Cycles []CycleView `json:"cycles"`
	// LastDecision is the sequence number of the last decision so far.
	LastDecision uint64 `json:"last_decision"`
}

// PlanView is the body of GET /v1/plan: the plan ahead as the last cycle
// left it.
type PlanView struct {
	Now       string        `json:"now"`
	Scheduler string        `json:"scheduler"`
	Cluster   ClusterView   `json:"cluster"`
	LastCycle *CycleView    `json:"last_cycle,omitempty"`
	Running   []PlannedView `json:"running"`
	Planned   []PlannedView `json:"planned"`
	Pending   int           `json:"pending"`
}

// PlannedView is a run on the plan: under way (from its start) or
// foreseen (from its planned start), to the end its predicted median and
// 90th-percentile runtimes give.
type PlannedView struct {
	Job       string      `json:"job"`
	Class     string      `json:"class"`
	Start     string      `json:"start"`
	StartS    float64     `json:"start_s"`
	EndP50S   float64     `json:"end_p50_s"`
	EndP90S   float64     `json:"end_p90_s"`
	Alloc     []AllocView `json:"alloc"`
	Deadline  string      `json:"deadline,omitempty"`
	Acked     bool        `json:"acknowledged"`
	PlannedBy uint64      `json:"cycle,omitempty"`
}

// InfoView is the body of GET /v1/info: how the service runs.
type InfoView struct {
	Version        string      `json:"version"`
	Scheduler      string      `json:"scheduler"`
	Clock          string      `json:"clock"`
	Deterministic  bool        `json:"deterministic"`
	Seed           uint64      `json:"seed"`
	IntervalS      float64     `json:"interval_s"`
	Solver         string      `json:"solver"`
	SolverTimeoutS float64     `json:"solver_timeout_s"`
	HorizonS       float64     `json:"horizon_s"`
	MaxPending     int         `json:"max_pending"`
	Epoch          string      `json:"epoch"`
	Now            string      `json:"now"`
	NowS           float64     `json:"now_s"`
	Cluster        ClusterView `json:"cluster"`
	Jobs           int         `json:"jobs"`
	LastDecision   uint64      `json:"last_decision"`
}

// JobsView is the body of GET /v1/jobs.
type JobsView struct {
	Jobs []JobView `json:"jobs"`
}

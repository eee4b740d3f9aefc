package slurm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rs/zerolog"

	"github.com/plannerhq/planner/service"
)

// Defaults of Config.
const (
	// DefaultPoll is the time between two looks at Slurm: a start waits
	// about this long for its enactment, and a completion as long to be
	// reported.
	DefaultPoll = time.Second
	// DefaultIDPrefix prefixes the planner's id of a Slurm job, so that
	// the bridge never touches a job another client submitted.
	DefaultIDPrefix = "slurm-"
	// deferWarn is how long a start may wait for its nodes to be freed by
	// Slurm (a job ending, a node being cleaned up) before a warning.
	deferWarn = 30 * time.Second
	// maxCommandErrors is how many rounds in a row an enactment may fail
	// before the job is reported failed; a single failure is often Slurm's
	// controller being briefly unreachable.
	maxCommandErrors = 5
	// maxMissingRounds is how many rounds an active job may be absent from
	// squeue and from the completion log before it is reported failed.
	maxMissingRounds = 10
	// feedWait is the long poll of the decision feed.
	feedWait = 30 * time.Second
)

// Config is how a bridge runs.
type Config struct {
	// Slurm is the cluster; Planner the service's client.
	Slurm   *Slurm
	Planner *service.Client
	// Partitions are the Slurm partitions whose held jobs the bridge
	// submits and whose nodes make the planner's cluster (empty: all).
	Partitions []string
	// IDPrefix prefixes the planner's id of a Slurm job (default
	// DefaultIDPrefix): job 42 is slurm-42.
	IDPrefix string
	// Poll is the time between rounds (default DefaultPoll).
	Poll time.Duration
	// Location is the zone of the completion log's times (default
	// time.Local, Slurm's).
	Location *time.Location
	// Now is the wall clock (default time.Now).
	Now func() time.Time
	// Log gets a line per enactment and per event at info, per round at
	// debug, and Slurm's and the planner's refusals at warn.
	Log zerolog.Logger
}

// Bridge puts the planner service in front of Slurm. Each round it looks
// at Slurm's jobs and nodes and:
//
//   - intake: submits each job held in Slurm (sbatch --hold) that the
//     planner does not know, with its features (Spec);
//   - enacts the planner's decisions: a start places the job on exactly
//     as many nodes of the decided partitions as it asks for (scontrol
//     update NodeList), then releases it (and, after a preemption, asks
//     Slurm to start it now); a preemption requeues it held (scontrol
//     requeuehold), to be placed and released again by a later start;
//   - reports what Slurm did as events: started (with Slurm's start
//     time), completed (with the run's measured runtime, which the
//     planner's predictor learns), failed or cancelled;
//   - reports capacity (PUT /v1/cluster): nodes drained, and nodes held by
//     jobs that did not come through the planner, as drained; nodes down
//     or not responding as lost.
//
// The bridge keeps no state of its own: the planner's jobs and Slurm's
// are the truth, so a bridge that restarts carries on where it stopped
// (a held job is re-submitted idempotently, a start decided and not
// enacted is enacted, a run that ended meanwhile is reported).
type Bridge struct {
	cfg   Config
	log   zerolog.Logger
	nodes *NodeMap

	jobs map[int64]*tracked
	// ignored are held Slurm jobs not to submit again: the planner refused
	// them or they ended there (the message logged for each).
	ignored map[int64]string
	// after is the last decision applied.
	after uint64
	// caps are the drained and lost nodes per partition last reported.
	caps []capacity
}

// tracked is a job the planner has and has not ended: the planner's
// state as the bridge last learnt it.
type tracked struct {
	key   string
	state string // pending, starting or running
	alloc []service.AllocView
	// preempt: a preemption decided and not enacted yet.
	preempt bool
	// errors counts the rounds in a row an enactment failed; missing
	// those the job was absent from squeue.
	errors, missing int
	// waitingSince is when a start began waiting for its nodes.
	waitingSince time.Time
	warned       bool
}

type capacity struct{ drained, lost int }

// Planner job states the bridge acts on.
const (
	statePending  = "pending"
	stateStarting = "starting"
	stateRunning  = "running"
)

// New connects to the planner and Slurm: it reads the planner's cluster
// and maps it onto Slurm's nodes (MapNodes), and learns the planner's
// active jobs.
func New(ctx context.Context, cfg Config) (*Bridge, error) {
	if cfg.Poll <= 0 {
		cfg.Poll = DefaultPoll
	}
	if cfg.IDPrefix == "" {
		cfg.IDPrefix = DefaultIDPrefix
	}
	if cfg.Location == nil {
		cfg.Location = time.Local
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	b := &Bridge{cfg: cfg, log: cfg.Log, jobs: map[int64]*tracked{}, ignored: map[int64]string{}}
	info, err := cfg.Planner.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("the planner: %w", err)
	}
	if info.Clock != service.ClockWall.String() {
		b.log.Warn().Str("clock", info.Clock).Msg("the planner does not run on the wall clock; Slurm does")
	}
	nodes, err := cfg.Slurm.Nodes(ctx, cfg.Partitions)
	if err != nil {
		return nil, err
	}
	if b.nodes, err = MapNodes(info.Cluster, nodes); err != nil {
		return nil, err
	}
	b.caps = make([]capacity, len(info.Cluster.Partitions))
	for r, p := range info.Cluster.Partitions {
		b.caps[r] = capacity{drained: p.Drained, lost: p.Lost}
	}
	b.after = info.LastDecision
	for _, st := range []string{statePending, stateStarting, stateRunning} {
		var list service.JobsView
		if _, err := cfg.Planner.Do(ctx, http.MethodGet, "/v1/jobs?limit=10000&state="+st, nil, &list); err != nil {
			return nil, fmt.Errorf("the planner: %w", err)
		}
		for i := range list.Jobs {
			if id, ok := b.slurmID(list.Jobs[i].ID); ok {
				b.adopt(id, &list.Jobs[i])
			}
		}
	}
	b.log.Info().Str("nodes", b.nodes.String()).Int("active_jobs", len(b.jobs)).Uint64("after", b.after).Msg("bridge: the planner's partitions on Slurm's nodes")
	return b, nil
}

// Nodes is the map of the planner's partitions onto Slurm's nodes.
func (b *Bridge) Nodes() *NodeMap { return b.nodes }

// Run runs rounds until ctx is done: after every new decision of the
// planner (a long poll of its feed) and every Poll. It returns nil when
// ctx is done.
func (b *Bridge) Run(ctx context.Context) error {
	feed := make(chan []service.DecisionView)
	done := make(chan struct{})
	go func() {
		defer close(done)
		b.follow(ctx, b.after, feed)
	}()
	defer func() { <-done }()
	tick := time.NewTicker(b.cfg.Poll)
	defer tick.Stop()
	for {
		b.round(ctx)
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		case ds := <-feed:
			b.apply(ctx, ds)
		}
	}
}

// Step applies the decisions published so far and runs one round (for
// tests, which step the bridge by hand).
func (b *Bridge) Step(ctx context.Context) error {
	for {
		feed, err := b.cfg.Planner.Decisions(ctx, b.after, 0)
		if err != nil {
			return err
		}
		if len(feed.Decisions) == 0 {
			break
		}
		b.apply(ctx, feed.Decisions)
	}
	b.round(ctx)
	return nil
}

// follow long-polls the decision feed from after and sends each batch.
func (b *Bridge) follow(ctx context.Context, after uint64, out chan<- []service.DecisionView) {
	for ctx.Err() == nil {
		feed, err := b.cfg.Planner.Decisions(ctx, after, feedWait)
		if err != nil {
			if ctx.Err() == nil {
				b.log.Warn().Err(err).Msg("bridge: reading the planner's decisions")
				select {
				case <-ctx.Done():
				case <-time.After(b.cfg.Poll):
				}
			}
			continue
		}
		if len(feed.Decisions) == 0 {
			continue
		}
		select {
		case out <- feed.Decisions:
			after = feed.Decisions[len(feed.Decisions)-1].Seq
		case <-ctx.Done():
		}
	}
}

// apply updates the planner's states by decisions, in order.
func (b *Bridge) apply(ctx context.Context, ds []service.DecisionView) {
	for _, d := range ds {
		if d.Seq <= b.after {
			continue
		}
		b.after = d.Seq
		id, ok := b.slurmID(d.Job)
		if !ok {
			continue
		}
		t := b.jobs[id]
		if t == nil {
			// A job this bridge submitted before it restarted, or in a
			// round whose answer was lost: ask the planner.
			b.refresh(ctx, id, d.Job)
			continue
		}
		switch d.Action {
		case "start":
			t.state, t.alloc, t.waitingSince, t.warned, t.errors = stateStarting, d.Alloc, time.Time{}, false, 0
		case "preempt":
			t.state, t.alloc, t.preempt, t.errors = statePending, nil, true, 0
		}
	}
}

// slurmID is the Slurm job id of a planner job id the bridge submitted.
func (b *Bridge) slurmID(key string) (int64, bool) {
	s, ok := strings.CutPrefix(key, b.cfg.IDPrefix)
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseInt(s, 10, 64)
	return id, err == nil && id > 0 && strconv.FormatInt(id, 10) == s
}

func (b *Bridge) key(id int64) string { return b.cfg.IDPrefix + strconv.FormatInt(id, 10) }

// adopt tracks a planner job by its view: active jobs are tracked, ended
// ones forgotten.
func (b *Bridge) adopt(id int64, v *service.JobView) {
	switch v.State {
	case statePending, stateStarting, stateRunning:
		t := b.jobs[id]
		if t == nil {
			t = &tracked{key: v.ID}
			b.jobs[id] = t
		}
		if t.state != v.State {
			t.waitingSince, t.warned, t.errors = time.Time{}, false, 0
		}
		t.state = v.State
		t.alloc = nil
		if v.State != statePending {
			t.alloc = v.Alloc
		}
	default:
		delete(b.jobs, id)
	}
}

// refresh reads a job's state from the planner.
func (b *Bridge) refresh(ctx context.Context, id int64, key string) {
	v, err := b.cfg.Planner.Job(ctx, key)
	if err != nil {
		if status(err) == http.StatusNotFound {
			delete(b.jobs, id)
			return
		}
		b.log.Warn().Err(err).Str("job", key).Msg("bridge: reading the job from the planner")
		return
	}
	b.adopt(id, v)
}

// status is the HTTP status of a planner's refusal, 0 for another error.
func status(err error) int {
	var e *service.APIError
	if errors.As(err, &e) {
		return e.Status
	}
	return 0
}

// round looks at Slurm once and acts on what it sees.
func (b *Bridge) round(ctx context.Context) {
	jobs, err := b.cfg.Slurm.Jobs(ctx)
	if err != nil {
		if ctx.Err() == nil {
			b.log.Warn().Err(err).Msg("bridge: reading Slurm's jobs")
		}
		return
	}
	nodes, err := b.cfg.Slurm.Nodes(ctx, b.cfg.Partitions)
	if err != nil {
		if ctx.Err() == nil {
			b.log.Warn().Err(err).Msg("bridge: reading Slurm's nodes")
		}
		return
	}
	r := &roundState{jobs: map[int64]*Job{}, busy: map[string]bool{}, nodes: map[string]*Node{}}
	for i := range nodes {
		r.nodes[nodes[i].Name] = &nodes[i]
	}
	foreign := map[string]bool{}
	for i := range jobs {
		j := &jobs[i]
		r.jobs[j.ID] = j
		held := j.NodeList
		if j.State == StatePending && !j.Held() {
			held = j.Required // released, about to start there
		} else if !j.Active() {
			continue
		}
		for _, n := range held {
			r.busy[n] = true
			if b.jobs[j.ID] == nil {
				foreign[n] = true
			}
		}
	}
	b.reportCapacity(ctx, r, foreign)
	b.intake(ctx, jobs)
	ids := make([]int64, 0, len(b.jobs))
	for id := range b.jobs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if t := b.jobs[id]; t != nil {
			b.reconcile(ctx, r, id, t)
		}
		if ctx.Err() != nil {
			return
		}
	}
	b.log.Debug().Int("slurm_jobs", len(jobs)).Int("tracked", len(b.jobs)).Msg("bridge: round")
}

// roundState is what one round saw of Slurm, and the nodes it gave out.
type roundState struct {
	jobs  map[int64]*Job
	nodes map[string]*Node
	// busy are the nodes running jobs hold, released jobs will take, and
	// starts of this round took.
	busy map[string]bool
}

// reportCapacity tells the planner the drained and lost nodes of each
// partition when they changed.
func (b *Bridge) reportCapacity(ctx context.Context, r *roundState, foreign map[string]bool) {
	caps := make([]capacity, len(b.nodes.Partitions))
	for p, names := range b.nodes.Nodes {
		for _, name := range names {
			n := r.nodes[name]
			switch {
			case n == nil:
				caps[p].lost++
			case n.Usable() && foreign[name]:
				caps[p].drained++
			case n.Usable():
			case n.Drained():
				caps[p].drained++
			default:
				caps[p].lost++
			}
		}
	}
	if slices.Equal(caps, b.caps) {
		return
	}
	spec := service.ClusterSpec{}
	for p, c := range caps {
		drained, lost := c.drained, c.lost
		spec.Partitions = append(spec.Partitions, service.PartitionSpec{Name: b.nodes.Partitions[p], Drained: &drained, Lost: &lost})
	}
	if _, err := b.cfg.Planner.PutCluster(ctx, spec); err != nil {
		b.log.Warn().Err(err).Msg("bridge: reporting capacity")
		return
	}
	b.caps = caps
	ev := b.log.Info()
	for p, c := range caps {
		ev = ev.Str(b.nodes.Partitions[p], fmt.Sprintf("drained %d lost %d", c.drained, c.lost))
	}
	ev.Msg("bridge: capacity")
}

// serves reports whether the bridge serves Slurm partition p.
func (b *Bridge) serves(p string) bool {
	return len(b.cfg.Partitions) == 0 || slices.Contains(b.cfg.Partitions, p)
}

// intake submits the held jobs the planner does not know.
func (b *Bridge) intake(ctx context.Context, jobs []Job) {
	for i := range jobs {
		j := &jobs[i]
		if !j.Held() || b.jobs[j.ID] != nil || j.ArrayJobID != 0 || j.HetJobID != 0 || !b.serves(j.Partition) {
			continue
		}
		if _, ok := b.ignored[j.ID]; ok {
			continue
		}
		spec, err := Spec(j)
		if err == nil {
			spec.ID = b.key(j.ID)
			var v *service.JobView
			var created bool
			v, created, err = b.cfg.Planner.Submit(ctx, spec)
			switch {
			case err == nil:
				b.adopt(j.ID, v)
				if b.jobs[j.ID] == nil {
					b.ignored[j.ID] = "it ended in the planner (" + v.State + ")"
				} else if created {
					ev := b.log.Info().Str("job", spec.ID).Str("class", spec.Class).Int("nodes", j.Nodes).Str("user", j.User).Str("name", j.Name)
					if spec.Deadline != "" {
						ev = ev.Str("deadline", spec.Deadline)
					}
					if v.Prediction.RuntimeS != nil {
						ev = ev.Float64("predicted_p50_s", v.Prediction.RuntimeS.P50)
					}
					ev.Msg("bridge: submitted")
				}
				continue
			case status(err) == http.StatusConflict:
				// The planner has the id with another body (the job
				// changed in Slurm since it was submitted): keep the
				// planner's.
				b.refresh(ctx, j.ID, spec.ID)
				if b.jobs[j.ID] != nil {
					continue
				}
			case status(err)/100 != 4:
				if ctx.Err() == nil {
					b.log.Warn().Err(err).Int64("slurm_job", j.ID).Msg("bridge: submitting")
				}
				continue // the planner is unreachable or failing: try again
			}
		}
		b.ignored[j.ID] = err.Error()
		b.log.Warn().Err(err).Int64("slurm_job", j.ID).Msg("bridge: not submitted; the job stays held in Slurm (fix it and requeue, or cancel it)")
	}
}

// reconcile brings Slurm's job id and the planner's book of it together.
func (b *Bridge) reconcile(ctx context.Context, r *roundState, id int64, t *tracked) {
	j := r.jobs[id]
	if j == nil {
		b.missing(ctx, id, t)
		return
	}
	t.missing = 0
	switch t.state {
	case statePending:
		switch {
		case j.State == StateCompleting:
			// Being stopped (a preemption under way): wait.
		case j.Active():
			b.preempt(ctx, j, t)
		case j.State == StatePending && !j.Held():
			// Released by someone, or by a start the planner took back.
			if err := b.cfg.Slurm.Hold(ctx, id); err != nil {
				b.log.Warn().Err(err).Str("job", t.key).Msg("bridge: holding a job the planner has not started")
			}
		case j.State == StatePending:
			t.preempt = false
		case j.Ended():
			b.ended(ctx, id, t, j.State, j.Start, j.End)
		}
	case stateStarting:
		switch {
		case t.preempt && j.Active():
			// The run the planner preempted before it started the job
			// again: stop it first.
			b.preempt(ctx, j, t)
		case j.Held():
			t.preempt = false
			b.start(ctx, r, j, t)
		case j.Active():
			b.report(ctx, id, t, service.EventSpec{Type: "started", Time: stamp(j.Start)})
		case j.Ended():
			if !j.Start.IsZero() {
				b.report(ctx, id, t, service.EventSpec{Type: "started", Time: stamp(j.Start)})
			}
			if b.jobs[id] != nil {
				b.ended(ctx, id, t, j.State, j.Start, j.End)
			}
		}
	case stateRunning:
		switch {
		case j.Ended():
			b.ended(ctx, id, t, j.State, j.Start, j.End)
		case j.State == StatePending:
			b.report(ctx, id, t, service.EventSpec{Type: "failed", Reason: "requeued in Slurm, not by the planner"})
		}
	}
}

// stamp is a Slurm time for the planner: RFC 3339, or "" (now) when
// Slurm gave none.
func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// start enacts a start: the decided nodes count of each partition, taken
// from its free nodes in the map's order, then the release.
func (b *Bridge) start(ctx context.Context, r *roundState, j *Job, t *tracked) {
	want := 0
	var chosen []string
	for _, a := range t.alloc {
		p, ok := b.nodes.Index(a.Partition)
		if !ok {
			b.report(ctx, j.ID, t, service.EventSpec{Type: "failed", Reason: "the planner placed it on partition " + a.Partition + ", which has no Slurm nodes"})
			return
		}
		want += a.Nodes
		got := 0
		for _, name := range b.nodes.Nodes[p] {
			if got == a.Nodes {
				break
			}
			if n := r.nodes[name]; n != nil && n.Usable() && !n.Drained() && !r.busy[name] {
				chosen = append(chosen, name)
				got++
			}
		}
		if got < a.Nodes {
			// Nodes still held by a job Slurm is ending: next round.
			now := b.cfg.Now()
			if t.waitingSince.IsZero() {
				t.waitingSince = now
			}
			if !t.warned && now.Sub(t.waitingSince) >= deferWarn {
				t.warned = true
				b.log.Warn().Str("job", t.key).Str("partition", a.Partition).Int("nodes", a.Nodes).Int("free", got).
					Dur("waiting", now.Sub(t.waitingSince)).Msg("bridge: a start waits for Slurm to free its nodes")
			}
			return
		}
	}
	if want != j.Nodes {
		b.report(ctx, j.ID, t, service.EventSpec{Type: "failed",
			Reason: fmt.Sprintf("the planner placed it on %d nodes, it asks Slurm for %d", want, j.Nodes)})
		return
	}
	err := b.cfg.Slurm.Place(ctx, j.ID, chosen)
	if err == nil {
		err = b.cfg.Slurm.Release(ctx, j.ID, j.Restarts > 0)
	}
	if err != nil {
		b.commandFailed(ctx, j.ID, t, "placing it", err)
		return
	}
	t.errors = 0
	for _, n := range chosen {
		r.busy[n] = true
	}
	b.log.Info().Str("job", t.key).Str("nodes", strings.Join(chosen, ",")).Int("restarts", j.Restarts).Msg("bridge: placed and released")
}

// preempt requeues a running job, held.
func (b *Bridge) preempt(ctx context.Context, j *Job, t *tracked) {
	if err := b.cfg.Slurm.RequeueHold(ctx, j.ID); err != nil {
		t.errors++
		if t.errors == 1 || t.errors == maxCommandErrors {
			b.log.Warn().Err(err).Str("job", t.key).Bool("requeue", j.Requeue).Msg("bridge: Slurm refused the preemption; the job runs on")
		}
		return
	}
	t.errors, t.preempt = 0, false
	b.log.Info().Str("job", t.key).Str("nodes", strings.Join(j.NodeList, ",")).Msg("bridge: preempted (requeued, held)")
}

// commandFailed counts a failed enactment; the job is reported failed
// after maxCommandErrors rounds in a row.
func (b *Bridge) commandFailed(ctx context.Context, id int64, t *tracked, what string, err error) {
	t.errors++
	b.log.Warn().Err(err).Str("job", t.key).Int("attempt", t.errors).Msg("bridge: " + what)
	if t.errors >= maxCommandErrors {
		b.report(ctx, id, t, service.EventSpec{Type: "failed", Reason: clip("Slurm refused " + what + ": " + err.Error())})
	}
}

// ended reports a job that ended in Slurm in state state: completed with
// its runtime, cancelled, or failed.
func (b *Bridge) ended(ctx context.Context, id int64, t *tracked, state string, start, end time.Time) {
	var e service.EventSpec
	switch {
	case state == StateCompleted && t.state != statePending:
		e = service.EventSpec{Type: "completed", Time: stamp(end)}
		if !start.IsZero() && !end.IsZero() && !end.Before(start) {
			rt := end.Sub(start).Seconds()
			e.RuntimeS = &rt
		}
	case state == StateCancelled:
		e = service.EventSpec{Type: "cancelled", Time: stamp(end), Reason: "cancelled in Slurm"}
	case t.state == statePending:
		e = service.EventSpec{Type: "cancelled", Time: stamp(end), Reason: "ended in Slurm (" + state + ") while the planner had it waiting"}
	default:
		e = service.EventSpec{Type: "failed", Time: stamp(end), Reason: "ended in Slurm: " + state}
	}
	b.report(ctx, id, t, e)
}

// missing handles an active job squeue no longer lists: Slurm forgot it
// after its end (MinJobAge), so its end is read from the completion log;
// a job found in neither for maxMissingRounds rounds is reported failed.
func (b *Bridge) missing(ctx context.Context, id int64, t *tracked) {
	recs, err := b.cfg.Slurm.Completions(ctx, id, b.cfg.Location)
	if err == nil && len(recs) > 0 {
		last := recs[len(recs)-1]
		if endedState(last.State) && last.State != "REQUEUED" {
			if t.state == stateStarting && !last.Start.IsZero() {
				b.report(ctx, id, t, service.EventSpec{Type: "started", Time: stamp(last.Start)})
			}
			if b.jobs[id] != nil {
				b.ended(ctx, id, t, last.State, last.Start, last.End)
			}
			return
		}
	}
	t.missing++
	if t.missing == maxMissingRounds {
		reason := "Slurm no longer knows the job"
		if err != nil {
			reason += " (" + err.Error() + ")"
		}
		b.report(ctx, id, t, service.EventSpec{Type: "failed", Reason: clip(reason)})
	}
}

// report sends an event of job id and updates its state by the answer.
func (b *Bridge) report(ctx context.Context, id int64, t *tracked, e service.EventSpec) {
	v, err := b.cfg.Planner.Event(ctx, t.key, e)
	if err != nil {
		if status(err) == http.StatusConflict || status(err) == http.StatusNotFound {
			b.refresh(ctx, id, t.key)
			return
		}
		if ctx.Err() == nil {
			b.log.Warn().Err(err).Str("job", t.key).Str("event", e.Type).Msg("bridge: reporting")
		}
		return
	}
	ev := b.log.Info().Str("job", t.key).Str("event", e.Type)
	if e.RuntimeS != nil {
		ev = ev.Float64("runtime_s", *e.RuntimeS)
	}
	if e.Reason != "" {
		ev = ev.Str("reason", e.Reason)
	}
	ev.Msg("bridge: reported")
	b.adopt(id, v)
}

// clip bounds a reason to what the planner accepts (1,024 bytes).
func clip(s string) string {
	const max = 1000
	if len(s) <= max {
		return s
	}
	i := max
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

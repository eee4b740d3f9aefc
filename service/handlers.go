package service

import (
	"errors"
	"net/http"
	"reflect"
	"strconv"
	"time"
)

// journalError is the answer of a request whose change the journal could
// not make: the service is stopping or stopped.
func journalError(err error) *apiError {
	var aerr *apiError
	if errors.As(err, &aerr) {
		return aerr
	}
	return &apiError{status: http.StatusServiceUnavailable, msg: err.Error()}
}

// handleSubmit: POST /v1/jobs.
func (s *Service) handleSubmit(r *http.Request, w http.ResponseWriter) (int, any, *apiError) {
	var spec JobSpec
	if aerr := decodeBody(w, r, maxBody, &spec); aerr != nil {
		return 0, nil, aerr
	}
	if len(spec.Preferred) == 0 {
		spec.Preferred = nil // "preferred": [] says what leaving it out says
	}
	code := http.StatusCreated
	out, err := s.submit(func(st *state) (*record, answer, error) {
		if js := st.byKey[spec.ID]; js != nil {
			if !reflect.DeepEqual(js.spec, spec) {
				return nil, nil, conflict("job %q exists with another body; a job id names one job", spec.ID)
			}
			code = http.StatusOK
			return nil, func(st *state) any { return st.jobView(js) }, nil
		}
		job, aerr := s.jobFromSpec(st, &spec, s.clock.now())
		if aerr != nil {
			return nil, nil, aerr
		}
		job.ID = len(st.order) + 1
		rec := &record{Submit: &submitRec{Spec: spec, Job: job, Pred: predictionView(st.pred, job.Features)}}
		return rec, func(st *state) any { return st.jobView(st.byID[job.ID]) }, nil
	})
	if err != nil {
		return 0, nil, journalError(err)
	}
	if code == http.StatusCreated {
		s.metrics.submitted.Inc()
		s.metrics.pending.Inc()
	}
	return code, out, nil
}

// handleJob: GET /v1/jobs/{id}.
func (s *Service) handleJob(r *http.Request, _ http.ResponseWriter) (int, any, *apiError) {
	id := r.PathValue("id")
	s.mu.RLock()
	defer s.mu.RUnlock()
	js := s.st.byKey[id]
	if js == nil {
		return 0, nil, notFound("no job %q", clip(id))
	}
	return http.StatusOK, s.st.jobView(js), nil
}

// Bounds of the list queries.
const (
	defaultLimit = 1000
	maxLimit     = 10_000
	// maxWait bounds a long poll of the decisions feed.
	maxWait = time.Minute
)

// queryUint reads an optional whole-number query parameter.
func queryUint(r *http.Request, name string, def, max uint64) (uint64, *apiError) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil || n > max {
		return 0, badField(name, "want a whole number in [0, %d], got %q", max, clip(v))
	}
	return n, nil
}

// handleJobs: GET /v1/jobs?state=S&limit=N, the jobs in acceptance order.
func (s *Service) handleJobs(r *http.Request, _ http.ResponseWriter) (int, any, *apiError) {
	limit, aerr := queryUint(r, "limit", defaultLimit, maxLimit)
	if aerr != nil {
		return 0, nil, aerr
	}
	var want *jobStatus
	if v := r.URL.Query().Get("state"); v != "" {
		st, ok := parseStatus(v)
		if !ok {
			return 0, nil, badField("state", "want one of %v, got %q", statusNames, clip(v))
		}
		want = &st
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := JobsView{Jobs: []JobView{}}
	for _, js := range s.st.order {
		if uint64(len(out.Jobs)) >= limit {
			break
		}
		if want == nil || js.status == *want {
			out.Jobs = append(out.Jobs, s.st.jobView(js))
		}
	}
	return http.StatusOK, out, nil
}

// handleEvent: POST /v1/jobs/{id}/events.
func (s *Service) handleEvent(r *http.Request, w http.ResponseWriter) (int, any, *apiError) {
	id := r.PathValue("id")
	var spec EventSpec
	if aerr := decodeBody(w, r, maxBody, &spec); aerr != nil {
		return 0, nil, aerr
	}
	if aerr := checkEvent(&spec); aerr != nil {
		return 0, nil, aerr
	}
	repeat := false
	out, err := s.submit(func(st *state) (*record, answer, error) {
		js := st.byKey[id]
		if js == nil {
			return nil, nil, notFound("no job %q", clip(id))
		}
		view := func(st *state) any { return st.jobView(js) }
		if js.lastSpec != nil && sameEvent(js.lastSpec, &spec) {
			repeat = true
			return nil, view, nil // a retry of the event that made the job what it is
		}
		at, aerr := s.clientTime("time", spec.Time, s.clock.now())
		if aerr != nil {
			return nil, nil, aerr
		}
		ev := &eventRec{Job: js.job.ID, Type: spec.Type, At: at, Spec: spec}
		switch {
		case js.status.ended():
			return nil, nil, conflict("job %q is %s already", id, js.status)
		case spec.Type == evStarted && js.status != statusStarting:
			return nil, nil, conflict("job %q is %s: no start was decided for it (GET /v1/decisions)", id, js.status)
		case spec.Type == evCompleted && !js.status.holding():
			return nil, nil, conflict("job %q is %s: only a started job completes", id, js.status)
		case spec.Type == evCompleted:
			ev.Runtime = at - js.start
			if spec.RuntimeS != nil {
				ev.Runtime = *spec.RuntimeS
			} else if ev.Runtime < 0 {
				return nil, nil, badField("time", "%s is before the run's start %s", spec.Time, st.tl.format(js.start))
			}
		}
		return &record{Event: ev}, view, nil
	})
	if err != nil {
		return 0, nil, journalError(err)
	}
	if !repeat {
		s.updateGauges()
		s.metrics.events.WithLabelValues(spec.Type).Inc()
		if spec.Type == evCompleted {
			s.metrics.learnt.Inc()
		}
	}
	return http.StatusOK, out, nil
}

// sameEvent reports whether two event bodies say the same.
func sameEvent(a, b *EventSpec) bool {
	if a.Type != b.Type || a.Time != b.Time || a.Reason != b.Reason || (a.RuntimeS == nil) != (b.RuntimeS == nil) {
		return false
	}
	return a.RuntimeS == nil || *a.RuntimeS == *b.RuntimeS
}

// handleDecisions: GET /v1/decisions?after=SEQ&wait=DUR&limit=N. With
// wait, an empty answer waits up to that long (at most a minute) for a
// decision.
func (s *Service) handleDecisions(r *http.Request, _ http.ResponseWriter) (int, any, *apiError) {
	after, aerr := queryUint(r, "after", 0, 1<<62)
	if aerr != nil {
		return 0, nil, aerr
	}
	limit, aerr := queryUint(r, "limit", defaultLimit, maxLimit)
	if aerr != nil {
		return 0, nil, aerr
	}
	if limit == 0 {
		limit = defaultLimit
	}
	var wait time.Duration
	if v := r.URL.Query().Get("wait"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 || d > maxWait {
			return 0, nil, badField("wait", "want a duration in [0s, %s] such as 30s, got %q", maxWait, clip(v))
		}
		wait = d
	}
	var timer <-chan time.Time
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		timer = t.C
	}
	for {
		s.mu.RLock()
		out := DecisionsView{Decisions: []DecisionView{}, Last: uint64(len(s.st.feed))}
		for i := after; i < uint64(len(s.st.feed)) && uint64(len(out.Decisions)) < limit; i++ {
			out.Decisions = append(out.Decisions, s.st.feedView(s.st.feed[i]))
		}
		changed := s.st.feedCh
		s.mu.RUnlock()
		if len(out.Decisions) > 0 || timer == nil {
			return http.StatusOK, out, nil
		}
		select {
		case <-changed:
		case <-timer:
			return http.StatusOK, out, nil
		case <-s.stopCh:
			return http.StatusOK, out, nil
		case <-r.Context().Done():
			return http.StatusOK, out, nil
		}
	}
}

// handlePlan: GET /v1/plan.
func (s *Service) handlePlan(*http.Request, http.ResponseWriter) (int, any, *apiError) {
	now := s.clock.now()
	s.mu.RLock()
	defer s.mu.RUnlock()
	return http.StatusOK, s.st.planView(now, s.cfg.Scheduler), nil
}

// handleCluster: GET /v1/cluster.
func (s *Service) handleCluster(*http.Request, http.ResponseWriter) (int, any, *apiError) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return http.StatusOK, s.st.clusterView(), nil
}

// handlePutCluster: PUT /v1/cluster.
func (s *Service) handlePutCluster(r *http.Request, w http.ResponseWriter) (int, any, *apiError) {
	var spec ClusterSpec
	if aerr := decodeBody(w, r, maxBody, &spec); aerr != nil {
		return 0, nil, aerr
	}
	out, err := s.submit(func(st *state) (*record, answer, error) {
		caps, aerr := capacities(st, &spec)
		if aerr != nil {
			return nil, nil, aerr
		}
		return &record{Cluster: &clusterRec{Caps: caps}}, func(st *state) any { return st.clusterView() }, nil
	})
	if err != nil {
		return 0, nil, journalError(err)
	}
	s.updateGauges()
	return http.StatusOK, out, nil
}

// historyView is the answer of POST /v1/history.
type historyView struct {
	Learnt        int    `json:"learnt"`
	RuntimesKnown uint64 `json:"runtimes_known"`
}

// handleHistory: POST /v1/history.
func (s *Service) handleHistory(r *http.Request, w http.ResponseWriter) (int, any, *apiError) {
	var spec HistorySpec
	if aerr := decodeBody(w, r, maxHistoryBody, &spec); aerr != nil {
		return 0, nil, aerr
	}
	out, err := s.submit(func(st *state) (*record, answer, error) {
		jobs, aerr := s.historyFromSpec(&spec, s.clock.now())
		if aerr != nil {
			return nil, nil, aerr
		}
		return &record{History: &historyRec{Jobs: jobs}}, func(st *state) any {
			return historyView{Learnt: len(jobs), RuntimesKnown: st.pred.P.Count()}
		}, nil
	})
	if err != nil {
		return 0, nil, journalError(err)
	}
	s.metrics.learnt.Add(float64(len(spec.Jobs)))
	return http.StatusOK, out, nil
}

// handleClock: POST /v1/clock, the virtual clock only.
func (s *Service) handleClock(r *http.Request, w http.ResponseWriter) (int, any, *apiError) {
	if s.vclock == nil {
		return 0, nil, conflict("the service runs on the wall clock; moving the clock needs --clock virtual")
	}
	var spec ClockSpec
	if aerr := decodeBody(w, r, maxBody, &spec); aerr != nil {
		return 0, nil, aerr
	}
	if spec.Now == "" {
		return 0, nil, badField("now", "required: the time to move the clock to (RFC 3339)")
	}
	t, aerr := parseTime("now", spec.Now)
	if aerr != nil {
		return 0, nil, aerr
	}
	cycles, aerr := s.advance(r.Context(), s.tl.seconds(t))
	if aerr != nil {
		return 0, nil, aerr
	}
	now := s.vclock.now()
	s.mu.RLock()
	last := uint64(len(s.st.feed))
	s.mu.RUnlock()
	return http.StatusOK, ClockView{Now: s.tl.format(now), NowS: now, Cycles: cycles, LastDecision: last}, nil
}

// handleInfo: GET /v1/info.
func (s *Service) handleInfo(*http.Request, http.ResponseWriter) (int, any, *apiError) {
	now := s.clock.now()
	timeout := s.cfg.SolverTimeout
	if timeout == 0 {
		timeout = time.Duration(0.75 * float64(s.cfg.Interval))
	}
	solverName := s.cfg.Solver
	if solverName == "" {
		solverName = "default"
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return http.StatusOK, InfoView{Version: s.cfg.Version, Scheduler: s.cfg.Scheduler, Clock: s.cfg.Clock.String(),
		Deterministic: s.cfg.Deterministic, Seed: s.cfg.Seed, IntervalS: s.cfg.Interval.Seconds(),
		Solver: solverName, SolverTimeoutS: timeout.Seconds(), HorizonS: s.cfg.Horizon.Seconds(),
		MaxPending: max(s.cfg.MaxPending, 0), Epoch: s.tl.epoch.Format(time.RFC3339), Now: s.tl.format(now), NowS: now,
		Cluster: s.st.clusterView(), Jobs: len(s.st.order), LastDecision: uint64(len(s.st.feed))}, nil
}

type statusView struct {
	Status string `json:"status"`
}

// handleHealth: GET /healthz, the process answers.
func (s *Service) handleHealth(*http.Request, http.ResponseWriter) (int, any, *apiError) {
	return http.StatusOK, statusView{Status: "ok"}, nil
}

// handleReady: GET /readyz, the service takes work: its state is restored,
// it is neither stopping nor stopped, and its log can be written (the
// file system of --data is writable with room for the log to grow).
func (s *Service) handleReady(*http.Request, http.ResponseWriter) (int, any, *apiError) {
	if err := s.failed(); err != nil {
		return 0, nil, &apiError{status: http.StatusServiceUnavailable, msg: err.Error()}
	}
	if s.stopping.Load() {
		return 0, nil, &apiError{status: http.StatusServiceUnavailable, msg: "stopping"}
	}
	if err := s.writable(); err != nil {
		return 0, nil, &apiError{status: http.StatusServiceUnavailable, msg: "not ready: " + err.Error()}
	}
	return http.StatusOK, statusView{Status: "ready"}, nil
}

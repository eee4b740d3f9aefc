package workloads

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Params configure a generated workload (Generate). What they set is common
// to every environment: the cluster, the window, the offered load and its
// SLO/BE mix, deadlines, arrivals, history and the prediction-difficulty
// knobs; the environment's job model (runtime classes, job names, gang
// sizes, early exits, requested times) is fixed per generator. Start from
// DefaultParams: zero values are not replaced by defaults, they are
// validated as given.
type Params struct {
	// Nodes is the cluster size, split into Racks equal racks (the first
	// Nodes mod Racks racks get one node more: DefaultCluster) unless
	// Layout describes the cluster.
	Nodes int `json:"nodes"`
	Racks int `json:"racks"`
	// Layout, when set, is the cluster (a cluster file's): Nodes, Racks
	// and Slowdown must then be its total nodes, its partition count and
	// its slowdown. Nil for the default layout, so that the parameters of
	// a workload generated without one read as they always did.
	Layout *Cluster `json:"cluster,omitempty"`
	// Hours is the window length; jobs are submitted in [0, Hours·3600 s).
	Hours float64 `json:"hours"`
	// Load is offered node-hours / (Nodes · Hours), SLO and BE together.
	Load float64 `json:"load"`
	// SLOShare is the part of Load offered by SLO jobs (0.5: an even mix).
	SLOShare float64 `json:"slo_share"`
	// SlackPct is the set deadline slacks are drawn from, uniformly, in
	// percent: deadline = submit + runtime · (1 + slack/100).
	SlackPct []float64 `json:"slack_pct"`
	Seed     uint64    `json:"seed"`
	// PreferredFraction of the racks (rounded to whole racks, at least one)
	// is the random preferred set of each SLO job; BE jobs prefer all racks.
	PreferredFraction float64 `json:"preferred_fraction"`
	// Slowdown is the runtime factor off the preferred racks.
	Slowdown float64 `json:"slowdown"`
	// ArrivalSCV is the squared coefficient of variation c²a of the
	// inter-arrival times (hyperexponential H2 with balanced means; 1 is
	// Poisson arrivals).
	ArrivalSCV float64 `json:"arrival_scv"`
	// HistoryJobs is the number of pre-training jobs submitted before the
	// window, from the same catalogue of job names but before drift.
	HistoryJobs int `json:"history_jobs"`

	// Prediction-difficulty knobs (see the calibration tests).

	// Drift is the standard deviation of the per-name change of ln(median
	// runtime) between history and window (0.1 ≈ ±10%).
	Drift float64 `json:"drift"`
	// OutlierShare of jobs (history and window) run in another mode: their
	// runtime is multiplied or divided (even odds) by a factor drawn
	// log-uniformly from [OutlierMin, OutlierMax].
	OutlierShare float64 `json:"outlier_share"`
	OutlierMin   float64 `json:"outlier_min"`
	OutlierMax   float64 `json:"outlier_max"`
	// VariableShare of the jobs come from "variable" job names, whose
	// lognormal σ is drawn from the environment's variable range instead of
	// its stable one (Google-like: [0.4, 0.8] instead of [0.05, 0.25]).
	VariableShare float64 `json:"variable_share"`

	// SLOValue and BEValue are the values of SLO and BE jobs. With
	// ValuePerNodeHour they are per node-hour of the job's expected size
	// (nodes × its name's median runtime in history, known at submit);
	// otherwise constants.
	SLOValue         float64 `json:"slo_value"`
	BEValue          float64 `json:"be_value"`
	ValuePerNodeHour bool    `json:"value_per_node_hour"`

	// JobsPerHour, when > 0, fixes the window's job count at JobsPerHour ×
	// Hours (SCALABILITY-N, 3Sigma §6.5: the generator "scalability-N"
	// sets it to N): jobs are drawn by count, not until they fill Load,
	// and their runtimes are then scaled by one factor so that they offer
	// Load. Zero for the other generators, whose parameters then read as
	// they always did.
	JobsPerHour int `json:"jobs_per_hour,omitempty"`
}

// GoogleParams is Params; the name predates the other environments.
type GoogleParams = Params

// Generators are the names of the generated environments, as Generate,
// DefaultParams and Header.Generator spell them.
func Generators() []string {
	return []string{GeneratorGoogle, GeneratorHedgeFund, GeneratorMustang,
		GeneratorTwoSigma, GeneratorGoogle2011Tasks, GeneratorGoogle2019Tasks, GeneratorDrift, GeneratorTwoSigmaDAG}
}

// models are the environment models by generator name.
var models = map[string]*envModel{
	GeneratorGoogle:          &googleModel,
	GeneratorHedgeFund:       &hedgeFundModel,
	GeneratorMustang:         &mustangModel,
	GeneratorTwoSigma:        &twoSigmaModel,
	GeneratorGoogle2011Tasks: &google2011TasksModel,
	GeneratorGoogle2019Tasks: &google2019TasksModel,
	GeneratorDrift:           &driftModel,
	GeneratorTwoSigmaDAG:     &twoSigmaDAGModel,
}

// TaskGenerator reports whether the named generator makes task-level
// jobs.
func TaskGenerator(generator string) bool {
	m, ok := models[generator]
	return ok && m.tasks != nil
}

// modelOf returns the environment model of a generator name
// (scalabilityModel for "scalability-N").
func modelOf(generator string) (*envModel, error) {
	if m, ok := models[generator]; ok {
		return m, nil
	}
	if _, ok := ParseScalability(generator); ok {
		return &scalabilityModel, nil
	}
	return nil, fmt.Errorf("unknown workload generator %q (want one of %s): %w", generator, GeneratorsHelp(), ErrInvalid)
}

// DefaultParams are the defaults of a generator: the E2E setup of 3Sigma
// §5 on RC256 (256 nodes in 8 racks, 5 hours, load 1.4 split evenly
// between SLO and BE, slack {20,40,60,80}%, SLO jobs preferring 6 of 8
// racks with a 1.5× slowdown elsewhere, c²a = 4, 3000 history jobs) with
// the environment's difficulty knobs. SCALABILITY-N ("scalability-N",
// 3Sigma §6.5) is the Google-like environment on GoogleCluster at load
// 0.95 with N jobs an hour.
func DefaultParams(generator string) (Params, error) {
	m, err := modelOf(generator)
	if err != nil {
		return Params{}, err
	}
	p := Params{
		Nodes:             256,
		Racks:             DefaultRacks,
		Hours:             5,
		Load:              1.4,
		SLOShare:          0.5,
		SlackPct:          []float64{20, 40, 60, 80},
		Seed:              1,
		PreferredFraction: 0.75,
		Slowdown:          DefaultSlowdown,
		ArrivalSCV:        4,
		HistoryJobs:       3000,
		SLOValue:          1000,
		BEValue:           100,
	}
	m.difficulty(&p)
	if n, ok := ParseScalability(generator); ok {
		p.JobsPerHour = n
		p.Load = 0.95
		p.SetLayout(GoogleCluster())
	}
	return p, nil
}

// mustDefault is DefaultParams of a generator known to exist.
func mustDefault(generator string) Params {
	p, err := DefaultParams(generator)
	if err != nil {
		panic(err) // a constant generator name: a bug, not input
	}
	return p
}

// maxGeneratedJobs bounds a generation (window or history) so absurd
// parameters fail instead of exhausting memory; the default window has
// about 1,500 jobs, the simulator's largest benchmark a million.
const maxGeneratedJobs = 2_000_000

// Validate reports the first bad parameter.
func (p *Params) Validate() error { return p.validate("workload params") }

// validate is Validate with the errors prefixed by what.
func (p *Params) validate(what string) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf(what+": "+format+": %w", append(args, ErrInvalid)...)
	}
	if err := CheckNodesRacks(p.Nodes, p.Racks); err != nil {
		return bad("%v", err)
	}
	if l := p.Layout; l != nil {
		if err := l.Validate(); err != nil {
			return bad("%v", err)
		}
		if l.TotalNodes() != p.Nodes || len(l.PartitionNodes) != p.Racks || l.Slowdown != p.Slowdown {
			return bad("nodes %d, racks %d and slowdown %v must be those of the cluster layout (%d, %d, %v)",
				p.Nodes, p.Racks, p.Slowdown, l.TotalNodes(), len(l.PartitionNodes), l.Slowdown)
		}
	}
	switch {
	case !Finite(p.Hours) || p.Hours <= 0:
		return bad("hours must be > 0, got %v", p.Hours)
	case p.Hours*3600 > MaxSeconds:
		return bad("hours must be ≤ %.7g (a window of at most %g s), got %v", MaxSeconds/3600, float64(MaxSeconds), p.Hours)
	case !Finite(p.Load) || p.Load <= 0:
		return bad("load must be > 0, got %v", p.Load)
	case !Finite(p.Slowdown) || p.Slowdown < 1:
		return bad("slowdown must be ≥ 1, got %v", p.Slowdown)
	case !Finite(p.ArrivalSCV) || p.ArrivalSCV < 1:
		return bad("arrival c² must be ≥ 1 (H2 arrivals), got %v", p.ArrivalSCV)
	case p.HistoryJobs < 0 || p.HistoryJobs > maxGeneratedJobs:
		return bad("history jobs must be in [0, %d], got %d", maxGeneratedJobs, p.HistoryJobs)
	case !Finite(p.Drift) || p.Drift < 0:
		return bad("drift must be ≥ 0, got %v", p.Drift)
	case !(p.OutlierShare >= 0 && p.OutlierShare <= 1):
		return bad("outlier share must be in [0, 1], got %v", p.OutlierShare)
	case !Finite(p.OutlierMax) || !(p.OutlierMin >= 1 && p.OutlierMin <= p.OutlierMax):
		return bad("outlier factors must satisfy 1 ≤ min ≤ max, got [%v, %v]", p.OutlierMin, p.OutlierMax)
	case !(p.VariableShare >= 0 && p.VariableShare <= 1):
		return bad("variable share must be in [0, 1], got %v", p.VariableShare)
	case p.JobsPerHour < 0:
		return bad("jobs per hour must be ≥ 0, got %d", p.JobsPerHour)
	case float64(p.JobsPerHour)*p.Hours > maxGeneratedJobs:
		return bad("jobs per hour × hours must be ≤ %d jobs, got %d × %v", maxGeneratedJobs, p.JobsPerHour, p.Hours)
	}
	rules := p.ClassRules()
	return rules.validate(what)
}

// CheckNodesRacks reports whether nodes split into racks as Params.Cluster
// splits them make a cluster Workload.Validate accepts: nodes ≥ 1,
// 1 ≤ racks ≤ min(nodes, 2¹⁶) and ⌈nodes/racks⌉ ≤ 2²⁴ nodes per rack. A
// refusal is a *FieldError naming "Nodes" or "Racks".
func CheckNodesRacks(nodes, racks int) error {
	switch {
	case nodes < 1:
		return BadField("Nodes", "nodes", "must be ≥ 1, got %d", nodes)
	case racks < 1 || racks > min(nodes, maxPartitions):
		return BadField("Racks", "racks", "must be in [1, %d], got %d", min(nodes, maxPartitions), racks)
	case nodes > racks*maxPartitionNodes:
		return BadField("Nodes", "nodes", "must be ≤ %d (%d per rack × %d racks), got %d", racks*maxPartitionNodes, maxPartitionNodes, racks, nodes)
	}
	return nil
}

// Cluster is the cluster the parameters describe: Layout when set, else
// DefaultCluster(Nodes, Racks) with their Slowdown.
func (p *Params) Cluster() Cluster {
	if p.Layout != nil {
		return p.Layout.Clone()
	}
	c := DefaultCluster(p.Nodes, p.Racks)
	c.Slowdown = p.Slowdown
	return c
}

// SetLayout makes c the cluster of p: Layout, and Nodes, Racks and
// Slowdown from it.
func (p *Params) SetLayout(c Cluster) {
	c = c.Clone()
	p.Layout = &c
	p.Nodes, p.Racks, p.Slowdown = c.TotalNodes(), len(c.PartitionNodes), c.Slowdown
}

// Generate generates a workload of the named environment (Generators;
// the models are described in google.go, hedgefund.go and mustang.go, the
// catalogue in catalog.go). Every environment is generated the same way:
//
//   - a catalogue of job names in the environment's runtime classes (as
//     k-means over a trace's runtimes would give), each name with a user,
//     an application, a lognormal runtime, a typical gang size and, where
//     the environment has them, an early-exit share and a wall-clock
//     limit; classes are drawn by their job shares and names by Zipf
//     popularity;
//   - gang sizes heavy-tailed (bounded Pareto); jobs wider than the cluster
//     are filtered out;
//   - arrivals H2 with c²a = ArrivalSCV, time-scaled so the jobs exactly
//     fill the window: jobs are drawn until the offered node-seconds of
//     each class reach its target (SLO: Load·SLOShare, BE: the rest) within
//     0.2%, each job going to the class furthest below its target;
//   - SLO jobs: deadline = submit + runtime·(1 + slack), slack uniform
//     from SlackPct; preferred racks a random PreferredFraction of them;
//   - HistoryJobs pre-training jobs before the window from the same names
//     before their drift.
//
// Window jobs have ids 0…n−1 in submit order, history jobs the ids after.
// The same generator and parameters give the same workload (and file) on
// every run.
func Generate(generator string, p Params) (*Workload, error) {
	m, err := modelOf(generator)
	if err != nil {
		return nil, err
	}
	what := generator + " workload"
	if n, ok := ParseScalability(generator); ok {
		if p.JobsPerHour != 0 && p.JobsPerHour != n {
			return nil, fmt.Errorf("%s: jobs per hour %d is not the generator's %d: %w", what, p.JobsPerHour, n, ErrInvalid)
		}
		p.JobsPerHour = n
	} else if p.JobsPerHour != 0 {
		return nil, fmt.Errorf("%s: jobs per hour is set only by the scalability-N generators, got %d: %w", what, p.JobsPerHour, ErrInvalid)
	}
	if err := p.validate(what); err != nil {
		return nil, err
	}
	p.SlackPct = slices.Clone(p.SlackPct)
	if p.Layout != nil {
		l := p.Layout.Clone()
		p.Layout = &l
	}
	params, err := json.Marshal(&p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	cl := p.Cluster()
	window := p.Hours * 3600
	cat := newCatalog(m, &p, rand.New(rand.NewPCG(p.Seed, 1)))
	if est := p.Load * float64(p.Nodes) * window / cat.meanWork(); p.JobsPerHour == 0 && est > maxGeneratedJobs {
		return nil, fmt.Errorf("%s: load × nodes × hours asks for ≈ %.3g jobs, more than %d: %w", what, est, maxGeneratedJobs, ErrInvalid)
	}
	g := &generation{m: m, p: &p, cat: cat, cluster: cl, arrivals: newH2(1, p.ArrivalSCV), scale: 1}

	var jobs []Job
	var gaps []float64
	if p.JobsPerHour > 0 {
		jobs, gaps, err = g.countedWindow(rand.New(rand.NewPCG(p.Seed, 2)), int(math.Round(float64(p.JobsPerHour)*p.Hours)), window)
	} else {
		jobs, gaps, err = g.window(rand.New(rand.NewPCG(p.Seed, 2)), window)
	}
	if err != nil {
		return nil, err
	}
	// Scale unit-mean gaps so that the arrival after the last job falls on
	// the window's end: all jobs are in [0, window), and scaling keeps c²a.
	total := 0.0
	for _, x := range gaps {
		total += x
	}
	scale := window / total
	t := 0.0
	for i := range jobs {
		t += gaps[i] * scale
		jobs[i].Submit = min(FloorMS(t), math.Nextafter(window, 0))
	}
	history := g.history(rand.New(rand.NewPCG(p.Seed, 3)), scale)
	// The history arrives at the window's rate, so a sparse window (low
	// load on few nodes) stretches it back beyond what a workload holds.
	if len(history) > 0 && history[0].Submit < -MaxSeconds {
		return nil, fmt.Errorf("%s: the %d history jobs, arriving at the window's rate, reach %.3g s before the window, more than %g s; ask for a higher load or more nodes: %w",
			what, len(history), -history[0].Submit, float64(MaxSeconds), ErrInvalid)
	}

	w := &Workload{
		Header: Header{
			Version:   FormatVersion,
			Generator: generator,
			Params:    params,
			Seed:      p.Seed,
			Cluster:   cl,
			WindowS:   window,
		},
		History: history,
		Jobs:    jobs,
	}
	if m.dags {
		// Its own stream, so that the jobs are those of the environment
		// without DAGs.
		rng := rand.New(rand.NewPCG(p.Seed, 4))
		FormDAGs(rng, w.Jobs, 0)
		FormDAGs(rng, w.History, len(w.Jobs))
	}
	for i := range w.Jobs {
		g.finish(&w.Jobs[i], i)
	}
	for i := range w.History {
		g.finish(&w.History[i], len(w.Jobs)+i)
	}
	w.Header.Jobs, w.Header.HistoryJobs = len(w.Jobs), len(w.History)
	if err := w.Validate(); err != nil {
		return nil, fmt.Errorf("%s: generated an invalid workload (bug): %w", what, err)
	}
	return w, nil
}

// generation holds one generation's model, parameters and catalogue.
type generation struct {
	m        *envModel
	p        *Params
	cat      *catalog
	cluster  Cluster
	arrivals h2
	// scale multiplies every runtime drawn (1 but for a counted window,
	// countedWindow).
	scale float64
}

// loadTolerance is how close (relative) each class's offered work gets to
// its target: a job that would overshoot by more is redrawn. 0.2% of the
// default window's 896 node-hours per class is 1.8 node-hours, above the
// median job, so few redraws happen and only at the very end.
const loadTolerance = 0.002

// maxRedraws stops a class that cannot be filled closer than loadTolerance
// (targets smaller than any job) after this many consecutive redraws.
const maxRedraws = 10_000

// window draws the window's jobs (without submit times) and one unit-mean
// gap per job plus the gap after the last.
func (g *generation) window(rng *rand.Rand, window float64) ([]Job, []float64, error) {
	capacity := float64(g.p.Nodes) * window // node-seconds
	target := [2]float64{
		SLO:        g.p.Load * g.p.SLOShare * capacity,
		BestEffort: g.p.Load * (1 - g.p.SLOShare) * capacity,
	}
	var work [2]float64
	var jobs []Job
	var gaps []float64
	open := func(c Class) bool { return target[c] > 0 && work[c] < target[c]*(1-loadTolerance) }
	for redraws := 0; (open(SLO) || open(BestEffort)) && redraws < maxRedraws; {
		j := g.job(rng, true)
		// A drifting name's runtime at the job's expected submit time: its
		// place in the window's work, so that the window still meets its
		// offered load (the actual submit comes from the arrivals, later).
		g.trend(&j, window*(work[SLO]+work[BestEffort])/(target[SLO]+target[BestEffort]))
		w := float64(j.Nodes) * j.Runtime
		// The class furthest below its target (relative) takes the job if it
		// fits; otherwise the other one, if open and it fits there.
		first, second := SLO, BestEffort
		if !open(SLO) || (open(BestEffort) && work[BestEffort]/target[BestEffort] < work[SLO]/target[SLO]) {
			first, second = BestEffort, SLO
		}
		c := Class(-1)
		for _, k := range []Class{first, second} {
			if open(k) && work[k]+w <= target[k]*(1+loadTolerance) {
				c = k
				break
			}
		}
		if c < 0 {
			redraws++
			continue
		}
		redraws = 0
		if len(jobs) >= maxGeneratedJobs {
			return nil, nil, fmt.Errorf("%s workload: more than %d jobs: %w", g.m.name, maxGeneratedJobs, ErrInvalid)
		}
		j.Class = c
		work[c] += w
		jobs = append(jobs, j)
		gaps = append(gaps, g.arrivals.sample(rng))
	}
	gaps = append(gaps, g.arrivals.sample(rng))
	return jobs, gaps, nil
}

// history draws the pre-training jobs, submitted before 0 at the window's
// arrival rate (gap scale), in submit order.
func (g *generation) history(rng *rand.Rand, scale float64) []Job {
	n := g.p.HistoryJobs
	jobs := make([]Job, n)
	t := 0.0
	for i := n - 1; i >= 0; i-- {
		t -= g.arrivals.sample(rng) * scale
		jobs[i] = g.job(rng, false)
		jobs[i].Submit = FloorMS(t)
		g.trend(&jobs[i], jobs[i].Submit)
		jobs[i].Class = BestEffort
		if rng.Float64() < g.p.SLOShare {
			jobs[i].Class = SLO
		}
	}
	return jobs
}

// job draws one job's name, size and runtime (class and submit are set by
// the caller); inWindow selects the drifted runtime model. Sizes wider than
// the cluster are filtered out by drawing again.
func (g *generation) job(rng *rand.Rand, inWindow bool) Job {
	for {
		n := g.cat.pick(rng)
		var nodes int
		if g.m.gangSizes != nil {
			nodes = tasksOf(rng, g.m.gangSizes, g.p.Nodes)
		} else {
			nodes = n.nodes
			switch u := rng.Float64(); {
			case u < g.m.halve:
				nodes = max(1, nodes/2)
			case u < g.m.halve+g.m.double:
				nodes *= 2
			}
		}
		if t := g.m.tasks; t != nil {
			nodes = min(nodes, t.maxTasks) // tasks run in waves: no cluster bound
		} else if nodes > g.p.Nodes {
			continue
		}
		mu := n.mu
		if inWindow {
			mu += n.drift
		}
		rt := g.scale * math.Exp(mu+n.sigma*rng.NormFloat64())
		// Only environments with early exits draw for them, so the others'
		// random streams (and workloads) do not change with the feature.
		if n.earlyExit > 0 && rng.Float64() < n.earlyExit {
			rt *= logUniform(rng, g.m.exitLo, g.m.exitHi)
		}
		if rng.Float64() < g.p.OutlierShare {
			f := logUniform(rng, g.p.OutlierMin, g.p.OutlierMax)
			if rng.Float64() < 0.5 {
				f = 1 / f
			}
			rt *= f
		}
		rt = clampRuntime(rt)
		if n.limit > 0 {
			// The job is killed when it reaches its wall-clock limit.
			rt = min(rt, n.limit)
		}
		j := Job{
			Nodes:     nodes,
			Runtime:   rt,
			Requested: n.limit,
			Kind:      n.class.kind,
			Features: Features{
				User:      n.user,
				Name:      n.name,
				App:       n.app,
				Resources: fmt.Sprintf("nodes=%d", nodes),
			},
		}
		if t := g.m.tasks; t != nil {
			t.split(rng, &j)
		}
		return j
	}
}

// trend scales j's runtime by its name's drift at time t (seconds from
// the window's start; envModel.trend): exp(trend·t/3600).
func (g *generation) trend(j *Job, t float64) {
	if n := g.cat.byName[j.Features.Name]; n != nil && n.trend != 0 {
		applyTrend(j, math.Exp(n.trend*t/3600))
	}
}

// minRuntime and maxRuntime clamp generated runtimes (seconds): the
// lognormal tails times an outlier factor would otherwise reach days.
const (
	minRuntime = 1.0
	maxRuntime = 24 * 3600.0
)

// finish sets id, deadline, preferred racks, value and the submit-time
// features. Its random draws come from a stream per job id so they do not
// depend on how many jobs came before.
func (g *generation) finish(j *Job, id int) {
	j.ID = id
	j.Features.SubmitHour, j.Features.SubmitDay = SubmitHourDay(j.Submit)
	rules := g.p.ClassRules()
	rules.Terms(j, len(g.cluster.PartitionNodes))
	if g.p.ValuePerNodeHour {
		// Expected size known at submit: nodes × the name's median runtime.
		j.Value *= float64(j.Nodes) * g.cat.byName[j.Features.Name].median() / 3600
	}
}

// SubmitHourDay is the submit hour (0–23) and day (0–6) of submit seconds
// on a relative time axis, counted from time 0: ⌊(submit/3600) mod 24⌋ and
// ⌊(submit/86400) mod 7⌋ (negative times count back from 0, so −1 s is
// hour 23 of day 6).
func SubmitHourDay(submit float64) (hour, day int) {
	return int(math.Floor(mod(submit/3600, 24))), int(math.Floor(mod(submit/86400, 7)))
}

// mod is x mod m in [0, m) for m > 0.
func mod(x, m float64) float64 {
	r := math.Mod(x, m)
	if r < 0 {
		r += m
	}
	if r >= m { // -tiny mod m rounds to m
		r = 0
	}
	return r
}

// ParamsOf decodes the generator and parameters a generated workload's
// header records, so the workload can be regenerated (Generate) or
// described.
func ParamsOf(h *Header) (string, Params, error) {
	var p Params
	if _, err := modelOf(h.Generator); err != nil {
		return "", p, fmt.Errorf("workload was not generated: %w", err)
	}
	if err := decodeStrict(h.Params, &p); err != nil {
		return "", p, fmt.Errorf("%s workload params: %v: %w", h.Generator, err, ErrInvalid)
	}
	return h.Generator, p, nil
}

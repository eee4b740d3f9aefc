package workloads

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// envModel is one environment's job model: everything the generator engine
// (Generate) draws job names, runtimes, sizes and requested times from that
// is not a parameter. Params carry what all environments share.
type envModel struct {
	// name is the generator's name (Header.Generator).
	name string
	// difficulty sets the environment's defaults of the Params'
	// prediction-difficulty knobs (and any other default it changes).
	difficulty func(p *Params)
	classes    []runtimeClass
	// Popularity skew (Zipf exponents) of names within a class, of users
	// and of applications, and the pool sizes of the latter two.
	nameZipf, userZipf, appZipf float64
	numUsers, numApps           int
	// Per-name lognormal σ of stable and of variable names, drawn
	// uniformly from [lo, hi].
	stableSigma, variableSigma [2]float64
	// halve and double are the probabilities that a job runs on half
	// (at least 1) or twice its name's typical gang size.
	halve, double float64
	// pow2Gangs rounds typical gang sizes to the nearest power of two, as
	// HPC users ask for node counts.
	pow2Gangs bool
	// gangSizes, when set, is the distribution each job's gang size is
	// drawn from instead of its name's typical size (tasksOf).
	gangSizes []taskBin
	// exitBands, when not empty, give each name an early-exit share q (see
	// exitBand): a run of the name ends early with probability q, after a
	// fraction of its full runtime drawn log-uniformly from [exitLo,
	// exitHi] (a crash, bad input, a test or debug run).
	exitBands      []exitBand
	exitLo, exitHi float64
	// wallLimits, when not empty, are the wall-clock limits users request
	// (seconds, ascending): a name's limit is the smallest one ≥ its
	// history median × a factor drawn log-uniformly from wallFactor, or,
	// for a share maxLimitShare of names, the largest. A run is killed at
	// its limit; the limit is the jobs' Requested time.
	wallLimits    []float64
	wallFactor    [2]float64
	maxLimitShare float64
	// tasks, when set, makes the jobs task-level (tasks.go): a name's
	// typical gang size becomes its typical number of tasks, and a job's
	// runtime its mean task duration.
	tasks *taskModel
	// dags, when set, chains the generated jobs into DAG jobs (FormDAGs).
	dags bool
	// trend, when > 0, makes runtimes drift over time: each name's
	// ln(median runtime) moves linearly with submit time at a rate drawn
	// N(0, trend²) per hour (jobName.trend), through history and window
	// alike, so the older a name's history the staler it is.
	trend float64
}

// exitBand is a share of a catalogue's names whose early-exit share is
// drawn uniformly from [lo, hi].
type exitBand struct {
	weight, lo, hi float64
}

// runtimeClass is one job class of an environment model: what k-means over
// the trace's runtimes gives (3Sigma §5), with the parameters of its job
// attributes. The numbers are ours, chosen so that the default window
// (256 nodes, 5 h, load 1.4) holds about 1,500 jobs (Mustang-like, with
// larger jobs: about 1,100) with runtimes from minutes to a few hours and
// heavy-tailed gang sizes.
type runtimeClass struct {
	kind string
	// share is the class's share of jobs.
	share float64
	// names is the number of job names of the class.
	names int
	// medLo, medHi bound a name's median runtime (seconds, log-uniform).
	medLo, medHi float64
	// gangAlpha and gangMax shape a name's typical gang size: bounded
	// Pareto on [1, gangMax] with tail index gangAlpha, floored.
	gangAlpha float64
	gangMax   float64
	// widths, in a task-level environment, replace its task model's
	// widths for the class's names (0: the model's).
	widths []widthBand
}

// sizeRankNoise is the standard deviation of the noise on ln(nodes ×
// median runtime) when names are ranked by popularity (smaller is more
// popular).
const sizeRankNoise = 1.0

// jobName is one recurring job: its runtime on preferred nodes is
// lognormal exp(mu + sigma·Z) in history and exp(mu + drift + sigma·Z) in
// the window.
type jobName struct {
	class      *runtimeClass
	name, user string
	app        string
	mu, sigma  float64
	drift      float64
	// trend is the change of ln(median runtime) per hour of submit time
	// (envModel.trend; 0 in other environments).
	trend    float64
	nodes    int // typical gang size
	variable bool
	// earlyExit is the probability that a run ends early (0: never).
	earlyExit float64
	// limit is the wall-clock limit users request for the name (seconds;
	// 0: none).
	limit float64
}

// median is the name's median runtime in history (seconds).
func (n *jobName) median() float64 { return math.Exp(n.mu) }

// catalog is the model's job names, grouped by class.
type catalog struct {
	m        *envModel
	classCum []float64   // cumulative class shares
	names    [][]jobName // per class, by popularity rank
	nameCum  [][]float64 // per class, cumulative Zipf weights
	byName   map[string]*jobName
}

// catalogCandidates is how many catalogues newCatalog draws to pick the
// median one from.
const catalogCandidates = 15

// newCatalog draws catalogCandidates catalogues from rng and returns the one
// with the median expected work per job. A catalogue is a small sample of
// heavy-tailed names, so its mean job size (and with it the number of jobs
// at a given load) varies several-fold between seeds; taking the median
// keeps every seed typical (≈ 1,500 jobs in the default window) while names
// stay random. It depends on the parameters only through Nodes (gang sizes
// are filtered to fit) and the difficulty knobs, so the catalogue does not
// change with hours or load.
func newCatalog(m *envModel, p *Params, rng *rand.Rand) *catalog {
	cands := make([]*catalog, catalogCandidates)
	work := make([]float64, catalogCandidates)
	order := make([]int, catalogCandidates)
	for i := range cands {
		cands[i] = drawCatalog(m, p, rng)
		work[i] = cands[i].meanWork()
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(work[a], work[b]) })
	return cands[order[catalogCandidates/2]]
}

// meanWork is the expected work of a window job (node-seconds) under the
// catalogue: Σ P(name) · E[nodes] · E[runtime], ignoring the outlier mode
// (a factor common to all catalogues), wall-clock limits and the filtering
// of doubled gangs.
func (c *catalog) meanWork() float64 {
	total := 0.0
	for ci, names := range c.names {
		pc := c.classCum[ci]
		if ci > 0 {
			pc -= c.classCum[ci-1]
		}
		cum := c.nameCum[ci]
		for k := range names {
			n := &names[k]
			pn := cum[k]
			if k > 0 {
				pn -= cum[k-1]
			}
			pn /= cum[len(cum)-1]
			h, d := c.m.halve, c.m.double
			nodes := (1-h-d)*float64(n.nodes) + h*float64(max(1, n.nodes/2)) + d*float64(2*n.nodes)
			total += pc * pn * nodes * math.Exp(n.mu+n.drift+n.sigma*n.sigma/2) * c.exitFactor(n)
		}
	}
	return total / c.classCum[len(c.classCum)-1]
}

// drawCatalog draws one catalogue of job names from rng.
func drawCatalog(m *envModel, p *Params, rng *rand.Rand) *catalog {
	c := &catalog{m: m, byName: make(map[string]*jobName)}
	users := zipfWeights(m.numUsers, m.userZipf)
	apps := zipfWeights(m.numApps, m.appZipf)
	acc := 0.0
	id := 0
	for ci := range m.classes {
		cls := &m.classes[ci]
		acc += cls.share
		c.classCum = append(c.classCum, acc)
		cum := zipfWeights(cls.names, m.nameZipf)
		names := make([]jobName, cls.names)
		firstID := id
		id += cls.names
		for k := range names {
			n := &names[k]
			n.class = cls
			n.user = fmt.Sprintf("user%02d", weighted(rng, users))
			n.app = fmt.Sprintf("app%d", weighted(rng, apps))
			n.mu = math.Log(logUniform(rng, cls.medLo, cls.medHi))
			n.drift = p.Drift * rng.NormFloat64()
			if m.trend > 0 { // drawn only here, so other environments' streams stay
				n.trend = m.trend * rng.NormFloat64()
			}
			if m.tasks != nil {
				n.nodes = m.tasks.drawWidth(rng, cls.widths)
			} else {
				n.nodes = gangSize(rng, cls, p.Nodes, m.pow2Gangs)
			}
			n.sigma = m.stableSigma[0] + rng.Float64()*(m.stableSigma[1]-m.stableSigma[0])
		}
		// Popularity ranks: bigger names (nodes × median runtime) are
		// rarer, with noise, as in the traces where the most frequent jobs
		// are small. This also keeps one wide, popular name from dominating
		// the load (and the job count) of a seed.
		// Task-level names rank by runtime alone: their width is what
		// the environment's width bands give, not something the load
		// discourages.
		keys := make([]float64, len(names))
		for k := range names {
			keys[k] = names[k].mu + sizeRankNoise*rng.NormFloat64()
			if m.tasks == nil {
				keys[k] += math.Log(float64(names[k].nodes))
			}
		}
		order := make([]int, len(names))
		for k := range order {
			order[k] = k
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(keys[a], keys[b]) })
		ranked := make([]jobName, len(names))
		for r, k := range order {
			ranked[r] = names[k]
			ranked[r].name = fmt.Sprintf("job%03d", firstID+r)
		}
		names = ranked
		// Make names variable in random order until they carry
		// VariableShare of the class's jobs; a name is skipped when taking
		// it would overshoot by more than half its weight.
		total := cum[len(cum)-1]
		taken := 0.0
		for _, k := range rng.Perm(cls.names) {
			wk := cum[k]
			if k > 0 {
				wk -= cum[k-1]
			}
			if (taken+wk/2)/total > p.VariableShare {
				continue
			}
			taken += wk
			names[k].variable = true
			names[k].sigma = m.variableSigma[0] + rng.Float64()*(m.variableSigma[1]-m.variableSigma[0])
		}
		// Early exits and wall-clock limits are drawn last, and only by
		// environments that have them, so the others' catalogues do not
		// change with the features.
		for k := range names {
			if len(m.exitBands) > 0 {
				names[k].earlyExit = m.drawExitShare(rng)
			}
			if len(m.wallLimits) > 0 {
				names[k].limit = m.drawLimit(rng, names[k].median())
			}
		}
		c.names = append(c.names, names)
		c.nameCum = append(c.nameCum, cum)
	}
	for ci := range c.names {
		for k := range c.names[ci] {
			n := &c.names[ci][k]
			c.byName[n.name] = n
		}
	}
	return c
}

// gangSize draws a name's typical gang size (rounded to a power of two
// with pow2), filtering sizes wider than the cluster.
func gangSize(rng *rand.Rand, cls *runtimeClass, nodes int, pow2 bool) int {
	for { // terminates: P(k = 1) > 0 and nodes ≥ 1
		k := int(boundedPareto(rng, cls.gangAlpha, 1, cls.gangMax))
		if pow2 {
			k = 1 << int(math.Round(math.Log2(float64(k))))
		}
		if k <= nodes {
			return k
		}
	}
}

// drawExitShare draws a name's early-exit share: a band by weight, then
// uniformly within it.
func (m *envModel) drawExitShare(rng *rand.Rand) float64 {
	cum := make([]float64, len(m.exitBands))
	acc := 0.0
	for i, b := range m.exitBands {
		acc += b.weight
		cum[i] = acc
	}
	b := m.exitBands[weighted(rng, cum)]
	return b.lo + rng.Float64()*(b.hi-b.lo)
}

// drawLimit draws the wall-clock limit users request for a name with
// median runtime med (seconds).
func (m *envModel) drawLimit(rng *rand.Rand, med float64) float64 {
	top := m.wallLimits[len(m.wallLimits)-1]
	if rng.Float64() < m.maxLimitShare {
		return top
	}
	want := med * logUniform(rng, m.wallFactor[0], m.wallFactor[1])
	if i, _ := slices.BinarySearch(m.wallLimits, want); i < len(m.wallLimits) {
		return m.wallLimits[i]
	}
	return top
}

// exitFactor is the mean runtime of n's runs relative to full-length ones:
// 1 − q + q·E[f] with f log-uniform on [exitLo, exitHi], whose mean is
// (hi − lo)/ln(hi/lo); exactly 1 without early exits.
func (c *catalog) exitFactor(n *jobName) float64 {
	if n.earlyExit == 0 {
		return 1
	}
	lo, hi := c.m.exitLo, c.m.exitHi
	return 1 - n.earlyExit + n.earlyExit*(hi-lo)/math.Log(hi/lo)
}

// pick draws a class by share and a name by popularity.
func (c *catalog) pick(rng *rand.Rand) *jobName {
	ci := weighted(rng, c.classCum)
	return &c.names[ci][weighted(rng, c.nameCum[ci])]
}

package workloads

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// runtimeClass is one job class of the Google-like model: what k-means over
// the trace's runtimes gives (3Sigma §5), with the parameters of its job
// attributes. The numbers are ours, chosen so that the default window
// (256 nodes, 5 h, load 1.4) holds about 1,500 jobs with runtimes from
// minutes to a few hours and heavy-tailed gang sizes.
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
}

var googleClasses = []runtimeClass{
	{kind: "short", share: 0.46, names: 40, medLo: 60, medHi: 720, gangAlpha: 0.9, gangMax: 1024},
	{kind: "medium", share: 0.30, names: 30, medLo: 720, medHi: 2100, gangAlpha: 1.0, gangMax: 1024},
	{kind: "long", share: 0.18, names: 20, medLo: 2100, medHi: 6000, gangAlpha: 1.2, gangMax: 512},
	{kind: "very-long", share: 0.06, names: 10, medLo: 6000, medHi: 14400, gangAlpha: 1.5, gangMax: 256},
}

// Popularity skew (Zipf exponents) of names within a class, of users and
// of applications, and the pool sizes of the latter two.
const (
	nameZipf = 0.9
	userZipf = 1.0
	appZipf  = 1.0
	numUsers = 24
	numApps  = 10
)

// sizeRankNoise is the standard deviation of the noise on ln(nodes ×
// median runtime) when names are ranked by popularity (smaller is more
// popular).
const sizeRankNoise = 1.0

// Per-name lognormal σ of stable and of variable names.
const (
	stableSigmaLo, stableSigmaHi     = 0.05, 0.25
	variableSigmaLo, variableSigmaHi = 0.4, 0.8
)

// jobName is one recurring job: its runtime on preferred nodes is
// lognormal exp(mu + sigma·Z) in history and exp(mu + drift + sigma·Z) in
// the window.
type jobName struct {
	class      *runtimeClass
	name, user string
	app        string
	mu, sigma  float64
	drift      float64
	nodes      int // typical gang size
	variable   bool
}

// median is the name's median runtime in history (seconds).
func (n *jobName) median() float64 { return math.Exp(n.mu) }

// catalog is the model's job names, grouped by class.
type catalog struct {
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
func newCatalog(p *GoogleParams, rng *rand.Rand) *catalog {
	cands := make([]*catalog, catalogCandidates)
	work := make([]float64, catalogCandidates)
	order := make([]int, catalogCandidates)
	for i := range cands {
		cands[i] = drawCatalog(p, rng)
		work[i] = cands[i].meanWork()
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(work[a], work[b]) })
	return cands[order[catalogCandidates/2]]
}

// meanWork is the expected work of a window job (node-seconds) under the
// catalogue: Σ P(name) · E[nodes] · E[runtime], ignoring the outlier mode
// (a factor common to all catalogues) and the filtering of doubled gangs.
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
			nodes := 0.7*float64(n.nodes) + 0.15*float64(max(1, n.nodes/2)) + 0.15*float64(2*n.nodes)
			total += pc * pn * nodes * math.Exp(n.mu+n.drift+n.sigma*n.sigma/2)
		}
	}
	return total / c.classCum[len(c.classCum)-1]
}

// drawCatalog draws one catalogue of job names from rng.
func drawCatalog(p *GoogleParams, rng *rand.Rand) *catalog {
	c := &catalog{byName: make(map[string]*jobName)}
	users := zipfWeights(numUsers, userZipf)
	apps := zipfWeights(numApps, appZipf)
	acc := 0.0
	id := 0
	for ci := range googleClasses {
		cls := &googleClasses[ci]
		acc += cls.share
		c.classCum = append(c.classCum, acc)
		cum := zipfWeights(cls.names, nameZipf)
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
			n.nodes = gangSize(rng, cls, p.Nodes)
			n.sigma = stableSigmaLo + rng.Float64()*(stableSigmaHi-stableSigmaLo)
		}
		// Popularity ranks: bigger names (nodes × median runtime) are
		// rarer, with noise, as in the traces where the most frequent jobs
		// are small. This also keeps one wide, popular name from dominating
		// the load (and the job count) of a seed.
		keys := make([]float64, len(names))
		for k := range names {
			keys[k] = math.Log(float64(names[k].nodes)) + names[k].mu + sizeRankNoise*rng.NormFloat64()
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
			names[k].sigma = variableSigmaLo + rng.Float64()*(variableSigmaHi-variableSigmaLo)
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

// gangSize draws a name's typical gang size, filtering sizes wider than the
// cluster.
func gangSize(rng *rand.Rand, cls *runtimeClass, nodes int) int {
	for { // terminates: P(k = 1) > 0 and nodes ≥ 1
		if k := int(boundedPareto(rng, cls.gangAlpha, 1, cls.gangMax)); k <= nodes {
			return k
		}
	}
}

// pick draws a class by share and a name by popularity.
func (c *catalog) pick(rng *rand.Rand) *jobName {
	ci := weighted(rng, c.classCum)
	return &c.names[ci][weighted(rng, c.nameCum[ci])]
}

package workloads

// GeneratorMustang is the Header.Generator of GenerateMustang's workloads.
const GeneratorMustang = "mustang"

// mustangModel is the Mustang-like environment of 3Sigma §2.1 and §5: HPC
// capacity computing at LANL (data analysis, smaller-scale simulation,
// development and test), whole nodes allocated to users. Against the
// Google-like model it has
//
//   - node counts that are powers of two, kept by most runs of a job
//     (halved or doubled 5% of the time each);
//   - very repeatable full-length runs: a name's σ is 0.005–0.04 (the same
//     simulation on the same input), per-name drift 0.02, and only 6% of
//     jobs from variable names (σ 0.3–0.7), so a large share of estimates
//     is within ±5%;
//   - early exits (crashes, bad input, test and debug runs): each name has
//     a share q of runs that end after 1–30% of the full runtime
//     (log-uniform), with q in [0, 0.05] for 26% of the names, [0.2, 0.4]
//     for 62% and [0.65, 0.9] (mostly failing or debug names) for 12%.
//     A history-based estimate is then the full runtime for most names, far
//     above the early exits (error > +95%), and the short runtime for the
//     mostly failing names, far below their full runs (error < −55%);
//   - wall-clock limits: a name's limit is the smallest of 15 min, 30 min,
//     1, 2, 4, 8 and 16 h at or above 1.5–5× (log-uniform) its history
//     median, or 16 h for 15% of the names (users who always ask for the
//     maximum); runs are killed at the limit, and it is the jobs'
//     Requested time, as in HPC logs where requests exceed runtimes
//     generously.
//
// Under 3σPredict about 40–50% of jobs are within ±5%, 21–28% above +95%
// and 9–17% below −55% (3Sigma §2.1: "a large proportion of jobs with very
// accurate (±5%) estimates, … at least 23% … larger than 95% and a
// substantial amount … less than −55%"). Jobs are larger than Google-like
// ones (whole nodes, multi-node runs), so a default window holds ≈ 1,100.
var mustangModel = envModel{
	name: GeneratorMustang,
	difficulty: func(p *Params) {
		p.Drift = 0.02
		p.OutlierShare, p.OutlierMin, p.OutlierMax = 0.02, 2.5, 8
		p.VariableShare = 0.06
	},
	classes: []runtimeClass{
		{kind: "short", share: 0.40, names: 60, medLo: 60, medHi: 900, gangAlpha: 0.8, gangMax: 256},
		{kind: "medium", share: 0.30, names: 50, medLo: 900, medHi: 3600, gangAlpha: 0.9, gangMax: 256},
		{kind: "long", share: 0.20, names: 40, medLo: 3600, medHi: 7200, gangAlpha: 1.1, gangMax: 256},
		{kind: "very-long", share: 0.10, names: 20, medLo: 7200, medHi: 14400, gangAlpha: 1.3, gangMax: 256},
	},
	nameZipf:      0.6,
	userZipf:      0.9,
	appZipf:       1.0,
	numUsers:      40,
	numApps:       15,
	stableSigma:   [2]float64{0.005, 0.04},
	variableSigma: [2]float64{0.3, 0.7},
	halve:         0.05,
	double:        0.05,
	pow2Gangs:     true,
	exitBands: []exitBand{
		{weight: 0.26, lo: 0, hi: 0.05},
		{weight: 0.62, lo: 0.2, hi: 0.4},
		{weight: 0.12, lo: 0.65, hi: 0.9},
	},
	exitLo:        0.01,
	exitHi:        0.3,
	wallLimits:    []float64{900, 1800, 3600, 7200, 14400, 28800, 57600},
	wallFactor:    [2]float64{1.5, 5},
	maxLimitShare: 0.15,
}

// DefaultMustangParams are DefaultParams(GeneratorMustang): the E2E
// defaults with drift 0.02, 2% outliers by 2.5–8× and 6% variable jobs.
func DefaultMustangParams() Params { return mustDefault(GeneratorMustang) }

// GenerateMustang is Generate(GeneratorMustang, p): a Mustang-like workload
// (see mustangModel) whose jobs carry the user's requested wall-clock time.
func GenerateMustang(p Params) (*Workload, error) { return Generate(GeneratorMustang, p) }

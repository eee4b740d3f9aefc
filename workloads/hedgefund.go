package workloads

// GeneratorHedgeFund is the Header.Generator of GenerateHedgeFund's
// workloads.
const GeneratorHedgeFund = "hedgefund"

// hedgeFundModel is the HedgeFund-like environment of 3Sigma §2.1 and §5:
// exploratory and production financial analytics on a Mesos cluster, no
// long-running services. Against the Google-like model it has
//
//   - more job names (150 against 100) spread over more users (40, Zipf
//     0.8), and shorter short jobs (medians from 30 s), so runtimes within a
//     user group vary more (Fig. 2(b));
//   - no very stable names: a name's lognormal σ is 0.12–0.4 (Google-like:
//     0.05–0.25), so few estimates are within ±5% (Fig. 2(d): "the fewest
//     jobs with very accurate estimates");
//   - 25% of jobs from exploratory names with σ 0.6–1.0, per-name drift
//     0.2 between history and window (data volumes change) and 4% outliers
//     by 2.5–10× either way: many jobs in both tails.
//
// Under 3σPredict about 20–24% of jobs are off by a factor of two or more
// (with ≈ 10% above +95% and ≈ 12% below −55%) and ≈ 10% are within ±5%.
// The internal scheduler of the trace takes no wall-clock limits, so jobs
// carry no Requested time.
var hedgeFundModel = envModel{
	name: GeneratorHedgeFund,
	difficulty: func(p *Params) {
		p.Drift = 0.2
		p.OutlierShare, p.OutlierMin, p.OutlierMax = 0.04, 2.5, 10
		p.VariableShare = 0.25
	},
	classes: []runtimeClass{
		{kind: "short", share: 0.50, names: 60, medLo: 30, medHi: 600, gangAlpha: 0.9, gangMax: 512},
		{kind: "medium", share: 0.28, names: 45, medLo: 600, medHi: 1800, gangAlpha: 1.0, gangMax: 512},
		{kind: "long", share: 0.16, names: 30, medLo: 1800, medHi: 5400, gangAlpha: 1.2, gangMax: 256},
		{kind: "very-long", share: 0.06, names: 15, medLo: 5400, medHi: 14400, gangAlpha: 1.5, gangMax: 256},
	},
	nameZipf:      0.8,
	userZipf:      0.8,
	appZipf:       1.0,
	numUsers:      40,
	numApps:       12,
	stableSigma:   [2]float64{0.12, 0.4},
	variableSigma: [2]float64{0.6, 1.0},
	halve:         0.15,
	double:        0.15,
}

// DefaultHedgeFundParams are DefaultParams(GeneratorHedgeFund): the E2E
// defaults with drift 0.2, 4% outliers by 2.5–10× and 25% variable jobs.
func DefaultHedgeFundParams() Params { return mustDefault(GeneratorHedgeFund) }

// GenerateHedgeFund is Generate(GeneratorHedgeFund, p): a HedgeFund-like
// workload (see hedgeFundModel).
func GenerateHedgeFund(p Params) (*Workload, error) { return Generate(GeneratorHedgeFund, p) }

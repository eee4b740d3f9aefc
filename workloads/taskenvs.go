package workloads

// twoSigmaModel is the 2Sigma-like task environment (SLearn §4.2–4.3,
// 2STrace): jobs of 1–150 one-node tasks whose mean task runtime varies a
// lot across a job name's history (Table 4: CoV over time P50 1.00, P90
// 3.10) but little across the tasks of one job (CoV over space P50 0.18,
// P90 0.55). 19% of jobs are thin (fewer than 3 tasks), mostly long, and
// about 40% have exactly 4 tasks (§5.2.8).
var twoSigmaModel = envModel{
	name: GeneratorTwoSigma,
	difficulty: func(p *Params) {
		taskDefaults(p, 55)
		p.HistoryJobs = 10_000
		p.ArrivalSCV = 10
		p.Drift = 0.3
		p.OutlierShare, p.OutlierMin, p.OutlierMax = 0.03, 3, 10
		p.VariableShare = 0.4
	},
	classes: []runtimeClass{
		{kind: "short", share: 0.30, names: 120, medLo: 15, medHi: 150, widths: twoSigmaWidths(0.05, 0.45)},
		{kind: "medium", share: 0.45, names: 120, medLo: 150, medHi: 1500, widths: twoSigmaWidths(0.15, 0.40)},
		{kind: "long", share: 0.25, names: 80, medLo: 1000, medHi: 5000, widths: twoSigmaWidths(0.45, 0.30)},
	},
	nameZipf:      0.8,
	userZipf:      0.8,
	appZipf:       1.0,
	numUsers:      30,
	numApps:       10,
	stableSigma:   [2]float64{0.4, 0.8},
	variableSigma: [2]float64{2.0, 3.0},
	tasks: &taskModel{ // widths: per class
		maxTasks:  150,
		covMedian: 0.12, covSigma: 0.7, covMax: 2,
	},
}

// twoSigmaWidths are the width bands of a 2Sigma-like runtime class:
// thin names (1 or 2 tasks, even odds) with weight thin, names of 4 tasks
// with weight four, wider ones the rest. Thin names are mostly of the long
// class, so that thin jobs are mostly large (SLearn Table 8: 14% of jobs
// thin and of ≥ 10³ s, 5% thin and smaller).
func twoSigmaWidths(thin, four float64) []widthBand {
	return []widthBand{
		{weight: thin / 2, lo: 1, hi: 1},
		{weight: thin / 2, lo: 2, hi: 2},
		{weight: four, lo: 4, hi: 4},
		{weight: 1 - thin - four, lo: 5, hi: 150, alpha: 0.5},
	}
}

// googleTaskClasses are the runtime classes of both Google-like task
// environments (medians 20 s to 2 h); the catalogue only reads them.
var googleTaskClasses = []runtimeClass{
	{kind: "short", share: 0.45, names: 60, medLo: 20, medHi: 300},
	{kind: "medium", share: 0.35, names: 50, medLo: 300, medHi: 1800},
	{kind: "long", share: 0.20, names: 30, medLo: 1800, medHi: 7200},
}

// google2011TasksModel is the Google 2011-like task environment (SLearn
// GTrace11): recurring jobs whose mean task runtime is fairly stable
// across history (Table 4: CoV over time P50 0.20, P90 0.73) and whose
// tasks are nearly identical within most jobs, with a tail of jobs with
// stragglers (CoV over space P50 0.04, P90 0.58).
var google2011TasksModel = envModel{
	name: GeneratorGoogle2011Tasks,
	difficulty: func(p *Params) {
		taskDefaults(p, 30)
		p.ArrivalSCV = 4
		p.Drift = 0.1
		p.OutlierShare, p.OutlierMin, p.OutlierMax = 0.01, 2.5, 8
		p.VariableShare = 0.15
	},
	classes:       googleTaskClasses,
	nameZipf:      0.9,
	userZipf:      1.0,
	appZipf:       1.0,
	numUsers:      40,
	numApps:       4,
	stableSigma:   [2]float64{0.02, 0.12},
	variableSigma: [2]float64{0.4, 0.8},
	halve:         0.1,
	double:        0.1,
	tasks: &taskModel{
		widths: []widthBand{
			{weight: 0.40, lo: 1, hi: 1},
			{weight: 0.05, lo: 2, hi: 2},
			{weight: 0.55, lo: 3, hi: 150, alpha: 0.6},
		},
		maxTasks:  150,
		covMedian: 0.02, covSigma: 2.3, covMax: 2,
	},
}

// google2019TasksModel is the Google 2019-like task environment (SLearn
// GTrace19, cell G's batch tier): every job name's mean task runtime
// varies widely across history (Table 4: CoV over time P50 1.35, P90
// 1.67), and tasks within a job vary too, though less (CoV over space P50
// 0.70, P90 1.33).
var google2019TasksModel = envModel{
	name: GeneratorGoogle2019Tasks,
	difficulty: func(p *Params) {
		taskDefaults(p, 50)
		p.HistoryJobs = 10_000
		p.ArrivalSCV = 4
		p.Drift = 0.3
		p.OutlierShare, p.OutlierMin, p.OutlierMax = 0, 2.5, 8
		p.VariableShare = 0
	},
	classes:       googleTaskClasses,
	nameZipf:      0.9,
	userZipf:      1.0,
	appZipf:       1.0,
	numUsers:      40,
	numApps:       4,
	stableSigma:   [2]float64{0.98, 1.08},
	variableSigma: [2]float64{0.98, 1.08},
	halve:         0.1,
	double:        0.1,
	tasks: &taskModel{
		widths: []widthBand{
			{weight: 0.35, lo: 1, hi: 1},
			{weight: 0.65, lo: 5, hi: 150, alpha: 0.6},
		},
		maxTasks:  150,
		covMedian: 0.6, covSigma: 0.2, covMax: 3,
	},
}

// GeneratorDrift is the drift environment: task-level jobs whose runtimes
// drift over time (driftModel).
const GeneratorDrift = "drift"

// driftModel is the environment of the hybrid predictor (SLearn §7,
// "history as the prior, sampling as the evidence"): recurring task-level
// jobs whose names repeat well (log-σ 0.1–0.3) but whose median runtime
// drifts with time, ln(median) moving by N(0, 0.1²) per hour for each name
// (about ×e^±2 over the 20-hour window), so history — 3,000 jobs before
// the window — is stale, the more so the older it is. Thin jobs (1–2
// tasks, 40% of names) have nothing to sample; wide ones (3–100 tasks)
// have nearly identical tasks (CoV median 0.05), so a few pilots say a
// lot. Half the offered load is SLO jobs with deadlines of the E2E setup
// (slack 20–80% of the mean task runtime), on 150 nodes in 5 racks at
// load 1: about 1,250 jobs in the window, as SLearn §4.3's extraction.
var driftModel = envModel{
	name: GeneratorDrift,
	difficulty: func(p *Params) {
		p.Nodes, p.Racks, p.Hours, p.Load = 150, 5, 20, 1
		p.Drift = 0
		p.OutlierShare, p.OutlierMin, p.OutlierMax = 0.01, 2.5, 8
		p.VariableShare = 0.1
	},
	classes: []runtimeClass{
		{kind: "short", share: 0.40, names: 50, medLo: 30, medHi: 300},
		{kind: "medium", share: 0.40, names: 40, medLo: 300, medHi: 1800},
		{kind: "long", share: 0.20, names: 20, medLo: 1800, medHi: 5400},
	},
	nameZipf:      0.9,
	userZipf:      1.0,
	appZipf:       1.0,
	numUsers:      30,
	numApps:       6,
	stableSigma:   [2]float64{0.1, 0.3},
	variableSigma: [2]float64{0.4, 0.8},
	trend:         0.1,
	tasks: &taskModel{
		widths: []widthBand{
			{weight: 0.25, lo: 1, hi: 1},
			{weight: 0.15, lo: 2, hi: 2},
			{weight: 0.60, lo: 3, hi: 100, alpha: 0.8},
		},
		maxTasks:  100,
		covMedian: 0.05, covSigma: 0.5, covMax: 1,
	},
}

package datalake

// The knobs of the lake's structure. Each is a share or a count of the
// model the doc comment of the package describes; together they put the
// lake at the shares of §2.3 (Targets), which the tests measure.
const (
	// orgsAtScale1, workflowsAtScale1 and aperiodicAtScale1 are the
	// numbers of organisations, workflows and aperiodic templates at
	// scale 1.
	orgsAtScale1      = 10
	workflowsAtScale1 = 64
	aperiodicAtScale1 = 30
	// adhocPerDayAtScale1 is the mean number of ad-hoc scripts submitted
	// a day at scale 1 (a share pRerun of them twice).
	adhocPerDayAtScale1 = 540.0
	// usersPerOrg bounds the users of an organisation.
	minUsersPerOrg, maxUsersPerOrg = 3, 8

	// pHourlyWorkflow is the share of workflows that run hourly (the
	// others daily).
	pHourlyWorkflow = 0.10
	// pPrivate is the share of workflows that neither read nor are read
	// by other workflows.
	pPrivate = 0.25
	// pSourceRoot is the share of shared daily workflows whose root reads
	// an external stream only (private and hourly roots always do).
	pSourceRoot = 0.45
	// pPolling is the share of workflow members triggered by their
	// inputs (polling); the others are periodic.
	pPolling = 0.65
	// pSecondIntra is the share of members with a second upstream in
	// their workflow.
	pSecondIntra = 0.45
	// pCrossMember is the share of shared workflows' members that also
	// read another workflow's output.
	pCrossMember = 0.45
	// pHardCross is the share of periodic members' cross-workflow inputs
	// that are hard (the others soft).
	pHardCross = 0.5
	// pCrossOrg is the share of cross-workflow and aperiodic inputs taken
	// from another organisation.
	pCrossOrg = 0.72
	// pSelf is the share of periodic daily members that read their own
	// previous output (incremental jobs).
	pSelf = 0.25
	// pHardAperiodic is the share of aperiodic templates' inputs that are
	// hard; pAperiodicFollower the share of aperiodic templates with a
	// polling follower.
	pHardAperiodic     = 0.35
	pAperiodicFollower = 0.25
	// pSnapshot is the share of recurring templates that also overwrite a
	// "latest" file each run.
	pSnapshot = 0.3

	// adhocInputs are the probabilities that an ad-hoc script reads 0, 1,
	// 2 or 3 recurring outputs; pAdhocChain the chance it also reads its
	// user's previous ad-hoc output; pAdhocCrossOrg the share of its
	// recurring inputs from other organisations; pRerun the share of
	// scripts submitted a second time.
	pAdhocChain    = 0.12
	pAdhocCrossOrg = 0.5
	pRerun         = 0.2

	// pInvertible is the share of recurring templates whose output a
	// recurring template of higher priority reads (Observation 2).
	pInvertible = 0.21
	// pInherit is the chance a recurring template with upstream templates
	// takes the priority of one of them (script inheritance, §2.2).
	pInherit = 0.55

	// pRunBump is the share of recurring jobs that run one priority level
	// above or below their template's (half each: a user or an on-call
	// engineer adjusting one run).
	pRunBump = 0.4

	// zPlan is the normal quantile users plan hard dependents with: an
	// upstream is expected done by its median × e^{zPlan·σ} plus
	// queueMargin (p99.5 of its runtime).
	zPlan       = 2.58
	queueMargin = 10 * 60.0

	// Value: a job's latent score is its template's popularity (normal,
	// spread popSigma; ad-hoc templates lower by adhocValueShift) plus
	// normal noise jobSigma. Jobs ranked by score within their week get
	// Poisson(zipfTop × the week's jobs / rank) downloads: Zipf, s = 1.
	popSigma        = 1.5
	adhocValueShift = 1.2
	jobSigma        = 0.25
	zipfTop         = 0.2
	// pSnapshotDownload is the share of a snapshot template's downloads
	// made of its "latest" file.
	pSnapshotDownload = 0.3

	// queueUtilisation is an organisation's p99 demand (tokens its jobs
	// would hold if each started at submission) over its nominal queue:
	// above 1, queues are smaller than their peaks, which queueing
	// absorbs within the slack users plan with, so that at nominal
	// capacity nearly every job completes while at 40 % the Cosmos
	// default loses about 40 % of the value (§7.1 reports 38 %).
	// minQueueWidths is how many of its organisation's widest gangs a
	// nominal queue holds at least (so every job fits it at 20 %).
	queueUtilisation = 1.2
	minQueueWidths   = 5
)

// adhocInputs: P(an ad-hoc script reads k recurring outputs), k = 0…3.
var adhocInputs = [4]float64{0.36, 0.42, 0.15, 0.07}

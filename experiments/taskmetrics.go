package experiments

import (
	"math"
	"slices"

	"github.com/plannerhq/planner/planner"
)

// WideTasks is the fewest tasks of a wide job: SLearn's thinLimit (§5.2.1),
// below which jobs are not sampled; its prediction and queue metrics are
// over wide jobs only (§4.3, Table 7).
const WideTasks = 3

// TaskMetrics are the metrics of a run of a workload of task-level jobs
// (SLearn §5.2), reported only for such runs, after Metrics' own:
//
//   - NWTMean and NWTP50 are the mean and P50 of the normalised waiting
//     time of the completed task-level jobs (§5.2.5): the mean wait of a
//     job's tasks (task start − submit) over its mean task runtime
//     (JobRecord.TaskWaitSum / Tasks / Runtime); dimensionless.
//   - PredErrP50 is the P50, over the wide jobs (≥ WideTasks tasks) the
//     scheduler sized by an estimate, of the prediction error
//     |estimate − actual| / actual × 100 of the mean task runtime (§4.3,
//     Fig. 2); percent. NaN for a scheduler without estimates (LAS, FIFO,
//     and every policy that does not report them: planner.Estimating).
//   - RightQueue is the share of those wide jobs whose estimate put them in
//     the queue their true size belongs to (Table 7); fraction.
//   - Estimated counts those wide jobs.
//   - DAGs counts the DAG jobs (a first stage and the stages after it,
//     Job.After) whose every stage completed, and DAGJCTMean and
//     DAGJCTP50 are the mean and P50 of their JCT, the last stage's end −
//     the first stage's submit (SLearn §6); seconds, NaN without DAGs.
type TaskMetrics struct {
	NWTMean, NWTP50       float64
	PredErrP50            float64
	RightQueue            float64
	Estimated             int
	DAGs                  int
	DAGJCTMean, DAGJCTP50 float64
}

// taskRefs names the fields of t, in report order, after Metrics' own.
func (t *TaskMetrics) refs() []metricRef {
	return []metricRef{
		{name: "nwt_mean", f: &t.NWTMean},
		{name: "nwt_p50", f: &t.NWTP50},
		{name: "pred_err_p50_pct", f: &t.PredErrP50},
		{name: "right_queue_share", f: &t.RightQueue},
		{name: "estimated_wide_jobs", i: &t.Estimated},
		{name: "dag_jobs", i: &t.DAGs},
		{name: "dag_jct_mean_s", f: &t.DAGJCTMean},
		{name: "dag_jct_p50_s", f: &t.DAGJCTP50},
	}
}

// ComputeTaskMetrics computes the task metrics of a run from its job
// records and the estimates its scheduler reports (nil when it reports
// none); job records and estimates name jobs by id.
func ComputeTaskMetrics(jobs []JobRecord, estimates []planner.EstimateRecord) *TaskMetrics {
	t := &TaskMetrics{}
	var nwt []float64
	actual := make(map[int]float64, len(jobs))
	for i := range jobs {
		j := &jobs[i]
		actual[j.JobID] = j.Runtime
		if j.Completed && j.Tasks > 0 && j.Runtime > 0 {
			nwt = append(nwt, j.TaskWaitSum/float64(j.Tasks)/j.Runtime)
		}
	}
	t.NWTMean, t.NWTP50 = mean(nwt), quantile(0.5, nwt)
	var errs []float64
	right := 0
	for _, e := range estimates {
		a, ok := actual[e.JobID]
		if !ok || e.Tasks < WideTasks || !(a > 0) {
			continue
		}
		errs = append(errs, math.Abs(e.Estimate-a)/a*100)
		if e.Queue == e.TrueQueue {
			right++
		}
	}
	t.Estimated = len(errs)
	t.PredErrP50, t.RightQueue = quantile(0.5, errs), math.NaN()
	if len(errs) > 0 {
		t.RightQueue = float64(right) / float64(len(errs))
	}
	jct := DAGJCTs(jobs)
	t.DAGs, t.DAGJCTMean, t.DAGJCTP50 = len(jct), mean(jct), quantile(0.5, jct)
	return t
}

// DAGJCTs are the JCTs (seconds) of the DAG jobs among jobs whose every
// stage completed, in the order of their first stages' ids: the last
// stage's end − the first stage's submit. A DAG is the jobs of one
// JobRecord.DAG, more than one.
func DAGJCTs(jobs []JobRecord) []float64 {
	type dag struct {
		submit, end float64
		stages      int
		done        bool
	}
	byRoot := map[int]*dag{}
	var roots []int
	for i := range jobs {
		j := &jobs[i]
		d := byRoot[j.DAG]
		if d == nil {
			d = &dag{done: true}
			byRoot[j.DAG] = d
			roots = append(roots, j.DAG)
		}
		d.stages++
		d.done = d.done && j.Completed
		d.end = max(d.end, j.End)
		if j.JobID == j.DAG {
			d.submit = j.Submit
		}
	}
	slices.Sort(roots)
	var jct []float64
	for _, r := range roots {
		if d := byRoot[r]; d.stages > 1 && d.done {
			jct = append(jct, d.end-d.submit)
		}
	}
	return jct
}

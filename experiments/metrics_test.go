package experiments

import (
	"math"
	"testing"

	"github.com/plannerhq/planner/workloads"
)

// rec builds a job record: submitted at submit, final run from start to
// end (end < 0: started, not completed; start < 0: never started).
func rec(id int, class workloads.Class, user string, submit, start, end float64) JobRecord {
	r := JobRecord{JobID: id, Class: class, User: user, Submit: submit, Nodes: 1, Deadline: math.Inf(1)}
	if start >= 0 {
		r.Started, r.Start = true, start
	}
	if end >= 0 {
		r.Completed, r.End = true, end
		r.MetDeadline = class == workloads.SLO
	}
	return r
}

func TestWaitAndBoundedSlowdown(t *testing.T) {
	be := workloads.BestEffort
	preemptedNotRestarted := rec(6, be, "", 0, 50, -1)
	preemptedNotRestarted.Started = false // the record keeps the old start
	tests := []struct {
		name   string
		job    JobRecord
		wait   float64
		waitOK bool
		bsld   float64
		bsldOK bool
	}{
		{name: "waited as long as it ran", job: rec(1, be, "", 0, 100, 200), wait: 100, waitOK: true, bsld: 2, bsldOK: true},
		{name: "no wait", job: rec(2, be, "", 50, 50, 150), wait: 0, waitOK: true, bsld: 1, bsldOK: true},
		// (20 + 2) / max(2, 10) = 2.2: the τ floor, not 22/2 = 11.
		{name: "short job: τ floor", job: rec(3, be, "", 0, 20, 22), wait: 20, waitOK: true, bsld: 2.2, bsldOK: true},
		// (0 + 2) / 10 = 0.2 → max(1, 0.2) = 1.
		{name: "short job without wait: max(1, ·)", job: rec(4, be, "", 5, 5, 7), wait: 0, waitOK: true, bsld: 1, bsldOK: true},
		// Exactly τ: (30 + 10) / 10 = 4.
		{name: "run of τ", job: rec(5, be, "", 0, 30, 40), wait: 30, waitOK: true, bsld: 4, bsldOK: true},
		{name: "never started", job: rec(7, be, "", 0, -1, -1)},
		{name: "preempted, never restarted", job: preemptedNotRestarted},
		{name: "started, not completed", job: rec(8, be, "", 10, 70, -1), wait: 60, waitOK: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, ok := tc.job.Wait()
			if ok != tc.waitOK || w != tc.wait {
				t.Errorf("Wait() = %v, %v; want %v, %v", w, ok, tc.wait, tc.waitOK)
			}
			b, ok := tc.job.BoundedSlowdown()
			if ok != tc.bsldOK || math.Abs(b-tc.bsld) > 1e-12 {
				t.Errorf("BoundedSlowdown() = %v, %v; want %v, %v", b, ok, tc.bsld, tc.bsldOK)
			}
		})
	}
}

// TestComputeMetricsWaitSlowdownFairness checks the aggregates against
// hand-computed values.
func TestComputeMetricsWaitSlowdownFairness(t *testing.T) {
	slo, be := workloads.SLO, workloads.BestEffort
	jobs := []JobRecord{
		rec(0, slo, "a", 0, 100, 200), // wait 100, run 100: bsld 2
		rec(1, be, "a", 0, 0, 5),      // wait 0, run 5: max(1, 5/10) = 1
		rec(2, be, "b", 10, 40, 42),   // wait 30, run 2: 32/10 = 3.2
		rec(3, slo, "b", 0, -1, -1),   // never started: no wait, no bsld
		rec(4, be, "c", 0, 300, 600),  // wait 300, run 300: 2
	}
	m := ComputeMetrics(jobs, nil, 3600, 4, 0)
	// Users: a = mean(2, 1) = 1.5, b = 3.2, c = 2;
	// J = 6.7² / (3 · (1.5² + 3.2² + 2²)) = 44.89 / 49.47.
	want := map[string]float64{
		"wait_mean_s":    (100 + 0 + 30 + 300) / 4.0,
		"wait_p50_s":     30, // sorted 0, 30, 100, 300: the smallest with CDF ≥ 0.5
		"wait_p99_s":     300,
		"bsld_mean":      (2 + 1 + 3.2 + 2) / 4,
		"bsld_p99":       3.2,
		"slo_bsld_mean":  2,
		"slo_bsld_p99":   2,
		"be_bsld_mean":   (1 + 3.2 + 2) / 3,
		"be_bsld_p99":    3.2,
		"fairness_jain":  44.89 / 49.47,
		"fairness_users": 3,
	}
	for _, v := range m.List() {
		w, ok := want[v.Name]
		if !ok {
			continue
		}
		delete(want, v.Name)
		if math.Abs(v.Value-w) > 1e-12 {
			t.Errorf("%s = %v, want %v", v.Name, v.Value, w)
		}
	}
	for name := range want {
		t.Errorf("%s not in Metrics.List", name)
	}
	// No completed job: every one of them undefined, no user.
	m = ComputeMetrics(jobs[3:4], nil, 3600, 4, 0)
	for _, v := range []float64{m.WaitMean, m.WaitP99, m.BSLDMean, m.SLOBSLDMean, m.BEBSLDP99, m.FairnessJain} {
		if !math.IsNaN(v) {
			t.Errorf("without a completed job: %+v", m)
			break
		}
	}
	if m.FairnessUsers != 0 {
		t.Errorf("fairness_users = %d, want 0", m.FairnessUsers)
	}
}

func TestJainIndex(t *testing.T) {
	tests := []struct {
		name string
		x    []float64
		want float64
	}{
		{"equal", []float64{2.5, 2.5, 2.5, 2.5}, 1},
		{"one of four takes all", []float64{7, 0, 0, 0}, 0.25},
		{"1 and 3", []float64{1, 3}, 16.0 / 20},
		{"one user", []float64{4}, 1},
		{"none", nil, math.NaN()},
		{"all zero", []float64{0, 0}, math.NaN()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := JainIndex(tc.x)
			if math.IsNaN(tc.want) != math.IsNaN(got) || (!math.IsNaN(got) && math.Abs(got-tc.want) > 1e-15) {
				t.Errorf("JainIndex(%v) = %v, want %v", tc.x, got, tc.want)
			}
		})
	}
}

// TestUserFairness: Jain's index of per-user mean bounded slowdown over
// the users with a completed job, through ComputeMetrics.
func TestUserFairness(t *testing.T) {
	be := workloads.BestEffort
	// bsld = (wait + 100) / 100 for a run of 100 s.
	job := func(id int, user string, wait float64) JobRecord {
		return rec(id, be, user, 0, wait, wait+100)
	}
	tests := []struct {
		name  string
		jobs  []JobRecord
		want  float64
		tol   float64
		users int
	}{
		{name: "equal users", users: 3, want: 1, tol: 1e-15,
			jobs: []JobRecord{job(0, "a", 100), job(1, "b", 0), job(2, "b", 200), job(3, "c", 100)}},
		// x = 1000, 1, 1, 1: J = 1003² / (4 · 1000003) ≈ 1/4.
		{name: "one user dominating", users: 4, want: 1003.0 * 1003 / (4 * 1000003), tol: 1e-15,
			jobs: []JobRecord{job(0, "a", 99900), job(1, "b", 0), job(2, "c", 0), job(3, "d", 0)}},
		{name: "workload without users is one user", users: 1, want: 1, tol: 0,
			jobs: []JobRecord{job(0, "", 0), job(1, "", 5000)}},
		// The user-less jobs are one user, "": x = 2, 1.
		{name: "jobs without a user form one user", users: 2, want: 9.0 / 10, tol: 1e-15,
			jobs: []JobRecord{job(0, "", 100), job(1, "a", 0), rec(2, be, "b", 0, -1, -1)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := ComputeMetrics(tc.jobs, nil, 3600, 4, 0)
			if math.Abs(m.FairnessJain-tc.want) > tc.tol || m.FairnessUsers != tc.users {
				t.Errorf("fairness_jain = %v over %d users, want %v over %d", m.FairnessJain, m.FairnessUsers, tc.want, tc.users)
			}
		})
	}
	// One user dominating tends to 1/n.
	m := ComputeMetrics([]JobRecord{job(0, "a", 1e9), job(1, "b", 0), job(2, "c", 0), job(3, "d", 0)}, nil, 3600, 4, 0)
	if math.Abs(m.FairnessJain-0.25) > 1e-6 {
		t.Errorf("one user dominating: fairness_jain = %v, want → 1/4", m.FairnessJain)
	}
}

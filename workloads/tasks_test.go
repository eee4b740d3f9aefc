package workloads

import (
	"math"
	"testing"
)

// slearnTable4 is SLearn's Table 4: the P50 and P90 of the CoV of task
// runtimes across time and across space in the 2Sigma, Google 2011 and
// Google 2019 traces.
var slearnTable4 = []struct {
	gen   string
	paper TaskVariability
}{
	{GeneratorTwoSigma, TaskVariability{TimeP50: 1.00, TimeP90: 3.10, SpaceP50: 0.18, SpaceP90: 0.55}},
	{GeneratorGoogle2011Tasks, TaskVariability{TimeP50: 0.20, TimeP90: 0.73, SpaceP50: 0.04, SpaceP90: 0.58}},
	{GeneratorGoogle2019Tasks, TaskVariability{TimeP50: 1.35, TimeP90: 1.67, SpaceP50: 0.70, SpaceP90: 1.33}},
}

// Table 4's tolerances: a generated statistic, the mean of seeds 1–3, is
// within table4RelTol of the paper's, or table4AbsTol for the smallest
// (Google 2011's space P50 of 0.04: a seed moves it by 0.01).
const (
	table4RelTol = 0.25
	table4AbsTol = 0.02
)

// TestTaskGeneratorsMatchTable4: each task-level generator's variation of
// runtimes across time and across space (TaskVariabilityOf) is that of
// its trace in SLearn's Table 4, and its window is §4.3's extraction:
// about 1,250 jobs of at most 150 one-node tasks, offered load 1 on 150
// nodes, best-effort.
func TestTaskGeneratorsMatchTable4(t *testing.T) {
	for _, row := range slearnTable4 {
		gen, paper := row.gen, row.paper
		t.Run(gen, func(t *testing.T) {
			var mean TaskVariability
			jobs := 0
			for seed := uint64(1); seed <= 3; seed++ {
				p := defaults(t, gen)
				p.Seed = seed
				w := generateEnv(t, gen, p)
				v, ok := TaskVariabilityOf(w)
				if !ok {
					t.Fatal("no task-level job")
				}
				mean.TimeP50 += v.TimeP50 / 3
				mean.TimeP90 += v.TimeP90 / 3
				mean.SpaceP50 += v.SpaceP50 / 3
				mean.SpaceP90 += v.SpaceP90 / 3
				jobs += len(w.Jobs)
				if n := w.Header.Cluster.TotalNodes(); n != 150 || len(w.Header.Cluster.PartitionNodes) != 1 {
					t.Errorf("seed %d: cluster %v, want 150 nodes in one partition", seed, w.Header.Cluster.PartitionNodes)
				}
				if l := Work(w.Jobs) / (150 * w.Header.WindowS); math.Abs(l-1) > 0.01 {
					t.Errorf("seed %d: offered load %.3f, want 1", seed, l)
				}
				for _, j := range w.Jobs {
					if !j.TaskLevel() || j.TaskNodes != 1 || j.Tasks() > 150 || j.Class != BestEffort {
						t.Fatalf("seed %d: job %d: %d tasks of %d nodes, class %v", seed, j.ID, j.Tasks(), j.TaskNodes, j.Class)
					}
				}
			}
			if mean := float64(jobs) / 3; mean < 1000 || mean > 1500 {
				t.Errorf("%.0f jobs per window (mean of seeds 1–3), want about 1,250", mean)
			}
			for _, c := range []struct {
				name       string
				got, paper float64
			}{
				{"CoV over time P50", mean.TimeP50, paper.TimeP50}, {"CoV over time P90", mean.TimeP90, paper.TimeP90},
				{"CoV over space P50", mean.SpaceP50, paper.SpaceP50}, {"CoV over space P90", mean.SpaceP90, paper.SpaceP90},
			} {
				if tol := max(table4AbsTol, table4RelTol*c.paper); math.Abs(c.got-c.paper) > tol {
					t.Errorf("%s %.3f, paper %.2f (tolerance %.3f)", c.name, c.got, c.paper, tol)
				}
			}
		})
	}
}

// TestTaskVariabilityByHand checks TaskVariabilityOf on a workload small
// enough to compute by hand.
func TestTaskVariabilityByHand(t *testing.T) {
	taskJob := func(id int, name string, submit float64, d ...float64) Job {
		return Job{ID: id, Submit: submit, Class: BestEffort, Nodes: len(d), TaskNodes: 1, TaskDurations: d,
			Runtime: MeanTaskDuration(d), Features: Features{Name: name, SubmitHour: id % 24}}
	}
	w := &Workload{
		History: []Job{
			// Name a: mean runtimes 10 and 30, CoV 10/20 = 0.5; name b:
			// 100, 100 and 400, CoV 141.42/200 = 0.7071.
			taskJob(10, "a", -50, 10), taskJob(11, "a", -40, 30),
			taskJob(12, "b", -30, 100), taskJob(13, "b", -20, 100), taskJob(14, "b", -10, 400),
		},
		Jobs: []Job{
			// Tasks 8 and 12: σ₁/μ = 2/10, over √(0.03·2): 0.8165.
			taskJob(0, "a", 0, 8, 12),
			// 25 equal tasks: 0 across space.
			taskJob(1, "b", 1, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50),
			// A name without history, one task: across time only through
			// its submit day (day 0 holds every history job above).
			taskJob(2, "c", 2, 7),
		},
	}
	v, ok := TaskVariabilityOf(w)
	if !ok {
		t.Fatal("no task-level job")
	}
	day := math.Sqrt(scv([]float64{10, 30, 100, 100, 400})) // every history job is of day 0
	// Over time: job 0 → 0.5 (name a), job 1 → 0.7071 (name b), job 2 →
	// the day's CoV (1.1662); P50 0.7071, P90 between the top two.
	wantTime50, wantTime90 := math.Sqrt(2)/2, math.Sqrt(2)/2+0.8*(day-math.Sqrt(2)/2)
	if v.TimeJobs != 3 || math.Abs(v.TimeP50-wantTime50) > 1e-12 || math.Abs(v.TimeP90-wantTime90) > 1e-12 {
		t.Errorf("over time %+v, want P50 %v, P90 %v over 3 jobs", v, wantTime50, wantTime90)
	}
	space := 0.2 / math.Sqrt(0.06)
	if v.SpaceJobs != 2 || math.Abs(v.SpaceP50-space/2) > 1e-12 || math.Abs(v.SpaceP90-0.9*space) > 1e-12 {
		t.Errorf("over space %+v, want P50 %v, P90 %v over 2 jobs", v, space/2, 0.9*space)
	}
}

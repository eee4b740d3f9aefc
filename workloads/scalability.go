package workloads

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// GeneratorScalability is the stem of the SCALABILITY-N workloads of
// 3Sigma §6.5: the generator "scalability-N" submits N jobs an hour.
const GeneratorScalability = "scalability"

// maxJobsPerHour bounds N of "scalability-N" (the paper's heaviest is
// 4,000; the Google trace's busiest hour 3,668).
const maxJobsPerHour = 1_000_000

// ScalabilityName is the generator name of SCALABILITY-N: "scalability-N".
func ScalabilityName(jobsPerHour int) string {
	return GeneratorScalability + "-" + strconv.Itoa(jobsPerHour)
}

// ParseScalability reads N from a generator name "scalability-N" (N a
// decimal whole number in [1, 10⁶]); ok is false for any other name.
func ParseScalability(name string) (jobsPerHour int, ok bool) {
	digits, found := strings.CutPrefix(name, GeneratorScalability+"-")
	if !found || digits == "" || strings.TrimLeft(digits, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n < 1 || n > maxJobsPerHour {
		return 0, false
	}
	return n, true
}

// IsGenerator reports whether name is a generator Generate knows: one of
// Generators, or "scalability-N".
func IsGenerator(name string) bool {
	_, err := modelOf(name)
	return err == nil
}

// GeneratorsHelp names the generators for messages: those of Generators
// and "scalability-N".
func GeneratorsHelp() string {
	return strings.Join(Generators(), ", ") + ", " + GeneratorScalability + "-N"
}

// scalabilityModel is SCALABILITY-N (3Sigma §6.5): the Google-like job
// names, runtimes and features (googleModel), with each job's gang size
// drawn from the tasks per job of the Google 2011 trace (googleTasks),
// N·Hours jobs exactly, and runtimes scaled by one factor so that the
// jobs offer Params.Load (Generate).
var scalabilityModel = func() envModel {
	m := googleModel
	m.name = GeneratorScalability
	m.gangSizes = googleTasks
	return m
}()

// taskBin is one bin of a tasks-per-job distribution: count jobs of lo to
// hi tasks.
type taskBin struct {
	lo, hi int
	count  float64
}

// googleTasks is the number of tasks per job in the Google 2011 trace
// sample of docs/user-guide.md "Real traces" (the distinct task indices submitted in
// task_events parts 1–8: 9,518 jobs, mean 27.1 tasks, median 1, p90 16,
// p99 489, at most 16,848), in power-of-two bins. Within a bin the size
// is log-uniform (tasksOf).
var googleTasks = []taskBin{
	{1, 1, 7400},
	{2, 2, 308},
	{3, 4, 122},
	{5, 8, 165},
	{9, 16, 595},
	{17, 32, 176},
	{33, 64, 283},
	{65, 128, 200},
	{129, 256, 109},
	{257, 512, 75},
	{513, 1024, 41},
	{1025, 2048, 32},
	{2049, 4096, 6},
	{4097, 8192, 3},
	{8193, 16384, 2},
	{16385, 32768, 1},
}

// tasksOf draws a gang size from bins: a bin by its count, then
// ⌊x⌋ with x log-uniform on [lo, hi + 1), a whole number in [lo, hi].
// Sizes above max are drawn again (max ≥ 1: the first bin is 1 task).
func tasksOf(rng *rand.Rand, bins []taskBin, max int) int {
	cum := make([]float64, len(bins))
	acc := 0.0
	for i, b := range bins {
		acc += b.count
		cum[i] = acc
	}
	for {
		b := bins[weighted(rng, cum)]
		k := int(math.Floor(logUniform(rng, float64(b.lo), float64(b.hi+1))))
		k = min(b.hi, k)
		if k <= max {
			return k
		}
	}
}

// countedWindow draws the n jobs of a window with a fixed job count
// (Params.JobsPerHour) and one unit-mean gap per job plus the gap after
// the last. Classes follow ClassRules.AssignClasses (SLO jobs carry
// SLOShare of the work), and every runtime is then scaled by the factor
// f that makes the jobs' work Load × nodes × window; the history is
// drawn at the same factor (generation.scale), so that the predictor
// learns the runtimes the window has.
func (g *generation) countedWindow(rng *rand.Rand, n int, window float64) ([]Job, []float64, error) {
	if n > maxGeneratedJobs {
		return nil, nil, fmt.Errorf("%s workload: %d jobs, more than %d: %w", g.m.name, n, maxGeneratedJobs, ErrInvalid)
	}
	jobs := make([]Job, n)
	gaps := make([]float64, n+1)
	for i := range jobs {
		jobs[i] = g.job(rng, true)
		gaps[i] = g.arrivals.sample(rng)
	}
	gaps[n] = g.arrivals.sample(rng)
	rules := g.p.ClassRules()
	rules.AssignClasses(jobs)
	target := g.p.Load * float64(g.p.Nodes) * window
	if w := Work(jobs); w > 0 {
		g.scale = target / w
	}
	for i := range jobs {
		jobs[i].Runtime = clampRuntime(jobs[i].Runtime * g.scale)
	}
	return jobs, gaps, nil
}

// clampRuntime rounds a runtime to the millisecond within [minRuntime,
// maxRuntime].
func clampRuntime(rt float64) float64 { return min(maxRuntime, max(minRuntime, RoundMS(rt))) }

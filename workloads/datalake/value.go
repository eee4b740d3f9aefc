package datalake

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
)

// assignValue draws every job's downloads, its job-local value (§6.3).
// A job's latent score is its template's popularity plus normal
// noise (jobSigma), so jobs of a template have similar values — what the
// template-median predictor of §6.3 relies on. Ranked by score among the
// N jobs submitted in the same week (the lead-in counts as one), the job
// of rank r gets Poisson(zipfTop · N / r) downloads: each week's
// job-local value is Zipfian with s = 1, and most jobs of low rank get
// none (Fig. 8's deviation at the low end).
//
// The downloads come after the job completes (a failed job: after
// submit + runtime, when it would have), at delays drawn from an
// exponential of the template's mean delay truncated to ValueWindow. A
// snapshot template's download goes to its "latest" file with
// probability pSnapshotDownload when it comes before the next run
// overwrites that file (else to the job's partition), so the last
// writer of "latest" at a download's time is the job it credits.
func (l *Lake) assignValue(rng *rand.Rand) {
	n := len(l.Jobs)
	score := make([]float64, n)
	for i := range l.Jobs {
		score[i] = l.Templates[l.Jobs[i].Template].Popularity + jobSigma*rng.NormFloat64()
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	week := func(i int) int { return int(math.Floor((l.Jobs[i].Submit - HistoryStart) / Week)) }
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(week(a), week(b)), cmp.Compare(score[b], score[a]), cmp.Compare(a, b))
	})
	rank := make([]int, n)
	size := map[int]int{}
	for _, i := range order {
		size[week(i)]++
		rank[i] = size[week(i)]
	}
	// next[i]: when the next run of job i's template overwrites "latest".
	next := make([]float64, n)
	last := map[int]int{}
	byEnd := make([]int, 0, n)
	for i := range l.Jobs {
		if l.Jobs[i].Status == Completed {
			byEnd = append(byEnd, i)
		}
	}
	slices.SortFunc(byEnd, func(a, b int) int { return cmp.Or(cmp.Compare(l.Jobs[a].End, l.Jobs[b].End), cmp.Compare(a, b)) })
	for i := range next {
		next[i] = math.Inf(1)
	}
	for _, i := range byEnd {
		t := l.Jobs[i].Template
		if p, ok := last[t]; ok {
			next[p] = l.Jobs[i].End
		}
		last[t] = i
	}
	for _, i := range order {
		j := &l.Jobs[i]
		t := &l.Templates[j.Template]
		k := poissonCount(rng, zipfTop*float64(size[week(i)])/float64(rank[i]))
		base := j.End
		if j.Status != Completed {
			base = j.Submit + j.Runtime
			j.Outputs = []Output{{File: partition(t, j.Instance)}}
		}
		for range k {
			at := base + truncExp(rng, t.DownloadDelay, ValueWindow)
			o := 0
			if t.Snapshot && j.Status == Completed && rng.Float64() < pSnapshotDownload && at < next[i] {
				o = 1
			}
			j.Outputs[o].Downloads = append(j.Outputs[o].Downloads, at)
		}
		for o := range j.Outputs {
			slices.Sort(j.Outputs[o].Downloads)
		}
	}
}

// truncExp draws an exponential of the given mean conditioned on being
// below limit, by inversion: −mean · ln(1 − u(1 − e^{−limit/mean})).
func truncExp(rng *rand.Rand, mean, limit float64) float64 {
	u := rng.Float64()
	return -mean * math.Log1p(-u*(-math.Expm1(-limit/mean)))
}

// poissonCount draws a Poisson count of the given mean: by multiplying
// uniforms below a mean of 30, by a rounded normal above it.
func poissonCount(rng *rand.Rand, mean float64) int {
	if mean >= 30 {
		return max(0, int(math.Round(mean+math.Sqrt(mean)*rng.NormFloat64())))
	}
	limit, p, k := math.Exp(-mean), rng.Float64(), 0
	for p > limit {
		p *= rng.Float64()
		k++
	}
	return k
}

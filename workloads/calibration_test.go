package workloads

import (
	"fmt"
	"slices"
)

// errorProfile is the estimate-error profile of a stand-in predictor: each
// window job's estimate is the median runtime of the history jobs with the
// same job name (else the same user, else all history). Errors are
// (estimate − actual)/actual, as in 3Sigma Fig. 2(d).
type errorProfile struct {
	jobs     int
	offBy2   float64 // share with error ≥ +100% or estimate ≤ actual/2
	within25 float64 // share with |error| ≤ 25%
	within5  float64 // share with |error| ≤ 5%
}

func standInProfile(w *Workload) errorProfile {
	byName := map[string][]float64{}
	byUser := map[string][]float64{}
	var all []float64
	for _, j := range w.History {
		byName[j.Features.Name] = append(byName[j.Features.Name], j.Runtime)
		byUser[j.Features.User] = append(byUser[j.Features.User], j.Runtime)
		all = append(all, j.Runtime)
	}
	med := func(x []float64) float64 {
		x = slices.Clone(x)
		slices.Sort(x)
		return quantile(x, 0.5)
	}
	var pr errorProfile
	for _, j := range w.Jobs {
		var est float64
		switch {
		case len(byName[j.Features.Name]) > 0:
			est = med(byName[j.Features.Name])
		case len(byUser[j.Features.User]) > 0:
			est = med(byUser[j.Features.User])
		default:
			est = med(all)
		}
		e := (est - j.Runtime) / j.Runtime
		pr.jobs++
		if e >= 1 || est <= j.Runtime/2 {
			pr.offBy2++
		}
		if e >= -0.25 && e <= 0.25 {
			pr.within25++
		}
		if e >= -0.05 && e <= 0.05 {
			pr.within5++
		}
	}
	n := float64(max(pr.jobs, 1))
	pr.offBy2 /= n
	pr.within25 /= n
	pr.within5 /= n
	return pr
}

func (p errorProfile) String() string {
	return fmt.Sprintf("%d jobs: off by ≥2× %.1f%%, within ±25%% %.1f%%, within ±5%% %.1f%%",
		p.jobs, 100*p.offBy2, 100*p.within25, 100*p.within5)
}

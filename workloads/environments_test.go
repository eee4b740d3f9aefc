package workloads

import (
	"math"
	"slices"
	"testing"
)

// userCoVs returns the coefficient of variation (population σ / mean) of
// the runtimes of each user's window jobs, for users with at least minJobs
// jobs (3Sigma Fig. 2(b)), in user order.
func userCoVs(w *Workload, minJobs int) []float64 {
	byUser := map[string][]float64{}
	for _, j := range w.Jobs {
		byUser[j.Features.User] = append(byUser[j.Features.User], j.Runtime)
	}
	users := make([]string, 0, len(byUser))
	for u := range byUser {
		users = append(users, u)
	}
	slices.Sort(users)
	var covs []float64
	for _, u := range users {
		x := byUser[u]
		if len(x) < minJobs {
			continue
		}
		mean, sq := 0.0, 0.0
		for _, v := range x {
			mean += v
		}
		mean /= float64(len(x))
		for _, v := range x {
			sq += (v - mean) * (v - mean)
		}
		covs = append(covs, math.Sqrt(sq/float64(len(x)))/mean)
	}
	return covs
}

// TestEnvironmentCharacter holds the three environments to the contrasts
// of 3Sigma §2.1, averaged over seeds: runtimes vary more within user
// groups in the HedgeFund- and Mustang-like workloads than in the
// Google-like one (Fig. 2(b)); the HedgeFund-like one has the fewest
// estimates within ±5% and more off by 2× than the Google-like one, the
// Mustang-like one the most within ±5% (Fig. 2(d)), here with the stand-in
// predictor (the 3σPredict calibration is in package experiments).
func TestEnvironmentCharacter(t *testing.T) {
	const seeds = 8
	cov := map[string]float64{}
	prof := map[string]errorProfile{}
	for _, gen := range Generators() {
		for seed := uint64(1); seed <= seeds; seed++ {
			p := defaults(t, gen)
			p.Seed = seed
			w := generateEnv(t, gen, p)
			c := userCoVs(w, 10)
			slices.Sort(c)
			cov[gen] += quantile(c, 0.5) / seeds
			pr := standInProfile(w)
			a := prof[gen]
			a.jobs += pr.jobs
			a.offBy2 += pr.offBy2 / seeds
			a.within25 += pr.within25 / seeds
			a.within5 += pr.within5 / seeds
			prof[gen] = a
		}
		t.Logf("%s: median CoV of runtimes per user %.2f; stand-in %v", gen, cov[gen], prof[gen])
	}
	g, h, m := GeneratorGoogle, GeneratorHedgeFund, GeneratorMustang
	if cov[h] < cov[g]+0.1 || cov[m] < cov[g]+0.05 {
		t.Errorf("median CoV per user: google %.2f, hedgefund %.2f, mustang %.2f; want hedgefund ≥ google + 0.1, mustang ≥ google + 0.05", cov[g], cov[h], cov[m])
	}
	if !(prof[h].within5 < prof[g].within5 && prof[g].within5 < prof[m].within5) {
		t.Errorf("within ±5%%: hedgefund %.3f, google %.3f, mustang %.3f; want increasing", prof[h].within5, prof[g].within5, prof[m].within5)
	}
	if prof[h].offBy2 < 2*prof[g].offBy2 {
		t.Errorf("off by ≥2×: hedgefund %.3f, google %.3f; want hedgefund at least twice google", prof[h].offBy2, prof[g].offBy2)
	}
}

// TestRequested checks the wall-clock limits: Mustang-like jobs request
// one of the model's limits, at or above their runtime (a run that reaches
// it is killed, rarely), generously (the median request is ≥ 1.5× the
// runtime); the other environments request nothing.
func TestRequested(t *testing.T) {
	for _, gen := range Generators() {
		w := generateEnv(t, gen, defaults(t, gen))
		var ratios []float64
		killed := 0
		for _, jobs := range [][]Job{w.History, w.Jobs} {
			for _, j := range jobs {
				if gen != GeneratorMustang {
					if j.Requested != 0 {
						t.Fatalf("%s job %d requests %v s, want none", gen, j.ID, j.Requested)
					}
					continue
				}
				if !slices.Contains(mustangModel.wallLimits, j.Requested) || j.Runtime > j.Requested {
					t.Fatalf("job %d: runtime %v s, requested %v s; want a limit of %v at or above the runtime", j.ID, j.Runtime, j.Requested, mustangModel.wallLimits)
				}
				if j.Runtime == j.Requested {
					killed++
				}
				ratios = append(ratios, j.Requested/j.Runtime)
			}
		}
		if gen != GeneratorMustang {
			continue
		}
		slices.Sort(ratios)
		share := float64(killed) / float64(len(ratios))
		t.Logf("mustang: %.2f%% of runs killed at their limit, requested/runtime p10 %.2f p50 %.2f p90 %.2f",
			100*share, quantile(ratios, 0.1), quantile(ratios, 0.5), quantile(ratios, 0.9))
		if share > 0.03 || quantile(ratios, 0.5) < 1.5 {
			t.Errorf("mustang: %.1f%% killed at the limit (want ≤ 3%%), median requested/runtime %.2f (want ≥ 1.5)", 100*share, quantile(ratios, 0.5))
		}
	}
}

// TestMustangWholeNodes checks that Mustang-like jobs ask for powers of two
// of whole nodes.
func TestMustangWholeNodes(t *testing.T) {
	w := generateEnv(t, GeneratorMustang, defaults(t, GeneratorMustang))
	for _, j := range w.Jobs {
		if j.Nodes&(j.Nodes-1) != 0 {
			t.Fatalf("job %d asks for %d nodes, not a power of two", j.ID, j.Nodes)
		}
	}
	if s := Stats(w); s.GangSize.Max < 32 {
		t.Errorf("gang sizes not heavy-tailed: %+v", s.GangSize)
	}
}

// TestEnvironmentJobCounts checks the scale of every environment's default
// window: about the paper's 1,500 jobs (3Sigma §5), every seed within
// 600–3,000 and the mean over seeds within 900–2,000.
func TestEnvironmentJobCounts(t *testing.T) {
	const seeds = 8
	for _, gen := range Generators() {
		total := 0
		for seed := uint64(1); seed <= seeds; seed++ {
			p := defaults(t, gen)
			p.Seed, p.HistoryJobs = seed, 0
			n := len(generateEnv(t, gen, p).Jobs)
			if n < 600 || n > 3000 {
				t.Errorf("%s seed %d: %d jobs, want 600–3000", gen, seed, n)
			}
			total += n
		}
		if mean := total / seeds; mean < 900 || mean > 2000 {
			t.Errorf("%s: mean %d jobs over %d seeds, want 900–2000", gen, mean, seeds)
		}
	}
}

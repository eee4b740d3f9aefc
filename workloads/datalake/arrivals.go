package datalake

import (
	"math"
	"math/rand/v2"
)

// arrival is a job the lake submits on its own schedule (periodic,
// aperiodic and ad-hoc jobs); polling jobs are submitted when their
// inputs appear (sim.go).
type arrival struct {
	template, instance int
	submit             float64
}

// instanceRand is the random stream of one job: its runtime, jitter and
// polling delay do not depend on the order the simulation meets it in,
// so the sizing run and the real run draw the same job.
func instanceRand(seed uint64, template, instance int) *rand.Rand {
	return rand.New(rand.NewPCG(seed^0x9e3779b97f4a7c15*uint64(template+1), uint64(int64(instance))))
}

// firstInstance is the first instance of a template with a period that
// the lake runs: a periodic template's first on the clock at or after
// WorldStart, a polling template's the latest first instance of its
// inputs. Older instances are bootstrap data.
func firstInstance(ts []Template, memo map[int]int, id int) int {
	if n, ok := memo[id]; ok {
		return n
	}
	t := &ts[id]
	n := math.MinInt32
	switch t.Kind {
	case Hourly, Daily:
		n = int(math.Ceil((WorldStart - t.Offset) / t.Period))
	case Polling:
		for _, d := range t.Deps {
			n = max(n, firstInstance(ts, memo, d.Upstream))
		}
	}
	memo[id] = n
	return n
}

// periodicArrivals lists every periodic job in [WorldStart, WindowEnd):
// instance n of template t at n·Period + Offset plus under a second of
// jitter (workflow managers submit on the clock).
func periodicArrivals(seed uint64, ts []Template, first map[int]int) []arrival {
	var out []arrival
	for i := range ts {
		t := &ts[i]
		if !t.Kind.Periodic() {
			continue
		}
		for n := firstInstance(ts, first, i); ; n++ {
			at := float64(n)*t.Period + t.Offset
			if at >= WindowEnd {
				break
			}
			at += instanceRand(seed, i, n).Float64()
			out = append(out, arrival{template: i, instance: n, submit: at})
		}
	}
	return out
}

// diurnal is the relative arrival rate at time t of a process with
// daily amplitude a, peaking at noon: 1 + a·sin(2π t/Day − π/2).
func diurnal(t, a float64) float64 {
	return 1 + a*math.Sin(2*math.Pi*t/Day-math.Pi/2)
}

// poisson draws the times of a Poisson process of mean rate (per second)
// modulated by diurnal(·, a) over [from, to), by thinning.
func poisson(rng *rand.Rand, rate, a, from, to float64) []float64 {
	var out []float64
	peak := rate * (1 + a)
	for t := from; ; {
		t += rng.ExpFloat64() / peak
		if t >= to {
			return out
		}
		if rng.Float64()*(1+a) < diurnal(t, a) {
			out = append(out, t)
		}
	}
}

// aperiodicArrivals draws the jobs of the aperiodic templates: Poisson
// with a mild daily cycle (amplitude 0.3).
func aperiodicArrivals(rng *rand.Rand, ts []Template) []arrival {
	var out []arrival
	for i := range ts {
		if ts[i].Kind != Aperiodic {
			continue
		}
		for n, at := range poisson(rng, ts[i].Rate, 0.3, WorldStart, WindowEnd) {
			out = append(out, arrival{template: i, instance: n, submit: at})
		}
	}
	return out
}

// adhocArrivals draws the ad-hoc scripts: a Poisson process of
// adhocPerDayAtScale1 × scale a day with a strong daily cycle (amplitude
// 0.6, business hours), each script by a user drawn by organisation and
// user weight, a share pRerun of them submitted again 1–6 hours later.
func (b *builder) adhocArrivals() []arrival {
	rng := b.rng
	var out []arrival
	rate := adhocPerDayAtScale1 * b.scale / Day
	prev := make([]int, len(b.users))
	for i := range prev {
		prev[i] = -1
	}
	for _, at := range poisson(rng, rate, 0.6, WorldStart, WindowEnd) {
		org := b.pickOrg()
		u := b.pickUser(org)
		id := b.adhocTemplate(u, prev[u])
		prev[u] = id
		out = append(out, arrival{template: id, instance: 0, submit: at})
		if rng.Float64() < pRerun {
			again := at + Hour + 5*Hour*rng.Float64()
			if again < WindowEnd {
				out = append(out, arrival{template: id, instance: 1, submit: again})
			}
		}
	}
	return out
}

package wing

import (
	"math"

	"github.com/plannerhq/planner/workloads/datalake"
)

// Arrival is the arrival predictor of §3.1 for one recurring template
// dependency: given a job of template Up, will a job of template Down
// come and read it (T1), and when (T2)?
type Arrival struct {
	// Up and Down index Profile.Templates.
	Up   int              `json:"up"`
	Down int              `json:"down"`
	Kind datalake.DepKind `json:"kind"`
	// Jobs is the number of valued jobs of Up it learned from; Consumed
	// the share of them read by a job of Down.
	Jobs     int     `json:"jobs"`
	Consumed float64 `json:"consumed"`
	// Predicted (T1): Consumed ≥ the threshold tr (and at least one
	// job was read).
	Predicted bool `json:"predicted"`
	// TTD (T2) is the median time from an Up job's submission to the
	// submission of the first Down job that read it (s).
	TTD float64 `json:"ttd_s"`
	// Contribution is the mean over Up's valued jobs of the aggregate
	// value its direct Down dependents pass it: Σ over them of
	// (1/N_d) · agg(d), N_d their numbers of upstream jobs.
	Contribution float64 `json:"contribution"`
}

// arrivals learns the predictor on the valued jobs of each recurring
// template dependency's upstream template (those ω before the log's end,
// whose dependents the log holds).
func (p *Profile) arrivals() {
	g := p.log
	p.arrivalsOf = map[int][]int{}
	for _, d := range p.Deps {
		if !d.Recurring {
			continue
		}
		a := Arrival{Up: d.Up, Down: d.Down, Kind: d.Kind}
		var ttd []float64
		consumed := 0
		for _, u := range p.Templates[d.Up].Jobs {
			if !p.valued(u) {
				continue
			}
			a.Jobs++
			first := math.Inf(1)
			for _, x := range p.downs[u] {
				if p.tmpl[x] != d.Down {
					continue
				}
				first = min(first, g.Jobs[x].Submit)
				if g.Jobs[x].Start-g.Jobs[u].End <= p.opts.ValueWindow {
					a.Contribution += p.AggValue[x] / float64(len(p.ups[x]))
				}
			}
			if !math.IsInf(first, 1) {
				consumed++
				ttd = append(ttd, first-g.Jobs[u].Submit)
			}
		}
		if a.Jobs == 0 {
			continue
		}
		a.Consumed = float64(consumed) / float64(a.Jobs)
		a.Contribution /= float64(a.Jobs)
		a.Predicted = a.Consumed >= p.opts.Threshold && consumed > 0
		a.TTD = median(ttd)
		p.arrivalsOf[d.Up] = append(p.arrivalsOf[d.Up], len(p.Arrivals))
		p.Arrivals = append(p.Arrivals, a)
	}
}

// Predict lists the arrivals the predictor expects after a job of
// template: every downstream template predicted to come (T1), with its
// kind and predicted time from the job's submission (T2).
func (p *Profile) Predict(template string) []Arrival {
	t, ok := p.byName[template]
	if !ok {
		return nil
	}
	var out []Arrival
	for _, a := range p.arrivalsOf[t] {
		if p.Arrivals[a].Predicted {
			out = append(out, p.Arrivals[a])
		}
	}
	return out
}

package wing

import (
	"github.com/plannerhq/planner/workloads/datalake"
)

// shares infers the §2.3 statistics (datalake.Shares documents each)
// from the profile: the analysed jobs are those of the observed period,
// the dependencies the inferred edges into them, the classes Table 1's.
func (p *Profile) shares() {
	g := p.log
	s := &p.Shares
	var nA, nRec, nUp, nUncoord, nDeps, nRecDeps, nCross int
	var ids []int
	var inner [][2]int
	for i := range g.Jobs {
		if !p.analysed(i) {
			continue
		}
		nA++
		ids = append(ids, i)
		c := &p.Templates[p.tmpl[i]]
		if len(p.ups[i]) > 0 {
			nUp++
		}
		hard := false
		for _, u := range p.ups[i] {
			nDeps++
			uc := &p.Templates[p.tmpl[u]]
			if uc.Recurring && c.Recurring {
				nRecDeps++
			}
			if g.Jobs[u].Org != g.Jobs[i].Org {
				nCross++
			}
			if p.EdgeKind(Edge{Up: u, Down: i}) == datalake.Hard {
				hard = true
			}
			if p.analysed(u) {
				inner = append(inner, [2]int{u, i})
			}
		}
		if c.Recurring {
			nRec++
			if !c.Polling && (hard || g.Jobs[i].Status != datalake.Completed) {
				nUncoord++
			}
		}
	}
	s.RecurringJobs = frac(nRec, nA)
	s.JobsWithUpstream = frac(nUp, nA)
	s.RecurringDeps = frac(nRecDeps, nDeps)
	s.CrossOrg = frac(nCross, nDeps)
	s.Uncoordinated = frac(nUncoord, nRec)
	inverted := make([]bool, len(p.Templates))
	for _, d := range p.Deps {
		if d.Recurring && d.Up != d.Down && p.Templates[d.Down].Priority > p.Templates[d.Up].Priority {
			inverted[d.Up] = true
		}
	}
	nTpl, nInv := 0, 0
	for t := range p.Templates {
		c := &p.Templates[t]
		if c.Recurring {
			nTpl++
			if inverted[t] {
				nInv++
			}
		}
	}
	s.InvertibleTemplates = frac(nInv, nTpl)
	s.LargestComponent, s.Component10 = datalake.ComponentShares(ids, inner)
	var values []float64
	byQueue := map[string][][2]float64{}
	for i := range g.Jobs {
		j := &g.Jobs[i]
		if !p.analysed(i) || j.End > g.End-p.opts.ValueWindow {
			continue
		}
		values = append(values, p.Local[i])
		byQueue[j.Org] = append(byQueue[j.Org], [2]float64{float64(j.Priority), p.Local[i]})
	}
	s.ZipfS = datalake.ZipfExponent(values)
	s.PrioritySpearman = datalake.MaxSpearman(byQueue)
}

func frac(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

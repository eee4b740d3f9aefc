package wing

import (
	"github.com/plannerhq/planner/workloads/datalake"
)

// Evaluation judges a profile against the lake its log came from: what
// the profiler inferred against the generator's truth, which the
// profiler never reads.
type Evaluation struct {
	// EdgePrecision and EdgeRecall compare the inferred single-hop edges
	// with the true ones (Lake.HistoryEdges).
	EdgePrecision float64 `json:"edge_precision"`
	EdgeRecall    float64 `json:"edge_recall"`
	// ValueAgreement is the share of valued jobs whose inferred job-local
	// value equals their true downloads.
	ValueAgreement float64 `json:"value_agreement"`
	// ClassAccuracy is the share of templates in the log whose Table 1
	// class (periodic, aperiodic, polling, ad-hoc) is their true kind's;
	// DepKindAccuracy the share of inferred edges whose kind is the true
	// input's.
	ClassAccuracy   float64 `json:"class_accuracy"`
	DepKindAccuracy float64 `json:"dep_kind_accuracy"`
	// ArrivalPrecision and ArrivalRecall judge the arrival predictor
	// (T1) on the window: for each window job of a template with
	// recurring dependents, and each of those dependent templates, was a
	// job of it predicted to read the job, and did one? Jobs submitted
	// in the window's last day are left out (their readers may come
	// after it).
	ArrivalPrecision float64 `json:"arrival_precision"`
	ArrivalRecall    float64 `json:"arrival_recall"`
}

// Evaluate judges p against lake l, whose Log p was built from.
func Evaluate(p *Profile, l *datalake.Lake) Evaluation {
	var ev Evaluation
	g := p.log
	truth := map[[2]int]bool{}
	for _, e := range l.HistoryEdges() {
		truth[e] = true
	}
	hit := 0
	for _, e := range p.Edges {
		if truth[[2]int{g.Jobs[e.Up].ID, g.Jobs[e.Down].ID}] {
			hit++
		}
	}
	ev.EdgePrecision, ev.EdgeRecall = frac(hit, len(p.Edges)), frac(hit, len(truth))

	agree, n := 0, 0
	for i := range g.Jobs {
		if !p.valued(i) {
			continue
		}
		n++
		if p.Local[i] == float64(l.Jobs[g.Jobs[i].ID].LocalValue()) {
			agree++
		}
	}
	ev.ValueAgreement = frac(agree, n)

	trueKind := map[string]datalake.Kind{}
	for _, t := range l.Templates {
		trueKind[t.Name] = t.Kind
	}
	ok := 0
	for t := range p.Templates {
		if classOf(trueKind[p.Templates[t].Name]) == p.Templates[t].Class() {
			ok++
		}
	}
	ev.ClassAccuracy = frac(ok, len(p.Templates))

	ok, n = 0, 0
	for _, e := range p.Edges {
		kinds := map[datalake.DepKind]bool{}
		for _, in := range l.Jobs[g.Jobs[e.Down].ID].Inputs {
			if in.Writer == g.Jobs[e.Up].ID {
				kinds[in.Kind] = true
			}
		}
		if len(kinds) == 0 {
			continue
		}
		n++
		if kinds[p.EdgeKind(e)] {
			ok++
		}
	}
	ev.DepKindAccuracy = frac(ok, n)

	ev.ArrivalPrecision, ev.ArrivalRecall = p.judgeArrivals(l)
	return ev
}

// classOf is the Table 1 class of a true template kind.
func classOf(k datalake.Kind) string {
	switch k {
	case datalake.Hourly, datalake.Daily:
		return "periodic"
	case datalake.Polling:
		return "polling"
	case datalake.AdHoc:
		return "adhoc"
	}
	return "aperiodic"
}

// judgeArrivals is the arrival predictor's precision and recall on the
// lake's window (see Evaluation).
func (p *Profile) judgeArrivals(l *datalake.Lake) (precision, recall float64) {
	read := map[[2]int]bool{} // (window job id, reader template)
	tr := l.Truth()
	name := map[int]string{}
	for _, jt := range tr.Jobs {
		name[jt.ID] = jt.Template
	}
	for _, e := range tr.Edges() {
		if t, ok := p.byName[name[e[1]]]; ok {
			read[[2]int{e[0], t}] = true
		}
	}
	tp, fp, fn := 0, 0, 0
	for _, jt := range tr.Jobs {
		if l.Jobs[jt.ID].Submit >= tr.Window-datalake.Day || jt.RealStatus != datalake.Completed {
			continue
		}
		t, ok := p.byName[jt.Template]
		if !ok {
			continue
		}
		for _, a := range p.arrivalsOf[t] {
			ar := &p.Arrivals[a]
			actual := read[[2]int{jt.ID, ar.Down}]
			switch {
			case ar.Predicted && actual:
				tp++
			case ar.Predicted:
				fp++
			case actual:
				fn++
			}
		}
	}
	return frac(tp, tp+fp), frac(tp, tp+fn)
}

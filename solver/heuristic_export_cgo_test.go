//go:build cgo

package solver

import (
	"context"
	"math"
)

// RelaxForTest solves the LP relaxation of m with CLP and returns its answer
// and objective (NaN objective when not optimal).
func RelaxForTest(ctx context.Context, m *Model) ([]float64, float64, error) {
	lp, err := relaxCLP(ctx, m, nil)
	if err != nil {
		return nil, 0, err
	}
	obj := lp.Objective
	if !lp.Optimal {
		obj = math.NaN()
	}
	return lp.X, obj, nil
}

// CBCForTest runs the cbc engine in process under s.
func CBCForTest(ctx context.Context, m *Model, s *Settings) (*Result, error) {
	eng, ok := cgoEngines()["cbc"]
	if !ok {
		return nil, ErrUnknown
	}
	return eng(ctx, m, s, nil)
}

// RoundingForTest runs roundingEngine over CLP in process.
func RoundingForTest(ctx context.Context, m *Model, s *Settings) (*Result, error) {
	return roundingEngine(relaxCLP)(ctx, m, s, nil)
}

// SecondGuide is what secondGuide builds from the guided construction of
// a model (see SecondGuideForTest).
type SecondGuide struct {
	Root, Best   []float64 // the LP answer (of the reduced model) and its guided construction
	Branch       int       // the column of the branch option, −1 for none
	Guide, Start []float64 // the second guide (the branch's keep side) and its best construction; nil for none
	Flip         int       // the column of the flip side's option, −1 for none
	FlipGuide    []float64 // the flip side's guide; nil for none
	FlipStart    []float64 // its best construction
}

// SecondGuideForTest runs the stages of roundingEngine up to the second
// guide, in deterministic mode: the LP of the reduced model over CLP, the
// guided constructions, the branch choice and the LP solved again.
func SecondGuideForTest(ctx context.Context, m *Model) SecondGuide {
	out := SecondGuide{Branch: -1, Flip: -1}
	h := newHeuristic(m)
	s := &Settings{Deterministic: true}
	rm, _ := h.reduced()
	relax := h.substituted(relaxCLP)
	lp, err := relax(ctx, rm, s)
	if err != nil || !lp.Optimal {
		return out
	}
	h.rc = lp.itemRC
	h.relaxWith = h.relaxFixing(relax, rm, s)
	out.Root = lp.X
	b := h.newIncumbent(nil)
	h.construction(ctx, lp.X, false, b)
	out.Best = b.x
	if it := h.guideBranch(b.x); it >= 0 {
		out.Branch = int(h.items[it])
		if f := h.flipSide(h.rivals(it)); f >= 0 {
			out.Flip = int(h.items[f])
		}
	}
	g, _ := h.secondGuide(ctx, s, b.x)()
	if g.keep != nil {
		out.Guide, out.Start = g.keep.guide, g.keep.x
	}
	if g.flip != nil {
		out.FlipGuide, out.FlipStart = g.flip.guide, g.flip.x
	}
	return out
}

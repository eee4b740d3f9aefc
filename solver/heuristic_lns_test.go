package solver

import (
	"math/rand/v2"
	"testing"
)

// TestRelinkTakesTheElitesSplit: from an empty answer, a relink move puts
// in only elite items, each with exactly the elite's counts per child; from
// another answer, relink and recreate keep every row feasible and put in
// at least one missing elite item.
func TestRelinkTakesTheElitesSplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	tried := 0
	for trial := 0; trial < 300; trial++ {
		m := enumRack(rng)
		h := newHeuristic(m)
		if !h.simple {
			continue
		}
		elite := h.roundAndRepair(nil)
		if elite == nil || h.objective(elite) <= 0 {
			continue
		}
		tried++
		l := h.newLNS(h.newPackState(nil))
		l.setElite(elite)
		l.relink()
		s := l.s
		if len(s.active) == 0 {
			t.Fatalf("trial %d: relink from an empty answer put nothing in", trial)
		}
		for _, it := range s.active {
			if elite[h.items[it]] < 0.5 {
				t.Fatalf("trial %d: item %d is not in the elite", trial, it)
			}
			for g := h.gStart[it]; g < h.gStart[it+1]; g++ {
				for c := h.groups[g].first; c < h.groups[g].end; c++ {
					if col := h.child[c]; s.x[col] != elite[col] {
						t.Fatalf("trial %d: column %d is %g, the elite has %g", trial, col, s.x[col], elite[col])
					}
				}
			}
		}

		// From another answer: the unguided construction of a random order.
		other := h.newLNS(h.newPackState(nil))
		other.recreate(h.sampleOrder(nil, rng, trial, make([]float64, len(h.items)), sampleNoise).order, nil)
		other.setElite(elite)
		missing := 0
		for _, it := range other.eliteIn {
			if !other.s.on[it] {
				missing++
			}
		}
		before := append([]bool(nil), other.s.on...)
		other.relink()
		if missing > 0 {
			in := false
			for _, it := range other.eliteIn {
				in = in || (other.s.on[it] && !before[it])
			}
			if !in {
				t.Fatalf("trial %d: %d elite items missing, none put in", trial, missing)
			}
		}
		other.recreate(other.orders[0].order, nil)
		x := append([]float64(nil), other.s.x...)
		if err := m.CheckFeasible(x); err != nil {
			t.Fatalf("trial %d: after relink and recreate: %v", trial, err)
		}
	}
	if tried < 50 {
		t.Fatalf("only %d of 300 models had a non-empty answer to relink toward", tried)
	}
}

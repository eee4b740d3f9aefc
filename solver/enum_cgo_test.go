//go:build cgo

package solver

import (
	"context"
	"sort"
	"testing"
	"time"
)

// exactEngines must find the enumerated optimum on every small case.
var exactEngines = map[string]bool{"cbc": true, "lpsolve": true}

// forEachEngine runs f for every cgo engine of this build, in process, in
// name order (the in-process backends are GreedySolver and clpSolver:
// TestEnumGreedy, TestBackendsEnumerated).
func forEachEngine(t *testing.T, f func(t *testing.T, name string, eng engine)) {
	engines := cgoEngines()
	names := make([]string, 0, len(engines))
	for n := range engines {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Run(n, func(t *testing.T) { f(t, n, engines[n]) })
	}
}

func TestEnumEngines(t *testing.T) {
	cases := enumCases(100)
	forEachEngine(t, func(t *testing.T, name string, eng engine) {
		optimal := 0
		for _, c := range cases {
			s := DefaultSettings()
			s.TimeLimit = 10 * time.Second
			ctx, cancel := context.WithTimeout(context.Background(), s.TimeLimit)
			res, err := eng(ctx, c.m, s, nil)
			cancel()
			if err != nil {
				t.Fatalf("%s on %s: %v", name, c.name, err)
			}
			checkEnumAnswer(t, c, name, res, exactEngines[name])
			if c.feasible && res.X != nil && sameObjective(c.m.ObjectiveValue(res.X), c.opt) {
				optimal++
			}
		}
		t.Logf("%s: optimum on %d cases", name, optimal)
	})
}

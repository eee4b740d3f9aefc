//go:build cgo

package solver

import (
	"context"
	"testing"
	"time"
)

// exactEngines must find the enumerated optimum on every small case.
var exactEngines = map[string]bool{"cbc": true, "lpsolve": true}

// forEachEngine runs f for the worker engine of every backend of this
// build that solves whole in a worker, in process, in name order (the
// in-process backends are GreedySolver and clpSolver: TestEnumGreedy,
// TestBackendsEnumerated).
func forEachEngine(t *testing.T, f func(t *testing.T, name string, eng engine)) {
	for _, r := range builtRows() {
		if r.placement == InWorker {
			t.Run(r.name, func(t *testing.T) { f(t, r.name, r.worker) })
		}
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

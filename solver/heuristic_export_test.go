package solver

import (
	"bytes"
	"context"
	"reflect"
	"time"
)

// Test hooks for the external tests (package solver_test), which may import
// solver/instances: that package imports solver, so only an external test
// package can use both.

// RoundAndRepairForTest is roundAndRepair.
func RoundAndRepairForTest(m *Model, guide []float64) []float64 { return roundAndRepair(m, guide) }

// HeuristicForTest is a shared analysis of m, for benchmarks.
type HeuristicForTest struct{ h *heuristic }

// NewHeuristicForTest analyses m.
func NewHeuristicForTest(m *Model) HeuristicForTest { return HeuristicForTest{newHeuristic(m)} }

// RoundAndRepair is heuristic.roundAndRepair.
func (t HeuristicForTest) RoundAndRepair(guide []float64) []float64 { return t.h.roundAndRepair(guide) }

// Simple reports whether the model was recognised as options, counts and packing rows.
func (t HeuristicForTest) Simple() bool { return t.h.simple }

// Reduced is heuristic.reduced.
func (t HeuristicForTest) Reduced() (*Model, int) { return t.h.reduced() }

// LPGuideForTest returns the answer of the LP relaxation of the reduced
// model (CLP, in process; nil without cgo or when the LP has none), as the
// clp backend uses it.
func LPGuideForTest(ctx context.Context, m *Model) []float64 {
	if _, ok := lookup(CLPName); !ok {
		return nil
	}
	rm, _ := newHeuristic(m).reduced()
	lp, err := relaxCLP(ctx, rm, nil)
	if err != nil || lp == nil {
		return nil
	}
	return lp.X
}

// SetWallClockForTest makes now the engines' wall clock until restore is
// called; no solve may be running across either call.
func SetWallClockForTest(now func() time.Time) (restore func()) {
	old := wallNow
	wallNow = now
	return func() { wallNow = old }
}

// AnalysisFinishesForTest reports whether the analysis of m ends when done
// is already closed.
func AnalysisFinishesForTest(m *Model, done <-chan struct{}) bool {
	return newHeuristicUntil(m, done) != nil
}

// RequestFinishesForTest reports whether the worker request of m is
// written whole when done is already closed, and whether it then reads back
// as m.
func RequestFinishesForTest(m *Model, done <-chan struct{}) (finished, same bool) {
	var buf bytes.Buffer
	if err := writeRequestUntil(&buf, &workerRequest{Engine: GreedyName, Model: m}, done); err != nil {
		return false, false
	}
	req, err := readRequest(&buf)
	return true, err == nil && reflect.DeepEqual(req.Model, m)
}

package solver

import "context"

// Test hooks for the external tests (package solver_test), which may import
// solver/instances: that package imports solver, so only an external test
// package can use both.

// RoundAndRepairForTest is roundAndRepair.
func RoundAndRepairForTest(m *Model, guide []float64) []float64 { return roundAndRepair(m, guide) }

// ImproveForTest is improve.
func ImproveForTest(ctx context.Context, m *Model, x []float64, maxMoves int64) ([]float64, int64) {
	return improve(ctx, m, x, maxMoves, nil)
}

// HeuristicForTest is a shared analysis of m, for benchmarks.
type HeuristicForTest struct{ h *heuristic }

// NewHeuristicForTest analyses m.
func NewHeuristicForTest(m *Model) HeuristicForTest { return HeuristicForTest{newHeuristic(m)} }

// RoundAndRepair is heuristic.roundAndRepair.
func (t HeuristicForTest) RoundAndRepair(guide []float64) []float64 { return t.h.roundAndRepair(guide) }

// Improve is heuristic.improve.
func (t HeuristicForTest) Improve(ctx context.Context, x []float64, maxMoves int64) ([]float64, int64) {
	return t.h.improve(ctx, x, maxMoves, nil)
}

// Simple reports whether the model was recognised as options, counts and packing rows.
func (t HeuristicForTest) Simple() bool { return t.h.simple }

// SetLNSThreshold sets the record-to-record threshold (experiments).
func SetLNSThreshold(v float64) { lnsThreshold = v }

// SetLNSTargetPower sets the ejection target weighting power (experiments).
func SetLNSTargetPower(v float64) { lnsTargetPower = v }

// EjectForTest starts from x, ejects for the item of column col, recreates
// in each order and returns the objective after each.
func EjectForTest(m *Model, x []float64, col int) []float64 {
	h := newHeuristic(m)
	var out []float64
	for o := 0; o < lnsOrders; o++ {
		s := h.newPackState(x)
		l := h.newLNS(s)
		it := h.itemOf[col]
		s.logging = true
		l.cumOverride(it)
		l.ruinEject()
		mid := s.obj
		l.recreate(l.orders[o].order, nil)
		out = append(out, mid, s.obj)
	}
	return out
}

func (l *lns) cumOverride(it int32) {
	for i := range l.cum {
		if int32(i) < it {
			l.cum[i] = 0
		} else {
			l.cum[i] = 1
		}
	}
}

// SetLNSShift turns shifting in clearRow on or off (experiments).
func SetLNSShift(on bool) { lnsShift = on }

// Reduced is heuristic.reduced.
func (t HeuristicForTest) Reduced() (*Model, int) { return t.h.reduced() }

// SetDebugConstruct sets a hook receiving each construction's objective.
func SetDebugConstruct(f func(name string, obj float64)) { debugConstruct = f }

// SetLNSMix sets the ruin weights and the largest ruin (experiments).
func SetLNSMix(random, related, eject, maxRuin int) {
	lnsMix = [3]int{random, related, eject}
	lnsMaxRuin = maxRuin
}

// SetSamples sets the number of sampled constructions of untimed solves.
func SetSamples(n int) { greedySamples = n }

// WorkerStartForTest measures, in a worker process, how long after the call
// the engine starts (through a probe engine's first incumbent).
func WorkerGreedyForTest(ctx context.Context, m *Model, s *Settings) (*Result, error) {
	return solveInWorker(ctx, GreedyName, m, s)
}

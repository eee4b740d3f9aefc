package main

import (
	"errors"
	"fmt"
	"math"
)

// maxSyntheticPct bounds --synthetic-shift and --synthetic-cov: estimates
// of up to 101 times the runtime. Far beyond it (a shift of 1e308%) the
// 3sigma scheduler's solves fell back to its heuristics.
const maxSyntheticPct = 1e4

func (e *estimateFlags) validate() error {
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	switch {
	case e.samplesPerFeature < 0:
		return fmt.Errorf("--samples-per-feature: must be ≥ 0, got %d", e.samplesPerFeature)
	case !finite(e.syntheticShift) || e.syntheticShift <= -100 || e.syntheticShift > maxSyntheticPct:
		return fmt.Errorf("--synthetic-shift: must be a percentage in (-100, %g], got %v", float64(maxSyntheticPct), e.syntheticShift)
	case !finite(e.syntheticCoV) || e.syntheticCoV < 0 || e.syntheticCoV > maxSyntheticPct:
		return fmt.Errorf("--synthetic-cov: must be in [0, %g] percent, got %v", float64(maxSyntheticPct), e.syntheticCoV)
	case e.synthetic && e.samplesPerFeature > 0:
		return errors.New("--samples-per-feature: has no effect with --synthetic (the estimates do not come from history)")
	}
	return nil
}

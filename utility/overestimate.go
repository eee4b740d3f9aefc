package utility

import (
	"fmt"
	"math"

	"github.com/plannerhq/planner/distributions"
)

// DefaultOverestimateThreshold is the default threshold of adaptive
// over-estimate handling (3Sigma §4.2): the extension is turned on for an
// SLO job only when P(runtime ≤ deadline − submit) is below it. The paper
// leaves the value to configuration; 0.05 is our choice, reading its "no
// chance of meeting its deadline even if started upon submission" as
// "less than a 5% chance". Sweep it with the 3sigma variants.
const DefaultOverestimateThreshold = 0.05

// DefaultPostDeadlineFraction is the default post-deadline value of the
// over-estimate extension as a fraction of the SLO value. With it no larger
// than DefaultOverestimateThreshold, an extended job (chance p below the
// threshold) is worth at most about p·V + 0.05·V, which keeps it near or
// below jobs of the same value V that still have a real chance.
const DefaultPostDeadlineFraction = 0.05

// Overestimate selects how SLO curves handle over-estimated runtime
// distributions (3Sigma §4.2; the 3sigma, 3sigma-noadapt and 3sigma-nooe
// variants of DESIGN.md).
type Overestimate int

const (
	// OverestimateAdaptive extends a job's curve only when
	// NeedsOverestimateHandling says so (the 3sigma default).
	OverestimateAdaptive Overestimate = iota
	// OverestimateOff always uses the SLO step (3sigma-nooe).
	OverestimateOff
	// OverestimateAlways always uses the extended curve (3sigma-noadapt).
	OverestimateAlways
)

var overestimateNames = [...]string{"adaptive", "off", "always"}

// String returns "adaptive", "off" or "always".
func (o Overestimate) String() string {
	if o >= 0 && int(o) < len(overestimateNames) {
		return overestimateNames[o]
	}
	return fmt.Sprintf("Overestimate(%d)", int(o))
}

// ParseOverestimate is the inverse of String.
func ParseOverestimate(s string) (Overestimate, error) {
	for i, name := range overestimateNames {
		if s == name {
			return Overestimate(i), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown over-estimate mode %q (want adaptive, off or always)", ErrInvalid, s)
}

// NeedsOverestimateHandling is the adaptive switch of 3Sigma §4.2: it
// reports whether P(T ≤ deadline − submit) < threshold, i.e. whether the
// job, even if started the moment it was submitted, is unlikely to meet its
// deadline under d — a sign that d over-estimates it. Times are seconds on
// the plan clock; threshold is a probability in [0, 1] (see
// DefaultOverestimateThreshold).
func NeedsOverestimateHandling(d distributions.Dist, submit, deadline, threshold float64) (bool, error) {
	if d == nil {
		return false, fmt.Errorf("%w: nil distribution", ErrInvalid)
	}
	if !finite(submit) || !finite(deadline) {
		return false, fmt.Errorf("%w: submit %g and deadline %g must be finite", ErrInvalid, submit, deadline)
	}
	if math.IsNaN(threshold) || threshold < 0 || threshold > 1 {
		return false, fmt.Errorf("%w: over-estimate threshold must be in [0, 1], got %g", ErrInvalid, threshold)
	}
	p, err := cdfOne(d, deadline-submit)
	if err != nil {
		return false, err
	}
	return p < threshold, nil
}

// cdfOne returns P(T ≤ x), from the segments for a Piecewise.
func cdfOne(d distributions.Dist, x float64) (float64, error) {
	if rt, ok := d.(*Runtime); ok {
		if rt.Len() == 0 {
			return 0, errEmptyRuntime
		}
		return rt.CDF(x), nil
	}
	if pw, ok := d.(distributions.Piecewise); ok {
		segs := pw.Segments()
		if err := validateSegments(segs); err != nil {
			return 0, err
		}
		// Sum from the left so that small probabilities stay accurate.
		acc := 0.0
		for _, s := range segs {
			switch {
			case s.Hi <= x:
				acc += s.Mass
			case s.Lo < x:
				acc += s.Mass * ((x - s.Lo) / (s.Hi - s.Lo))
			}
		}
		return clamp01(acc), nil
	}
	return clamp01(d.CDF(x)), nil
}

// SLOSpec describes an SLO job's utility. Zero optional fields take the
// documented defaults.
type SLOSpec struct {
	Value    float64 // utility for completing by Deadline, ≥ 0
	Submit   float64 // seconds, plan clock
	Deadline float64 // seconds, plan clock, inclusive; > Submit
	// Post is the value just after the deadline when the extension is on;
	// 0 means DefaultPostDeadlineFraction · Value. Must be < Value.
	Post float64
	// Window is how long (seconds) the post-deadline value takes to decay
	// to 0; 0 means Deadline − Submit.
	Window float64
	// Threshold is the adaptive switch's threshold; 0 means
	// DefaultOverestimateThreshold.
	Threshold float64
}

// SLOCurve returns the utility curve of an SLO job under mode: the step
// (SLOStep) or the over-estimate extension (SLOExtended), the latter always
// (OverestimateAlways) or when NeedsOverestimateHandling(d, …) holds
// (OverestimateAdaptive); extended reports which. d is consulted only in
// adaptive mode.
func SLOCurve(mode Overestimate, spec SLOSpec, d distributions.Dist) (c Curve, extended bool, err error) {
	if !finite(spec.Submit) || !finite(spec.Deadline) || !(spec.Deadline > spec.Submit) {
		return Curve{}, false, fmt.Errorf("%w: SLO job needs finite submit %g < deadline %g", ErrInvalid, spec.Submit, spec.Deadline)
	}
	switch mode {
	case OverestimateOff:
		extended = false
	case OverestimateAlways:
		extended = true
	case OverestimateAdaptive:
		th := spec.Threshold
		if th == 0 {
			th = DefaultOverestimateThreshold
		}
		if extended, err = NeedsOverestimateHandling(d, spec.Submit, spec.Deadline, th); err != nil {
			return Curve{}, false, err
		}
	default:
		return Curve{}, false, fmt.Errorf("%w: unknown over-estimate mode %d", ErrInvalid, int(mode))
	}
	if !extended {
		c, err = SLOStep(spec.Value, spec.Deadline)
		return c, false, err
	}
	post, window := spec.Post, spec.Window
	if post == 0 {
		post = DefaultPostDeadlineFraction * spec.Value
	}
	if window == 0 {
		window = spec.Deadline - spec.Submit
	}
	c, err = SLOExtended(spec.Value, spec.Deadline, post, window)
	return c, true, err
}

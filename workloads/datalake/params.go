package datalake

import (
	"errors"
	"fmt"
	"math"
)

// Params are the generator's parameters.
type Params struct {
	// Seed seeds every random draw: the same Params give the same lake.
	Seed uint64 `json:"seed"`
	// Scale multiplies the numbers of organisations, workflows,
	// aperiodic templates and ad-hoc submissions; 1 gives about 1,900
	// jobs a day on 10 organisations. The shares of §2.3 hold from about
	// 0.5 up; below, a lake has too few workflows for them.
	Scale float64 `json:"scale"`
}

// Bounds of Params.Scale.
const (
	MinScale = 0.25
	MaxScale = 8
)

// DefaultParams are seed 1 at scale 1.
func DefaultParams() Params { return Params{Seed: 1, Scale: 1} }

// Validate reports the first parameter out of range.
func (p Params) Validate() error {
	if math.IsNaN(p.Scale) || p.Scale < MinScale || p.Scale > MaxScale {
		return fmt.Errorf("datalake: scale must be in [%g, %g], got %v", float64(MinScale), float64(MaxScale), p.Scale)
	}
	return nil
}

// errNoJobs is returned when a lake came out empty (it cannot at the
// allowed scales; the check keeps a broken model from passing silently).
var errNoJobs = errors.New("datalake: the generated lake has no jobs")

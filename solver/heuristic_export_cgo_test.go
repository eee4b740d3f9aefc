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
	return cbcEngine(ctx, m, s, nil)
}

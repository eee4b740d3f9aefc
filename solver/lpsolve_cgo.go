//go:build cgo

package solver

/*
#cgo CFLAGS: -I/usr/include/lpsolve
#cgo LDFLAGS: -llpsolve55 -lcolamd -lm -ldl
#include <stdio.h>
#include <lp_lib.h>

static void pl_lps_version(int *maj, int *min, int *rel, int *build) {
	lp_solve_version(maj, min, rel, build);
}
*/
import "C"

import (
	"context"
	"fmt"
)

// lpsolveVersion returns the version of the linked lp_solve library.
func lpsolveVersion() string {
	var a, b, c, d C.int
	C.pl_lps_version(&a, &b, &c, &d)
	return fmt.Sprintf("%d.%d.%d.%d", a, b, c, d)
}

func lpsolveEngine(ctx context.Context, m *Model, s *Settings, inc func(x []float64)) (*Result, error) {
	return nil, fmt.Errorf("%w: lpsolve not yet bound", ErrUnknown)
}

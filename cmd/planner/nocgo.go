package main

import (
	"fmt"
	"io"

	"github.com/plannerhq/planner/solver"
)

// warnSolverFallback prints solver.Fallback's warning once on stderr when
// the backend is the default (name "") and this build lacks it.
func warnSolverFallback(stderr io.Writer, name string) {
	if w := solver.Fallback(); name == "" && w != "" {
		fmt.Fprintln(stderr, w)
	}
}

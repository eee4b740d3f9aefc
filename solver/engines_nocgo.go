//go:build !cgo

package solver

// cgoBuild reports whether this binary links the C libraries.
const cgoBuild = false

// Without cgo no C library is linked. The bindings the backend table
// (registry.go) names are nil here, and the table leaves out the rows that
// need them: greedy alone remains.
var (
	cbcEngine, lpsolveEngine, lpEngine     engine
	cbcVersion, clpVersion, lpsolveVersion func() string
	relaxCLP                               relaxFunc
)

//go:build !cgo

package solver

import (
	"context"
	"fmt"
)

// cgoEngines is empty without cgo: the C libraries cannot be linked.
func cgoEngines() map[string]engine { return map[string]engine{} }

// cLibraryVersions is empty without cgo.
func cLibraryVersions() map[string]string { return map[string]string{} }

// haveCLP reports whether relaxCLP is backed by the CLP library.
func haveCLP() bool { return false }

// relaxCLP needs cgo.
func relaxCLP(ctx context.Context, m *Model, s *Settings) (*lpRelaxation, error) {
	return nil, fmt.Errorf("%w: clp (built without cgo)", ErrUnknown)
}

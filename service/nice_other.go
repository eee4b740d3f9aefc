//go:build !linux

package service

// lowerThreadPriority does nothing where threads have no priority of
// their own.
func lowerThreadPriority(int) error { return nil }

//go:build !linux

package svm

import "testing"

// cpuTimer is a no-op where the thread's CPU time is not available; the
// wall-clock ns/op stays.
type cpuTimer struct{}

func startCPU(*testing.B) *cpuTimer { return &cpuTimer{} }

func (*cpuTimer) stop(int) {}

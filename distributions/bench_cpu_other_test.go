//go:build !linux

package distributions

import "testing"

// cpuTimer is a no-op where the thread's CPU time is not available; the
// wall-clock ns/op stays.
type cpuTimer struct{}

func startCPU(b *testing.B) *cpuTimer { b.ResetTimer(); return &cpuTimer{} }

func (*cpuTimer) stop() {}

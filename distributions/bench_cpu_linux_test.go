//go:build linux

package distributions

import (
	"runtime"
	"syscall"
	"testing"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD: CPU time of the calling thread.
const rusageThread = 1

func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuTimer reports, next to the wall-clock ns/op, the CPU time the
// benchmark's own thread spent per op ("cpu-ns/op"). On a shared, loaded
// machine the wall clock also counts time spent waiting for a CPU; the
// thread's CPU time does not. The goroutine is locked to its thread for
// the measurement.
type cpuTimer struct {
	b     *testing.B
	start time.Duration
}

func startCPU(b *testing.B) *cpuTimer {
	runtime.LockOSThread()
	b.ResetTimer()
	return &cpuTimer{b: b, start: threadCPU()}
}

func (c *cpuTimer) stop() {
	d := threadCPU() - c.start
	c.b.StopTimer()
	runtime.UnlockOSThread()
	if c.b.N > 0 {
		c.b.ReportMetric(float64(d.Nanoseconds())/float64(c.b.N), "cpu-ns/op")
	}
}

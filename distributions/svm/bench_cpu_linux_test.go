//go:build linux

package svm

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
// benchmark's own thread spent per op ("cpu-ns/op"), which stays
// meaningful on a shared, loaded machine. Training runs on that thread
// (libsvm's svm_train is called from it too); the goroutine is locked to
// it for the measurement.
type cpuTimer struct {
	b     *testing.B
	start time.Duration
}

func startCPU(b *testing.B) *cpuTimer {
	runtime.LockOSThread()
	return &cpuTimer{b: b, start: threadCPU()}
}

func (c *cpuTimer) stop(ops int) {
	d := threadCPU() - c.start
	runtime.UnlockOSThread()
	if ops > 0 {
		c.b.ReportMetric(float64(d.Nanoseconds())/float64(ops), "cpu-ns/op")
	}
}

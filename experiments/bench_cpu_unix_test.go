//go:build unix

package experiments

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the test process has used (user + system,
// every thread: the simulation's and the garbage collector's). On a
// shared, loaded machine the wall clock also counts time spent waiting
// for a CPU; this does not.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

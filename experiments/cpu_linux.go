//go:build linux

package experiments

import (
	"syscall"
	"time"
)

// ProcessTreeCPU is the processor time (user + system) of this process
// and of its children that have ended, or 0 when it cannot be read. The
// solver's idle workers are alive: solver.CloseIdleWorkers first makes
// their time count.
func ProcessTreeCPU() time.Duration {
	var self, kids syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &self) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids) != nil {
		return 0
	}
	return time.Duration(self.Utime.Nano() + self.Stime.Nano() + kids.Utime.Nano() + kids.Stime.Nano())
}

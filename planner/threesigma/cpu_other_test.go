//go:build !linux

package threesigma

import "time"

// processTreeCPU is not measured outside Linux.
func processTreeCPU() time.Duration { return 0 }

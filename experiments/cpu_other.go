//go:build !linux

package experiments

import "time"

// ProcessTreeCPU is not measured outside Linux: it is 0.
func ProcessTreeCPU() time.Duration { return 0 }

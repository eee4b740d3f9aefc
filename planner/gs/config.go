package gs

import (
	"fmt"
	"math"
)

// Config are GS's priority queues (SLearn §5.2.1): Queues queues Q0 (the
// highest priority) … Q(N−1); a job of estimated size S node-seconds
// (mean task runtime × tasks × nodes per task; a gang's runtime × nodes)
// is in the first queue whose upper threshold exceeds S, Q0's being First
// and each next one Growth times the previous (the last has none); queue
// q's weight in the sharing of nodes is WeightRatio^−q.
type Config struct {
	Queues      int
	First       float64 // node-seconds
	Growth      float64
	WeightRatio float64
}

// Defaults of SLearn §5.2.1: 10 queues, Q0 up to 10⁶ ms = 1,000 s, each
// next threshold 10×, weights falling 10× per queue.
const (
	DefaultQueues      = 10
	DefaultFirst       = 1000.0
	DefaultGrowth      = 10.0
	DefaultWeightRatio = 10.0
)

// DefaultConfig is the paper's configuration.
func DefaultConfig() Config {
	return Config{Queues: DefaultQueues, First: DefaultFirst, Growth: DefaultGrowth, WeightRatio: DefaultWeightRatio}
}

// Validate reports a configuration GS cannot run with.
func (c Config) Validate() error {
	switch {
	case c.Queues < 1 || c.Queues > 64:
		return fmt.Errorf("gs: queues must be in [1, 64], got %d", c.Queues)
	case !(c.First > 0) || math.IsInf(c.First, 0):
		return fmt.Errorf("gs: first threshold must be > 0 node-seconds, got %v", c.First)
	case !(c.Growth > 1) || math.IsInf(c.Growth, 0):
		return fmt.Errorf("gs: threshold growth must be > 1, got %v", c.Growth)
	case !(c.WeightRatio >= 1) || math.IsInf(c.WeightRatio, 0):
		return fmt.Errorf("gs: weight ratio must be ≥ 1, got %v", c.WeightRatio)
	}
	return nil
}

// QueueOf is the queue of a job of size node-seconds: the least q with
// size < First · Growth^q, or the last queue.
func (c Config) QueueOf(size float64) int {
	hi := c.First
	for q := 0; q < c.Queues-1; q++ {
		if size < hi {
			return q
		}
		hi *= c.Growth
	}
	return c.Queues - 1
}

// weights writes the queues' sharing weights' inverses, WeightRatio^q,
// into w (one entry per queue): queue q's share of the nodes in use is in
// proportion to 1/w[q].
func (c Config) weights(w []float64) {
	f := 1.0
	for q := range w {
		w[q] = f
		f *= c.WeightRatio
	}
}

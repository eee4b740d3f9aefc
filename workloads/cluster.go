package workloads

import (
	"encoding/json"
	"slices"
	"strconv"
)

// Cluster is the simulated cluster: partitions (racks) of identical nodes,
// each partition with a speed, and the slowdown of a job off its preferred
// partitions. The zero values of the optional fields are the defaults, so
// a Cluster of PartitionNodes and Slowdown alone is the uniform cluster of
// the 3Sigma papers.
//
// A job's runtime on an allocation (RuntimeOn) is
//
//	runtime × slowdown / speed  seconds,
//
// with runtime its nominal runtime (on preferred nodes of speed 1), speed
// the lowest speed among the partitions it holds nodes in (a gang runs at
// the pace of its slowest node), and slowdown the cluster's Slowdown when
// any of its nodes is outside its preferred partitions, else 1.
type Cluster struct {
	// Name names the cluster ("rc256"); empty for a layout given by its
	// size alone (DefaultCluster).
	Name string `json:"name,omitempty"`
	// PartitionNodes[r] is the number of nodes of partition r.
	PartitionNodes []int `json:"partition_nodes"`
	// PartitionNames[r] names partition r; nil means the default names
	// r0, r1, … (PartitionName).
	PartitionNames []string `json:"partition_names,omitempty"`
	// PartitionSpeeds[r] is the speed factor of partition r's nodes: a job
	// runs runtime / speed there. nil means every speed is 1.
	PartitionSpeeds []float64 `json:"partition_speeds,omitempty"`
	// Slowdown is the runtime factor of a job that holds any node outside its
	// preferred partitions (1.5 in the 3Sigma papers).
	Slowdown float64 `json:"slowdown"`
}

// Defaults of the cluster a size alone describes (DefaultCluster): RC256
// of the 3Sigma papers is 256 nodes in 8 racks of 32 with a 1.5× slowdown
// off a job's preferred racks.
const (
	DefaultRacks    = 8
	DefaultSlowdown = 1.5
)

// Bounds of a partition's speed factor: like MaxSlowdown, they keep
// runtimes (at most MaxSeconds × MaxSlowdown / MinSpeed = 10¹⁵ s) finite
// in every sum the simulator and the statistics make.
const (
	MinSpeed = 1e-3
	MaxSpeed = 1e3
)

// DefaultCluster is the default description of a cluster of nodes nodes:
// racks racks, the first nodes mod racks of them one node larger than the
// others, every speed 1, the default names, slowdown DefaultSlowdown, no
// name. nodes ≥ 1 and 1 ≤ racks ≤ nodes make a cluster Validate accepts
// (CheckNodesRacks tells the rest).
func DefaultCluster(nodes, racks int) Cluster {
	parts := make([]int, max(racks, 0))
	for r := range parts {
		parts[r] = nodes / racks
		if r < nodes%racks {
			parts[r]++
		}
	}
	return Cluster{PartitionNodes: parts, Slowdown: DefaultSlowdown}
}

// TotalNodes is Σ PartitionNodes.
func (c Cluster) TotalNodes() int {
	n := 0
	for _, v := range c.PartitionNodes {
		n += v
	}
	return n
}

// PartitionName is the name of partition r: PartitionNames[r], or "r"
// and its index when the cluster has no names.
func (c Cluster) PartitionName(r int) string {
	if r >= 0 && r < len(c.PartitionNames) {
		return c.PartitionNames[r]
	}
	return "r" + strconv.Itoa(r)
}

// Speed is the speed factor of partition r (1 when the cluster has no
// speeds).
func (c Cluster) Speed(r int) float64 {
	if r >= 0 && r < len(c.PartitionSpeeds) {
		return c.PartitionSpeeds[r]
	}
	return 1
}

// Uniform reports whether every partition has speed 1.
func (c Cluster) Uniform() bool {
	for _, s := range c.PartitionSpeeds {
		if s != 1 {
			return false
		}
	}
	return true
}

// SpeedOf is the speed of a run that holds alloc[r] nodes of each
// partition r: the lowest speed among the partitions it holds nodes in
// (1 when it holds none).
func (c Cluster) SpeedOf(alloc []int) float64 {
	speed, any := 1.0, false
	for r, k := range alloc {
		if k <= 0 {
			continue
		}
		if s := c.Speed(r); !any || s < speed {
			speed, any = s, true
		}
	}
	return speed
}

// SlowedOn reports whether alloc holds a node outside j's preferred
// partitions, where j runs Slowdown× longer.
func (j *Job) SlowedOn(alloc []int) bool {
	for r, k := range alloc {
		if k > 0 && !j.IsPreferred(r) {
			return true
		}
	}
	return false
}

// Factor is the factor by which a run of j on alloc takes longer than its
// nominal runtime: slowdown / speed, with slowdown the cluster's Slowdown
// when alloc holds a node outside j's preferred partitions (else 1) and
// speed SpeedOf(alloc).
func (c Cluster) Factor(j *Job, alloc []int) float64 {
	f := 1.0
	if j.SlowedOn(alloc) {
		f = c.Slowdown
	}
	return f / c.SpeedOf(alloc)
}

// TaskFactor is Factor for one task of j on nodes of partition r alone:
// the slowdown when r is not preferred, over r's speed.
func (c Cluster) TaskFactor(j *Job, r int) float64 {
	f := 1.0
	if !j.IsPreferred(r) {
		f = c.Slowdown
	}
	return f / c.Speed(r)
}

// RuntimeOn is j's runtime (seconds) when it runs on alloc[r] nodes of
// each partition r: j.Runtime × Factor(j, alloc).
func (c Cluster) RuntimeOn(j *Job, alloc []int) float64 {
	return j.Runtime * c.Factor(j, alloc)
}

// Clone returns a copy of c that shares no slices with it.
func (c Cluster) Clone() Cluster {
	c.PartitionNodes = slices.Clone(c.PartitionNodes)
	c.PartitionNames = slices.Clone(c.PartitionNames)
	c.PartitionSpeeds = slices.Clone(c.PartitionSpeeds)
	return c
}

// Canonical is c with the optional fields that hold their defaults
// cleared: names that are the default names, speeds that are all 1. Two
// clusters that behave alike and have the same name have the same
// canonical form, which is what a workload file holds.
func (c Cluster) Canonical() Cluster {
	c = c.Clone()
	if c.Uniform() {
		c.PartitionSpeeds = nil
	}
	if c.PartitionNames != nil {
		def := true
		for r, n := range c.PartitionNames {
			if n != "r"+strconv.Itoa(r) {
				def = false
				break
			}
		}
		if def {
			c.PartitionNames = nil
		}
	}
	return c
}

// MarshalJSON writes the canonical form (Canonical): names and speeds only
// when they are not the defaults, so that a workload file of a cluster
// without them reads as it always did.
func (c Cluster) MarshalJSON() ([]byte, error) {
	type plain Cluster // without this method
	return json.Marshal(plain(c.Canonical()))
}

// Validate reports the first rule c breaks (matching ErrInvalid): ≥ 1
// partition and at most 2¹⁶, each of 1…2²⁴ nodes; names, when given, one
// per partition, not empty and distinct; speeds, when given, one per
// partition, each in [MinSpeed, MaxSpeed]; slowdown in [1, MaxSlowdown].
func (c Cluster) Validate() error {
	p := c.PartitionNodes
	if len(p) == 0 {
		return invalidf("cluster must have ≥ 1 partition, got 0")
	}
	if len(p) > maxPartitions {
		return invalidf("cluster must have ≤ %d partitions, got %d", maxPartitions, len(p))
	}
	for r, n := range p {
		if n < 1 || n > maxPartitionNodes {
			return invalidf("cluster partition %d must have 1…%d nodes, got %d", r, maxPartitionNodes, n)
		}
	}
	if err := c.CheckPartitions(); err != nil {
		return err
	}
	if s := c.Slowdown; !Finite(s) || s < 1 || s > MaxSlowdown {
		return invalidf("cluster slowdown must be in [1, %g], got %v", float64(MaxSlowdown), s)
	}
	return nil
}

// CheckPartitions reports the first rule of Validate that the partition
// names and speeds break (matching ErrInvalid), or nil.
func (c Cluster) CheckPartitions() error {
	np := len(c.PartitionNodes)
	if c.PartitionNames != nil {
		if len(c.PartitionNames) != np {
			return invalidf("cluster partition_names must name each of the %d partitions, got %d names", np, len(c.PartitionNames))
		}
		seen := make(map[string]int, np)
		for r, n := range c.PartitionNames {
			if n == "" {
				return invalidf("cluster partition %d has an empty name", r)
			}
			if first, dup := seen[n]; dup {
				return invalidf("cluster partitions %d and %d are both named %q", first, r, n)
			}
			seen[n] = r
		}
	}
	if c.PartitionSpeeds != nil {
		if len(c.PartitionSpeeds) != np {
			return invalidf("cluster partition_speeds must give a speed for each of the %d partitions, got %d", np, len(c.PartitionSpeeds))
		}
		for r, s := range c.PartitionSpeeds {
			if !(s >= MinSpeed && s <= MaxSpeed) {
				return invalidf("cluster partition %d speed must be in [%g, %g], got %v", r, MinSpeed, MaxSpeed, s)
			}
		}
	}
	return nil
}

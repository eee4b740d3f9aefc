package main

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/plannerhq/planner/workloads"
)

// The cluster of a generated or imported workload is given either by its
// size, --nodes N in --racks R equal racks (R = 8 by default; the 3Sigma
// papers' RC256 is 256 nodes in 8 racks of 32), or by a cluster file,
// --cluster FILE (workloads.ReadClusterFile), which can describe unequal
// racks, node speeds and the slowdown. The two are exclusive.
//
// --nodes must be a multiple of the rack count. Before, 100 nodes made 8
// racks of 13 and 12 nodes and 7 nodes made 7 racks of 1, neither told:
// a layout the user did not ask for. Now such a size is refused in one
// line that names the nearest multiples and the two ways to other
// layouts (--racks, --cluster).

// checkEqualRacks reports, naming --nodes or --racks, when nodes do not
// split into racks equal racks. Sizes below 1 are left to the other
// checks.
func checkEqualRacks(nodes, racks int) error {
	if racks < 1 {
		return fmt.Errorf("--racks: must be ≥ 1, got %d", racks)
	}
	if nodes < 1 || nodes%racks == 0 {
		return nil
	}
	lo, hi := nodes/racks*racks, (nodes/racks+1)*racks
	near := strconv.Itoa(hi)
	if lo > 0 {
		near = strconv.Itoa(lo) + " or " + near
	}
	return fmt.Errorf("--nodes: %d nodes do not split into %d equal racks; give a multiple of %d (%s), other --racks, or unequal racks in a --cluster file",
		nodes, racks, racks, near)
}

// errNodesAndCluster is the error of a cluster given by both its size and
// a file; flag is the size flag given (--nodes or --racks).
func errNodesAndCluster(flag string) error {
	return fmt.Errorf("%s: give %s or --cluster, not both (the cluster file sets the nodes and racks)", flag, flag)
}

// readCluster reads the cluster file path given to --cluster.
func readCluster(path string) (*workloads.Cluster, error) {
	if strings.TrimSpace(path) == "" {
		return nil, errors.New("--cluster: empty; give a cluster file (JSON or YAML)")
	}
	c, err := workloads.ReadClusterFile(path)
	if err != nil {
		return nil, flagPathError("--cluster", path, err)
	}
	return &c, nil
}

// describeCluster is a one-line summary of a cluster: its name, nodes,
// partitions, speeds and slowdown.
func describeCluster(c *workloads.Cluster) string {
	var b strings.Builder
	b.WriteString("cluster")
	if c.Name != "" {
		b.WriteString(" " + c.Name)
	}
	fmt.Fprintf(&b, ": %d nodes in %d partitions", c.TotalNodes(), len(c.PartitionNodes))
	speeds := slices.Clone(c.PartitionSpeeds)
	if len(speeds) == 0 {
		speeds = []float64{1}
	}
	lo, hi := slices.Min(speeds), slices.Max(speeds)
	if lo == hi {
		fmt.Fprintf(&b, ", speed %g", lo)
	} else {
		fmt.Fprintf(&b, ", speeds %g–%g", lo, hi)
	}
	fmt.Fprintf(&b, ", slowdown %g off preferred partitions", c.Slowdown)
	return b.String()
}

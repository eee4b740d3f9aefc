package slurm

import (
	"fmt"
	"slices"
	"strings"

	"github.com/plannerhq/planner/service"
)

// NodeMap says which Slurm nodes make each partition of the planner's
// cluster. It is derived from Slurm's nodes (MapNodes) in one of two ways:
//
//   - by feature: when some node has a feature (slurm.conf
//     NodeName=... Features=r0) that names a partition of the planner's
//     cluster, each partition is the nodes whose features name it (a node
//     may name one partition at most; nodes that name none are not the
//     planner's);
//   - by order: otherwise the nodes, in the order sinfo lists them (that
//     of slurm.conf), fill the partitions in the cluster's order: the
//     first nodes(r0) nodes make r0, the next ones r1, and so on.
//
// Either way each partition must have exactly as many Slurm nodes as the
// planner's cluster gives it.
type NodeMap struct {
	// Partitions are the planner's partition names, in its order; Nodes
	// the Slurm nodes of each.
	Partitions []string
	Nodes      [][]string
	// By is "feature" or "order".
	By   string
	part map[string]int
}

// MapNodes maps the planner's cluster onto Slurm's nodes (see NodeMap).
func MapNodes(cluster service.ClusterView, nodes []Node) (*NodeMap, error) {
	if len(cluster.Partitions) == 0 {
		return nil, fmt.Errorf("the planner's cluster has no partition")
	}
	m := &NodeMap{Partitions: make([]string, len(cluster.Partitions)), Nodes: make([][]string, len(cluster.Partitions)),
		part: map[string]int{}}
	index := map[string]int{}
	for r, p := range cluster.Partitions {
		m.Partitions[r] = p.Name
		index[p.Name] = r
	}
	byFeature := false
	for _, n := range nodes {
		for _, f := range n.Features {
			if _, ok := index[f]; ok {
				byFeature = true
			}
		}
	}
	if byFeature {
		m.By = "feature"
		for _, n := range nodes {
			r := -1
			for _, f := range n.Features {
				k, ok := index[f]
				if !ok || k == r {
					continue
				}
				if r >= 0 {
					return nil, fmt.Errorf("Slurm node %s has the features of two partitions, %s and %s; give it one", n.Name, m.Partitions[r], f)
				}
				r = k
			}
			if r >= 0 {
				m.Nodes[r] = append(m.Nodes[r], n.Name)
			}
		}
		for r, p := range cluster.Partitions {
			if len(m.Nodes[r]) != p.Nodes {
				return nil, fmt.Errorf("partition %s has %d nodes in the planner's cluster and %d Slurm nodes with feature %s (%s); make them agree",
					p.Name, p.Nodes, len(m.Nodes[r]), p.Name, nodeNames(m.Nodes[r]))
			}
		}
	} else {
		m.By = "order"
		total := 0
		for _, p := range cluster.Partitions {
			total += p.Nodes
		}
		if total != len(nodes) {
			return nil, fmt.Errorf("the planner's cluster has %d nodes and Slurm %d; make them agree, or give each Slurm node its partition's name as a feature (slurm.conf NodeName=... Features=%s)",
				total, len(nodes), m.Partitions[0])
		}
		k := 0
		for r, p := range cluster.Partitions {
			for range p.Nodes {
				m.Nodes[r] = append(m.Nodes[r], nodes[k].Name)
				k++
			}
		}
	}
	for r, ns := range m.Nodes {
		for _, n := range ns {
			m.part[n] = r
		}
	}
	return m, nil
}

// nodeNames lists names for a message: none, or them comma-separated.
func nodeNames(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ",")
}

// Partition is the index of the partition of a Slurm node; false when the
// node is not the planner's.
func (m *NodeMap) Partition(node string) (int, bool) {
	r, ok := m.part[node]
	return r, ok
}

// Index is the index of a partition name; false when there is none.
func (m *NodeMap) Index(name string) (int, bool) {
	r := slices.Index(m.Partitions, name)
	return r, r >= 0
}

// String describes the map in one line: "r0=n1,n2,n3,n4 r1=n5,… (by feature)".
func (m *NodeMap) String() string {
	parts := make([]string, len(m.Partitions))
	for r, p := range m.Partitions {
		parts[r] = p + "=" + nodeNames(m.Nodes[r])
	}
	return strings.Join(parts, " ") + " (by " + m.By + ")"
}

package workloads

// GoogleClusterName is the name of GoogleCluster, the GOOGLE cluster of
// 3Sigma §5 and §6.5.
const GoogleClusterName = "google"

// googlePartition is one partition of GoogleCluster: machines of one
// configuration of the Google 2011 trace, grouped by platform.
type googlePartition struct {
	name     string
	platform string
	nodes    int
}

// googlePartitions are the 12,583 machines of the Google 2011 cell
// (clusterdata-2011-2), by the machine configurations of Reiss et al.,
// "Heterogeneity and dynamicity of clouds at scale" (SoCC 2012), Table 1:
// platform, then CPU and memory capacity normalised to the largest
// machine. Configurations of fewer than 10 machines join the nearest
// configuration of their platform: B at memory 0.97 joins B 0.75, B at
// 0.03 and 0.06 join B 0.12, C at memory 0.50 joins C 1.00.
//
//	platform  CPU   memory  machines
//	B         0.50  0.50    6,732
//	B         0.50  0.25    3,863
//	B         0.50  0.75    1,001 (+5 at 0.97)
//	C         1.00  1.00      795 (+3 at 0.50)
//	A         0.25  0.25      126
//	B         0.50  0.12       52 (+5 at 0.03, +1 at 0.06)
var googlePartitions = []googlePartition{
	{"b-mem50", "B", 6732},
	{"b-mem25", "B", 3863},
	{"b-mem75", "B", 1006},
	{"c-mem100", "C", 798},
	{"a-mem25", "A", 126},
	{"b-mem12", "B", 58},
}

// GoogleCluster is the GOOGLE cluster of 3Sigma (12,583 nodes): one
// partition per machine configuration of the Google 2011 trace
// (googlePartitions), a node per machine, and the papers' 1.5× slowdown
// off a job's preferred partitions. Partitions are node classes, not
// racks: the planner pools each partition's nodes, and a handful of
// pools keeps its model small at this size (DESIGN.md). Every node has
// speed 1: the trace gives each platform's capacity as a share of the
// largest machine, not how fast a task runs there, and a task asks for a
// share of one machine. examples/cluster-google.yaml is this cluster as
// a cluster file.
func GoogleCluster() Cluster {
	c := Cluster{Name: GoogleClusterName, Slowdown: DefaultSlowdown}
	for _, p := range googlePartitions {
		c.PartitionNodes = append(c.PartitionNodes, p.nodes)
		c.PartitionNames = append(c.PartitionNames, p.name)
	}
	return c
}

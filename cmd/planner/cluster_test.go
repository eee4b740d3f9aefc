package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/plannerhq/planner/workloads"
)

// exampleCluster is a cluster file of examples/.
func exampleCluster(name string) string { return filepath.Join("..", "..", "examples", name) }

// TestClusterFlagErrors: a cluster given two ways, a size that does not
// split into equal racks, a bad cluster file, and --cluster where a
// workload file sets the cluster are usage errors of one line naming the
// flag.
func TestClusterFlagErrors(t *testing.T) {
	dir := t.TempDir()
	rc256 := exampleCluster("cluster-rc256.yaml")
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("partitions:\n  - nodes: 4\n  - nodes: 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "cfg.json")
	if err := os.WriteFile(cfg, []byte(`{"nodes": 64}`), 0o644); err != nil {
		t.Fatal(err)
	}
	file := tinyWorkloadFile(t)
	sim := func(args ...string) []string {
		return append([]string{"simulate", "--schedulers", "prio", "--hours", "0.34", "--quiet"}, args...)
	}
	imp := func(args ...string) []string {
		return append([]string{"workload", "import", "-q", "--format", "swf", filepath.Join(traceFixtures, "small.swf")}, args...)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"nodes not a multiple of 8", sim("--nodes", "100"), "--nodes: 100 nodes do not split into 8 equal racks; give a multiple of 8 (96 or 104), other --racks, or unequal racks in a --cluster file"},
		{"fewer nodes than racks", sim("--nodes", "7"), "--nodes: 7 nodes do not split into 8 equal racks; give a multiple of 8 (8), other --racks, or unequal racks in a --cluster file"},
		{"nodes not a multiple of --racks", sim("--nodes", "100", "--racks", "7"), "--nodes: 100 nodes do not split into 7 equal racks; give a multiple of 7 (98 or 105), other --racks, or unequal racks in a --cluster file"},
		{"zero racks", sim("--racks", "0"), "--racks: must be ≥ 1, got 0"},
		{"nodes and cluster", sim("--nodes", "64", "--cluster", rc256), "--nodes: give --nodes or --cluster, not both (the cluster file sets the nodes and racks)"},
		{"racks and cluster", sim("--racks", "4", "--cluster", rc256), "--racks: give --racks or --cluster, not both (the cluster file sets the nodes and racks)"},
		{"nodes in --config and cluster", sim("--config", cfg, "--cluster", rc256), "--config " + cfg + ": nodes: give --nodes or --cluster, not both (the cluster file sets the nodes and racks)"},
		{"bad cluster file", sim("--cluster", bad), "--cluster: " + bad + ": line 3: partitions[1].nodes: must be ≥ 1, got 0"},
		{"missing cluster file", sim("--cluster", filepath.Join(dir, "none.yaml")), "--cluster: open " + filepath.Join(dir, "none.yaml") + ": no such file or directory"},
		{"empty cluster", sim("--cluster="), "--cluster: empty; give a cluster file (JSON or YAML)"},
		{"cluster with a workload file", []string{"simulate", "--schedulers", "prio", "--quiet", "--workload", file, "--cluster", rc256}, "--cluster: not used with --workload (the workload file sets the cluster)"},
		{"racks with a workload file", []string{"simulate", "--schedulers", "prio", "--quiet", "--workload", file, "--racks", "4"}, "--racks: not used with --workload (the workload file sets the cluster)"},
		{"sweep of nodes with cluster", []string{"sweep", "--schedulers", "prio", "--hours", "0.34", "--quiet", "--vary", "nodes=64,128", "--cluster", rc256}, "--vary nodes=64: --nodes: give --nodes or --cluster, not both (the cluster file sets the nodes and racks)"},
		{"sweep of an uneven size", []string{"sweep", "--schedulers", "prio", "--hours", "0.34", "--quiet", "--vary", "nodes=64,100"}, "--vary nodes=100: --nodes: 100 nodes do not split into 8 equal racks; give a multiple of 8 (96 or 104), other --racks, or unequal racks in a --cluster file"},
		{"generate nodes and cluster", []string{"workload", "generate", "--nodes", "64", "--cluster", rc256}, "--nodes: give --nodes or --cluster, not both (the cluster file sets the nodes and racks)"},
		{"generate uneven", []string{"workload", "generate", "--nodes", "100"}, "--nodes: 100 nodes do not split into 8 equal racks; give a multiple of 8 (96 or 104), other --racks, or unequal racks in a --cluster file"},
		{"stats of a file with cluster", []string{"workload", "stats", file, "--cluster", rc256}, "--cluster: not used with --workload (the workload file sets the cluster)"},
		{"import nodes and cluster", imp("--nodes", "16", "--cluster", rc256), "--nodes: give --nodes or --cluster, not both (the cluster file sets the nodes and racks)"},
		{"import uneven", imp("--nodes", "100"), "--nodes: 100 nodes do not split into 8 equal racks; give a multiple of 8 (96 or 104), other --racks, or unequal racks in a --cluster file"},
		{"import bad cluster file", imp("--cluster", bad), "--cluster: " + bad + ": line 3: partitions[1].nodes: must be ≥ 1, got 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCLI(t, tc.args...)
			checkUsageError(t, err, tc.want)
		})
	}
}

// TestClusterFileRun: --cluster on the default layout's file gives the
// results of --nodes 256, with the resolved cluster in the config (and
// nowhere without --cluster); the workload files of generate and import
// carry the cluster, and a simulation of them runs on it.
func TestClusterFileRun(t *testing.T) {
	args := []string{"simulate", "--schedulers", "prio", "--hours", "0.34", "--quiet", "--format", "json"}
	plain, _, err := runCLI(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	withFile, _, err := runCLI(t, append(args, "--cluster", exampleCluster("cluster-rc256.yaml"))...)
	if err != nil {
		t.Fatal(err)
	}
	var a, b struct {
		Config map[string]json.RawMessage `json:"config"`
		Runs   json.RawMessage            `json:"runs"`
	}
	if err := json.Unmarshal([]byte(plain), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(withFile), &b); err != nil {
		t.Fatal(err)
	}
	if string(a.Runs) != string(b.Runs) {
		t.Errorf("runs on the rc256 file differ from --nodes 256")
	}
	if _, ok := a.Config["cluster"]; ok {
		t.Errorf("config without --cluster has a cluster: %s", a.Config["cluster"])
	}
	var spec workloads.ClusterSpec
	if err := json.Unmarshal(b.Config["cluster"], &spec); err != nil {
		t.Fatalf("config cluster %s: %v", b.Config["cluster"], err)
	}
	if spec.Name != "rc256" || spec.Slowdown != 1.5 || len(spec.Partitions) != 8 ||
		spec.Partitions[7] != (workloads.PartitionSpec{Name: "r7", Nodes: 32, Speed: 1}) {
		t.Errorf("config cluster %+v, want rc256: 8 partitions r0…r7 of 32 nodes at speed 1, slowdown 1.5", spec)
	}
	if string(b.Config["nodes"]) != "256" {
		t.Errorf("config nodes %s, want 256", b.Config["nodes"])
	}

	dir := t.TempDir()
	two := exampleCluster("cluster-two-speed.json")
	want, err := workloads.ReadClusterFile(two)
	if err != nil {
		t.Fatal(err)
	}
	gen := filepath.Join(dir, "gen.jsonl")
	imported := filepath.Join(dir, "imp.jsonl")
	if _, _, err := runCLI(t, "workload", "generate", "--cluster", two, "--hours", "0.34", "-o", gen); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCLI(t, "workload", "import", "-q", "--format", "swf", filepath.Join(traceFixtures, "small.swf"),
		"--start", "0", "--hours", "0", "--cluster", two, "-o", imported); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{gen, imported} {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		h, err := workloads.ReadHeader(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(h.Cluster, want) {
			t.Errorf("%s: cluster %+v, want %+v", filepath.Base(file), h.Cluster, want)
		}
		out, _, err := runCLI(t, "simulate", "--workload", file, "--schedulers", "prio", "--quiet")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, "cluster two-speed: 256 nodes in 8 partitions, speeds 1–2, slowdown 1.5 off preferred partitions") {
			t.Errorf("%s: the table does not describe the cluster:\n%s", filepath.Base(file), out)
		}
	}
}

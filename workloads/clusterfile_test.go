package workloads

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestParseCluster reads good cluster files, in JSON and YAML.
func TestParseCluster(t *testing.T) {
	twoSpeed := Cluster{Name: "two", PartitionNodes: []int{4, 2}, PartitionNames: []string{"slow", "fast"}, PartitionSpeeds: []float64{1, 2}, Slowdown: 1.25}
	tests := []struct {
		name, format, text string
		want               Cluster
	}{
		{"JSON, defaults", ClusterJSON, `{"partitions": [{"nodes": 4}, {"nodes": 4}]}`,
			Cluster{PartitionNodes: []int{4, 4}, Slowdown: 1.5}},
		{"YAML, defaults", ClusterYAML, "partitions:\n  - nodes: 4\n  - nodes: 4\n",
			Cluster{PartitionNodes: []int{4, 4}, Slowdown: 1.5}},
		{"JSON, classes", ClusterJSON, `{"name": "two", "slowdown": 1.25,
			"classes": [{"name": "std"}, {"name": "quick", "speed": 2}],
			"partitions": [{"name": "slow", "nodes": 4, "class": "std"}, {"name": "fast", "nodes": 2, "class": "quick"}]}`, twoSpeed},
		{"YAML, classes", ClusterYAML, `
name: two
slowdown: 1.25
classes:
  - {name: std, speed: 1.0}
  - {name: quick, speed: 2}
partitions:
  - name: slow
    nodes: 4
    class: std
  - {name: fast, nodes: 2, class: quick}
`, twoSpeed},
		{"YAML, speeds without classes", ClusterYAML, "name: two\nslowdown: 1.25\npartitions:\n  - {name: slow, nodes: 4}\n  - {name: fast, nodes: 2, speed: 2.0}\n", twoSpeed},
		{"default names given are the defaults", ClusterYAML, "partitions: [{name: r0, nodes: 1}, {name: r1, nodes: 1, speed: 1}]",
			Cluster{PartitionNodes: []int{1, 1}, Slowdown: 1.5}},
		{"YAML decimal whole numbers: 010 is 10", ClusterYAML, "partitions: [{nodes: 010}]",
			Cluster{PartitionNodes: []int{10}, Slowdown: 1.5}},
		{"JSON exponent speed", ClusterJSON, `{"partitions": [{"nodes": 1, "speed": 2.5e-1}]}`,
			Cluster{PartitionNodes: []int{1}, PartitionSpeeds: []float64{0.25}, Slowdown: 1.5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseCluster([]byte(tc.text), tc.format)
			if err != nil {
				t.Fatalf("ParseCluster: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("cluster %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestParseClusterErrors: every problem is one line naming the field and
// the value (and the line, where the file has lines), never a panic.
func TestParseClusterErrors(t *testing.T) {
	const part = `{"nodes": 4}`
	js := func(body string) string { return "{" + body + "}" }
	tests := []struct {
		name, format, text, want string
	}{
		// JSON.
		{"empty", ClusterJSON, "  \n", "empty file, want a cluster description"},
		{"not JSON", ClusterJSON, "{partitions: 1}", "line 1: bad JSON: invalid character 'p'"},
		{"truncated", ClusterJSON, `{"partitions": [`, "bad JSON: the file ends inside a value"},
		{"trailing data", ClusterJSON, js(`"partitions": [`+part+`]`) + " {}", "line 1: bad JSON: data after the cluster's object"},
		{"not an object", ClusterJSON, `[1]`, "line 1: want an object (keys name, slowdown, classes, partitions), got a list"},
		{"unknown key", ClusterJSON, js(`"partitions": [` + part + `], "racks": 8`), `line 1: racks: unknown key (want name, slowdown, classes, partitions)`},
		{"unknown partition key", ClusterJSON, "{\"partitions\": [\n {\"nodes\": 4},\n {\"nodez\": 4}]}", `line 3: partitions[1].nodez: unknown key (want name, nodes, class, speed)`},
		{"unknown class key", ClusterJSON, js(`"classes": [{"name": "a", "fast": true}], "partitions": [` + part + `]`), `classes[0].fast: unknown key (want name, speed)`},
		{"key twice", ClusterJSON, "{\"slowdown\": 1,\n\"slowdown\": 2, \"partitions\": [" + part + "]}", `line 2: key "slowdown" given twice (first on line 1)`},
		{"no partitions", ClusterJSON, js(`"name": "x"`), "line 1: partitions: missing (list the partitions, each with its nodes)"},
		{"empty partitions", ClusterJSON, js(`"partitions": []`), "partitions: must list ≥ 1 partition, got none"},
		{"partitions not a list", ClusterJSON, js(`"partitions": 8`), "partitions: want a list, got 8"},
		{"no nodes", ClusterJSON, js(`"partitions": [{"name": "a"}]`), "partitions[0]: no nodes (every partition needs its node count)"},
		{"zero nodes", ClusterJSON, js(`"partitions": [{"nodes": 0}]`), "partitions[0].nodes: must be ≥ 1, got 0"},
		{"negative nodes", ClusterJSON, js(`"partitions": [` + part + `, {"nodes": -3}]`), "partitions[1].nodes: must be ≥ 1, got -3"},
		{"fractional nodes", ClusterJSON, js(`"partitions": [{"nodes": 2.5}]`), "partitions[0].nodes: want a whole number, got 2.5"},
		{"nodes as text", ClusterJSON, js(`"partitions": [{"nodes": "32"}]`), `partitions[0].nodes: want a whole number, got "32"`},
		{"huge nodes", ClusterJSON, js(`"partitions": [{"nodes": 99999999999999999999}]`), "partitions[0].nodes: must be in [1, 16777216], got 99999999999999999999"},
		{"duplicate partition names", ClusterJSON, js(`"partitions": [{"name": "a", "nodes": 1}, {"name": "a", "nodes": 1}]`), `partitions[1].name: "a" is already the name of partitions[0]`},
		{"a name that is another's default", ClusterJSON, js(`"partitions": [{"name": "r1", "nodes": 1}, {"nodes": 1}]`), `partitions[1].name: "r1" is already the name of partitions[0]`},
		{"empty partition name", ClusterJSON, js(`"partitions": [{"name": " ", "nodes": 1}]`), "partitions[0].name: must not be empty"},
		{"name not a string", ClusterJSON, js(`"name": 7, "partitions": [` + part + `]`), "name: want a string, got 7"},
		{"unknown class", ClusterJSON, js(`"classes": [{"name": "std"}, {"name": "big"}], "partitions": [{"nodes": 1, "class": "fast"}]`), `partitions[0].class: no class "fast" (classes: std, big)`},
		{"class without classes", ClusterJSON, js(`"partitions": [{"nodes": 1, "class": "std"}]`), `partitions[0].class: no class "std": the file defines no classes`},
		{"class and speed", ClusterJSON, js(`"classes": [{"name": "std"}], "partitions": [{"nodes": 1, "class": "std", "speed": 2}]`), "partitions[0].speed: give the partition's class or its speed, not both"},
		{"duplicate class names", ClusterJSON, js(`"classes": [{"name": "std"}, {"name": "std", "speed": 2}], "partitions": [` + part + `]`), `classes[1].name: "std" is already the name of a class (line 1)`},
		{"class without name", ClusterJSON, js(`"classes": [{"speed": 2}], "partitions": [` + part + `]`), "classes[0]: no name (every class needs one)"},
		{"zero speed", ClusterJSON, js(`"classes": [{"name": "std", "speed": 0}], "partitions": [` + part + `]`), "classes[0].speed: must be > 0, got 0"},
		{"negative speed", ClusterJSON, js(`"partitions": [{"nodes": 1, "speed": -1}]`), "partitions[0].speed: must be > 0, got -1"},
		{"tiny speed", ClusterJSON, js(`"partitions": [{"nodes": 1, "speed": 1e-9}]`), "partitions[0].speed: must be in [0.001, 1000], got 1e-9"},
		{"speed as text", ClusterJSON, js(`"partitions": [{"nodes": 1, "speed": "fast"}]`), `partitions[0].speed: want a decimal number, got "fast"`},
		{"slowdown below 1", ClusterJSON, js(`"slowdown": 0.5, "partitions": [` + part + `]`), "slowdown: must be in [1, 1000], got 0.5"},
		{"slowdown null", ClusterJSON, js(`"slowdown": null, "partitions": [` + part + `]`), "slowdown: want a decimal number, got null"},
		{"huge slowdown", ClusterJSON, js(`"slowdown": 1e400, "partitions": [` + part + `]`), "slowdown: 1e400 is out of range"},
		{"deep nesting", ClusterJSON, js(`"name": ` + strings.Repeat("[", 100) + strings.Repeat("]", 100)), "values nested deeper than 32 levels"},
		// YAML.
		{"YAML empty", ClusterYAML, "# nothing\n", "empty file, want a cluster description"},
		{"YAML syntax", ClusterYAML, "partitions:\n  - nodes: 4\n  nodes: [\n", "bad YAML"},
		{"YAML unknown key", ClusterYAML, "name: x\npartitions:\n  - nodes: 4\n    nodez: 4\n", "line 4: partitions[0].nodez: unknown key (want name, nodes, class, speed)"},
		{"YAML key twice", ClusterYAML, "name: x\nname: y\npartitions: [{nodes: 1}]\n", `line 2: key "name" given twice (first on line 1)`},
		{"YAML zero nodes", ClusterYAML, "partitions:\n  - nodes: 4\n  - nodes: 0\n", "line 3: partitions[1].nodes: must be ≥ 1, got 0"},
		{"YAML hex nodes", ClusterYAML, "partitions: [{nodes: 0x20}]", "line 1: partitions[0].nodes: want a whole number, got 0x20"},
		{"YAML quoted nodes", ClusterYAML, "partitions: [{nodes: '32'}]", `partitions[0].nodes: want a whole number, got "32"`},
		{"YAML infinite speed", ClusterYAML, "partitions: [{nodes: 1, speed: .inf}]", "partitions[0].speed: want a decimal number, got .inf"},
		{"YAML unquoted numeric name", ClusterYAML, "partitions: [{name: 1, nodes: 1}]", "partitions[0].name: want a string, got 1"},
		{"YAML unknown class", ClusterYAML, "classes:\n  - name: std\npartitions:\n  - {nodes: 1, class: fast}\n", `line 4: partitions[0].class: no class "fast" (classes: std)`},
		{"YAML duplicate names", ClusterYAML, "partitions:\n  - {name: a, nodes: 1}\n  - {name: a, nodes: 1}\n", `line 3: partitions[1].name: "a" is already the name of partitions[0]`},
		{"YAML speed 0", ClusterYAML, "classes: [{name: x, speed: 0}]\npartitions: [{nodes: 1, class: x}]", "line 1: classes[0].speed: must be > 0, got 0"},
		{"YAML slowdown below 1", ClusterYAML, "slowdown: 0.9\npartitions: [{nodes: 1}]", "line 1: slowdown: must be in [1, 1000], got 0.9"},
		{"YAML alias", ClusterYAML, "classes: [{name: &n std}]\npartitions: [{nodes: 1, class: *n}]", "line 2: alias *n: anchors and aliases are not read; write the value out"},
		{"YAML merge key", ClusterYAML, "base: &b {nodes: 1}\npartitions: [{<<: *b}]", "merge keys (<<) are not read"},
		{"YAML two documents", ClusterYAML, "partitions: [{nodes: 1}]\n---\npartitions: [{nodes: 2}]\n", "more than one YAML document, want one"},
		{"YAML a list", ClusterYAML, "- nodes: 1\n", "line 1: want an object (keys name, slowdown, classes, partitions), got a list"},
		{"YAML binary", ClusterYAML, "name: !!binary aGk=\npartitions: [{nodes: 1}]", "a value of YAML type !!binary"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseCluster([]byte(tc.text), tc.format)
			if err == nil {
				t.Fatalf("accepted, want error %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q is not one line", err)
			}
			var ce *ClusterError
			if !errors.As(err, &ce) || !errors.Is(err, ErrInvalid) {
				t.Errorf("error %v is not a *ClusterError matching ErrInvalid", err)
			}
		})
	}
}

// TestReadClusterFile: the format follows the file's extension (or its
// first character), and errors name the file.
func TestReadClusterFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	want := Cluster{PartitionNodes: []int{3}, Slowdown: 1.5}
	for _, p := range []string{
		write("a.json", `{"partitions": [{"nodes": 3}]}`),
		write("a.yaml", "partitions: [{nodes: 3}]"),
		write("a.YML", "partitions:\n- nodes: 3\n"),
		write("a.cluster", `  {"partitions": [{"nodes": 3}]}`),
		write("b.cluster", "partitions: [{nodes: 3}]"),
	} {
		got, err := ReadClusterFile(p)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v, %v; want %+v", filepath.Base(p), got, err, want)
		}
	}
	bad := write("bad.yaml", "partitions:\n  - nodes: 0\n")
	if _, err := ReadClusterFile(bad); err == nil || err.Error() != bad+": line 2: partitions[0].nodes: must be ≥ 1, got 0" {
		t.Errorf("error %v, want it to name the file, line, field and value", err)
	}
	// A JSON file read as YAML would pass; .json is read as JSON.
	if _, err := ReadClusterFile(write("tabs.json", "{\"partitions\":\t[{\"nodes\": 1}]}")); err != nil {
		t.Errorf("JSON with tabs: %v", err)
	}
	if _, err := ReadClusterFile(filepath.Join(dir, "missing.yaml")); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := ReadClusterFile(dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: %v", err)
	}
}

// TestExampleClusterFiles: examples/cluster-rc256.yaml is the default
// layout of 256 nodes with the name rc256, and every example reads.
func TestExampleClusterFiles(t *testing.T) {
	got, err := ReadClusterFile("../examples/cluster-rc256.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultCluster(256, DefaultRacks)
	want.Name = "rc256"
	if !reflect.DeepEqual(got, want) {
		t.Errorf("examples/cluster-rc256.yaml is %+v, want %+v", got, want)
	}
	two, err := ReadClusterFile("../examples/cluster-two-speed.json")
	if err != nil {
		t.Fatal(err)
	}
	if two.TotalNodes() != 256 || two.Uniform() || two.Speed(7) != 2 || two.PartitionName(7) != "fast1" {
		t.Errorf("examples/cluster-two-speed.json is %+v", two)
	}
	google, err := ReadClusterFile("../examples/cluster-google.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if want := GoogleCluster(); !reflect.DeepEqual(google, want) {
		t.Errorf("examples/cluster-google.yaml is %+v, want GoogleCluster %+v", google, want)
	}
	if n := google.TotalNodes(); n != 12583 {
		t.Errorf("examples/cluster-google.yaml has %d nodes, want the 12,583 machines of the Google 2011 cell", n)
	}
}

// TestClusterSpecRoundTrip: a cluster's Spec, written as JSON, is a
// cluster file that reads back as the cluster.
func TestClusterSpecRoundTrip(t *testing.T) {
	for _, c := range []Cluster{
		DefaultCluster(100, 8),
		{Name: "x", PartitionNodes: []int{1, 2}, PartitionNames: []string{"b", "a"}, PartitionSpeeds: []float64{0.5, 3}, Slowdown: 2},
	} {
		b, err := json.Marshal(c.Spec())
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseCluster(b, ClusterJSON)
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if !reflect.DeepEqual(got, c.Canonical()) {
			t.Errorf("%s reads as %+v, want %+v", b, got, c.Canonical())
		}
	}
}

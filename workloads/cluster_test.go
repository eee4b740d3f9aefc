package workloads

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestDefaultCluster(t *testing.T) {
	tests := []struct {
		name         string
		nodes, racks int
		want         []int
	}{
		{"RC256", 256, 8, []int{32, 32, 32, 32, 32, 32, 32, 32}},
		{"64 nodes", 64, 8, []int{8, 8, 8, 8, 8, 8, 8, 8}},
		{"uneven: the first nodes mod racks one larger", 100, 8, []int{13, 13, 13, 13, 12, 12, 12, 12}},
		{"one node per rack", 7, 7, []int{1, 1, 1, 1, 1, 1, 1}},
		{"one rack", 5, 1, []int{5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := DefaultCluster(tc.nodes, tc.racks)
			if !reflect.DeepEqual(c.PartitionNodes, tc.want) {
				t.Errorf("partitions %v, want %v", c.PartitionNodes, tc.want)
			}
			if c.Slowdown != DefaultSlowdown || c.Name != "" || c.PartitionNames != nil || c.PartitionSpeeds != nil {
				t.Errorf("cluster %+v, want slowdown %v and no name, names or speeds", c, DefaultSlowdown)
			}
			if err := c.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
			if c.TotalNodes() != tc.nodes {
				t.Errorf("TotalNodes %d, want %d", c.TotalNodes(), tc.nodes)
			}
		})
	}
	p := DefaultGoogleParams()
	p.Nodes, p.Slowdown = 100, 2
	if got, want := p.Cluster(), (Cluster{PartitionNodes: []int{13, 13, 13, 13, 12, 12, 12, 12}, Slowdown: 2}); !reflect.DeepEqual(got, want) {
		t.Errorf("Params.Cluster %+v, want %+v", got, want)
	}
}

// TestRuntimeOn: runtime × slowdown (when a node is off the preferred
// partitions) / the speed of the slowest partition the gang holds.
func TestRuntimeOn(t *testing.T) {
	uniform := Cluster{PartitionNodes: []int{4, 4, 4}, Slowdown: 1.5}
	twoSpeed := Cluster{PartitionNodes: []int{4, 4, 4}, PartitionSpeeds: []float64{1, 2, 0.5}, Slowdown: 1.5}
	job := newJob(0).runtime(600).prefer(0, 1).job()
	any := newJob(1).runtime(600).job()
	tests := []struct {
		name       string
		c          Cluster
		j          Job
		alloc      []int
		want       float64
		wantSpeed  float64
		wantSlowed bool
	}{
		{"uniform, preferred", uniform, job, []int{2, 2, 0}, 600, 1, false},
		{"uniform, off preferred", uniform, job, []int{2, 0, 2}, 900, 1, true},
		{"speed 1 partition", twoSpeed, job, []int{4, 0, 0}, 600, 1, false},
		{"fast partition: runtime / 2", twoSpeed, job, []int{0, 3, 0}, 300, 2, false},
		{"gang over speeds 1 and 2 runs at 1", twoSpeed, job, []int{1, 3, 0}, 600, 1, false},
		{"slow partition, off preferred: × 1.5 / 0.5", twoSpeed, job, []int{0, 0, 1}, 1800, 0.5, true},
		{"fast and slow, off preferred: slowest", twoSpeed, job, []int{0, 2, 2}, 1800, 0.5, true},
		{"all preferred: speed alone", twoSpeed, any, []int{0, 2, 2}, 1200, 0.5, false},
		{"empty partitions do not count", twoSpeed, any, []int{0, 4, 0}, 300, 2, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.c.RuntimeOn(&tc.j, tc.alloc); got != tc.want {
				t.Errorf("RuntimeOn = %v, want %v", got, tc.want)
			}
			if got := tc.c.SpeedOf(tc.alloc); got != tc.wantSpeed {
				t.Errorf("SpeedOf = %v, want %v", got, tc.wantSpeed)
			}
			if got := tc.j.SlowedOn(tc.alloc); got != tc.wantSlowed {
				t.Errorf("SlowedOn = %v, want %v", got, tc.wantSlowed)
			}
		})
	}
}

func TestClusterNamesAndSpeeds(t *testing.T) {
	c := Cluster{PartitionNodes: []int{2, 2}, Slowdown: 1.5}
	if c.PartitionName(1) != "r1" || c.Speed(1) != 1 || !c.Uniform() {
		t.Errorf("defaults: name %q speed %v uniform %v, want r1, 1, true", c.PartitionName(1), c.Speed(1), c.Uniform())
	}
	c.PartitionNames = []string{"a", "b"}
	c.PartitionSpeeds = []float64{1, 3}
	if c.PartitionName(1) != "b" || c.Speed(1) != 3 || c.Uniform() {
		t.Errorf("given: name %q speed %v uniform %v, want b, 3, false", c.PartitionName(1), c.Speed(1), c.Uniform())
	}
}

// TestClusterJSON: names and speeds are written only when they are not
// the defaults, so a cluster without them reads as it always did.
func TestClusterJSON(t *testing.T) {
	tests := []struct {
		name string
		c    Cluster
		want string
	}{
		{"plain", Cluster{PartitionNodes: []int{4, 4}, Slowdown: 1.5}, `{"partition_nodes":[4,4],"slowdown":1.5}`},
		{"default names and speeds left out", Cluster{PartitionNodes: []int{4, 4}, PartitionNames: []string{"r0", "r1"}, PartitionSpeeds: []float64{1, 1}, Slowdown: 1.5},
			`{"partition_nodes":[4,4],"slowdown":1.5}`},
		{"name, names and speeds", Cluster{Name: "x", PartitionNodes: []int{4, 4}, PartitionNames: []string{"a", "b"}, PartitionSpeeds: []float64{1, 2.5}, Slowdown: 1.5},
			`{"name":"x","partition_nodes":[4,4],"partition_names":["a","b"],"partition_speeds":[1,2.5],"slowdown":1.5}`},
		{"one name other than its default keeps all", Cluster{PartitionNodes: []int{4, 4}, PartitionNames: []string{"r0", "big"}, Slowdown: 1.5},
			`{"partition_nodes":[4,4],"partition_names":["r0","big"],"slowdown":1.5}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(tc.c)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.want {
				t.Errorf("JSON %s, want %s", b, tc.want)
			}
			var back Cluster
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, tc.c.Canonical()) {
				t.Errorf("read back %+v, want %+v", back, tc.c.Canonical())
			}
		})
	}
}

// TestWorkloadFileWithSpeeds: a workload file keeps a cluster's names and
// speeds, and one without them is written as before.
func TestWorkloadFileWithSpeeds(t *testing.T) {
	w := smallWorkload()
	plain := encode(t, w)
	if !bytes.Contains(plain, []byte(`"cluster":{"partition_nodes":[4,4],"slowdown":1.5}`)) {
		t.Errorf("header of a cluster without names or speeds changed: %s", bytes.SplitN(plain, []byte("\n"), 2)[0])
	}
	w.Header.Cluster = Cluster{Name: "two", PartitionNodes: []int{4, 4}, PartitionNames: []string{"slow", "fast"}, PartitionSpeeds: []float64{1, 2}, Slowdown: 1.5}
	b := encode(t, w)
	got, err := Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Header.Cluster, w.Header.Cluster) {
		t.Errorf("cluster read back %+v, want %+v", got.Header.Cluster, w.Header.Cluster)
	}
	if again := encode(t, got); !bytes.Equal(again, b) {
		t.Errorf("Write(Read(file)) is not byte-identical")
	}
}

func TestReadHeaderClusterErrors(t *testing.T) {
	valid := strings.Split(strings.TrimSuffix(string(encode(t, smallWorkload())), "\n"), "\n")
	cluster := `"cluster":{"partition_nodes":[4,4],"slowdown":1.5}`
	if !strings.Contains(valid[0], cluster) {
		t.Fatalf("header %s lacks %s", valid[0], cluster)
	}
	tests := []struct {
		name, cluster, want string
	}{
		{"names short", `"cluster":{"partition_nodes":[4,4],"partition_names":["a"],"slowdown":1.5}`, "cluster partition_names must name each of the 2 partitions, got 1 names"},
		{"empty name", `"cluster":{"partition_nodes":[4,4],"partition_names":["a",""],"slowdown":1.5}`, "cluster partition 1 has an empty name"},
		{"duplicate names", `"cluster":{"partition_nodes":[4,4],"partition_names":["a","a"],"slowdown":1.5}`, `cluster partitions 0 and 1 are both named "a"`},
		{"speeds long", `"cluster":{"partition_nodes":[4,4],"partition_speeds":[1,2,3],"slowdown":1.5}`, "cluster partition_speeds must give a speed for each of the 2 partitions, got 3"},
		{"zero speed", `"cluster":{"partition_nodes":[4,4],"partition_speeds":[1,0],"slowdown":1.5}`, "cluster partition 1 speed must be in [0.001, 1000], got 0"},
		{"huge speed", `"cluster":{"partition_nodes":[4,4],"partition_speeds":[1e9,1],"slowdown":1.5}`, "cluster partition 0 speed must be in [0.001, 1000], got 1e+09"},
		{"unknown key", `"cluster":{"partition_nodes":[4,4],"speeds":[1,1],"slowdown":1.5}`, `json: unknown field "speeds"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lines := append([]string(nil), valid...)
			lines[0] = strings.Replace(lines[0], cluster, tc.cluster, 1)
			_, err := Read(strings.NewReader(strings.Join(lines, "\n") + "\n"))
			if err == nil || !strings.Contains(err.Error(), "workload line 1: ") || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrInvalid) {
				t.Errorf("error %v, want ErrInvalid on line 1 containing %q", err, tc.want)
			}
		})
	}
}

// TestGenerateOnLayout: a generator given a cluster layout makes the
// workload for it and records it in its parameters; without one the
// parameters hold no cluster.
func TestGenerateOnLayout(t *testing.T) {
	p := DefaultGoogleParams()
	p.Hours, p.HistoryJobs = 0.5, 50
	plain := generate(t, p)
	if bytes.Contains(plain.Header.Params, []byte(`"cluster"`)) {
		t.Errorf("params of the default layout hold a cluster: %s", plain.Header.Params)
	}
	layout := Cluster{Name: "two", PartitionNodes: []int{128, 128}, PartitionSpeeds: []float64{1, 2}, Slowdown: 1.25}
	p.SetLayout(layout)
	w := generate(t, p)
	if !reflect.DeepEqual(w.Header.Cluster, layout) {
		t.Errorf("header cluster %+v, want %+v", w.Header.Cluster, layout)
	}
	gen, back, err := ParamsOf(&w.Header)
	if err != nil {
		t.Fatal(err)
	}
	again := generateEnv(t, gen, back)
	if !bytes.Equal(encode(t, again), encode(t, w)) {
		t.Errorf("regenerating from the recorded parameters gives another workload")
	}
	for i := range w.Jobs {
		for _, r := range w.Jobs[i].Preferred {
			if r >= 2 {
				t.Fatalf("job %d prefers partition %d of 2", w.Jobs[i].ID, r)
			}
		}
	}
	p.Nodes = 100
	if _, err := Generate(GeneratorGoogle, p); err == nil || !strings.Contains(err.Error(), "must be those of the cluster layout") {
		t.Errorf("nodes other than the layout's: error %v", err)
	}
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plannerhq/planner/planner/registry"
)

// TestSimulateScalability: --workload scalability-N runs N jobs an hour
// on the GOOGLE cluster at load 0.95, unless --load or a cluster flag
// says otherwise.
func TestSimulateScalability(t *testing.T) {
	for _, tc := range []struct {
		name    string
		extra   []string
		nodes   float64
		load    float64
		cluster string
	}{
		{"defaults", nil, 12583, 0.95, "google"},
		{"load given", []string{"--load", "1.4"}, 12583, 1.4, "google"},
		{"nodes given", []string{"--nodes", "256"}, 256, 0.95, ""},
		{"cluster given", []string{"--cluster", "../../examples/cluster-rc256.yaml"}, 256, 0.95, "rc256"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"simulate", "--workload", "scalability-60", "--hours", "0.5", "--schedulers", "prio",
				"--format", "json", "--quiet"}, tc.extra...)
			out, _, err := runCLI(t, args...)
			if err != nil {
				t.Fatal(err)
			}
			var rep struct {
				Config struct {
					Nodes   float64
					Load    float64
					Cluster *struct{ Name string }
				}
				Runs []struct{ Params map[string]any }
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("%v in\n%s", err, out)
			}
			c := rep.Config
			name := ""
			if c.Cluster != nil {
				name = c.Cluster.Name
			}
			if c.Nodes != tc.nodes || c.Load != tc.load || name != tc.cluster {
				t.Errorf("config nodes %v load %v cluster %q; want %v, %v, %q", c.Nodes, c.Load, name, tc.nodes, tc.load, tc.cluster)
			}
			if len(rep.Runs) != 1 || rep.Runs[0].Params["jobs"] != 30.0 {
				t.Errorf("runs %+v, want one of 30 jobs (60 an hour for half an hour)", rep.Runs)
			}
		})
	}
}

// TestProfileFlags: --cpuprofile and --memprofile write profiles, and a
// path that cannot be written fails before the run.
func TestProfileFlags(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof")
	if _, _, err := runCLI(t, simArgs("--schedulers", "prio", "--cpuprofile", cpu, "--memprofile", mem)...); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{cpu, mem} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v (size %d)", f, err, sizeOf(st))
		}
	}
	bad := filepath.Join(dir, "none", "cpu.pprof")
	for _, cmd := range [][]string{
		simArgs("--schedulers", "prio", "--cpuprofile", bad),
		{"sweep", "--vary", "load=1", "--nodes", "32", "--hours", "1", "--schedulers", "prio", "--quiet", "--memprofile", bad},
	} {
		_, _, err := runCLI(t, cmd...)
		if err == nil || !strings.Contains(err.Error(), "profile") || !strings.Contains(err.Error(), bad) {
			t.Errorf("%v: %v, want an error naming the profile's path", cmd, err)
		}
	}
	if _, _, err := runCLI(t, "sweep", "--vary", "cpuprofile=a,b", "--nodes", "32", "--hours", "1", "--quiet"); err == nil {
		t.Error("sweep varied --cpuprofile")
	}
}

func sizeOf(st os.FileInfo) int64 {
	if st == nil {
		return -1
	}
	return st.Size()
}

// TestBenchCycle: 'bench cycle' prints a row per backlog size and the
// fitted slope, its JSON parses, --out gets the chart, and bad flags are
// one-line usage errors.
func TestBenchCycle(t *testing.T) {
	dir := t.TempDir()
	out, _, err := runCLI(t, "bench", "cycle", "--scheduler", "prio", "--pending", "200,50", "--cycles", "2", "-q", "-o", dir)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 4 || !strings.HasPrefix(strings.TrimSpace(lines[1]), "50 ") || !strings.HasPrefix(strings.TrimSpace(lines[2]), "200 ") ||
		!strings.HasPrefix(lines[3], "fit: wall ms = ") {
		t.Errorf("table (sizes in order, then the fit):\n%s", out)
	}
	if fi, err := os.Stat(filepath.Join(dir, "cycle-scale.png")); err != nil || fi.Size() == 0 {
		t.Errorf("chart: %v", err)
	}
	out, _, err = runCLI(t, "bench", "cycle", "--scheduler", "prio", "--pending", "20,40", "--cycles", "1", "-q", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var res cycleScaleOutput
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if res.Scheduler != "prio" || len(res.Points) != 2 || res.Points[1].Pending != 40 || len(res.Points[0].WallMS) != 1 {
		t.Errorf("JSON %+v", res)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--pending", "100"}, "--pending: give at least two sizes to fit a slope, got 1"},
		{[]string{"--pending", "100,100"}, "--pending: 100 is given twice"},
		{[]string{"--pending", "0,10"}, "--pending: must be ≥ 1, got 0"},
		{[]string{"--cycles", "0"}, "--cycles: must be ≥ 1, got 0"},
		{[]string{"--interval", "0s"}, "--interval: must be > 0, got 0s"},
		{[]string{"--format", "csv"}, `--format: want table or json, got "csv"`},
		{[]string{"--scheduler", "nope"}, `--scheduler: unknown scheduler "nope" (registered: ` + strings.Join(registry.Default().Names(), ", ") + ")"},
		{[]string{"extra"}, `bench cycle: unexpected argument "extra"`},
	} {
		_, _, err := runCLI(t, append([]string{"bench", "cycle", "-q"}, tc.args...)...)
		checkUsageError(t, err, tc.want)
	}
	_, _, err = runCLI(t, "bench", "nothing")
	checkUsageError(t, err, "bench: the benchmarks are 'planner bench solver', 'planner bench cycle' and 'planner bench service'")
}

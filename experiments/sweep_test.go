package experiments

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/plannerhq/planner/planner"
)

// countingRegistry is testRegistry whose factories count the runs built.
func countingRegistry(n *atomic.Int64) planner.Registry {
	reg := testRegistry()
	for i := range reg {
		f := reg[i].New
		reg[i].New = func(o planner.Options) (planner.Scheduler, error) {
			n.Add(1)
			return f(o)
		}
	}
	return reg
}

// testSweep sweeps the job count of randomInput over values and seeds.
func testSweep(dir string, reg planner.Registry, values []int, seeds []uint64, parallel int) *Sweep {
	sw := &Sweep{Schedulers: []string{"prio", "prio-preempt"}, Registry: reg, Dir: dir, Parallel: parallel, Deterministic: true}
	for _, v := range values {
		for _, seed := range seeds {
			x := float64(v)
			sw.Points = append(sw.Points, SweepPoint{Value: strconv.Itoa(v), Seed: seed,
				Config: map[string]any{"jobs": v, "seed": seed},
				Param:  &SweepParam{Flag: "jobs", Value: strconv.Itoa(v), X: &x},
				Load: func() (Input, RunConfig, error) {
					return randomInput(seed, v, 1800), RunConfig{Sim: SimConfig{Interval: 60}, Seed: seed}, nil
				}})
		}
	}
	return sw
}

func TestSweepResume(t *testing.T) {
	dir := t.TempDir()
	var built atomic.Int64
	reg := countingRegistry(&built)
	runs, stats, err := testSweep(dir, reg, []int{10, 20}, []uint64{1, 2}, 2).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 8 || stats.Computed != 8 || built.Load() != 8 {
		t.Fatalf("%d runs, %+v, %d built; want 8 computed", len(runs), stats, built.Load())
	}
	for i, r := range runs {
		if want := []string{"prio", "prio-preempt"}[i%2]; r.Scheduler != want || r.Params.Sweep == nil || r.Params.Sweep.Value != []string{"10", "20"}[i/4] {
			t.Errorf("run %d: %s %+v", i, r.Scheduler, r.Params.Sweep)
		}
	}
	// Again, with one more value: only the new value's runs are computed,
	// and the reused ones read back equal.
	built.Store(0)
	again, stats, err := testSweep(dir, reg, []int{10, 20, 30}, []uint64{1, 2}, 1).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if stats.Computed != 4 || stats.Reused != 8 || built.Load() != 4 {
		t.Fatalf("second run: %+v, %d built; want 4 computed, 8 reused", stats, built.Load())
	}
	for i := range runs {
		a, b := metricsJSON(runs[i].Metrics, true), metricsJSON(again[i].Metrics, true)
		if !bytes.Equal(a, b) {
			t.Errorf("run %d read back as %s, was %s", i, b, a)
		}
	}
	// A changed configuration is a different key: nothing reused.
	built.Store(0)
	sw := testSweep(dir, reg, []int{10}, []uint64{1}, 1)
	sw.Points[0].Config = map[string]any{"jobs": 10, "seed": 1, "interval": 30}
	if _, stats, err = sw.Run(context.Background()); err != nil || stats.Reused != 0 || built.Load() != 2 {
		t.Errorf("changed config: %+v, %d built, %v", stats, built.Load(), err)
	}
}

// TestSweepMissing: Missing names the points Run would compute: all of
// them before a run, none after, and a point one of whose runs was lost.
func TestSweepMissing(t *testing.T) {
	dir := t.TempDir()
	reg := testRegistry()
	sw := testSweep(dir, reg, []int{10, 20}, []uint64{1, 2}, 1)
	if got, err := sw.Missing(); err != nil || !reflect.DeepEqual(got, []int{0, 1, 2, 3}) {
		t.Fatalf("before: %v, %v; want every point", got, err)
	}
	if _, _, err := sw.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got, err := sw.Missing(); err != nil || len(got) != 0 {
		t.Fatalf("after: %v, %v; want none", got, err)
	}
	key, _, err := RunKey(sw.Points[2].Config, "prio-preempt", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(sw.pointFile(key)); err != nil {
		t.Fatal(err)
	}
	if got, err := sw.Missing(); err != nil || !reflect.DeepEqual(got, []int{2}) {
		t.Errorf("one run removed: %v, %v; want [2]", got, err)
	}
	if got, _ := (&Sweep{Points: sw.Points, Schedulers: sw.Schedulers}).Missing(); len(got) != 4 {
		t.Errorf("no Dir: %v; want every point", got)
	}
}

// TestSweepParallelIndependent: the runs do not depend on --parallel.
// TestSweepNewCodeRecomputes: runs stored by other code (another
// executable) are recomputed, not reused; the stored runs carry the
// provenance of the process that computed them.
func TestSweepNewCodeRecomputes(t *testing.T) {
	dir := t.TempDir()
	var n atomic.Int64
	sw := testSweep(dir, countingRegistry(&n), []int{10}, []uint64{1}, 1)
	sw.Code, sw.Provenance = "code-a", &Provenance{Version: "a"}
	if _, stats, err := sw.Run(context.Background()); err != nil || stats.Computed != 2 {
		t.Fatalf("%+v, %v", stats, err)
	}
	sw = testSweep(dir, countingRegistry(&n), []int{10}, []uint64{1}, 1)
	sw.Code = "code-a"
	if _, stats, err := sw.Run(context.Background()); err != nil || stats.Reused != 2 {
		t.Fatalf("same code: %+v, %v; want 2 reused", stats, err)
	}
	sw.Code = "code-b"
	if _, stats, err := sw.Run(context.Background()); err != nil || stats.Computed != 2 || stats.Reused != 0 {
		t.Fatalf("new code: %+v, %v; want 2 computed", stats, err)
	}
	key, _, _ := RunKey(sw.Points[0].Config, "prio", "code-a")
	b, err := os.ReadFile(filepath.Join(dir, "points", key+".json"))
	if err != nil || !bytes.Contains(b, []byte(`"planner_version": "a"`)) {
		t.Errorf("stored run without its provenance: %s (%v)", b, err)
	}
}

func TestSweepParallelIndependent(t *testing.T) {
	var n atomic.Int64
	a, _, err := testSweep("", countingRegistry(&n), []int{15, 25}, []uint64{3}, 1).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := testSweep("", countingRegistry(&n), []int{15, 25}, []uint64{3}, 3).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		if !bytes.Equal(metricsJSON(a[i].Metrics, true), metricsJSON(b[i].Metrics, true)) {
			t.Errorf("run %d differs between parallel 1 and 3", i)
		}
	}
}

// TestSweepOldFormatRecomputed: runs stored by the format before the
// wait, slowdown and fairness metrics parse, but are not reused: their
// keys are of the old format, so the runs are computed again, with the
// new metrics.
func TestSweepOldFormatRecomputed(t *testing.T) {
	dir := t.TempDir()
	var n atomic.Int64
	sw := testSweep(dir, countingRegistry(&n), []int{10}, []uint64{1}, 1)
	if _, _, err := sw.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	newNames := []string{"wait_mean_s", "wait_p50_s", "wait_p99_s", "bsld_mean", "bsld_p99", "slo_bsld_mean",
		"slo_bsld_p99", "be_bsld_mean", "be_bsld_p99", "fairness_jain", "fairness_users"}
	// Turn the stored runs into format-2 runs: old keys, no new metrics.
	for _, name := range sw.Schedulers {
		key, _, _ := RunKey(sw.Points[0].Config, name, "")
		oldKey, _, _ := runKey(2, sw.Points[0].Config, name, "")
		path := filepath.Join(dir, "points", key+".json")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var st storedRun
		if err := json.Unmarshal(b, &st); err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(st.Run.Metrics, &m); err != nil {
			t.Fatal(err)
		}
		for _, k := range newNames {
			if _, ok := m[k]; !ok {
				t.Fatalf("stored run lacks %s", k)
			}
			delete(m, k)
		}
		st.Key, st.Run.Metrics = oldKey, mustJSON(t, m)
		if old, err := ParseMetrics(st.Run.Metrics); err != nil || !math.IsNaN(old.BSLDMean) {
			t.Errorf("old metrics: %+v, %v; want parsed, bsld_mean NaN", old, err)
		}
		if err := os.WriteFile(filepath.Join(dir, "points", oldKey+".json"), mustJSON(t, st), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
	}
	runs, stats, err := sw.Run(context.Background())
	if err != nil || stats.Computed != 2 || stats.Reused != 0 {
		t.Fatalf("%+v, %v; want 2 computed", stats, err)
	}
	for _, r := range runs {
		if math.IsNaN(r.Metrics.BSLDMean) || r.Metrics.FairnessUsers == 0 {
			t.Errorf("%s: recomputed without the new metrics: %+v", r.Scheduler, r.Metrics)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSweepCorruptStoredRun(t *testing.T) {
	dir := t.TempDir()
	var n atomic.Int64
	sw := testSweep(dir, countingRegistry(&n), []int{10}, []uint64{1}, 1)
	if _, _, err := sw.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	key, _, _ := RunKey(sw.Points[0].Config, "prio", "")
	path := filepath.Join(dir, "points", key+".json")
	if err := os.WriteFile(path, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := sw.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "\n") {
		t.Errorf("error %v, want one line naming %s", err, path)
	}
}

func TestMeanMetrics(t *testing.T) {
	a, b := Metrics{SLOMissRate: 0.2, Fallbacks: 1}, Metrics{SLOMissRate: 0.4, Fallbacks: 2}
	c := Metrics{SLOMissRate: math.NaN(), Fallbacks: 3} // undefined: left out of the mean
	m := MeanMetrics([]Metrics{a, b, c})
	if v := metricValue(m, "slo_miss_rate"); v < 0.3-1e-12 || v > 0.3+1e-12 {
		t.Errorf("slo_miss_rate mean %v, want 0.3", v)
	}
	if v := metricValue(m, "fallbacks"); v != 2 {
		t.Errorf("fallbacks mean %v, want 2", v)
	}
}

func TestParseMetricsRoundTrip(t *testing.T) {
	m := Metrics{SLOMissRate: 0.25, Goodput: 3.5, Fallbacks: 4, Cycles: 9, CycleMsP99: 12}
	m.BELatencyMean = math.NaN()
	got, err := ParseMetrics(metricsJSON(m, false))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(metricsJSON(got, false), metricsJSON(m, false)) {
		t.Errorf("round trip %s, want %s", metricsJSON(got, false), metricsJSON(m, false))
	}
	if _, err := ParseMetrics(json.RawMessage(`{"slo_miss":1}`)); err == nil {
		t.Error("unknown metric accepted")
	}
}

func TestSweepReportFiles(t *testing.T) {
	var n atomic.Int64
	runs, _, err := testSweep("", countingRegistry(&n), []int{10, 20}, []uint64{1, 2}, 2).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rep := &SweepReport{Config: map[string]any{"vary": "jobs"}, Flag: "jobs", Label: "jobs (count)",
		Values: []string{"10", "20"}, X: []float64{10, 20}, Schedulers: []string{"prio", "prio-preempt"},
		Seeds: []uint64{1, 2}, Runs: runs, Deterministic: true, Command: "planner sweep --vary jobs=10,20"}
	if err := rep.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"planner sweep --vary jobs=10,20", "](slo_miss_rate.png)", "slo_miss_rate.svg"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	for _, pm := range rep.plotMetrics() {
		for _, ext := range []string{".png", ".svg"} {
			if st, err := os.Stat(filepath.Join(dir, pm.name+ext)); err != nil || st.Size() == 0 {
				t.Errorf("%s%s: %v", pm.name, ext, err)
			}
		}
	}
	var out struct {
		Runs  []json.RawMessage
		Means []struct {
			Scheduler, Value string
			Seeds            []uint64
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "results.json"))
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Runs) != 8 || len(out.Means) != 4 || out.Means[3].Scheduler != "prio-preempt" || out.Means[3].Value != "20" {
		t.Errorf("%d runs, means %+v", len(out.Runs), out.Means)
	}
}

func TestLineSegments(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name   string
		xs, ys []float64
		want   [][]int
	}{
		{"in x order, not the given order", []float64{1.6, 1.0, 1.4}, []float64{3, 1, 2}, [][]int{{1, 2, 0}}},
		{"a gap at an undefined value", []float64{0, 1, 2, 3}, []float64{1, nan, 2, 3}, [][]int{{0}, {2, 3}}},
		{"undefined at the ends", []float64{0, 1, 2}, []float64{nan, 5, math.Inf(1)}, [][]int{{1}}},
		{"nothing defined", []float64{0, 1}, []float64{nan, nan}, nil},
		{"ties keep the given order", []float64{2, 1, 1}, []float64{1, 2, 3}, [][]int{{1, 2, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lineSegments(tt.xs, tt.ys); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("lineSegments = %v, want %v", got, tt.want)
			}
		})
	}
}

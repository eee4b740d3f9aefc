package workloads

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"
)

const statsTol = 1e-12 // sums of a handful of exact products

func TestStatsByHand(t *testing.T) {
	s := Stats(smallWorkload())
	// Node-hours: 2·600/3600 + 8·1200/3600 + 1·60/3600; capacity 8 nodes · 1 h.
	nh := (2*600 + 8*1200 + 60) / 3600.0
	checks := []struct {
		name      string
		got, want float64
	}{
		{"jobs", float64(s.Jobs), 3},
		{"history", float64(s.HistoryJobs), 1},
		{"node-hours", s.NodeHours, nh},
		{"load", s.Load, nh / 8},
		{"slo load", s.ByClass[0].Load, 2 * 600 / 3600.0 / 8},
		{"be load", s.ByClass[1].Load, (8*1200 + 60) / 3600.0 / 8},
		{"be jobs", float64(s.ByClass[1].Jobs), 2},
		{"short p50", s.ByKind[0].RuntimeP50, 330},
		{"long jobs", float64(s.ByKind[1].Jobs), 1},
		{"runtime p10", s.Runtime.P10, 60 + 0.2*540},
		{"runtime p50", s.Runtime.P50, 600},
		{"runtime mean", s.Runtime.Mean, 620},
		{"gang max", s.GangSize.Max, 8},
		{"gang p50", s.GangSize.P50, 2},
		// Gaps 30 and 0: mean 15, population variance 225.
		{"c²a", s.ArrivalSCV, 1},
	}
	for _, c := range checks {
		if math.Abs(c.got-c.want) > statsTol {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if s.ByClass[0].Name != "slo" || s.ByKind[0].Name != "short" || s.ByKind[1].Name != "long" {
		t.Errorf("group order: %+v %+v", s.ByClass, s.ByKind)
	}
	if want := []Count{{Value: 50, Jobs: 1}}; !reflect.DeepEqual(s.Slack, want) {
		t.Errorf("slack %+v, want %+v", s.Slack, want)
	}
}

func TestQuantile(t *testing.T) {
	tests := []struct {
		name string
		x    []float64
		q    float64
		want float64
	}{
		{"empty", nil, 0.5, 0},
		{"one", []float64{7}, 0.99, 7},
		{"median of even", []float64{1, 2, 3, 4}, 0.5, 2.5},
		{"min", []float64{1, 2, 3}, 0, 1},
		{"max", []float64{1, 2, 3}, 1, 3},
		{"p90 of 0..10", []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 0.9, 9},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := quantile(tc.x, tc.q); math.Abs(got-tc.want) > statsTol {
				t.Errorf("quantile(%v, %v) = %v, want %v", tc.x, tc.q, got, tc.want)
			}
		})
	}
}

func TestStatsEmptyAndText(t *testing.T) {
	w := smallWorkload()
	w.Jobs = nil
	if s := Stats(w); s.Jobs != 0 || s.Load != 0 || s.ArrivalSCV != 0 || len(s.ByClass) != 0 {
		t.Errorf("empty workload: %+v", s)
	}
	var buf bytes.Buffer
	if err := Stats(smallWorkload()).WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"3 jobs (+1 history)", "slo", "long", "runtime (s)", "gang size", "50%×1"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, buf.String())
		}
	}
}

func TestStatsCoVAndNodes(t *testing.T) {
	w := smallWorkload()
	user := func(j Job, u, res string) Job { j.Features.User, j.Features.Resources = u, res; return j }
	w.History = []Job{
		user(newJob(10).at(-300).runtime(60).job(), "a", "n1"),
		user(newJob(11).at(-200).runtime(10).job(), "b", "n1"),
		user(newJob(12).at(-100).runtime(999).job(), "", "n2"),
	}
	w.Jobs = []Job{
		user(newJob(0).at(0).runtime(180).job(), "a", "n2"),
		user(newJob(1).at(10).runtime(10).job(), "b", "n3"),
		user(newJob(2).at(50).runtime(100).job(), "b", "n3"),
		user(newJob(3).at(70).runtime(5).job(), "c", ""),
	}
	s := StatsAt(w, 16)
	// a: {60, 180}, CoV 60/120 = 0.5; b: {10, 10, 100}, σ = √1800, CoV
	// √1800/40 ≈ 1.0607; c has one job, the unnamed user none.
	covB := math.Sqrt(1800) / 40
	if s.CoVByUser.Groups != 2 || s.CoVByUser.Jobs != 5 || s.CoVByUser.AboveOne != 0.5 ||
		math.Abs(s.CoVByUser.CoV.Min-0.5) > statsTol || math.Abs(s.CoVByUser.CoV.Max-covB) > statsTol {
		t.Errorf("CoV by user %+v", s.CoVByUser)
	}
	// n1: {60, 10}: CoV 25/35; n2: {999, 180}; n3: {10, 100}: CoV 45/55.
	if s.CoVByResources.Groups != 3 || s.CoVByResources.AboveOne != 0 {
		t.Errorf("CoV by resources %+v", s.CoVByResources)
	}
	// Node-hours (180+10+100+5)/3600 on 16 nodes for an hour.
	if want := 295.0 / 3600 / 16; s.Nodes != 16 || s.ClusterNodes != 8 || math.Abs(s.Load-want) > statsTol || s.SpanS != 70 {
		t.Errorf("nodes %d, cluster %d, load %v (want %v), span %v", s.Nodes, s.ClusterNodes, s.Load, want, s.SpanS)
	}
	if Stats(w).Nodes != 8 {
		t.Error("Stats does not use the workload's cluster")
	}
	var buf bytes.Buffer
	if err := s.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"offered on 16 nodes", "runtime CoV per user", "(2 groups of ≥ 2 jobs, 50% with CoV > 1)", "submits span 70 s"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, buf.String())
		}
	}
}

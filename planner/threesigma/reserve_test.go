package threesigma

import (
	"math"
	"slices"
	"testing"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/plannertest"
)

// TestReservationHolds: 8 nodes, a cycle a minute. At 0 SLO job 1 (6
// nodes, 120 s) starts, and SLO gang 2 (8 nodes, 600 s, deadline 5000)
// is planned at 120, when job 1 ends. At 60 arrive SLO job 3 (2 nodes,
// 600 s, deadline 700: it must start now) and best-effort job 4 (2 nodes,
// 50 s). Job 3 started now would hold 2 of the gang's nodes until 660;
// moving the gang past it costs 5% of its value (CommitPenalty), far less
// than job 3 is worth: without the reservation job 3 starts and the gang
// slips to 660 (job 4 runs at 120 meanwhile). With it job 3 cannot take
// the gang's nodes and misses its deadline, job 4 (done by 110) starts
// beside the reservation as EASY would backfill it, and the gang starts
// at 120.
func TestReservationHolds(t *testing.T) {
	for _, tc := range []struct {
		name      string
		noReserve bool
		at60      []int // started at 60
		at120     []int // started at 120
	}{
		{"reserved", false, []int{4}, []int{2}},
		{"not reserved", true, []int{3}, []int{4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewCustom(Name3Sigma, Config{NoReserve: tc.noReserve}, fixedEstimator{})
			if err != nil {
				t.Fatal(err)
			}
			h := plannertest.New(t, s, []int{8}, 60)
			h.Submit(newJob(1).Nodes(6).Runtime(120).SLO(1000).Value(1000).Job(),
				newJob(2).Nodes(8).Runtime(600).SLO(5000).Value(1000).Job(),
				newJob(3).Submit(60).Nodes(2).Runtime(600).SLO(700).Value(1000).Job(),
				newJob(4).Submit(60).Nodes(2).Runtime(50).Value(100).Job())
			if d := h.Step(); !slices.Equal(started(d), []int{1}) {
				t.Fatalf("t=0: started %v, want job 1", started(d))
			}
			if d := h.Step(); !slices.Equal(started(d), tc.at60) {
				t.Fatalf("t=60: started %v, want %v", started(d), tc.at60)
			}
			if d := h.Step(); !slices.Equal(started(d), tc.at120) {
				t.Fatalf("t=120: started %v, want %v", started(d), tc.at120)
			}
		})
	}
}

// started lists the ids of the jobs a decision starts, ascending.
func started(d *planner.Decision) []int {
	var ids []int
	for _, p := range d.Start {
		ids = append(ids, p.JobID)
	}
	slices.Sort(ids)
	return ids
}

// TestHeldFree checks Cres against its closed form: 8 nodes, slices of
// 10 s; SLO job 1 holds 4 nodes with a runtime uniform on [0, 205] s. At
// 60 s it has run 60 s, so P(still running t s later) = (145 − t)/145: at
// 130 s that is 0.103 ≥ ReserveTol and the job counts whole (4 nodes
// free); at 140 s it is 0.0345 and counts by it (8 − 4·5/145); at 150 s
// it has ended.
func TestHeldFree(t *testing.T) {
	s, err := NewCustom(Name3Sigma, Config{Slice: 10}, fixedEstimator{1: distributions.Uniform{Lo: 0, Hi: 205}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[float64]float64{0: 4, 130: 4, 140: 8 - 4*5.0/145, 150: 8}
	seen := 0
	s.inspect = func(c *cycle) {
		if c.st.Now != 60 {
			return
		}
		for k, at := range c.checkT {
			w, ok := want[at]
			if !ok {
				continue
			}
			free, err := c.heldFree(k)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(free[0]-w) > 1e-9 {
				t.Errorf("heldFree %v s ahead = %v, want %v", at, free[0], w)
			}
			seen++
		}
	}
	h := plannertest.New(t, s, []int{8}, 60)
	h.Submit(newJob(1).Nodes(4).Runtime(200).SLO(1000).Value(1000).Job())
	h.Step()
	h.Step()
	if seen != len(want) {
		t.Errorf("checked %d of the %d times", seen, len(want))
	}
}

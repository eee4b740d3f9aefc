package threesigma

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/workloads"
)

func TestHorizonFor(t *testing.T) {
	job := func(nodes int, runtime float64) workloads.Job { return workloads.Job{Nodes: nodes, Runtime: runtime} }
	tests := []struct {
		name     string
		history  []workloads.Job
		interval time.Duration
		want     time.Duration
	}{
		{"no history: the default", nil, time.Minute, time.Hour},
		{"short jobs: the default", []workloads.Job{job(4, 600), job(1, 3000)}, time.Minute, time.Hour},
		// Work 100 + 100 + 20,000: half (10,100) is reached at the
		// 10,000 s job; rounded up to whole minutes, 10,020 s.
		{"work-weighted median", []workloads.Job{job(1, 100), job(2, 10000), job(1, 100)}, time.Minute, 10020 * time.Second},
		// Many short jobs do not pull it down: 1,000 jobs of 1 node × 60 s
		// are less work than one 100-node job of 2 h.
		{"weighted by work, not by count", append(make([]workloads.Job, 0, 1001), func() []workloads.Job {
			h := []workloads.Job{job(100, 7200)}
			for range 1000 {
				h = append(h, job(1, 60))
			}
			return h
		}()...), time.Minute, 2 * time.Hour},
		{"at most MaxSlices intervals", []workloads.Job{job(1, 30*86400)}, time.Minute, 24 * time.Hour},
		{"the default scales with the interval", nil, 10 * time.Second, 10 * time.Minute},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := HorizonFor(tc.history, tc.interval); got != tc.want {
				t.Errorf("HorizonFor = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestHorizonForGoogleLike: on the default Google-like workload (256
// nodes, 5 h, seeds 1-3) half the history's work lies in jobs of at most
// 1 h 16 min: the derived horizon is the default 1 h on seeds 1 and 3,
// 76 min on seed 2.
func TestHorizonForGoogleLike(t *testing.T) {
	for seed, want := range map[uint64]time.Duration{1: time.Hour, 2: 76 * time.Minute, 3: time.Hour} {
		p, err := workloads.DefaultParams(workloads.GeneratorGoogle)
		if err != nil {
			t.Fatal(err)
		}
		p.Seed = seed
		w, err := workloads.GenerateGoogle(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := HorizonFor(w.History, time.Minute); got != want {
			t.Errorf("seed %d: HorizonFor = %v, want %v", seed, got, want)
		}
	}
}

// TestLongHorizonGrid: a horizon of 3 h at a 60 s cycle plans in 180
// slices of 60 s, with the default starts and one more at each doubling
// below 180 (64, 128; aligned to the absolute slice grid at t = 0); a
// horizon beyond MaxSlices intervals coarsens the slices instead.
func TestLongHorizonGrid(t *testing.T) {
	tests := []struct {
		name    string
		horizon float64
		q       float64
		H       int
		starts  []int
	}{
		{"default", 0, 60, 60, []int{0, 1, 2, 4, 8, 16, 32}},
		{"3 h", 3 * 3600, 60, 180, []int{0, 1, 2, 4, 8, 16, 32, 64, 128}},
		{"48 h", 48 * 3600, 120, 1440, []int{0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewCustom(Name3Sigma, Config{Horizon: tc.horizon}, fixedEstimator{})
			if err != nil {
				t.Fatal(err)
			}
			c, err := s.newCycle(context.Background(), &planner.State{Now: 0, Interval: 60,
				Cluster: workloads.Cluster{PartitionNodes: []int{4}, Slowdown: 1.5}, Free: []int{4}})
			if err != nil {
				t.Fatal(err)
			}
			if c.q != tc.q || c.H != tc.H || !slices.Equal(c.starts, tc.starts) {
				t.Errorf("q %v, H %d, starts %v; want %v, %d, %v", c.q, c.H, c.starts, tc.q, tc.H, tc.starts)
			}
		})
	}
}

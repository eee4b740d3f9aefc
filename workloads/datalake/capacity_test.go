package datalake

import (
	"cmp"
	"math"
	"slices"
	"testing"
)

// replay plays the whole lake again under the Cosmos default (the real
// world's scheduler) on lay, and reports the share of window jobs that
// completed and the share of the window's value attained: a job attains
// its real-world downloads made at or after its replayed completion.
func replay(l *Lake, lay Layout) (completed, value float64) {
	ts := slices.Clone(l.Templates)
	caps := make([]int, len(lay.Queues))
	for i, q := range lay.Queues {
		caps[i] = q.Tokens
	}
	for i := range ts {
		ts[i].Org = lay.QueueOf(l.Orgs[l.Templates[i].Org].Name)
	}
	var arr []arrival
	down := map[[2]int][]float64{}
	total := 0.0
	for i := range l.Jobs {
		j := &l.Jobs[i]
		if ts[j.Template].Kind != Polling {
			arr = append(arr, arrival{template: j.Template, instance: j.Instance, submit: j.Submit})
		}
		if j.Submit >= 0 {
			for _, o := range j.Outputs {
				down[[2]int{j.Template, j.Instance}] = append(down[[2]int{j.Template, j.Instance}], o.Downloads...)
			}
			total += float64(j.LocalValue())
		}
	}
	slices.SortFunc(arr, func(a, b arrival) int {
		return cmp.Or(cmp.Compare(a.submit, b.submit), cmp.Compare(a.template, b.template), cmp.Compare(a.instance, b.instance))
	})
	n, done, got := 0, 0, 0.0
	for _, j := range newSim(l.Params.Seed, ts, len(caps), caps).run(arr) {
		if j.Submit < 0 {
			continue
		}
		n++
		if j.Status != Completed {
			continue
		}
		done++
		for _, d := range down[[2]int{j.Template, j.Instance}] {
			if d >= j.End {
				got++
			}
		}
	}
	// polling jobs whose inputs never came are not submitted: count them
	// against the window's real-world jobs
	real := 0
	for i := range l.Jobs {
		if l.Jobs[i].Submit >= 0 {
			real++
		}
	}
	return float64(done) / float64(max(n, real)), got / total
}

// TestCapacityCalibration checks the capacity the lake is sized for
// (§7): under the Cosmos default at least 99 % of the window's jobs
// complete with hierarchical queues at 100 % and with one global queue
// at 60 %; at 20 % the cluster is short and much value is lost.
func TestCapacityCalibration(t *testing.T) {
	l := lake(t, 1)
	tests := []struct {
		mode     QueueMode
		pct      float64
		minDone  float64
		maxValue float64
	}{
		{Hierarchical, 100, 0.99, 1},
		{Global, 60, 0.99, 1},
		{Hierarchical, 20, 0, 0.6},
		{Global, 20, 0, 0.85},
	}
	for _, tt := range tests {
		lay, err := l.Layout(tt.mode, tt.pct)
		if err != nil {
			t.Fatal(err)
		}
		done, value := replay(l, lay)
		if done < tt.minDone || value > tt.maxValue {
			t.Errorf("%v at %v %%: %.2f %% of jobs completed, %.1f %% of value; want ≥ %.0f %% and ≤ %.0f %%",
				tt.mode, tt.pct, 100*done, 100*value, 100*tt.minDone, 100*tt.maxValue)
		}
		if math.IsNaN(value) {
			t.Fatal("no value")
		}
	}
}

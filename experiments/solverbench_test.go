package experiments

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestReadBestKnown(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want map[BenchInstance]float64
		err  bool
	}{
		{"best of objective and best_known per instance", `[
			{"solver": "portfolio", "jobs": 100, "seed": 1, "objective": 5, "best_known": 7},
			{"solver": "greedy", "jobs": 100, "seed": 1, "objective": 8, "best_known": 7},
			{"solver": "portfolio", "jobs": 300, "seed": 1, "objective": null, "best_known": 3},
			{"solver": "cbc", "jobs": 300, "seed": 2, "objective": null, "best_known": null}]`,
			map[BenchInstance]float64{{100, 1}: 8, {300, 1}: 3}, false},
		{"empty list", `[]`, map[BenchInstance]float64{}, false},
		{"not a list", `{"jobs": 1}`, nil, true},
		{"a seed as text", `[{"jobs": 100, "seed": "1"}]`, nil, true},
		{"cut short", `[{"jobs": 100`, nil, true},
	}
	for _, tc := range tests {
		got, err := ReadBestKnown(strings.NewReader(tc.in))
		if (err != nil) != tc.err || (!tc.err && !reflect.DeepEqual(got, tc.want)) {
			t.Errorf("%s: got %v, %v; want %v (error %v)", tc.name, got, err, tc.want, tc.err)
		}
		// A wrong shape is told in words, not as a Go type.
		if err != nil && strings.Contains(err.Error(), "struct") {
			t.Errorf("%s: error %q names a Go type", tc.name, err)
		}
	}
}

// TestReadBestKnownRoundTrip: the JSON this package writes reads back.
func TestReadBestKnownRoundTrip(t *testing.T) {
	rows := []SolverBenchRow{{Solver: "portfolio", Jobs: 100, Seed: 4, Objective: 9.5, BestKnown: 10}}
	var buf bytes.Buffer
	if err := WriteSolverBenchJSON(&buf, rows); err != nil {
		t.Fatal(err)
	}
	got, err := ReadBestKnown(&buf)
	if err != nil || got[BenchInstance{100, 4}] != 10 {
		t.Fatalf("got %v, %v", got, err)
	}
}

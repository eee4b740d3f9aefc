package experiments

import (
	"bytes"
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/plannerhq/planner/solver"
	"github.com/plannerhq/planner/solver/instances"
)

func TestReadBestKnown(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want map[BenchInstance]float64
		err  bool
	}{
		{"best of objective and best_known per instance", `[
			{"solver": "clp", "jobs": 100, "seed": 1, "objective": 5, "best_known": 7},
			{"solver": "greedy", "jobs": 100, "seed": 1, "objective": 8, "best_known": 7},
			{"solver": "clp", "jobs": 300, "seed": 1, "objective": null, "best_known": 3},
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

// TestReadBestKnownErrors: an empty, truncated or malformed file is told
// in words, never as the decoder's bare "EOF".
func TestReadBestKnownErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "empty file (want the JSON of best-known objectives: a bench solver --format json output)"},
		{"blank", " \n\t\n", "empty file (want the JSON of best-known objectives: a bench solver --format json output)"},
		{"cut short", `[{"jobs": 100`, "best known objectives: the JSON ends early (a file cut short?)"},
		{"not JSON", `[{"jobs": x}]`, "best known objectives: bad JSON at byte 11: invalid character 'x' looking for beginning of value"},
		{"data after the list", `[{"jobs": 20, "seed": 1, "objective": 9}] junk`, "best known objectives: data after the JSON list, at byte 42"},
		{"a second list", `[] []`, "best known objectives: data after the JSON list, at byte 4"},
		{"null", `null`, "best known objectives: want a JSON list of objects with jobs, seed and objective or best_known (a bench solver --format json output), got null"},
		{"an item without jobs", `[{"jobs": 20, "seed": 1, "objective": 9}, {"name": "x"}]`, "best known objectives: item 2: want jobs ≥ 1, seed, and objective or best_known"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadBestKnown(strings.NewReader(tc.in))
			if err == nil || err.Error() != tc.want {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestReadBestKnownRoundTrip: the JSON this package writes reads back.
func TestReadBestKnownRoundTrip(t *testing.T) {
	rows := []SolverBenchRow{{Solver: "clp", Jobs: 100, Seed: 4, Objective: 9.5, BestKnown: 10}}
	var buf bytes.Buffer
	if err := WriteSolverBenchJSON(&buf, rows); err != nil {
		t.Fatal(err)
	}
	got, err := ReadBestKnown(&buf)
	if err != nil || got[BenchInstance{100, 4}] != 10 {
		t.Fatalf("got %v, %v", got, err)
	}
}

func TestSummariseSolverBench(t *testing.T) {
	nan := math.NaN()
	rows := []SolverBenchRow{
		{Solver: "clp", Jobs: 100, Seed: 1, Objective: 995, BestPct: 99.5, WallMS: 960},
		{Solver: "cbc", Jobs: 100, Seed: 1, Objective: nan, BestPct: nan, WallMS: 1010},
		{Solver: "clp", Jobs: 100, Seed: 2, Objective: 985, BestPct: 98.5, WallMS: 980},
		{Solver: "clp", Jobs: 100, Seed: 3, Objective: 990, BestPct: 99, WallMS: 970},
		{Solver: "cbc", Jobs: 100, Seed: 2, Objective: nan, BestPct: nan, WallMS: 1000},
		{Solver: "clp", Jobs: 300, Seed: 1, Objective: 1000, BestPct: 100, WallMS: 950},
		// An answer with no share: the best known is not positive.
		{Solver: "greedy", Jobs: 300, Seed: 1, Objective: 0, BestPct: nan, WallMS: 940},
	}
	got := SummariseSolverBench(rows)
	want := []SolverBenchSummary{
		{Solver: "clp", Jobs: 100, Instances: 3, Solves: 3, Answered: 3, MeanBestPct: 99,
			WorstBestPct: 98.5, MedianWallMS: 970, MaxWallMS: 980},
		{Solver: "cbc", Jobs: 100, Instances: 2, Solves: 2, Answered: 0, MeanBestPct: nan,
			WorstBestPct: nan, MedianWallMS: 1005, MaxWallMS: 1010},
		{Solver: "clp", Jobs: 300, Instances: 1, Solves: 1, Answered: 1, MeanBestPct: 100,
			WorstBestPct: 100, MedianWallMS: 950, MaxWallMS: 950},
		{Solver: "greedy", Jobs: 300, Instances: 1, Solves: 1, Answered: 1, MeanBestPct: nan,
			WorstBestPct: nan, MedianWallMS: 940, MaxWallMS: 940},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d summaries, want %d: %+v", len(got), len(want), got)
	}
	same := func(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }
	for i, w := range want {
		g := got[i]
		if g.Solver != w.Solver || g.Jobs != w.Jobs || g.Instances != w.Instances || g.Solves != w.Solves ||
			g.Answered != w.Answered || !same(g.MeanBestPct, w.MeanBestPct) ||
			!same(g.WorstBestPct, w.WorstBestPct) || g.MedianWallMS != w.MedianWallMS || g.MaxWallMS != w.MaxWallMS {
			t.Errorf("summary %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
}

// TestSolverBenchTableSummary: the table ends with the summary block, and
// an empty run prints the header alone.
func TestSolverBenchTableSummary(t *testing.T) {
	var buf bytes.Buffer
	rows := []SolverBenchRow{{Solver: "clp", Jobs: 100, Seed: 1, Status: "feasible", Objective: 99,
		Bound: 110, GapPct: 10, BestPct: 99, BestKnown: 100, WallMS: 960}}
	if err := WriteSolverBenchTable(&buf, rows); err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(strings.TrimSpace(buf.String()), "\n\n")
	if len(blocks) != 2 || !strings.Contains(blocks[1], "mean % of best") ||
		!strings.Contains(strings.Split(blocks[1], "\n")[1], "99.00") {
		t.Errorf("table:\n%s", buf.String())
	}
	buf.Reset()
	if err := WriteSolverBenchTable(&buf, nil); err != nil || strings.Count(buf.String(), "\n") != 1 {
		t.Errorf("empty table: %q, %v", buf.String(), err)
	}
}

// TestSolverBenchKnownAboveBound: a best known objective above the
// instance's LP bound (a file of other instance parameters, or a typing
// slip) is refused before any percentage is computed against it.
func TestSolverBenchKnownAboveBound(t *testing.T) {
	if _, err := solver.New(solver.CLPName); err != nil {
		t.Skip("no LP backend in this build")
	}
	p := instances.DefaultParams()
	cfg := SolverBenchConfig{Jobs: []int{20}, Racks: p.Racks, RackNodes: p.RackNodes, Starts: p.Starts, Slices: p.Slices,
		Seeds: []uint64{1}, Timeout: 100 * time.Millisecond, Solvers: []string{solver.GreedyName},
		Known: map[BenchInstance]float64{{20, 1}: 1e300}}
	_, err := RunSolverBench(context.Background(), cfg, nil)
	if !errors.Is(err, ErrKnownAboveBound) || !strings.Contains(err.Error(), "1e+300 for 20 jobs, seed 1, above the instance's LP bound") {
		t.Fatalf("error %v, want ErrKnownAboveBound naming the value and the instance", err)
	}
}

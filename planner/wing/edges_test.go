package wing

import (
	"cmp"
	"slices"
	"testing"

	"github.com/plannerhq/planner/workloads/datalake"
)

func sortOps(ops []datalake.Op) {
	slices.SortFunc(ops, func(a, b datalake.Op) int { return cmp.Compare(a.Time, b.Time) })
}

// TestInferEdgesRules checks §4.2's three rules and what is no
// dependency, one reader at a time.
func TestInferEdgesRules(t *testing.T) {
	const day = datalake.Day
	job := func(start, end float64, reads, writes []string) datalake.LogJob {
		return datalake.LogJob{Submit: start, Start: start, End: end, Reads: reads, Writes: writes}
	}
	writers := []datalake.LogJob{
		job(0, 10, nil, []string{"f"}),  // 0
		job(12, 20, nil, []string{"f"}), // 1: overwrites f
	}
	tests := []struct {
		name   string
		reader datalake.LogJob
		want   []int // upstream writers
	}{
		{"after the write", job(15, 16, []string{"f"}, nil), []int{0}},
		{"last writer wins", job(25, 26, []string{"f"}, nil), []int{1}},
		{"before any write", job(5, 6, []string{"f"}, nil), nil},
		{"at the write's time", job(10, 11, []string{"f"}, nil), nil},
		{"older than T", job(20+31*day, 20+31*day+1, []string{"f"}, nil), nil},
		{"within T", job(20+29*day, 20+29*day+1, []string{"f"}, nil), []int{1}},
		{"an upload", job(5, 6, []string{"up"}, nil), nil},
		{"an unknown file", job(25, 26, []string{"nowhere"}, nil), nil},
		{"two reads of one writer", job(25, 26, []string{"f", "f"}, nil), []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := &datalake.Log{Jobs: append(slices.Clone(writers), tt.reader), Uploads: []datalake.Op{{File: "up", Time: 1}}}
			var got []int
			for _, e := range InferEdges(g, 30*day) {
				if e.Down != len(writers) {
					t.Fatalf("edge into writer %d", e.Down)
				}
				got = append(got, e.Up)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("upstream %v, want %v", got, tt.want)
			}
		})
	}
}

// TestLocalValues checks download attribution: the last writer before
// the download, within ω of its end.
func TestLocalValues(t *testing.T) {
	g := &datalake.Log{
		Jobs: []datalake.LogJob{
			{Start: 0, End: 10, Writes: []string{"f"}},
			{Start: 12, End: 20, Writes: []string{"f"}},
		},
		Downloads: []datalake.Op{{File: "f", Time: 5}, {File: "f", Time: 12}, {File: "f", Time: 21}, {File: "f", Time: 22}, {File: "f", Time: 20 + 8*datalake.Day}},
	}
	got := LocalValues(g, datalake.Week)
	if !slices.Equal(got, []float64{1, 2}) {
		t.Errorf("local values %v, want [1 2]", got)
	}
}

func TestInterArrivalCV(t *testing.T) {
	if cv := interArrivalCV([]float64{0, 10, 20, 30}); cv != 0 {
		t.Errorf("even gaps: cv %v", cv)
	}
	if cv := interArrivalCV([]float64{0, 10}); cv != 0 {
		t.Errorf("two submissions: cv %v", cv)
	}
	// gaps 10 and 30: mean 20, sd 10
	if cv := interArrivalCV([]float64{40, 0, 10}); cv != 0.5 {
		t.Errorf("gaps 10, 30: cv %v, want 0.5", cv)
	}
}

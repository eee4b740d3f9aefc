package experiments

import (
	"bytes"
	"image/png"
	"slices"
	"strings"
	"testing"

	"github.com/plannerhq/planner/workloads"
)

// TestGanttRows: node rows lie in the run's partitions, one per node, and
// no two runs share a row at the same time.
func TestGanttRows(t *testing.T) {
	rep := runReport(t, randomInput(6, 300, 3*3600), 1, "prio-preempt")
	res := rep.Runs[0].Sim
	rows, base, err := ganttRows(res)
	if err != nil {
		t.Fatal(err)
	}
	type span struct{ start, end float64 }
	byRow := map[int][]span{}
	for i, run := range res.Runs {
		var got []int
		for _, row := range rows[i] {
			p := 0
			for row >= base[p+1] {
				p++
			}
			for len(got) <= p {
				got = append(got, 0)
			}
			got[p]++
			byRow[row] = append(byRow[row], span{run.Start, run.End})
		}
		for len(got) < len(run.Alloc) {
			got = append(got, 0)
		}
		if !slices.Equal(got, run.Alloc) {
			t.Fatalf("run %d of job %d: rows per partition %v, alloc %v", i, run.JobID, got, run.Alloc)
		}
	}
	for row, spans := range byRow {
		for k := 1; k < len(spans); k++ {
			if spans[k].start < spans[k-1].end {
				t.Fatalf("row %d: runs %v and %v overlap", row, spans[k-1], spans[k])
			}
		}
	}
	// Deterministic first fit: a block of consecutive rows when there is
	// one (a row whose run ends at t is free at t).
	if got := pickRows([]float64{5, -1, -1, 9, -1, -1, -1}, 4, 3); !slices.Equal(got, []int{4, 5, 6}) {
		t.Errorf("pickRows = %v, want the first free block [4 5 6]", got)
	}
	if got := pickRows([]float64{5, -1, -1, 9, -1, -1, -1}, 5, 3); !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("pickRows = %v, want the first free block [0 1 2]", got)
	}
	if got := pickRows([]float64{5, -1, 9, -1, 9, -1}, 5, 3); !slices.Equal(got, []int{0, 1, 3}) {
		t.Errorf("pickRows = %v, want the lowest free rows [0 1 3]", got)
	}
	if got := pickRows([]float64{9, 9, -1}, 5, 2); got != nil {
		t.Errorf("pickRows = %v, want nil (one row free)", got)
	}
}

// TestGanttSummary: past GanttMaxRuns runs the chart is the summary, and
// its title says so; at the threshold it is the Gantt chart.
func TestGanttSummary(t *testing.T) {
	res := manyRuns(GanttMaxRuns + 1)
	p, _, summary, err := ganttPlot("many", res)
	if err != nil {
		t.Fatal(err)
	}
	if !summary || !strings.Contains(p.Title.Text, "summary") || !strings.Contains(p.Title.Text, "2001 runs") {
		t.Errorf("summary %v, title %q", summary, p.Title.Text)
	}
	var b bytes.Buffer
	if err := WriteGantt(&b, "many", res); err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(&b); err != nil {
		t.Fatal(err)
	}
	p, _, summary, err = ganttPlot("many", manyRuns(GanttMaxRuns))
	if err != nil || summary || strings.Contains(p.Title.Text, "summary") {
		t.Errorf("at %d runs: summary %v, title %q, error %v", GanttMaxRuns, summary, p.Title.Text, err)
	}
}

// manyRuns is a result of n runs on 4 partitions of 8 nodes: job i runs
// on one node of partition i mod 4 for 70 s from 10·⌊i/4⌋ s (7 at once in
// a partition); every fifth job is SLO (every other one of them late),
// and every seventh run is marked preempted.
func manyRuns(n int) *SimResult {
	res := &SimResult{Nodes: 32, PartitionNodes: []int{8, 8, 8, 8}, End: float64(10*(n/4) + 70)}
	for i := range n {
		alloc := make([]int, 4)
		alloc[i%4] = 1
		start := float64(10 * (i / 4))
		res.Runs = append(res.Runs, RunRecord{JobID: i, Start: start, End: start + 70, Alloc: alloc, Preempted: i%7 == 3})
		j := rec(i, workloads.BestEffort, "", 0, start, start+70)
		if i%5 == 0 {
			j = rec(i, workloads.SLO, "", 0, start, start+70)
			j.MetDeadline = i%10 == 0
		}
		res.Jobs = append(res.Jobs, j)
	}
	return res
}

package backfill

import (
	"context"
	"encoding/csv"
	"os"
	"strconv"
	"testing"

	"github.com/plannerhq/planner/experiments"
	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/workloads"
)

// TestEASYReferenceSchedule holds backfill to an EASY reference schedule on
// a real stretch of the KTH SP2 log: testdata/easy-kth-sp2.csv has 300
// consecutive jobs of the cleaned log (SWF jobs 20768 on, each kept as the
// importer keeps it: completed, size > 0, runtime > 0; submit times from
// the stretch's first), run on one partition of the machine's 100 nodes,
// with runtimes capped at the requested time (the site's limit), and the
// start each gets under event-driven EASY with requested times as
// estimates (Mu'alem & Feitelson 2001), computed once by a separate
// implementation that decides at every arrival and completion. Backfill
// decides on events (its registry row), and here at planner simulate's
// default 60 s cycle, so the schedules must be equal job for job: every
// start of the fixture is at an arrival or a completion.
//
// By hand, in the fixture:
//   - job 0 (2 nodes) submitted at 0 s starts at once on the idle machine;
//   - job 37 (33 nodes, submitted at 77,698 s) finds 25 of the 100 nodes
//     free and starts at 80,242 s, when job 33 (9 nodes) ends: the first
//     completion after which it fits;
//   - at 155,599 s job 79 (4 nodes) ends and leaves 4 nodes free. The
//     head, job 80 (6 nodes), gets its reservation at 165,946 s, the
//     requested end of job 73 (4 nodes), with 2 extra nodes. Jobs 81 and
//     82 (1 and 2 nodes, 300 s requested) and 88 (1 node, 600 s) end by
//     their requests before that and start now, ahead of job 80; jobs 83
//     to 87 and 89 to 91 do not fit in the free nodes.
func TestEASYReferenceSchedule(t *testing.T) {
	f, err := os.Open("testdata/easy-kth-sp2.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("testdata/easy-kth-sp2.csv: bad number %q", s)
		}
		return v
	}
	in := experiments.Input{Name: "kth", Cluster: workloads.Cluster{PartitionNodes: []int{100}, Slowdown: 1.5}}
	want := map[int]float64{}
	for _, r := range rows[1:] {
		id := int(num(r[0]))
		in.Jobs = append(in.Jobs, workloads.Job{ID: id, Class: workloads.BestEffort, Submit: num(r[2]),
			Nodes: int(num(r[3])), Runtime: num(r[4]), Requested: num(r[5]), Value: 1})
		want[id] = num(r[6])
	}
	sim, err := experiments.NewSim(in, experiments.SimConfig{Interval: 60, Decisions: planner.OnEvents, Drain: 30 * 86400}, New(Options{}))
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	bad := 0
	for _, j := range res.Jobs {
		if !j.Started && !j.Completed || j.Start != want[j.JobID] {
			bad++
			if bad <= 10 {
				t.Errorf("job %d (%d nodes, submitted %v s): started at %v s (started %v), EASY at %v s", j.JobID, j.Nodes, j.Submit, j.Start, j.Started || j.Completed, want[j.JobID])
			}
		}
	}
	if bad > 0 || len(res.Jobs) != 300 {
		t.Fatalf("%d of %d jobs start elsewhere than under EASY", bad, len(res.Jobs))
	}
}

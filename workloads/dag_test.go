package workloads

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func after(id int) *int { return &id }

func TestDAGRoots(t *testing.T) {
	stage := func(id int, pred *int) Job { j := newJob(id).at(0).runtime(10).job(); j.After = pred; return j }
	tests := []struct {
		name    string
		jobs    []Job
		want    map[int]int
		wantErr string
	}{
		{"no DAGs", []Job{stage(0, nil), stage(1, nil)}, map[int]int{0: 0, 1: 1}, ""},
		// Listed in any order, a chain 4 → 2 → 7 and a fan-out 4 → 5.
		{"chain and fan-out", []Job{stage(7, after(2)), stage(2, after(4)), stage(4, nil), stage(5, after(4))},
			map[int]int{7: 4, 2: 4, 4: 4, 5: 4}, ""},
		{"missing predecessor", []Job{stage(0, nil), stage(1, after(3))}, nil, "job 1: after names job 3, which is not in the workload"},
		{"cycle", []Job{stage(0, after(1)), stage(1, after(0))}, nil, "job 0: its chain of predecessors (after) has a cycle"},
		{"self", []Job{stage(0, after(0))}, nil, "job 0: its chain of predecessors (after) has a cycle"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DAGRoots(tc.jobs)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("DAGRoots = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

// TestTwoSigmaDAG: the DAG workload has DAGs of 2–5 stages (the last may
// be shorter), each stage of its first stage's name and user, waiting for
// the stage before it, and it survives a write and read.
func TestTwoSigmaDAG(t *testing.T) {
	w, err := Generate(GeneratorTwoSigmaDAG, mustDefault(GeneratorTwoSigmaDAG))
	if err != nil {
		t.Fatal(err)
	}
	for _, sec := range [][]Job{w.Jobs, w.History} {
		roots, err := DAGRoots(sec)
		if err != nil {
			t.Fatal(err)
		}
		stages := map[int]int{}
		byID := map[int]*Job{}
		for i := range sec {
			j := &sec[i]
			byID[j.ID] = j
			stages[roots[j.ID]]++
			r := byID[roots[j.ID]]
			if r == nil || r.Features.Name != j.Features.Name || r.Features.User != j.Features.User || r.Submit != j.Submit {
				t.Fatalf("job %d: stage of %v, want its first stage's name, user and submit", j.ID, r)
			}
		}
		short := 0
		for _, n := range stages {
			if n < MinDAGStages || n > MaxDAGStages {
				short++
			}
		}
		if short > 1 || len(stages) < len(sec)/MaxDAGStages {
			t.Errorf("%d DAGs of %d jobs, %d outside [2, 5] stages", len(stages), len(sec), short)
		}
	}
	var buf bytes.Buffer
	if err := Write(&buf, w); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"after":`) {
		t.Error("no after field written")
	}
	r, err := Read(&buf)
	if err != nil || !reflect.DeepEqual(r.Jobs, w.Jobs) {
		t.Errorf("round trip: %v", err)
	}
}

// TestFormDAGs: with the first DAG of 2 stages, its second stage takes the
// first's name, user and submit and moves before the jobs submitted in
// between; ids follow the new order.
func TestFormDAGs(t *testing.T) {
	jobs := []Job{newJob(0).at(0).runtime(10).job(), newJob(1).at(5).runtime(10).job(), newJob(2).at(9).runtime(10).job()}
	jobs[0].Features.Name, jobs[1].Features.Name, jobs[2].Features.Name = "a", "b", "c"
	rng := rand.New(rand.NewPCG(1, 0))
	k := MinDAGStages + rand.New(rand.NewPCG(1, 0)).IntN(MaxDAGStages-MinDAGStages+1)
	FormDAGs(rng, jobs, 100)
	for i, j := range jobs {
		if j.ID != 100+i || j.Submit != 0 && i < k || j.Features.Name != "a" && i < k {
			t.Errorf("job %d: %+v", i, j)
		}
		if p, ok := j.Predecessor(); ok != (i > 0 && i < k) || ok && p != 99+i {
			t.Errorf("job %d: after %v, %v", i, p, ok)
		}
	}
}

package traces

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseDAGName(t *testing.T) {
	tests := []struct {
		name string
		id   int
		deps []int
		ok   bool
	}{
		{"M1", 1, []int{}, true},
		{"R4_2", 4, []int{2}, true},
		{"M5_3_4", 5, []int{3, 4}, true},
		{"task_Nzg3ODAwNDgzMTAwNTc2NTQ2Mw==", 0, nil, false},
		{"MergeTask", 0, nil, false},
		{"M", 0, nil, false},
		{"12", 0, nil, false},
		{"M1__2", 0, nil, false},
		{"M1_+2", 0, nil, false},
	}
	for _, tc := range tests {
		id, deps, ok := parseDAGName(tc.name)
		if ok != tc.ok || id != tc.id || (ok && !reflect.DeepEqual(deps, tc.deps)) {
			t.Errorf("parseDAGName(%q) = %d, %v, %v; want %d, %v, %v", tc.name, id, deps, ok, tc.id, tc.deps, tc.ok)
		}
	}
}

func TestParseAlibabaFixture(t *testing.T) {
	tr, err := Read(FormatAlibaba2018, filepath.Join("testdata", "small-batch_task.csv"), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantFiltered := map[string]int{"failed": 1, "running": 1}
	if !reflect.DeepEqual(tr.Filtered, wantFiltered) {
		t.Errorf("filtered %v, want %v", tr.Filtered, wantFiltered)
	}
	if len(tr.Records) != 4 {
		t.Fatalf("%d records, want 4 (jobs 1, 2, 5, 6)", len(tr.Records))
	}
	// j_1: tasks M1 (1000–1100, 10 inst), R2_1 (1100–1300), and M4_3 on a
	// later line (1300–1350): makespan 350 s, widest 10 instances.
	j1 := tr.Records[0]
	want := Record{Submit: 1000, Runtime: 350, Size: 10, TaskDurations: []float64{100, 200, 50}, Kind: "dag"}
	want.Features.Name, want.Features.App, want.Features.Resources = "M1,M4_3,R2_1", "type1", "inst=10"
	if !reflect.DeepEqual(j1, want) {
		t.Errorf("j_1 = %+v\nwant %+v", j1, want)
	}
	j2 := tr.Records[1]
	if j2.Kind != "tasks" || j2.Features.Name != "task" || j2.Size != 2 || j2.Runtime != 60 || j2.Features.App != "type12" {
		t.Errorf("j_2 (one independent task): %+v", j2)
	}
	j5 := tr.Records[2]
	if j5.Size != 30 || j5.Runtime != 1000 || j5.Features.App != "type1+2" {
		t.Errorf("j_5: %+v", j5)
	}
	// j_6 repeats j_1's DAG: the same name feature.
	if j6 := tr.Records[3]; j6.Features.Name != j1.Features.Name {
		t.Errorf("j_6 name %q, want j_1's %q", j6.Features.Name, j1.Features.Name)
	}
}

func TestParseAlibabaBadLines(t *testing.T) {
	good := "M1,10,j_1,1,Terminated,1000,1100,100,0.39"
	tests := []struct {
		name, line, want string
	}{
		{"fields", "M1,10,j_1", "want 9 comma-separated fields, got 3"},
		{"instances", strings.Replace(good, ",10,", ",ten,", 1), "instance_num"},
		{"start", strings.Replace(good, "1000", "-5", 1), "start_time"},
		{"end", strings.Replace(good, "1100", "1.5", 1), "end_time"},
		{"cpu", strings.Replace(good, ",100,", ",lots,", 1), "plan_cpu"},
		{"job", strings.Replace(good, "j_1", "", 1), "job_name is empty"},
		{"task", strings.Replace(good, "M1", "", 1), "task_name is empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := good + "\n" + tc.line + "\n"
			_, err := ParseAlibaba2018(strings.NewReader(in), "b.csv", ParseOptions{})
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != 2 || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want b.csv:2 and %q", err, tc.want)
			}
			tr, err := ParseAlibaba2018(strings.NewReader(in), "b.csv", ParseOptions{SkipBad: true})
			if err != nil || tr.Skipped != 1 || len(tr.Records) != 1 {
				t.Fatalf("--skip-bad: %v, %+v", err, tr)
			}
		})
	}
}

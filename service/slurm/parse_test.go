package slurm

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/plannerhq/planner/service"
)

// TestParseJobs reads squeue --json as Slurm 22.05 writes it
// (testdata/squeue-22.05.json is its output: a job completed after a
// requeue, a held one with a --deadline, a running one placed on n5 and
// n7) and as later versions write numbers and states.
func TestParseJobs(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "squeue-22.05.json"))
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := ParseJobs(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 3 {
		t.Fatalf("%d jobs, want 3", len(jobs))
	}
	done, held, running := jobs[0], jobs[1], jobs[2]
	if !held.Held() || held.ID != 2 || held.User != "root" || held.Name != "be1" || held.Partition != "debug" || held.Nodes != 1 ||
		held.TimeLimit != time.Minute || held.Deadline.Unix() != 1795803933 || held.Submit.Unix() != 1795800333 ||
		!held.Start.IsZero() || len(held.NodeList) != 0 || !held.Requeue {
		t.Errorf("held job %+v", held)
	}
	if running.Held() || !running.Active() || running.Ended() || running.Comment != "deadline=2030-01-01T00:00:00Z value=3" ||
		!reflect.DeepEqual(running.NodeList, []string{"n5", "n7"}) || !reflect.DeepEqual(running.Required, []string{"n5", "n7"}) ||
		running.Start.Unix() != 1795800334 || running.Nodes != 2 {
		t.Errorf("running job %+v", running)
	}
	if !done.Ended() || done.State != StateCompleted || done.Restarts != 1 || done.End.Unix() != 1795800335 || done.Start.Unix() != 1795800334 {
		t.Errorf("completed job %+v", done)
	}

	later := `{"jobs":[{"job_id":7,"job_state":["PENDING","REQUEUED"],"state_reason":"JobHeldUser",
		"node_count":{"set":true,"infinite":false,"number":4},"time_limit":{"set":false,"infinite":false,"number":0},
		"submit_time":{"set":true,"number":1700000000},"deadline":{"set":true,"infinite":false,"number":0},
		"start_time":{"set":true,"number":0},"end_time":{"infinite":true},"nodes":"","required_nodes":"c[01-02]"}],"errors":[]}`
	jobs, err = ParseJobs([]byte(later))
	if err != nil {
		t.Fatal(err)
	}
	j := jobs[0]
	if j.ID != 7 || !j.Held() || j.Nodes != 4 || j.TimeLimit != 0 || j.Submit.Unix() != 1700000000 || !j.Deadline.IsZero() ||
		!j.End.IsZero() || !reflect.DeepEqual(j.Required, []string{"c01", "c02"}) {
		t.Errorf("job of a later version %+v", j)
	}
	// 22.05 writes an unlimited time limit as INFINITE.
	jobs, err = ParseJobs([]byte(`{"jobs":[{"job_id":8,"job_state":"PENDING","time_limit":4294967295}]}`))
	if err != nil || jobs[0].TimeLimit != 0 {
		t.Errorf("unlimited: %v, %v", jobs, err)
	}
}

func TestParseJobsErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"jobs":[`, "squeue --json: unexpected end of JSON input"},
		{`{"jobs":[{"job_state":"PENDING"}]}`, "squeue --json: job 0: no job_id"},
		{`{"jobs":[{"job_id":"x"}]}`, `squeue --json: want a number, got "x"`},
		{`{"jobs":[{"job_id":1,"job_state":3}]}`, "squeue --json: job_state: want a string or a list of strings, got 3"},
		{`{"jobs":[{"job_id":1,"nodes":"n[1-"}]}`, `squeue --json: job 1: nodes: hostlist "n[1-": '[' without ']'`},
		{`{"jobs":[],"errors":[{"error":"Invalid job id","description":"x"}]}`, "squeue --json: Invalid job id x"},
	} {
		_, err := ParseJobs([]byte(tt.in))
		if err == nil || err.Error() != tt.want {
			t.Errorf("ParseJobs(%s): error %v, want %q", tt.in, err, tt.want)
		}
	}
}

func TestParseNodes(t *testing.T) {
	nodes, err := parseNodes("n1|idle|r0\nn2|drained|r0,big\nn3|down*|(null)\nn1|idle|r0\nn4|allocated*|\nn5|mixed~|\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []Node{{Name: "n1", State: "idle", Features: []string{"r0"}}, {Name: "n2", State: "drained", Features: []string{"r0", "big"}},
		{Name: "n3", State: "down", NotResponding: true}, {Name: "n4", State: "allocated", NotResponding: true}, {Name: "n5", State: "mixed"}}
	if !reflect.DeepEqual(nodes, want) {
		t.Errorf("nodes\n %+v\nwant\n %+v", nodes, want)
	}
	for _, tt := range []struct {
		n               Node
		usable, drained bool
	}{{want[0], true, false}, {want[1], false, true}, {want[2], false, false}, {want[3], false, false}, {want[4], true, false}} {
		if tt.n.Usable() != tt.usable || tt.n.Drained() != tt.drained {
			t.Errorf("%+v: usable %v drained %v", tt.n, tt.n.Usable(), tt.n.Drained())
		}
	}
	if _, err := parseNodes("n1 idle\n"); err == nil || err.Error() != `sinfo line 1: "n1 idle": want NAME|STATE|FEATURES` {
		t.Errorf("error %v", err)
	}
}

func TestParseCompletions(t *testing.T) {
	out := "1|COMPLETED|2026-11-27T17:13:16|2026-11-27T17:13:19|n[5,7]\n3|PENDING|2026-11-27T17:13:24|2026-11-27T17:13:25|n[1-2]\n" +
		"3|CANCELLED by 0|2026-11-27T17:13:30|2026-11-27T17:13:40|n[3-4]\n4|CANCELLED|Unknown|2026-11-27T17:14:00|None assigned\n"
	recs, err := parseCompletions(out, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	want := []Record{
		{1, "COMPLETED", time.Date(2026, 11, 27, 17, 13, 16, 0, time.UTC), time.Date(2026, 11, 27, 17, 13, 19, 0, time.UTC), []string{"n5", "n7"}},
		{3, "PENDING", time.Date(2026, 11, 27, 17, 13, 24, 0, time.UTC), time.Date(2026, 11, 27, 17, 13, 25, 0, time.UTC), []string{"n1", "n2"}},
		{3, "CANCELLED", time.Date(2026, 11, 27, 17, 13, 30, 0, time.UTC), time.Date(2026, 11, 27, 17, 13, 40, 0, time.UTC), []string{"n3", "n4"}},
		{4, "CANCELLED", time.Time{}, time.Date(2026, 11, 27, 17, 14, 0, 0, time.UTC), nil},
	}
	if !reflect.DeepEqual(recs, want) {
		t.Errorf("records\n %+v\nwant\n %+v", recs, want)
	}
	for _, tt := range []struct{ in, want string }{
		{"1|COMPLETED|x", `sacct line 1: "1|COMPLETED|x": want JOBID|STATE|START|END|NODELIST`},
		{"a|COMPLETED|||", `sacct line 1: job id "a": strconv.ParseInt: parsing "a": invalid syntax`},
		{"1|COMPLETED|noon||", `sacct line 1: time "noon": parsing time "noon" as "2006-01-02T15:04:05": cannot parse "noon" as "2006"`},
	} {
		if _, err := parseCompletions(tt.in, time.UTC); err == nil || err.Error() != tt.want {
			t.Errorf("parseCompletions(%q): error %v, want %q", tt.in, err, tt.want)
		}
	}
}

func TestParseComment(t *testing.T) {
	five := 5.0
	tests := []struct {
		name, in string
		want     Comment
		err      string
	}{
		{"empty", "", Comment{}, ""},
		{"other text", "nightly run, ask bo", Comment{}, ""},
		{"all", "deadline=2026-12-01T18:00:00Z value=5 preferred=r0,r1 team=x",
			Comment{Deadline: time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC), Value: &five, Preferred: []string{"r0", "r1"}}, ""},
		{"relative", "deadline=+1h30m", Comment{After: 90 * time.Minute}, ""},
		{"bad time", "deadline=18:00", Comment{}, "comment: deadline=18:00: want a time (RFC 3339, e.g. 2026-12-01T18:00:00Z) or +DURATION after the submit time"},
		{"bad duration", "deadline=+-5m", Comment{}, "comment: deadline=+-5m: want a time (RFC 3339) or +DURATION after the submit time, e.g. +45m"},
		{"bad value", "value=lots", Comment{}, "comment: value=lots: want a number ≥ 0"},
		{"negative value", "value=-1", Comment{}, "comment: value=-1: want a number ≥ 0"},
		{"twice", "value=1 value=2", Comment{}, "comment: value is given twice"},
		{"no partitions", "preferred=", Comment{}, "comment: preferred=: want partition names, e.g. preferred=r0,r1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseComment(tt.in)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestSpec(t *testing.T) {
	submit := time.Date(2026, 11, 27, 17, 0, 0, 0, time.UTC)
	j := &Job{ID: 42, User: "ana", Name: "etl", Partition: "debug", Nodes: 3, TimeLimit: 90 * time.Minute, Submit: submit,
		Comment: "deadline=+2h", Deadline: submit.Add(time.Hour)}
	spec, err := Spec(j)
	if err != nil {
		t.Fatal(err)
	}
	limit := 5400.0
	three := 3
	want := service.JobSpec{User: "ana", Name: "etl", App: "partition=debug", Nodes: &three, Class: "slo",
		Deadline: "2026-11-27T19:00:00Z", Resources: "nodes=3,time=5400", TimeLimitS: &limit, Submitted: "2026-11-27T17:00:00Z"}
	if !reflect.DeepEqual(spec, want) {
		t.Errorf("spec\n %+v\nwant\n %+v (the comment's deadline before --deadline)", spec, want)
	}
	j.Comment = ""
	if spec, _ = Spec(j); spec.Deadline != "2026-11-27T18:00:00Z" {
		t.Errorf("deadline %s, want Slurm's --deadline", spec.Deadline)
	}
	j.Deadline = time.Time{}
	if spec, _ = Spec(j); spec.Class != "be" || spec.Deadline != "" {
		t.Errorf("class %s deadline %q, want best effort", spec.Class, spec.Deadline)
	}
	j.Comment, j.Submit = "deadline=+1h", time.Time{}
	if _, err := Spec(j); err == nil || err.Error() != "comment: deadline=+1h0m0s: the job has no submit time" {
		t.Errorf("error %v", err)
	}
}

func TestMapNodesErrors(t *testing.T) {
	cluster := service.ClusterView{Partitions: []service.PartitionView{{Name: "r0", Nodes: 2}, {Name: "r1", Nodes: 2}}}
	for _, tt := range []struct {
		name  string
		nodes []Node
		want  string
	}{
		{"count", nodesOf("n", 3), "the planner's cluster has 4 nodes and Slurm 3; make them agree, or give each Slurm node its partition's name as a feature (slurm.conf NodeName=... Features=r0)"},
		{"two features", []Node{{Name: "n1", Features: []string{"r0", "r1"}}}, "Slurm node n1 has the features of two partitions, r0 and r1; give it one"},
		{"feature count", append(nodesOf("n", 2, "r0"), Node{Name: "n3", Features: []string{"r1"}}),
			"partition r1 has 2 nodes in the planner's cluster and 1 Slurm nodes with feature r1 (n3); make them agree"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := MapNodes(cluster, tt.nodes)
			if err == nil || err.Error() != tt.want {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
	m, err := MapNodes(cluster, append(nodesOf("n", 2, "r0", "ssd"), Node{Name: "x1"}, Node{Name: "m1", Features: []string{"r1"}}, Node{Name: "m2", Features: []string{"r1"}}))
	if err != nil {
		t.Fatal(err)
	}
	if got := m.String(); got != "r0=n1,n2 r1=m1,m2 (by feature)" {
		t.Errorf("map %s", got)
	}
	if _, ok := m.Partition("x1"); ok {
		t.Error("x1, without a partition's feature, is not the planner's")
	}
	if strings.Contains(m.String(), "x1") {
		t.Error("x1 in the map")
	}
}

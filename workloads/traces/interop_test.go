package traces

import (
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/plannerhq/planner/workloads"
)

// TestParseBatsimFixture reads a Batsim workload of 50 delay jobs and 2
// jobs of another profile type.
func TestParseBatsimFixture(t *testing.T) {
	tr, err := Read(FormatBatsim, filepath.Join("testdata", "batsim-50.json"), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Records) != 50 || tr.MaxProcs != 32 {
		t.Fatalf("%d records, MaxProcs %d; want 50 and nb_res 32 (filtered %v)", len(tr.Records), tr.MaxProcs, tr.Filtered)
	}
	if want := map[string]int{`profile type "parallel_homogeneous" (no runtime)`: 2}; !reflect.DeepEqual(tr.Filtered, want) {
		t.Errorf("filtered %v, want %v", tr.Filtered, want)
	}
	r := tr.Records[0]
	if r.SourceID != "1" || r.Requested != 2*r.Runtime || r.Features.User != "alice" || !strings.HasPrefix(r.Features.Name, "delay") {
		t.Errorf("record 1: %+v", r)
	}
	if m := string(tr.Records[3].Meta); m != `{"extra":{"queue":"big"}}` {
		t.Errorf("record 4 meta %q, want its extra field", m)
	}
	if tr.Records[1].Meta != nil {
		t.Errorf("record 2 meta %q, want none", tr.Records[1].Meta)
	}
}

func TestParseBatsimErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"not json", `nb_res: 4`, "not a Batsim workload"},
		{"no jobs", `{"nb_res": 4}`, `no "jobs"`},
		{"unknown profile", `{"nb_res":4,"jobs":[{"id":1,"subtime":0,"res":1,"profile":"p"}],"profiles":{}}`, `profile "p" is not in`},
		{"no subtime", `{"jobs":[{"id":1,"res":1,"profile":"p"}],"profiles":{"p":{"type":"delay","delay":5}}}`, "subtime"},
		{"bad id", `{"jobs":[{"id":[1],"subtime":0,"res":1,"profile":"p"}],"profiles":{"p":{"type":"delay","delay":5}}}`, `"id"`},
		{"delay without delay", `{"jobs":[],"profiles":{"p":{"type":"delay"}}}`, `no finite "delay"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseBatsim(strings.NewReader(tc.in), "w.json", ParseOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestParseSacctFixture reads a sacct --parsable2 --allocations sample of
// 20 completed jobs, 4 of other states, a pending job and a job step.
func TestParseSacctFixture(t *testing.T) {
	tr, err := Read(FormatSacct, filepath.Join("testdata", "sacct-20.txt"), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Records) != 20 {
		t.Fatalf("%d records, want 20 (filtered %v)", len(tr.Records), tr.Filtered)
	}
	want := map[string]int{"cancelled": 2, "failed": 1, "timeout": 1, "pending": 1, "job step": 1}
	if !reflect.DeepEqual(tr.Filtered, want) {
		t.Errorf("filtered %v, want %v", tr.Filtered, want)
	}
	// 5000|u0|batch|2024-03-04T08:20:00|…08:21:00|…08:26:00|00:05:00|2-00:00:00|1|4|COMPLETED|job0|proj0;
	// 2024-03-04 is a Monday.
	got := tr.Records[0]
	wantRec := Record{Submit: 1709540400, Runtime: 300, Size: 1, Requested: 2 * 86400, SourceID: "5000", Wait: 60,
		Features: workloads.Features{User: "u0", Name: "job0", App: "p=batch,a=proj0",
			Resources: "nodes=1,cpus=4,time=172800", SubmitHour: 8, SubmitDay: 1}}
	if !reflect.DeepEqual(got, wantRec) {
		t.Errorf("record 1 = %+v\nwant %+v", got, wantRec)
	}
}

func TestParseSacctJSON(t *testing.T) {
	tr, err := Read(FormatSacct, filepath.Join("testdata", "sacct.json"), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Records) != 2 || tr.Filtered["cancelled"] != 1 {
		t.Fatalf("records %+v, filtered %v; want 2 and 1 cancelled", tr.Records, tr.Filtered)
	}
	a, b := tr.Records[0], tr.Records[1]
	if a.SourceID != "7001" || a.Runtime != 600 || a.Size != 2 || a.Requested != 3600 || a.Wait != 60 || a.Features.Resources != "nodes=2,cpus=8,time=3600" {
		t.Errorf("job 7001 (plain numbers): %+v", a)
	}
	if b.SourceID != "7002" || b.Runtime != 120 || b.Size != 1 || b.Requested != 0 || b.Wait != 600 {
		t.Errorf("job 7002 (set/infinite/number objects, infinite limit): %+v", b)
	}
}

func TestParseSacctNoHeader(t *testing.T) {
	in := "42|u|p|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:01:10|00:01:00|10|2|8|COMPLETED|n|a\n"
	tr, err := ParseSacct(strings.NewReader(in), "s.txt", ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Records) != 1 || tr.Records[0].Runtime != 60 || tr.Records[0].Requested != 600 {
		t.Fatalf("records %+v, want one of 60 s with a 10-minute limit", tr.Records)
	}
	if _, err := ParseSacct(strings.NewReader("JobIDRaw|State\n1|COMPLETED\n"), "s.txt", ParseOptions{}); err == nil ||
		!strings.Contains(err.Error(), "no Submit column") {
		t.Errorf("header without Submit: error %v", err)
	}
	if _, err := ParseSacct(strings.NewReader(strings.Replace(in, "00:01:00", "1:2:3:4", 1)), "s.txt", ParseOptions{}); err == nil ||
		!strings.Contains(err.Error(), "s.txt:1: Elapsed") {
		t.Errorf("bad Elapsed: error %v", err)
	}
}

func TestParseSlurmDuration(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
	}{
		{"30", 1800}, {"05:30", 330}, {"01:00:00", 3600}, {"1-00:00:00", 86400}, {"2-03", 2*86400 + 3*3600},
		{"1-02:03", 86400 + 2*3600 + 3*60}, {"00:00:01.500", 1.5}, {"UNLIMITED", 0}, {"Partition_Limit", 0},
		{"x", math.NaN()}, {"1:2:3:4", math.NaN()}, {"-1", math.NaN()}, {"", math.NaN()},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseSlurmDuration(tc.in)
			if math.IsNaN(tc.want) {
				if err == nil {
					t.Errorf("ParseSlurmDuration(%q) = %v, want an error", tc.in, got)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("ParseSlurmDuration(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
			}
		})
	}
}

// TestBuildKeepsSourceIDs: the import carries the trace's job ids and
// meta objects to the workload's jobs.
func TestBuildKeepsSourceIDs(t *testing.T) {
	tr, err := Read(FormatBatsim, filepath.Join("testdata", "batsim-50.json"), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	o := DefaultOptions()
	o.StartHours, o.Hours = 0, 0
	w, _, err := Build(tr, o)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	meta := 0
	for _, j := range w.Jobs {
		seen[j.SourceID] = true
		if j.Meta != nil {
			meta++
		}
	}
	if len(w.Jobs) != 50 || len(seen) != 50 || seen[""] || meta != 1 {
		t.Errorf("%d jobs with %d distinct source ids and %d meta objects, want 50, 50 and 1", len(w.Jobs), len(seen), meta)
	}
}

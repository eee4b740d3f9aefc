package traces

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/plannerhq/planner/workloads"
)

func TestParseSWFFixture(t *testing.T) {
	tr, err := Read(FormatSWF, filepath.Join("testdata", "small.swf"), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.MaxProcs != 64 || tr.Lines != 14 || tr.Skipped != 0 {
		t.Errorf("MaxProcs %d, Lines %d, Skipped %d; want 64, 14, 0", tr.MaxProcs, tr.Lines, tr.Skipped)
	}
	wantFiltered := map[string]int{"failed": 1, "cancelled": 1, "zero runtime": 1, "zero size": 1}
	if !reflect.DeepEqual(tr.Filtered, wantFiltered) {
		t.Errorf("filtered %v, want %v", tr.Filtered, wantFiltered)
	}
	// Kept: jobs 1, 4 (allocated unknown: the requested 32), 7 (status −1,
	// unknown) and 8.
	var ids []float64
	for _, r := range tr.Records {
		ids = append(ids, r.Submit)
	}
	if want := []float64{0, 3600, 7300, 90000}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("kept submits %v, want %v (filtered %v)", ids, want, tr.Filtered)
	}
	// UnixStartTime 1000000000 is 2001-09-09 01:46:40 UTC, a Sunday.
	want := Record{Submit: 0, Runtime: 600, Size: 8, Requested: 1200, Features: workloads.Features{
		User: "u3", Name: "app7", App: "g2,q1", Resources: "procs=8,time=1200", SubmitHour: 1, SubmitDay: 0,
	}, SourceID: "1", Wait: 10}
	if !reflect.DeepEqual(tr.Records[0], want) {
		t.Errorf("record 1 = %+v\nwant %+v", tr.Records[0], want)
	}
	var src []string
	for _, r := range tr.Records {
		src = append(src, r.SourceID)
	}
	if want := []string{"1", "4", "7", "8"}; !reflect.DeepEqual(src, want) {
		t.Errorf("source ids %v, want the trace's job numbers %v", src, want)
	}
	r4 := tr.Records[1]
	if r4.Size != 32 || r4.Features.App != "q2,p1" || r4.Features.SubmitHour != 2 {
		t.Errorf("record 4 (requested width, no group, partition 1): %+v", r4)
	}
	if r8 := tr.Records[3]; r8.Features.SubmitDay != 1 || r8.Features.SubmitHour != 2 {
		t.Errorf("record 8 submitted a day and 25 h later: hour %d day %d, want 2 and 1", r8.Features.SubmitHour, r8.Features.SubmitDay)
	}
}

func TestParseSWFZeroSize(t *testing.T) {
	in := "1 0 0 60 0 -1 -1 -1 60 -1 1 5 3 9 2 -1 -1 -1\n"
	tr, err := ParseSWF(strings.NewReader(in), "z.swf", ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Records) != 0 || tr.Filtered["zero size"] != 1 {
		t.Errorf("records %v, filtered %v; want the job filtered as zero size", tr.Records, tr.Filtered)
	}
}

func TestParseSWFBadLines(t *testing.T) {
	good := "1 0 0 60 4 -1 -1 4 60 -1 1 5 3 9 2 -1 -1 -1"
	tests := []struct {
		name string
		line string
		want string
	}{
		{"too few fields", "1 0 0 60 4", "want 18 fields, got 5"},
		{"word", strings.Replace(good, "60", "sixty", 1), `field 4: "sixty" is not a number`},
		{"nan", strings.Replace(good, "60", "NaN", 1), `field 4: "NaN" is not a number`},
		{"below -1", strings.Replace(good, " 4 ", " -7 ", 1), "field 5: -7 out of range"},
		{"huge", strings.Replace(good, "60", "1e300", 1), "field 4: 1e+300 out of range"},
		{"header value in words", "; MaxProcs: many", `header MaxProcs: bad value "many": not a whole number`},
		{"header value out of range", "; UnixStartTime: 99999999999999999999", `header UnixStartTime: bad value "99999999999999999999": out of range`},
		{"header value too large", "; UnixStartTime: 9999999999999", `header UnixStartTime: bad value "9999999999999": out of range`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := good + "\n" + tc.line + "\n" + good + "\n"
			if strings.HasPrefix(tc.line, ";") {
				in = tc.line + "\n" + good + "\n" + good + "\n"
			}
			_, err := ParseSWF(strings.NewReader(in), "bad.swf", ParseOptions{})
			var pe *ParseError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want a ParseError containing %q", err, tc.want)
			}
			line := 2
			if strings.HasPrefix(tc.line, ";") {
				line = 1
			}
			if pe.File != "bad.swf" || pe.Line != line || !strings.HasPrefix(err.Error(), "bad.swf:") {
				t.Errorf("error names %s:%d (%v), want bad.swf:%d", pe.File, pe.Line, err, line)
			}
			tr, err := ParseSWF(strings.NewReader(in), "bad.swf", ParseOptions{SkipBad: true})
			if err != nil || tr.Skipped != 1 || len(tr.Records) != 2 {
				t.Fatalf("--skip-bad: %v, skipped %d, records %d; want nil, 1, 2", err, tr.Skipped, len(tr.Records))
			}
		})
	}
}

// TestImportRealSWF imports the smallest real SWF log with a short window:
// every line parses and the workload is valid.
func TestImportRealSWF(t *testing.T) {
	tr, err := Read(FormatSWF, filepath.Join(sharedTraces, "KTH-SP2-1996-2.1-cln.swf.gz"), ParseOptions{})
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("trace not present:", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if tr.Skipped != 0 || tr.Records == nil || tr.MaxProcs != 100 {
		t.Fatalf("skipped %d, %d records, MaxProcs %d", tr.Skipped, len(tr.Records), tr.MaxProcs)
	}
	if got, want := len(tr.Records)+tr.FilteredTotal(), 28476; got != want {
		t.Errorf("kept + filtered = %d, want the log's %d jobs", got, want)
	}
	o := DefaultOptions()
	o.StartHours, o.Hours, o.Load = 24*30, 24, 1.4
	w, rep, err := Build(tr, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Jobs) == 0 || len(w.History) == 0 || math.Abs(rep.Load-1.4) > LoadTolerance {
		t.Errorf("%d jobs, %d history, load %v", len(w.Jobs), len(w.History), rep.Load)
	}
}

// sharedTraces is the project's directory of real traces, beside the
// repository (and beside each worktree).
var sharedTraces = filepath.Join("..", "..", "..", "shared", "traces")

// TestParseSWFStatus: jobs are kept when their status says the run
// completed (1) or is not recorded (−1); the others are filtered and
// counted by reason, codes the format does not define included, and no
// status code fails the read.
func TestParseSWFStatus(t *testing.T) {
	var in strings.Builder
	for i, st := range []string{"1", "-1", "0", "5", "2", "3", "4", "7", "-2", "1.5", "100000000000000", "7"} {
		fmt.Fprintf(&in, "%d %d 0 60 4 -1 -1 4 60 -1 %s 5 3 9 2 -1 -1 -1\n", i+1, i*60, st)
	}
	tr, err := ParseSWF(strings.NewReader(in.String()), "status.swf", ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Records) != 2 || tr.Records[0].Submit != 0 || tr.Records[1].Submit != 60 {
		t.Errorf("kept %+v, want the jobs of status 1 and −1", tr.Records)
	}
	want := map[string]int{
		"failed": 1, "cancelled": 1,
		"partial run (status 2)": 1, "partial run (status 3)": 1, "partial run (status 4)": 1,
		"status 7 (not an SWF code)": 2, "status -2 (not an SWF code)": 1, "status 1.5 (not an SWF code)": 1,
		"status 1e+14 (not an SWF code)": 1,
	}
	if !reflect.DeepEqual(tr.Filtered, want) {
		t.Errorf("filtered %v\nwant %v", tr.Filtered, want)
	}
}

package traces

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/plannerhq/planner/workloads"
)

func TestParseMustangFixture(t *testing.T) {
	tr, err := Read(FormatMustang, filepath.Join("testdata", "small-mustang.csv"), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantFiltered := map[string]int{"timeout": 1, "zero runtime": 1, "cancelled": 1}
	if !reflect.DeepEqual(tr.Filtered, wantFiltered) {
		t.Errorf("filtered %v, want %v", tr.Filtered, wantFiltered)
	}
	if len(tr.Records) != 3 {
		t.Fatalf("%d records, want 3: %+v", len(tr.Records), tr.Records)
	}
	// 2011-11-02 15:44:19 −06:00 is a Wednesday; limit 120 min.
	want := Record{Submit: 1320270259, Runtime: 3600, Size: 4, Requested: 7200, Features: workloads.Features{
		User: "u12", App: "g3", Resources: "nodes=4,time=7200", SubmitHour: 15, SubmitDay: 3,
	}}
	if !reflect.DeepEqual(tr.Records[0], want) {
		t.Errorf("record 1 = %+v\nwant %+v", tr.Records[0], want)
	}
	if r := tr.Records[1]; r.Requested != 7200 || r.Runtime != 1800 {
		t.Errorf("HH:MM:SS limit: requested %v, runtime %v; want 7200, 1800", r.Requested, r.Runtime)
	}
	// Unix seconds, no limit, lower-case status; 1320285600 is 02:00 UTC.
	if r := tr.Records[2]; r.Requested != 0 || r.Size != 32 || r.Runtime != 3600 || r.Features.Resources != "nodes=32" || r.Features.SubmitHour != 2 {
		t.Errorf("unix-time record: %+v", r)
	}
}

func TestParseLimit(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"", 0, true},
		{"90", 5400, true},
		{"1.5", 90, true},
		{"00:30:00", 1800, true},
		{"2-01:00:00", 176400, true},
		{"1:60:00", 0, false},
		{"-5", 0, false},
		{"x-01:00:00", 0, false},
		{"01:00", 0, false},
		{"NaN", 0, false},
	}
	for _, tc := range tests {
		got, err := parseLimit(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseLimit(%q) = %v, %v; want %v, ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestParseMustangBadLines(t *testing.T) {
	good := "1,1,2012-01-01 00:00:00,2012-01-01 00:01:00,2012-01-01 01:01:00,60,COMPLETED,2,48"
	tests := []struct {
		name, line, want string
	}{
		{"fields", "1,1,2012-01-01 00:00:00", "want 9 comma-separated fields, got 3"},
		{"quote", `1,"1,2,3,4,5,6,7,8,9`, "bad CSV"},
		{"submit", strings.Replace(good, "2012-01-01 00:00:00", "yesterday", 1), `submit_time: "yesterday" is not a timestamp`},
		{"end", strings.Replace(good, "2012-01-01 01:01:00", "", 1), "end_time: empty"},
		{"limit", strings.Replace(good, ",60,", ",soon,", 1), "wallclock_limit"},
		{"nodes", strings.Replace(good, ",2,48", ",2.5,48", 1), `node_count: "2.5" is not a count`},
		{"tasks", strings.Replace(good, ",48", ",-1", 1), "tasks_requested"},
		{"status", strings.Replace(good, "COMPLETED", " ", 1), "job_status is empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := good + "\n" + tc.line + "\n"
			_, err := ParseMustang(strings.NewReader(in), "m.csv", ParseOptions{})
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != 2 || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want m.csv:2 and %q", err, tc.want)
			}
			tr, err := ParseMustang(strings.NewReader(in), "m.csv", ParseOptions{SkipBad: true})
			if err != nil || tr.Skipped != 1 || len(tr.Records) != 1 {
				t.Fatalf("--skip-bad: %v, %+v", err, tr)
			}
		})
	}
}

// TestParseMustangHeader: the header is recognised on the first non-blank
// line, after a byte order mark and with CRLF line ends; anywhere else it
// is a bad line.
func TestParseMustangHeader(t *testing.T) {
	header := strings.Join(mustangHeader, ",")
	job := "1,1,2012-01-01 00:00:00,2012-01-01 00:01:00,2012-01-01 01:01:00,60,COMPLETED,2,48"
	tests := []struct {
		name, in string
		badLine  int // 0: parses
	}{
		{"header", header + "\n" + job + "\n", 0},
		{"no header", job + "\n", 0},
		{"blank lines first", "\n  \n" + header + "\n" + job + "\n", 0},
		{"byte order mark", "\uFEFF" + header + "\n" + job + "\n", 0},
		{"mark, CRLF, blank line", "\uFEFF\r\n" + header + "\r\n" + job + "\r\n", 0},
		{"upper case", strings.ToUpper(header) + "\n" + job + "\n", 0},
		{"header after a job", job + "\n" + header + "\n", 2},
		{"header twice", header + "\n\n" + header + "\n" + job + "\n", 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := ParseMustang(strings.NewReader(tc.in), "m.csv", ParseOptions{})
			if tc.badLine > 0 {
				var pe *ParseError
				if !errors.As(err, &pe) || pe.Line != tc.badLine {
					t.Fatalf("error %v, want a ParseError on line %d", err, tc.badLine)
				}
				return
			}
			if err != nil || len(tr.Records) != 1 || tr.Skipped != 0 {
				t.Fatalf("%v, %+v; want 1 record", err, tr)
			}
		})
	}
}

package traces

import (
	"compress/gzip"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadGoogle2011Fixture(t *testing.T) {
	tr, err := ReadGoogle2011(filepath.Join("testdata", "google2011"), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantFiltered := map[string]int{
		"submitted before the trace":      1, // job 1
		"killed":                          1, // job 3
		"failed":                          1, // job 4
		"unfinished at the trace end":     1, // job 5
		"task scheduled before the trace": 1, // job 6
		"no task events":                  1, // job 8
	}
	if !reflect.DeepEqual(tr.Filtered, wantFiltered) {
		t.Errorf("filtered %v, want %v", tr.Filtered, wantFiltered)
	}
	if len(tr.Records) != 2 {
		t.Fatalf("%d records, want jobs 2 and 7", len(tr.Records))
	}
	// Job 2: tasks 0 (700–800 s), 1 (evicted at 750, rescheduled 760,
	// finished 960) and 2 (710–740).
	j2 := tr.Records[0]
	want := Record{Submit: 600, Runtime: 200, Size: 3, TaskDurations: []float64{100, 200, 30}}
	want.Features.User, want.Features.Name, want.Features.App, want.Features.Resources = "userB", "logB", "class3", "tasks=3"
	if !reflect.DeepEqual(j2, want) {
		t.Errorf("job 2 = %+v\nwant %+v", j2, want)
	}
	// Job 7: task indices 0 and 5 (size counts distinct indices), submitted
	// at 4000 s = hour 1; its after-the-end KILL is not part of the trace.
	j7 := tr.Records[1]
	if j7.Size != 2 || j7.Runtime != 100 || j7.Features.SubmitHour != 1 || !reflect.DeepEqual(j7.TaskDurations, []float64{100, 49}) {
		t.Errorf("job 7 = %+v", j7)
	}
}

// TestReadGoogle2011Gzip reads the fixture gzip-compressed and checks a bad
// line is reported with its file and line.
func TestReadGoogle2011Gzip(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{"job_events", "task_events"} {
		src := filepath.Join("testdata", "google2011", sub)
		entries, err := os.ReadDir(src)
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(dir, sub), 0o755)
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(src, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.Create(filepath.Join(dir, sub, e.Name()+".gz"))
			if err != nil {
				t.Fatal(err)
			}
			zw := gzip.NewWriter(f)
			zw.Write(data)
			zw.Close()
			f.Close()
		}
	}
	want, err := ReadGoogle2011(filepath.Join("testdata", "google2011"), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadGoogle2011(dir, ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Records, want.Records) || !reflect.DeepEqual(got.Filtered, want.Filtered) {
		t.Errorf("gzip parts read differently: %+v vs %+v", got, want)
	}

	bad := filepath.Join(dir, "task_events", "part-00000-of-00001.csv.gz")
	f, _ := os.Create(bad)
	zw := gzip.NewWriter(f)
	zw.Write([]byte("700000000,,2,0,m1,1,userB,3,9,0.01,0.02,0.0001,0\n700000000,,2,x,m1,1,userB,3,9,0.01,0.02,0.0001,0\n"))
	zw.Close()
	f.Close()
	_, err = ReadGoogle2011(dir, ParseOptions{})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.File != bad || pe.Line != 2 || !strings.Contains(err.Error(), `task index "x"`) {
		t.Errorf("error %v, want %s:2 naming the task index", err, bad)
	}
}

func TestGoogleEventErrors(t *testing.T) {
	tests := []struct {
		name string
		job  bool
		line string
		want string
	}{
		{"job fields", true, "1,,2,0,u", "want 8 comma-separated fields, got 5"},
		{"job time", true, "-1,,2,0,u,1,n,l", "time \"-1\""},
		{"job event", true, "1,,2,9,u,1,n,l", "event type \"9\""},
		{"job class", true, "1,,2,0,u,7,n,l", "scheduling class \"7\""},
		{"task fields", false, "1,,2,0,m,1", "want 13 comma-separated fields, got 6"},
		{"task job id", false, "1,,-2,0,m,1,u,1,0,0,0,0,0", "job ID \"-2\""},
		{"task event", false, "1,,2,0,m,x,u,1,0,0,0,0,0", "event type \"x\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := newGoogle2011("d", &ParseOptions{})
			parse := g.taskEvents
			if tc.job {
				parse = g.jobEvents
			}
			err := parse(strings.NewReader(tc.line+"\n"), "part.csv")
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "part.csv:1: ") {
				t.Fatalf("error %v, want part.csv:1 and %q", err, tc.want)
			}
		})
	}
}

func TestReadGoogle2011Layout(t *testing.T) {
	if _, err := ReadGoogle2011(t.TempDir(), ParseOptions{}); err == nil || !strings.Contains(err.Error(), "no job_events") {
		t.Errorf("empty directory: %v", err)
	}
	if _, err := ReadGoogle2011(filepath.Join("testdata", "small.swf"), ParseOptions{}); err == nil || !strings.Contains(err.Error(), "is a file") {
		t.Errorf("a file: %v", err)
	}
	if _, err := ReadGoogle2011("no/such/dir", ParseOptions{}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing directory: %v", err)
	}
}

// TestImportRealGoogle2011 imports the shared cluster-data directory (a few
// seconds): every line parses, jobs are kept and the workload is valid.
func TestImportRealGoogle2011(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 1.1M events")
	}
	tr, err := ReadGoogle2011(filepath.Join(sharedTraces, "google-2011"), ParseOptions{})
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("trace not present:", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if tr.Skipped != 0 || len(tr.Records) < 5000 {
		t.Fatalf("skipped %d, %d records (want > 5000 finished jobs)", tr.Skipped, len(tr.Records))
	}
	o := DefaultOptions()
	o.Hours = 1
	w, _, err := Build(tr, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Jobs) < 100 || len(w.History) < 1000 {
		t.Errorf("%d jobs, %d history", len(w.Jobs), len(w.History))
	}
}

// TestReadGoogle2011EmptyPart: a part without events — 0 bytes, plain or
// gzip, or blank lines only — is an error naming the file, never read as
// a quiet stretch of the trace.
func TestReadGoogle2011EmptyPart(t *testing.T) {
	gz := func(data string) []byte {
		var b strings.Builder
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(data))
		zw.Close()
		return []byte(b.String())
	}
	tests := []struct {
		name string
		part string // added to the fixture, under its directory
		data []byte
	}{
		{"task part of 0 bytes", "task_events/part-00001-of-00002.csv", nil},
		{"gzip task part of 0 bytes", "task_events/part-00001-of-00002.csv.gz", nil},
		{"gzip task part of nothing", "task_events/part-00001-of-00002.csv.gz", gz("")},
		{"task part of blank lines", "task_events/part-00001-of-00002.csv", []byte("\n \r\n")},
		{"job part of 0 bytes", "job_events/part-00002-of-00003.csv", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "google2011"))); err != nil {
				t.Fatal(err)
			}
			part := filepath.Join(dir, filepath.FromSlash(tc.part))
			if err := os.WriteFile(part, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadGoogle2011(dir, ParseOptions{SkipBad: true})
			if want := part + ": empty file"; err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("error %v, want one starting %q", err, want)
			}
		})
	}
}

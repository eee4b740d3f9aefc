package traces

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"

	"github.com/plannerhq/planner/workloads"
)

func TestSniff(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	swf, err := os.ReadFile(filepath.Join("testdata", "small.swf"))
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(swf)
	zw.Close()
	o := DefaultOptions()
	o.StartHours, o.Hours, o.Nodes = 0, 0, 16
	w, _ := build(t, hourly(3, 16, 1), o)
	var wl bytes.Buffer
	if err := workloads.Write(&wl, w); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string
	}{
		{"swf", filepath.Join("testdata", "small.swf"), FormatSWF},
		{"swf.gz", write("t.swf.gz", gz.Bytes()), FormatSWF},
		{"swf header only", write("h.swf", []byte("; MaxProcs: 8\n1 0 0 60 4 -1 -1 4 60 -1 1 5 3 9 2 -1 -1 -1\n")), FormatSWF},
		{"mustang", filepath.Join("testdata", "small-mustang.csv"), FormatMustang},
		{"alibaba2018", filepath.Join("testdata", "small-batch_task.csv"), FormatAlibaba2018},
		{"google2011", filepath.Join("testdata", "google2011"), FormatGoogle2011},
		{"a workload file", write("w.jsonl", wl.Bytes()), ""},
		{"empty", write("empty", nil), ""},
		{"text", write("notes.txt", []byte("hello\n")), ""},
		{"a directory", t.TempDir(), ""},
		{"missing", filepath.Join(dir, "nope"), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Sniff(tc.path); got != tc.want {
				t.Errorf("Sniff(%s) = %q, want %q", tc.path, got, tc.want)
			}
		})
	}
}

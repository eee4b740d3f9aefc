package experiments

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

func TestWriteFileAtomicReplacesAFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.txt")
	for _, s := range []string{"first", "second"} {
		if err := WriteFileAtomic(path, writeString(s)); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(path); string(b) != s {
			t.Fatalf("file holds %q, want %q", b, s)
		}
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
	// A failed write leaves the file as it was.
	if err := WriteFileAtomic(path, func(io.Writer) error { return io.ErrUnexpectedEOF }); err == nil {
		t.Fatal("want the write's error")
	}
	if b, _ := os.ReadFile(path); string(b) != "second" {
		t.Fatalf("a failed write changed the file to %q", b)
	}
}

func TestWriteFileAtomicFollowsLinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.txt")
	link := filepath.Join(dir, "link.txt")
	os.WriteFile(target, []byte("old"), 0o644)
	if err := os.Symlink("target.txt", link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := WriteFileAtomic(link, writeString("new")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Fatalf("target holds %q, want %q", b, "new")
	}
	dangling := filepath.Join(dir, "dangling.txt")
	os.Symlink("missing.txt", dangling)
	if err := WriteFileAtomic(dangling, writeString("x")); err == nil || !strings.Contains(err.Error(), dangling) {
		t.Fatalf("dangling link: error %v, want one naming it", err)
	}
}

// TestWithPath: an error is prefixed with its path unless it names the
// path already, so that no message names a file twice.
func TestWithPath(t *testing.T) {
	const p = "out/results.json"
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"a path error about it", &fs.PathError{Op: "open", Path: p, Err: fs.ErrPermission}, "open out/results.json: permission denied"},
		{"a wrapped path error about it", fmt.Errorf("reading: %w", &fs.PathError{Op: "read", Path: p, Err: fs.ErrClosed}), "reading: read out/results.json: file already closed"},
		{"a link error about it", &os.LinkError{Op: "rename", Old: "out/.tmp", New: p, Err: fs.ErrExist}, "rename out/.tmp out/results.json: file already exists"},
		{"a message that starts with it", fmt.Errorf("%s: is a directory", p), "out/results.json: is a directory"},
		{"a path error about another file", &fs.PathError{Op: "open", Path: "out/.results.json.1", Err: fs.ErrPermission}, "out/results.json: open out/.results.json.1: permission denied"},
		{"no path", errors.New("disk full"), "out/results.json: disk full"},
		{"the path inside another name", errors.New("out/results.json.bak: bad"), "out/results.json: out/results.json.bak: bad"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := WithPath(p, tc.err)
			if err.Error() != tc.want {
				t.Errorf("%q, want %q", err, tc.want)
			}
			if !errors.Is(err, tc.err) {
				t.Error("the error is not wrapped")
			}
		})
	}
}

// TestReportWriteDirNamesTheFileOnce: a results file that cannot be
// written is named once in the error.
func TestReportWriteDirNamesTheFileOnce(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "results.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := (&Report{}).WriteDir(dir)
	if err == nil {
		t.Fatal("wrote over a directory")
	}
	if want := filepath.Join(dir, "results.json") + ": is a directory"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}

func TestSyncDir(t *testing.T) {
	dir := t.TempDir()
	if err := syncDir(dir); err != nil {
		t.Fatalf("syncDir(%s): %v", dir, err)
	}
	if err := syncDir(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("syncDir of a missing directory: no error")
	}
}

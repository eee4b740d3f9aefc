package experiments

import (
	"io"
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

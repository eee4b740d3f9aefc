//go:build unix

package experiments

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestWriteFileAtomicIntoAPipeAndNotADirectory(t *testing.T) {
	dir := t.TempDir()
	if err := WriteFileAtomic(dir, writeString("x")); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("directory: error %v", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	got := make(chan string)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	if err := WriteFileAtomic(fifo, writeString("through the pipe")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the pipe was replaced: %v", err)
	}
	if s := <-got; s != "through the pipe" {
		t.Fatalf("reader got %q", s)
	}
}

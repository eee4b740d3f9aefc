package solver

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestGrowPipe: the pipe to a worker holds pipeBuffer bytes when the
// system allows pipes that large.
func TestGrowPipe(t *testing.T) {
	if b, err := os.ReadFile("/proc/sys/fs/pipe-max-size"); err != nil {
		t.Skip(err)
	} else if limit, err := strconv.Atoi(strings.TrimSpace(string(b))); err != nil || limit < pipeBuffer {
		t.Skipf("pipe-max-size %q is below %d", b, pipeBuffer)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	growPipe(w)
	const fGetPipeSize = 1024 + 8
	size, _, errno := syscall.Syscall(syscall.SYS_FCNTL, w.Fd(), fGetPipeSize, 0)
	if errno != 0 {
		t.Fatal(errno)
	}
	if size < pipeBuffer {
		t.Errorf("pipe buffer %d bytes, want ≥ %d", size, pipeBuffer)
	}
}

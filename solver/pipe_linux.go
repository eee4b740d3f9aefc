package solver

import (
	"os"
	"syscall"
)

// fSetPipeSize is Linux's F_SETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 7).
const fSetPipeSize = 1024 + 7

// growPipe asks the kernel for a pipe buffer of pipeBuffer bytes behind f
// (at most /proc/sys/fs/pipe-max-size, 1 MiB by default, for an
// unprivileged process), so that a request of megabytes crosses in a few
// writes rather than one per 64 KiB, each a wake-up of the reader and of
// the writer's goroutine. A refusal leaves the default size: only speed
// depends on it.
func growPipe(f *os.File) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	rc.Control(func(fd uintptr) {
		syscall.Syscall(syscall.SYS_FCNTL, fd, fSetPipeSize, pipeBuffer)
	})
}

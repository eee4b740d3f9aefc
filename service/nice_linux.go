package service

import (
	"runtime"
	"syscall"
)

// lowerThreadPriority locks the calling goroutine to its OS thread and
// lowers that thread's CPU priority by n (nice +n); processes it starts
// inherit it. The goroutine must end without unlocking, so that the
// runtime retires the thread.
func lowerThreadPriority(n int) error {
	runtime.LockOSThread()
	tid := syscall.Gettid()
	prio, err := syscall.Getpriority(syscall.PRIO_PROCESS, tid)
	if err != nil {
		return err
	}
	// Getpriority returns 20 − nice on Linux.
	return syscall.Setpriority(syscall.PRIO_PROCESS, tid, min(19, 20-prio+n))
}

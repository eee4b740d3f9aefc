package service

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// minFreeBytes is the free space under --data below which the service
// says it is not ready: bbolt grows its file by up to 16 MiB at a time
// (its AllocSize) and a commit that cannot write stops the service.
const minFreeBytes = 32 << 20

// diskSpace is the space a file system has for the service: the bytes
// an unprivileged writer may still use, and whether it is mounted
// read-only.
type diskSpace struct {
	free     uint64
	readOnly bool
}

func statDisk(dir string) (diskSpace, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return diskSpace{}, err
	}
	return diskSpace{free: uint64(st.Bavail) * uint64(st.Bsize), readOnly: st.Flags&unix.ST_RDONLY != 0}, nil
}

// writable says why the log cannot be written now, or nil.
func (s *Service) writable() error {
	d, err := s.statDisk(s.cfg.DataDir)
	switch {
	case err != nil:
		return fmt.Errorf("--data: %w", err)
	case d.readOnly:
		return fmt.Errorf("%s is on a read-only file system: the log cannot be written", s.cfg.DataDir)
	case d.free < minFreeBytes:
		return fmt.Errorf("%s has %d MiB free, less than the %d MiB the log needs to grow", s.cfg.DataDir, d.free>>20, minFreeBytes>>20)
	}
	return nil
}

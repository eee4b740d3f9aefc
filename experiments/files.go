package experiments

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
)

// WriteFileAtomic writes path through a temporary file in the same
// directory, renamed into place only when write succeeded, so a failure
// (or an interrupted run) never leaves a half-written file where a good
// one was. The file gets mode 0644, not CreateTemp's 0600, so shared
// results and workload files stay readable to others.
//
// A symbolic link at path is followed: the file it points to is replaced,
// and the link stays. A path that names something other than a regular
// file — a device such as /dev/stdout, a named pipe — is written to
// directly, since renaming over it would replace it; a directory is an
// error. The temporary file is synced before the rename and the directory
// after it, so that a crash never leaves an empty or partial file at path.
func WriteFileAtomic(path string, write func(io.Writer) error) error {
	if fi, err := os.Stat(path); err == nil {
		switch {
		case fi.IsDir():
			return fmt.Errorf("%s: is a directory", path)
		case !fi.Mode().IsRegular():
			return writeDirect(path, write)
		}
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			return fmt.Errorf("%s: a symbolic link to a missing file: %w", path, err)
		}
		path = target
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	tempFiles.Store(tmp.Name(), struct{}{})
	defer func() {
		os.Remove(tmp.Name()) // a no-op once renamed
		tempFiles.Delete(tmp.Name())
	}()
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := writeBuffered(tmp, write); err != nil {
		tmp.Close()
		return err
	}
	// The data reach the disk before the rename makes them the file's,
	// and the rename reaches it before we return (syncDir): after a crash
	// path holds the old file or the new one, whole.
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// syncDir flushes the directory dir, so that a rename into it is durable.
// A file system that cannot sync a directory (EINVAL, as some network and
// Windows file systems answer) is not an error: the rename was done.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, errors.ErrUnsupported) {
		return nil
	}
	return err
}

// tempFiles are the temporary files of writes under way.
var tempFiles sync.Map

// RemoveTempFiles removes the temporary files of the writes under way (a
// process about to exit on a second interrupt calls it), so that none is
// left behind.
func RemoveTempFiles() {
	tempFiles.Range(func(k, _ any) bool {
		os.Remove(k.(string))
		return true
	})
}

// writeDirect writes to the existing non-regular file path (a device or
// a pipe) in place.
func writeDirect(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if err := writeBuffered(f, write); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeBuffered runs write on a buffered writer over f and flushes it.
func writeBuffered(f *os.File, write func(io.Writer) error) error {
	bw := bufio.NewWriter(f)
	if err := write(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// NamesPath reports whether err names path already: it is (or wraps) an
// *fs.PathError or *os.LinkError about path, or its message starts with
// "path: " (as WriteFileAtomic's own errors do).
func NamesPath(err error, path string) bool {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == path {
		return true
	}
	var le *os.LinkError
	if errors.As(err, &le) && (le.Old == path || le.New == path) {
		return true
	}
	return strings.HasPrefix(err.Error(), path+": ")
}

// WithPath is err with "path: " before it, unless err names path already
// (NamesPath): a message names its file once ("x: open x: …" twice).
func WithPath(path string, err error) error {
	if NamesPath(err, path) {
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}

// SameFile reports whether paths a and b name the same existing file
// (after links); false when either does not exist.
func SameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// writeFileAtomic is WriteFileAtomic of bytes.
func writeFileAtomic(path string, b []byte) error {
	return WriteFileAtomic(path, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

package experiments

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
)

// WriteFileAtomic writes path through a temporary file in the same
// directory, renamed into place only when write succeeded, so a failure
// (or an interrupted run) never leaves a half-written file where a good
// one was. The file gets mode 0644, not CreateTemp's 0600, so shared
// results and workload files stay readable to others.
func WriteFileAtomic(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	bw := bufio.NewWriter(tmp)
	if err := write(bw); err != nil {
		tmp.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// writeFileAtomic is WriteFileAtomic of bytes.
func writeFileAtomic(path string, b []byte) error {
	return WriteFileAtomic(path, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

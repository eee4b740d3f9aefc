package workloads

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzRead checks that Read never panics and that whatever it accepts is a
// valid workload that Write reproduces byte for byte after one
// normalisation (Read → Write → Read → Write is stable). The seed corpus
// is in testdata/fuzz/FuzzRead.
func FuzzRead(f *testing.F) {
	f.Add(encode(f, smallWorkload()))
	f.Add([]byte(""))
	f.Add([]byte("{}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := Read(bytes.NewReader(data))
		if err != nil {
			var le *LineError
			if !errors.Is(err, ErrInvalid) && !errors.As(err, &le) {
				t.Fatalf("error %v is neither ErrInvalid nor a LineError", err)
			}
			return
		}
		if err := w.Validate(); err != nil {
			t.Fatalf("Read accepted an invalid workload: %v", err)
		}
		first := encode(t, w)
		w2, err := Read(bytes.NewReader(first))
		if err != nil {
			t.Fatalf("re-reading Write's output: %v", err)
		}
		if second := encode(t, w2); !bytes.Equal(first, second) {
			t.Fatalf("Write(Read(Write(w))) differs from Write(w)")
		}
		_ = Stats(w)
	})
}

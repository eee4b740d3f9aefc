package service

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plannerhq/planner/workloads"
)

// damagedJobs is the number of jobs in the database the damage tests
// break: enough records for many pages.
const damagedJobs = 300

// filledDir returns a closed data directory holding damagedJobs jobs.
func filledDir(t *testing.T) string {
	t.Helper()
	ts := startService(t, "", virtualCfg())
	ctx := context.Background()
	for i := range damagedJobs {
		spec := JobSpec{ID: fmt.Sprintf("j%d", i), User: "ana", Nodes: ptr(1 + i%4), Class: "slo", Deadline: at(3600 + float64(i))}
		if _, _, err := ts.c.Submit(ctx, spec); err != nil {
			t.Fatal(err)
		}
	}
	ts.stop()
	return ts.dir
}

func openDir(dir string) (*Service, error) {
	cfg := virtualCfg()
	cfg.DataDir = dir
	c := workloads.DefaultCluster(16, 2)
	cfg.Cluster = &c
	return Open(cfg)
}

// copyDir copies the data directory src into a new one.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// lastMatch is the offset of the last copy of s in the file (the newest
// version of the page that holds it).
func lastMatch(t *testing.T, b []byte, s string) int {
	i := bytes.LastIndex(b, []byte(s))
	if i < 0 {
		t.Fatalf("%q not in the database", s)
	}
	return i
}

// TestDamagedDatabaseRefused breaks a database in the ways a disk or an
// operator does and checks that opening it is refused with one line
// naming the file (and the record where there is one), never a crash, an
// empty start or a changed record; Check says the same, and Recover
// keeps the records before the damage.
func TestDamagedDatabaseRefused(t *testing.T) {
	orig := filledDir(t)
	size := func(dir string) int64 {
		fi, err := os.Stat(filepath.Join(dir, dbFileName))
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}(orig)
	const ps = 4096
	// used is the bytes of the pages the database holds (the file is
	// grown ahead of them).
	used := func() int {
		f, err := os.Open(filepath.Join(orig, dbFileName))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		m0, m1 := readBoltMeta(f, 0), readBoltMeta(f, ps)
		if m1.txid > m0.txid {
			m0 = m1
		}
		return int(m0.pgid) * ps
	}()
	cases := []struct {
		name   string
		damage func(b []byte) []byte // nil result: remove the file
		want   []string              // in the error
		// recovered is the least number of records Recover must keep.
		recovered uint64
	}{
		{"truncated to 0", func(b []byte) []byte { return b[:0] }, []string{"empty (0 bytes)", markerName}, 0},
		{"missing", func(b []byte) []byte { return nil }, []string{"is missing", markerName}, 0},
		{"truncated to half", func(b []byte) []byte { return b[:used/2/ps*ps] }, []string{"truncated"}, 0},
		{"truncated to a page short", func(b []byte) []byte { return b[:used-ps] }, []string{"truncated"}, 0},
		{"truncated mid-page", func(b []byte) []byte { return b[:len(b)-100] }, []string{"truncated"}, 0},
		{"a record's byte flipped", func(b []byte) []byte {
			i := lastMatch(t, b, `"id":"j150"`) + 3
			b[i] ^= 0x01
			return b
		}, []string{"log record", "checksum"}, 100},
		{"a key byte flipped", func(b []byte) []byte {
			i := lastMatch(t, b, `"deadline"`) + 5
			b[i] ^= 0x80
			return b
		}, []string{"log record", "checksum"}, 100},
		{"a log page zeroed", func(b []byte) []byte {
			i := lastMatch(t, b, `"id":"j200"`) / ps * ps
			clear(b[i : i+ps])
			return b
		}, []string{"damaged"}, 150},
		{"both meta pages zeroed", func(b []byte) []byte { clear(b[:2*ps]); return b }, []string{"meta pages are damaged"}, damagedJobs},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyDir(t, orig)
			path := filepath.Join(dir, dbFileName)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if int64(len(b)) != size {
				t.Fatalf("copy: %d bytes, want %d", len(b), size)
			}
			if nb := tc.damage(b); nb == nil {
				os.Remove(path)
			} else if err := os.WriteFile(path, nb, 0o600); err != nil {
				t.Fatal(err)
			}
			before, _ := os.ReadFile(path)
			s, err := openDir(dir)
			if err == nil {
				s.Close()
				t.Fatal("a damaged database was opened")
			}
			msg := err.Error()
			if !strings.Contains(msg, dir) || strings.Contains(msg, "\n") {
				t.Errorf("error %q: want one line naming %s", msg, dir)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q: want %q in it", msg, w)
				}
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
				t.Error("the refused database was changed")
			}
			if _, err := Check(dir); err == nil {
				t.Error("Check passed a damaged database")
			}
			if tc.recovered == 0 {
				return
			}
			to := filepath.Join(t.TempDir(), "recovered")
			copied, _, err := Recover(dir, to, time.Now())
			if err != nil {
				t.Fatalf("Recover: %v", err)
			}
			if copied < tc.recovered {
				t.Errorf("Recover kept %d records, want at least %d", copied, tc.recovered)
			}
			rep, err := Check(to)
			if err != nil || rep.Records != copied || rep.Jobs != int(copied) {
				t.Fatalf("Check of the recovered database: %+v, %v; want %d records", rep, err, copied)
			}
			s, err = openDir(to)
			if err != nil {
				t.Fatalf("opening the recovered database: %v", err)
			}
			defer s.Close()
			if js := s.st.byKey["j0"]; js == nil || js.status != statusPending {
				t.Errorf("recovered job j0: %+v", js)
			}
		})
	}
}

// TestCheckHealthy: Check reads a healthy database without changing it,
// and Recover of it keeps everything.
func TestCheckHealthy(t *testing.T) {
	dir := filledDir(t)
	path := filepath.Join(dir, dbFileName)
	before, _ := os.ReadFile(path)
	rep, err := Check(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Records != damagedJobs || rep.Jobs != damagedJobs || rep.Warning != "" {
		t.Errorf("report %+v, want %d records and jobs", rep, damagedJobs)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("Check changed the database")
	}
	copied, lost, err := Recover(dir, filepath.Join(t.TempDir(), "r"), time.Now())
	if err != nil || copied != damagedJobs || lost != 0 {
		t.Errorf("Recover: %d records, %d beyond, %v; want %d, 0", copied, lost, err, damagedJobs)
	}
	if _, _, err := Recover(dir, dir, time.Now()); err == nil {
		t.Error("Recover into a directory that is not empty")
	}
}

package service

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
)

// CheckReport is what Check found in a data directory.
type CheckReport struct {
	Path    string
	Bytes   int64
	Records uint64 // log records read, in order
	Jobs    int    // submissions among them
	// Snapshot is the sequence number the predictor's snapshot holds
	// (0: none).
	Snapshot uint64
	// Warning is damage the service works around (one of bbolt's two
	// meta pages), or "".
	Warning string
}

// verify reads every value of the database under guarded: the meta, each
// log record (its checksum, its sequence number and, with decode, its
// JSON) and the predictor's snapshot. A damaged value or page is an
// error naming the file and the record; rep, when not nil, counts what
// was read.
func (s *store) verify(rep *CheckReport, decode bool) (*CheckReport, error) {
	if rep == nil {
		rep = &CheckReport{Path: s.path}
	}
	marked := fileExists(markerPath(filepath.Dir(s.path)))
	err := s.db.View(func(tx *bolt.Tx) error {
		err := guarded("the root page", func() error {
			return tx.ForEach(func(name []byte, _ *bolt.Bucket) error {
				switch string(name) {
				case string(bucketMeta), string(bucketLog), string(bucketPredictor):
					return nil
				}
				return fmt.Errorf("%s: %w: an unknown bucket %q", s.path, errDamaged, clip(string(name)))
			})
		})
		if err != nil {
			return err
		}
		var m *meta
		if err := guarded("the meta", func() (err error) { m, err = readMeta(tx); return err }); err != nil {
			return fmt.Errorf("%s: meta: %w", s.path, err)
		}
		if m == nil || tx.Bucket(bucketLog) == nil || tx.Bucket(bucketPredictor) == nil {
			if marked {
				return fmt.Errorf("%s: %w: its meta or log is missing, but %s says a database was created", s.path, errDamaged, markerName)
			}
			return nil // created, then stopped before its meta was written
		}
		sealed := m.Format >= 2
		err = s.walkLog(tx, sealed, func(seq uint64, v []byte) error {
			rep.Records = seq
			if !decode {
				return nil
			}
			rec := &record{}
			if err := json.Unmarshal(v, rec); err != nil || rec.Seq != seq {
				return fmt.Errorf("%s: log record %d: %w: unreadable (%v)", s.path, seq, errDamaged, err)
			}
			if rec.Submit != nil {
				rep.Jobs++
			}
			return nil
		})
		if err != nil || !sealed {
			return err
		}
		return guarded("the predictor's snapshot", func() error {
			b := tx.Bucket(bucketPredictor)
			data, seq := b.Get(keyState), b.Get(keySnapSeq)
			if data == nil && seq == nil {
				return nil
			}
			if _, err := unseal(keyState, data); err != nil {
				return fmt.Errorf("%s: predictor snapshot: %w", s.path, err)
			}
			v, err := unseal(keySnapSeq, seq)
			if err != nil || len(v) != 8 {
				return fmt.Errorf("%s: predictor snapshot's sequence number: %w (%v)", s.path, errDamaged, err)
			}
			rep.Snapshot = binary.BigEndian.Uint64(v)
			return nil
		})
	})
	return rep, err
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Check verifies the database in dir without changing it (planner serve
// --check): the file's header and size, then every value. It fails when
// another process holds the database. A damaged database is an error
// naming the file and the first damaged record; Recover copies what is
// readable into a new directory.
func Check(dir string) (*CheckReport, error) {
	path := filepath.Join(dir, dbFileName)
	exists, warning, err := checkExisting(dir, path)
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, fmt.Errorf("--data: %s: no database", path)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("--data: %w", err)
	}
	db, err := openBolt(dir, path, true)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	rep := &CheckReport{Path: path, Bytes: fi.Size(), Warning: warning}
	if _, err := (&store{db: db, path: path}).verify(rep, true); err != nil {
		return rep, err
	}
	return rep, nil
}

// Recover copies the readable part of the database in dir into a new
// database in to (planner serve --recover-to): the meta and the longest
// run of log records 1, 2, … whose checksums hold. It reads the file's
// pages with plain reads, not through bbolt's tree, so a truncated file,
// a zeroed page or a damaged branch loses only the records it held, and
// every version of a leaf page counts (records never change once
// written). The predictor's snapshot is not copied: the new database
// relearns from the log. It returns the number of records copied and the
// highest sequence number seen beyond them (0: none was lost).
func Recover(dir, to string, now time.Time) (copied, seen uint64, err error) {
	path := filepath.Join(dir, dbFileName)
	if entries, err := os.ReadDir(to); err == nil && len(entries) > 0 {
		return 0, 0, fmt.Errorf("--recover-to: %s is not empty", to)
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, fmt.Errorf("--data: %w", err)
	}
	defer f.Close()
	m, recs, err := scanPages(f)
	if err != nil {
		return 0, 0, fmt.Errorf("--data: %s: %w", path, err)
	}
	if m == nil {
		return 0, 0, fmt.Errorf("--data: %s: %w: no readable meta (the cluster and epoch the database was created with)", path, errDamaged)
	}
	for seq := range recs {
		seen = max(seen, seq)
	}
	var keep []encoded
	for seq := uint64(1); recs[seq] != nil; seq++ {
		keep = append(keep, encoded{seq: seq, data: recs[seq]})
	}
	st, err := openStore(to, now)
	if err != nil {
		return 0, 0, fmt.Errorf("--recover-to: %w", err)
	}
	defer st.close()
	if old, err := st.meta(); err != nil || old != nil {
		return 0, 0, fmt.Errorf("--recover-to: %s holds a database already", to)
	}
	if err := st.putMeta(m); err != nil {
		return 0, 0, fmt.Errorf("--recover-to: %w", err)
	}
	const batch = 4096
	for i := 0; i < len(keep); i += batch {
		if err := st.commit(keep[i:min(i+batch, len(keep))], nil); err != nil {
			return 0, 0, fmt.Errorf("--recover-to: %w", err)
		}
	}
	if seen <= uint64(len(keep)) {
		seen = 0
	}
	return uint64(len(keep)), seen, nil
}

// Layout of a bbolt leaf page (see checkFile): the page header, then
// count elements of 16 bytes (flags, pos, key size, value size), pos
// counting from the element.
const (
	boltLeafFlag   = 0x02
	boltBucketLeaf = 0x01
	boltLeafElem   = 16
)

// scanPages reads every leaf page of the file and returns the sealed
// meta and the sealed log records whose checksums hold, by sequence
// number.
func scanPages(f *os.File) (*meta, map[uint64][]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	ps := readBoltMeta(f, 0).pageSize
	if ps == 0 {
		ps = readBoltMeta(f, int64(os.Getpagesize())).pageSize
	}
	if ps == 0 {
		ps = os.Getpagesize()
	}
	recs := map[uint64][]byte{}
	var m *meta
	page := make([]byte, ps)
	le := binary.LittleEndian
	for off := int64(2 * ps); off+int64(ps) <= fi.Size(); off += int64(ps) {
		if _, err := f.ReadAt(page[:ps], off); err != nil {
			return nil, nil, err
		}
		if le.Uint16(page[8:]) != boltLeafFlag {
			continue
		}
		count, overflow := int(le.Uint16(page[10:])), int64(le.Uint32(page[12:]))
		buf := page[:ps]
		if overflow > 0 {
			n := min((overflow+1)*int64(ps), fi.Size()-off)
			buf = make([]byte, n)
			if _, err := f.ReadAt(buf, off); err != nil && !errors.Is(err, io.EOF) {
				return nil, nil, err
			}
		}
		leafValues(buf, count, func(k, v []byte) {
			payload, err := unseal(k, v)
			if err != nil {
				return
			}
			switch {
			case string(k) == string(keyMeta):
				mm := &meta{}
				if json.Unmarshal(payload, mm) == nil && mm.Format == storeFormat {
					m = mm
				}
			case len(k) == 8:
				seq := binary.BigEndian.Uint64(k)
				rec := &record{}
				if json.Unmarshal(payload, rec) == nil && rec.Seq == seq {
					recs[seq] = append([]byte(nil), payload...)
				}
			}
		})
	}
	return m, recs, nil
}

// leafValues calls fn with the key and value of each of the count
// elements of the leaf page in buf, and of the leaf pages of the small
// buckets stored inline in it (a bucket header of 16 bytes with root page
// 0, then the page).
func leafValues(buf []byte, count int, fn func(k, v []byte)) {
	le := binary.LittleEndian
	for i := 0; i < count; i++ {
		e := boltPageHeader + i*boltLeafElem
		if e+boltLeafElem > len(buf) {
			return
		}
		flags, pos := le.Uint32(buf[e:]), int(le.Uint32(buf[e+4:]))
		ks, vs := int(le.Uint32(buf[e+8:])), int(le.Uint32(buf[e+12:]))
		start := e + pos
		if pos < 0 || ks < 0 || vs < 0 || start < 0 || start+ks+vs > len(buf) || start+ks+vs < start {
			continue
		}
		k, v := buf[start:start+ks], buf[start+ks:start+ks+vs]
		if flags&boltBucketLeaf == 0 {
			fn(k, v)
			continue
		}
		const bucketHeader = 16
		if len(v) >= bucketHeader+boltPageHeader && le.Uint64(v) == 0 && le.Uint16(v[bucketHeader+8:]) == boltLeafFlag {
			inline := v[bucketHeader:]
			leafValues(inline, int(le.Uint16(inline[10:])), fn)
		}
	}
}

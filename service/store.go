package service

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/plannerhq/planner/workloads"
)

// The database is one bbolt file under --data: bucket "meta" (what the
// service was created with), "log" (the records, keyed by their sequence
// number, big-endian) and "predictor" (the predictor's latest snapshot and
// the sequence number of the last record it holds). bbolt syncs every
// transaction to disk before Commit returns, so a record is durable
// before the API answers.
var (
	bucketMeta      = []byte("meta")
	bucketLog       = []byte("log")
	bucketPredictor = []byte("predictor")

	keyMeta     = []byte("meta")
	keyState    = []byte("state")
	keySnapSeq  = []byte("seq")
	dbFileName  = "planner.db"
	storeFormat = 2
)

// lockTimeout is how long opening waits for another process's lock on
// the database before it says the directory is in use.
const lockTimeout = time.Second

// meta is what a data directory was created with; later starts must agree
// with it.
type meta struct {
	Format  int               `json:"format"`
	Epoch   time.Time         `json:"epoch"`
	Clock   string            `json:"clock"`
	Cluster workloads.Cluster `json:"cluster"`
}

// store is the database.
type store struct {
	db     *bolt.DB
	dir    string
	path   string
	opened time.Time // when it was opened: the marker's date
	// warning is what the checks at opening found but did not refuse
	// (a damaged meta page of bbolt's two): the service logs it.
	warning string
}

// boltOptions are the options of the database: readOnly for a check.
func boltOptions(readOnly bool) *bolt.Options {
	return &bolt.Options{Timeout: lockTimeout, ReadOnly: readOnly,
		// A map of 1 GiB of address space from the start: growing the
		// database then never remaps it, which stops every writer and
		// reader while it happens.
		InitialMmapSize: 1 << 30,
		// The free list is rebuilt when the database opens instead of
		// written at every commit: an append-only log frees little.
		NoFreelistSync: true,
		FreelistType:   bolt.FreelistMapType,
	}
}

// openBolt opens the file at path, which checkFile has passed (or which
// is new), turning a panic of bbolt into an error.
func openBolt(dir, path string, readOnly bool) (*bolt.DB, error) {
	var db *bolt.DB
	err := guarded("opening "+path, func() (err error) {
		db, err = bolt.Open(path, 0o600, boltOptions(readOnly))
		return err
	})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("--data: %s is in use by another process", dir)
	}
	if err != nil {
		return nil, fmt.Errorf("--data: %s: %w", path, err)
	}
	return db, nil
}

// checkExisting refuses a data directory whose database is lost (the
// marker says one was created, the file is missing or empty) or whose
// file fails checkFile. It returns whether there is a database to open
// and checkFile's warning.
func checkExisting(dir, path string) (exists bool, warning string, err error) {
	fi, statErr := os.Stat(path)
	_, markErr := os.Stat(markerPath(dir))
	marked := markErr == nil
	switch {
	case statErr != nil && !errors.Is(statErr, os.ErrNotExist):
		return false, "", fmt.Errorf("--data: %w", statErr)
	case (statErr != nil || fi.Size() == 0) && marked:
		what := "missing"
		if statErr == nil {
			what = "empty (0 bytes)"
		}
		return false, "", fmt.Errorf("--data: %s is %s, but %s says a database was created there: restore it from a backup, or remove %s to start again with an empty database",
			path, what, markerPath(dir), markerName)
	case statErr != nil || fi.Size() == 0:
		return false, "", nil
	case !fi.Mode().IsRegular():
		return false, "", fmt.Errorf("--data: %s is not a regular file", path)
	}
	warning, err = checkFile(path)
	if err != nil {
		return false, "", fmt.Errorf("--data: %w", err)
	}
	return true, warning, nil
}

// openStore opens (creating) the database in dir. An existing file is
// checked before it is opened for writing: its header and size
// (checkFile), then every value's checksum in a read-only pass (verify),
// so that nothing damaged reaches the writer.
func openStore(dir string, now time.Time) (*store, error) {
	if dir == "" {
		return nil, errors.New("--data: no directory given")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("--data: %w", err)
	}
	path := filepath.Join(dir, dbFileName)
	exists, warning, err := checkExisting(dir, path)
	if err != nil {
		return nil, err
	}
	if exists {
		ro, err := openBolt(dir, path, true)
		if err != nil {
			return nil, err
		}
		_, verr := (&store{db: ro, path: path}).verify(nil, false)
		ro.Close()
		if verr != nil {
			return nil, fmt.Errorf("--data: %w", verr)
		}
	}
	db, err := openBolt(dir, path, false)
	if err != nil {
		return nil, err
	}
	s := &store{db: db, dir: dir, path: path, opened: now, warning: warning}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketMeta, bucketLog, bucketPredictor} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return upgrade(tx)
	})
	if err == nil {
		var m *meta
		if m, err = s.meta(); err == nil && m != nil {
			err = writeMarker(dir, now)
		}
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("--data: %s: %w", path, err)
	}
	return s, nil
}

func (s *store) close() error { return s.db.Close() }

// upgrade seals the values of a format 1 database (written without
// checksums) and marks it format 2, in the transaction tx.
func upgrade(tx *bolt.Tx) error {
	mb := tx.Bucket(bucketMeta)
	v := mb.Get(keyMeta)
	if len(v) == 0 || v[0] != '{' {
		return nil // new, or sealed already
	}
	m := &meta{}
	if err := json.Unmarshal(v, m); err != nil || m.Format != 1 {
		return fmt.Errorf("meta: %w: unreadable (%v)", errDamaged, err)
	}
	for _, name := range [][]byte{bucketLog, bucketPredictor} {
		b := tx.Bucket(name)
		var kvs [][2][]byte
		if err := b.ForEach(func(k, v []byte) error {
			kvs = append(kvs, [2][]byte{append([]byte(nil), k...), seal(k, v)})
			return nil
		}); err != nil {
			return err
		}
		for _, kv := range kvs {
			if err := b.Put(kv[0], kv[1]); err != nil {
				return err
			}
		}
	}
	m.Format = storeFormat
	out, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return mb.Put(keyMeta, seal(keyMeta, out))
}

// meta returns the stored meta, or nil for a new database.
func (s *store) meta() (*meta, error) {
	var m *meta
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		m, err = readMeta(tx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("%s: meta: %w", s.path, err)
	}
	return m, nil
}

func readMeta(tx *bolt.Tx) (*meta, error) {
	b := tx.Bucket(bucketMeta)
	if b == nil {
		return nil, nil
	}
	v := b.Get(keyMeta)
	if v == nil {
		return nil, nil
	}
	m := &meta{}
	if len(v) > 0 && v[0] == '{' { // format 1, upgraded when opened for writing
		if err := json.Unmarshal(v, m); err != nil {
			return nil, err
		}
		if m.Format != 1 {
			return nil, fmt.Errorf("%w: format %d without a checksum", errDamaged, m.Format)
		}
		return m, nil
	}
	data, err := unseal(keyMeta, v)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, m); err != nil {
		return nil, fmt.Errorf("%w: %v", errDamaged, err)
	}
	if m.Format != storeFormat {
		return nil, fmt.Errorf("format %d, this planner reads format %d", m.Format, storeFormat)
	}
	return m, nil
}

func (s *store) putMeta(m *meta) error {
	m.Format = storeFormat
	v, err := json.Marshal(m)
	if err != nil {
		return err
	}
	err = s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Put(keyMeta, seal(keyMeta, v)) })
	if err != nil {
		return err
	}
	return writeMarker(s.dir, s.opened)
}

// records calls fn with every record of the log, in order. A damaged
// record or page is an error naming the record.
func (s *store) records(fn func(*record) error) error {
	return s.db.View(func(tx *bolt.Tx) error {
		m, err := readMeta(tx)
		if err != nil {
			return fmt.Errorf("%s: meta: %w", s.path, err)
		}
		sealed := m == nil || m.Format >= 2
		return s.walkLog(tx, sealed, func(seq uint64, v []byte) error {
			rec := &record{}
			if err := json.Unmarshal(v, rec); err != nil {
				return fmt.Errorf("%s: log record %d: %w: %v", s.path, seq, errDamaged, err)
			}
			if rec.Seq != seq {
				return fmt.Errorf("%s: log record %d: %w: it says it is record %d", s.path, seq, errDamaged, rec.Seq)
			}
			return fn(rec)
		})
	})
}

// walkLog calls fn with the payload of every log record in order,
// checking the sequence and the checksums, under guarded: a page bbolt
// cannot read is an error naming the last record read.
func (s *store) walkLog(tx *bolt.Tx, sealed bool, fn func(seq uint64, payload []byte) error) error {
	var last uint64
	err := guarded("log", func() error {
		c := tx.Bucket(bucketLog).Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if len(k) != 8 {
				return fmt.Errorf("%s: the log record after record %d: %w: a key of %d bytes", s.path, last, errDamaged, len(k))
			}
			seq := binary.BigEndian.Uint64(k)
			if seq != last+1 {
				return fmt.Errorf("%s: log record %d: %w: it follows record %d", s.path, seq, errDamaged, last)
			}
			if sealed {
				var err error
				if v, err = unseal(k, v); err != nil {
					return fmt.Errorf("%s: log record %d: %w", s.path, seq, err)
				}
			}
			if err := fn(seq, v); err != nil {
				return err
			}
			last = seq
		}
		return nil
	})
	var pf *pageFault
	if errors.As(err, &pf) {
		return fmt.Errorf("%s: the page after log record %d: %w", s.path, last, err)
	}
	return err
}

// snapshot is an encoded predictor holding the records up to Seq.
type snapshot struct {
	Seq  uint64
	Data []byte
}

// predictor returns the stored predictor snapshot, or nil.
func (s *store) predictor() (*snapshot, error) {
	var snap *snapshot
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketPredictor)
		data, seq := b.Get(keyState), b.Get(keySnapSeq)
		if data == nil || seq == nil {
			return nil
		}
		var err error
		if data, err = unseal(keyState, data); err != nil {
			return fmt.Errorf("%s: predictor snapshot: %w", s.path, err)
		}
		if seq, err = unseal(keySnapSeq, seq); err != nil || len(seq) != 8 {
			return fmt.Errorf("%s: predictor snapshot's sequence number: %w (%v)", s.path, errDamaged, err)
		}
		snap = &snapshot{Seq: binary.BigEndian.Uint64(seq), Data: append([]byte(nil), data...)}
		return nil
	})
	return snap, err
}

// encoded is a record ready for the log.
type encoded struct {
	seq  uint64
	data []byte
}

// commit appends records to the log and, if snap is not nil, replaces
// the predictor snapshot, in one durable transaction.
func (s *store) commit(recs []encoded, snap *snapshot) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketLog)
		b.FillPercent = 1 // keys only grow: pack the pages
		var k [8]byte
		for _, r := range recs {
			binary.BigEndian.PutUint64(k[:], r.seq)
			if err := b.Put(k[:], seal(k[:], r.data)); err != nil {
				return err
			}
		}
		if snap != nil {
			p := tx.Bucket(bucketPredictor)
			binary.BigEndian.PutUint64(k[:], snap.Seq)
			if err := p.Put(keyState, seal(keyState, snap.Data)); err != nil {
				return err
			}
			if err := p.Put(keySnapSeq, seal(keySnapSeq, k[:])); err != nil {
				return err
			}
		}
		return nil
	})
}

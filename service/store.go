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
	storeFormat = 1
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
	db   *bolt.DB
	path string
}

// openStore opens (creating) the database in dir.
func openStore(dir string) (*store, error) {
	if dir == "" {
		return nil, errors.New("--data: no directory given")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("--data: %w", err)
	}
	path := filepath.Join(dir, dbFileName)
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: lockTimeout,
		// A map of 1 GiB of address space from the start: growing the
		// database then never remaps it, which stops every writer and
		// reader while it happens.
		InitialMmapSize: 1 << 30,
		// The free list is rebuilt when the database opens instead of
		// written at every commit: an append-only log frees little.
		NoFreelistSync: true,
		FreelistType:   bolt.FreelistMapType,
	})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("--data: %s is in use by another process", dir)
	}
	if err != nil {
		return nil, fmt.Errorf("--data: %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketMeta, bucketLog, bucketPredictor} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("--data: %s: %w", path, err)
	}
	return &store{db: db, path: path}, nil
}

func (s *store) close() error { return s.db.Close() }

// meta returns the stored meta, or nil for a new database.
func (s *store) meta() (*meta, error) {
	var m *meta
	err := s.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketMeta).Get(keyMeta)
		if v == nil {
			return nil
		}
		m = &meta{}
		return json.Unmarshal(v, m)
	})
	if err != nil {
		return nil, fmt.Errorf("%s: meta: %w", s.path, err)
	}
	if m != nil && m.Format != storeFormat {
		return nil, fmt.Errorf("%s: format %d, this planner reads format %d", s.path, m.Format, storeFormat)
	}
	return m, nil
}

func (s *store) putMeta(m *meta) error {
	m.Format = storeFormat
	v, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Put(keyMeta, v) })
}

// records calls fn with every record of the log, in order.
func (s *store) records(fn func(*record) error) error {
	return s.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketLog).Cursor()
		var want uint64 = 1
		for k, v := c.First(); k != nil; k, v = c.Next() {
			seq := binary.BigEndian.Uint64(k)
			if seq != want {
				return fmt.Errorf("%s: log record %d follows record %d", s.path, seq, want-1)
			}
			want++
			rec := &record{}
			if err := json.Unmarshal(v, rec); err != nil {
				return fmt.Errorf("%s: log record %d: %w", s.path, seq, err)
			}
			if rec.Seq != seq {
				return fmt.Errorf("%s: log record %d says it is %d", s.path, seq, rec.Seq)
			}
			if err := fn(rec); err != nil {
				return err
			}
		}
		return nil
	})
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
		if data == nil || len(seq) != 8 {
			return nil
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
			if err := b.Put(k[:], r.data); err != nil {
				return err
			}
		}
		if snap != nil {
			p := tx.Bucket(bucketPredictor)
			binary.BigEndian.PutUint64(k[:], snap.Seq)
			if err := p.Put(keyState, snap.Data); err != nil {
				return err
			}
			if err := p.Put(keySnapSeq, k[:]); err != nil {
				return err
			}
		}
		return nil
	})
}

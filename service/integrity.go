package service

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"io"
	"os"
	"runtime/debug"
	"time"
)

// Every value the database holds (meta, log records, the predictor's
// snapshot) is sealed: a zero byte, the CRC-32C (Castagnoli) of the key
// and the payload (4 bytes, big-endian), then the payload. Keying the
// checksum makes a record read under another sequence number fail too.
// A zero byte never starts JSON, so the unsealed values of format 1 are
// told apart.
const sealHeader = 5

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func checksum(key, payload []byte) uint32 {
	return crc32.Update(crc32.Checksum(key, castagnoli), castagnoli, payload)
}

// seal returns v as the database stores it under key.
func seal(key, payload []byte) []byte {
	out := make([]byte, sealHeader+len(payload))
	binary.BigEndian.PutUint32(out[1:sealHeader], checksum(key, payload))
	copy(out[sealHeader:], payload)
	return out
}

// errDamaged marks an error of a value or page that is not what was
// written.
var errDamaged = errors.New("the database is damaged")

// unseal checks a value stored under key and returns its payload (a
// slice of v).
func unseal(key, v []byte) ([]byte, error) {
	if len(v) < sealHeader || v[0] != 0 {
		return nil, fmt.Errorf("%w: no checksum header", errDamaged)
	}
	if got, want := checksum(key, v[sealHeader:]), binary.BigEndian.Uint32(v[1:sealHeader]); got != want {
		return nil, fmt.Errorf("%w: checksum %08x, written %08x", errDamaged, got, want)
	}
	return v[sealHeader:], nil
}

// markerName is the file that says a database was created in the
// directory: with it, a missing or empty planner.db is a loss, not a new
// start.
const markerName = "planner.db.created"

func writeMarker(dir string, now time.Time) error {
	path := markerPath(dir)
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	text := fmt.Sprintf("A planner database was created in this directory on %s.\n"+
		"planner serve refuses to start while this file exists and %s is missing or empty.\n"+
		"Remove this file only to start again with an empty database.\n", now.UTC().Format(time.RFC3339), dbFileName)
	return os.WriteFile(path, []byte(text), 0o600)
}

func markerPath(dir string) string { return dir + string(os.PathSeparator) + markerName }

// The header of a bbolt file, read before the file is mapped: bbolt maps
// the file and reads pages through the mapping, so a page beyond the end
// of a truncated file is a SIGBUS that no recover catches. Both meta
// pages are checked here with plain reads, and the file must hold every
// page the newest valid one counts.
const (
	boltMagic      = 0xED0CDAED
	boltVersion    = 2
	boltPageHeader = 16 // id, flags, count, overflow
	boltMetaSize   = 64 // magic … txid, checksum
)

// boltMeta is the part of a meta page the check reads.
type boltMeta struct {
	valid    bool
	pageSize int
	pgid     uint64 // the high water mark: pages [0, pgid) are in use
	txid     uint64
}

// readBoltMeta decodes the meta page at off (bbolt writes it in the
// machine's byte order; the planner runs on little-endian machines).
func readBoltMeta(f io.ReaderAt, off int64) boltMeta {
	var b [boltPageHeader + boltMetaSize]byte
	if _, err := f.ReadAt(b[:], off); err != nil {
		return boltMeta{}
	}
	m := b[boltPageHeader:]
	le := binary.LittleEndian
	h := fnv.New64a()
	h.Write(m[:56])
	if le.Uint32(m[0:]) != boltMagic || le.Uint32(m[4:]) != boltVersion || h.Sum64() != le.Uint64(m[56:]) {
		return boltMeta{}
	}
	return boltMeta{valid: true, pageSize: int(le.Uint32(m[8:])), pgid: le.Uint64(m[40:]), txid: le.Uint64(m[48:])}
}

// checkFile checks the header and the size of the database at path
// before it is mapped. It returns a warning when one of the two meta
// pages is damaged (bbolt then uses the other one: the last transaction
// before it was written is kept).
func checkFile(path string) (warning string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	size := fi.Size()
	m0 := readBoltMeta(f, 0)
	ps := os.Getpagesize()
	if m0.valid {
		ps = m0.pageSize
	}
	m1 := readBoltMeta(f, int64(ps))
	if m1.valid && !m0.valid {
		ps = m1.pageSize
	}
	m := m0
	if !m0.valid || (m1.valid && m1.txid > m0.txid) {
		m = m1
	}
	switch {
	case !m.valid:
		return "", fmt.Errorf("%w: %s is not a planner database, or both of its meta pages are damaged (%d bytes)", errDamaged, path, size)
	case m.pageSize < 1024 || m.pageSize > 1<<16 || m.pgid < 2 || m.pgid > 1<<40:
		return "", fmt.Errorf("%w: %s: meta page of txid %d holds page size %d and %d pages", errDamaged, path, m.txid, m.pageSize, m.pgid)
	case size < int64(m.pgid)*int64(m.pageSize):
		return "", fmt.Errorf("%w: %s is truncated: %d bytes, but it holds %d pages of %d bytes (%d bytes)",
			errDamaged, path, size, m.pgid, m.pageSize, int64(m.pgid)*int64(m.pageSize))
	case size%int64(m.pageSize) != 0:
		return "", fmt.Errorf("%w: %s: %d bytes is not a whole number of %d-byte pages", errDamaged, path, size, m.pageSize)
	}
	if m0.valid != m1.valid {
		bad := 0
		if m0.valid {
			bad = 1
		}
		return fmt.Sprintf("%s: meta page %d is damaged; using the other one (transaction %d)", path, bad, m.txid), nil
	}
	return "", nil
}

// pageFault is a panic or fault of bbolt on a page it cannot read.
type pageFault struct {
	what string
	v    any
}

func (e *pageFault) Error() string { return fmt.Sprintf("%s: %v", e.what, e.v) }
func (e *pageFault) Unwrap() error { return errDamaged }

// guarded runs fn and turns a panic or a memory fault in it (bbolt
// asserts on a page that is not what it wrote, and a fault in the mapping
// is a SIGBUS) into an error. fn must not start goroutines that touch the
// database.
func guarded(what string, fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if v := recover(); v != nil {
			err = &pageFault{what: "the database is damaged: " + what, v: v}
		}
	}()
	return fn()
}

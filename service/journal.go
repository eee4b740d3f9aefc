package service

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// The journal is the one goroutine that changes the state. A request or a
// cycle hands it an op; the journal runs a batch of waiting ops one after
// the other under the state's write lock (each checks the state and adds
// at most one record, applied at once), writes the batch's records in one
// durable transaction (group commit: one disk sync for many requests),
// and only then answers each op. A failed write leaves the service unable
// to tell what is durable: it stops (Service.fail) and a restart replays
// what the log holds.

// op is one change asked of the journal. run checks the state and returns
// the record of the change (nil: nothing to write) and a function that
// makes the answer from the state once the record is applied (nil: no
// answer).
type op struct {
	run  func(st *state) (*record, answer, error)
	snap bool // also write a predictor snapshot after the records
	res  any
	err  error
	done chan struct{}
}

// answer makes an op's answer from the state.
type answer func(st *state) any

// errStopped answers the ops that arrive while the service stops.
var errStopped = errors.New("the service is stopping")

// maxBatch bounds the ops of one transaction.
const maxBatch = 512

// submit hands run to the journal and waits for its answer.
func (s *Service) submit(run func(st *state) (*record, answer, error)) (any, error) {
	return s.submitOp(&op{run: run})
}

func (s *Service) submitOp(o *op) (any, error) {
	o.done = make(chan struct{})
	select {
	case s.ops <- o:
	case <-s.stopJournal:
		return nil, errStopped
	}
	<-o.done
	return o.res, o.err
}

// journal runs until stopJournal is closed and no op is waiting.
func (s *Service) journal() {
	defer close(s.journalDone)
	batch := make([]*op, 0, maxBatch)
	for {
		var first *op
		select {
		case first = <-s.ops:
		case <-s.stopJournal:
			// Answer what is still queued, then stop.
			for {
				select {
				case o := <-s.ops:
					s.runBatch([]*op{o})
				default:
					return
				}
			}
		}
		batch = append(batch[:0], first)
	fill:
		for len(batch) < maxBatch {
			select {
			case o := <-s.ops:
				batch = append(batch, o)
			default:
				break fill
			}
		}
		s.runBatch(batch)
	}
}

// runBatch runs, writes and answers one batch of ops.
func (s *Service) runBatch(batch []*op) {
	if err := s.failed(); err != nil {
		for _, o := range batch {
			o.err = err
			close(o.done)
		}
		return
	}
	var recs []encoded
	var snap *snapshot
	s.mu.Lock()
	for _, o := range batch {
		rec, ans, err := o.run(s.st)
		o.err = err
		if err == nil && rec != nil {
			rec.Seq = s.st.seq + 1
			data, merr := json.Marshal(rec)
			if merr != nil { // a bug: records are plain data
				o.err = fmt.Errorf("service: encoding record %d: %w", rec.Seq, merr)
				continue
			}
			s.st.apply(rec, true)
			recs = append(recs, encoded{seq: rec.Seq, data: data})
		}
		if err == nil && ans != nil {
			o.res = ans(s.st)
		}
		if o.snap {
			snap = s.snapshotLocked()
		}
	}
	s.learned.Store(int64(s.st.learned))
	s.mu.Unlock()
	if len(recs) > 0 || snap != nil {
		t0 := time.Now()
		err := s.store.commit(recs, snap)
		s.metrics.commit.Observe(time.Since(t0).Seconds())
		if err != nil {
			err = s.fail(fmt.Errorf("writing the log: %w", err))
			for _, o := range batch {
				o.res, o.err = nil, err
			}
		} else if snap != nil {
			s.metrics.snapshotBytes.Set(float64(len(snap.Data)))
		}
	}
	for _, o := range batch {
		close(o.done)
	}
}

// snapshotLocked encodes the predictor with the records it holds; the
// state's write lock is held, so no record is learnt meanwhile.
func (s *Service) snapshotLocked() *snapshot {
	data, err := s.st.pred.P.MarshalBinary()
	if err != nil {
		s.log.Error().Err(err).Msg("encoding the predictor; the log keeps what it learnt")
		return nil
	}
	s.st.learned = 0
	return &snapshot{Seq: s.st.seq, Data: data}
}

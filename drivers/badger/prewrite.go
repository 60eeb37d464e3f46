package badger

import (
	"fmt"
	"sync"

	"github.com/rekv/rekv/drivers"
)

// Pre-writes (drivers.PreWriter).
//
// A big value's chunks, under a version no meta names yet, are written
// before the command's transaction commits, in write batches of at most
// preWriteBytes: each commit holds Badger's single writer for a few
// milliseconds, so other transactions' commits go between them, and the
// value is written once. Through the big-transaction journal (big.go) it
// was written twice, the second time while no other transaction could
// begin or commit: a 512 MiB SET held every client's writes for 17 s.

// preWriteBytes bounds the values of one pre-write commit.
const preWriteBytes = 4 << 20

// pending is the set of prefixes being pre-written or waiting for their
// transaction (Pending).
type pending struct {
	mu sync.Mutex
	m  map[string]int
}

var _ drivers.PreWriter = (*DB)(nil)

// PreWrite writes what put yields under prefix in write batches
// (drivers.PreWriter). Pending(prefix) holds from now until Settle.
func (d *DB) PreWrite(prefix []byte, put func(yield func(key, value []byte) error) error) error {
	d.pending.mu.Lock()
	if d.pending.m == nil {
		d.pending.m = map[string]int{}
	}
	d.pending.m[string(prefix)]++
	d.pending.mu.Unlock()
	if err := d.gone(); err != nil {
		return err
	}
	var batch []kv
	var size int64
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if err := d.room(size); err != nil {
			return err
		}
		err := d.writeBatch(batch)
		batch, size = batch[:0], 0
		return err
	}
	err := put(func(key, value []byte) error {
		if len(key) < len(prefix) || string(key[:len(prefix)]) != string(prefix) {
			return fmt.Errorf("badger: pre-write of a key outside its prefix")
		}
		batch = append(batch, kv{key, value})
		if size += int64(len(key) + len(value)); size >= preWriteBytes {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		return fmt.Errorf("badger: pre-write: %w", err)
	}
	return nil
}

type kv struct{ k, v []byte }

// writeBatch commits kvs in one write batch (the slices are not copied;
// the batch is done with them when it returns).
func (d *DB) writeBatch(kvs []kv) error {
	d.bigMu.RLock() // not while a big transaction shows its writes
	defer d.bigMu.RUnlock()
	wb := d.db.NewWriteBatch()
	defer wb.Cancel()
	for _, e := range kvs {
		if err := wb.Set(e.k, e.v); err != nil {
			return wrap(err)
		}
	}
	if err := wb.Flush(); err != nil {
		return wrap(err)
	}
	return d.syncCommitted()
}

// Pending reports whether prefix is being pre-written or waits for its
// transaction (drivers.PreWriter).
func (d *DB) Pending(prefix []byte) bool {
	d.pending.mu.Lock()
	defer d.pending.mu.Unlock()
	return d.pending.m[string(prefix)] > 0
}

// Settle ends a PreWrite's pending state (drivers.PreWriter).
func (d *DB) Settle(prefix []byte) {
	d.pending.mu.Lock()
	defer d.pending.mu.Unlock()
	if d.pending.m[string(prefix)]--; d.pending.m[string(prefix)] <= 0 {
		delete(d.pending.m, string(prefix))
	}
}

package driverstest

import (
	"sync/atomic"

	"github.com/rekv/rekv/drivers"
)

// Counting wraps a driver and counts the storage work of its transactions:
// Reads (gets and iterated entries) and Writes (sets and deletes), so tests
// can assert how much a command touches; and, for the round trips a
// shared store would make, Batches (BatchGet calls) and Unbatched (gets
// of a key no earlier BatchGet of the transaction read: TiKV's client
// serves those from what the batch read).
type Counting struct {
	drivers.Driver
	Reads, Writes      atomic.Int64
	Batches, Unbatched atomic.Int64
}

// Begin starts a counted transaction.
func (d *Counting) Begin(writable bool) (drivers.Txn, error) {
	tx, err := d.Driver.Begin(writable)
	return &countingTxn{Txn: tx, d: d}, err
}

type countingTxn struct {
	drivers.Txn
	d       *Counting
	batched map[string]bool // keys a BatchGet read
}

func (t *countingTxn) Get(k []byte) ([]byte, error) {
	t.d.Reads.Add(1)
	if !t.batched[string(k)] {
		t.d.Unbatched.Add(1)
	}
	return t.Txn.Get(k)
}

func (t *countingTxn) BatchGet(keys [][]byte) ([][]byte, error) {
	t.d.Batches.Add(1)
	if t.batched == nil {
		t.batched = make(map[string]bool, len(keys))
	}
	for _, k := range keys {
		t.batched[string(k)] = true
	}
	return t.Txn.BatchGet(keys)
}
func (t *countingTxn) Set(k, v []byte) error { t.d.Writes.Add(1); return t.Txn.Set(k, v) }
func (t *countingTxn) Delete(k []byte) error { t.d.Writes.Add(1); return t.Txn.Delete(k) }
func (t *countingTxn) Iterate(start, end []byte, o drivers.IterOptions, fn func(k, v []byte) (bool, error)) error {
	return t.Txn.Iterate(start, end, o, func(k, v []byte) (bool, error) {
		t.d.Reads.Add(1)
		return fn(k, v)
	})
}

package badger

import (
	"errors"
	"fmt"

	bdg "github.com/dgraph-io/badger/v4"

	"github.com/rekv/rekv/drivers"
)

// Begin starts a transaction.
func (d *DB) Begin(writable bool) (drivers.Txn, error) {
	d.bigMu.RLock() // not while a big transaction shows its writes
	defer d.bigMu.RUnlock()
	return &txn{tx: d.db.NewTransaction(writable), d: d, copies: drivers.Blocks{Min: minCopyBlock, Max: maxCopyBlock, Own: maxBlockCopy}}, nil
}

// Set copies keys and values into blocks of 256 bytes doubling to 4 KiB
// (a transaction of one write takes a small one); a copy over 512 bytes
// gets an allocation of its own.
const minCopyBlock, maxCopyBlock, maxBlockCopy = 256, 4096, 512

type txn struct {
	tx *bdg.Txn
	d  *DB
	// ents holds the entries Set hands Badger, allocated a block at a
	// time (Badger's Txn.Set allocates one per key): Badger keeps them
	// until the transaction ends, and a block is never reused.
	ents []bdg.Entry
	// copies holds Set's copies of keys and values: Badger keeps them
	// until the transaction ends, and nothing else does (drivers.Txn).
	copies drivers.Blocks
	// wrote: the transaction holds writes (Set, SetOwned, Delete).
	wrote bool
	// count and size: what Badger counts of the writes given to it
	// (size bounded above, see entryCost); big: the writes past them, in a
	// big transaction (big.go).
	count, size int64
	big         *overlay
	// bytes are the keys' and values' bytes written (room, volume.go).
	bytes int64
}

// entry returns a new entry for key and value from the transaction's
// current block, starting a block twice the last one's size (4 to 64)
// when it is full.
func (t *txn) entry(key, value []byte) *bdg.Entry {
	if len(t.ents) == cap(t.ents) {
		t.ents = make([]bdg.Entry, 0, min(max(2*cap(t.ents), 4), 64))
	}
	t.wrote = true
	t.bytes += int64(len(key) + len(value))
	t.ents = append(t.ents, bdg.Entry{Key: key, Value: value})
	return &t.ents[len(t.ents)-1]
}

func wrap(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, bdg.ErrKeyNotFound):
		return drivers.ErrNotFound
	case errors.Is(err, bdg.ErrConflict):
		return fmt.Errorf("%w: %w", drivers.ErrConflict, err)
	case errors.Is(err, bdg.ErrTxnTooBig):
		return fmt.Errorf("%w: %w", drivers.ErrTxnTooBig, err)
	case errors.Is(err, bdg.ErrDiscardedTxn), errors.Is(err, bdg.ErrDBClosed):
		return fmt.Errorf("%w: %w", drivers.ErrClosed, err)
	}
	return fmt.Errorf("badger: %w", err)
}

func (t *txn) Get(key []byte) ([]byte, error) {
	if e, ok := t.overlaid(key); ok {
		if e.del {
			return nil, drivers.ErrNotFound
		}
		return append([]byte{}, e.val...), nil
	}
	item, err := t.tx.Get(key)
	if err != nil {
		return nil, wrap(err)
	}
	v, err := item.ValueCopy(nil)
	if v == nil && err == nil {
		v = []byte{}
	}
	return v, wrap(err)
}

func (t *txn) BatchGet(keys [][]byte) ([][]byte, error) {
	out := make([][]byte, len(keys))
	for i, k := range keys {
		v, err := t.Get(k)
		if errors.Is(err, drivers.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func (t *txn) Set(key, value []byte) error {
	// Badger keeps the slices until commit; the caller may reuse its own.
	kv := t.copies.Take(len(key) + len(value))
	k, v := kv[:copy(kv, key):len(key)], kv[len(key):]
	copy(v, value)
	return t.SetOwned(k, v)
}

// SetOwned implements drivers.OwnedSetter: key and value are kept, not
// copied.
func (t *txn) SetOwned(key, value []byte) error {
	if value == nil {
		value = []byte{} // nil marks a delete in the overlay's journal
	}
	if t.goesBig(key, value) {
		return t.put(key, value, false)
	}
	if err := t.tx.SetEntry(t.entry(key, value)); err != nil {
		return wrap(err)
	}
	t.count, t.size = t.count+1, t.size+entryCost(key, value)
	return nil
}

func (t *txn) Delete(key []byte) error {
	t.wrote = true
	k := append([]byte(nil), key...)
	if t.goesBig(k, nil) {
		return t.put(k, nil, true)
	}
	if err := t.tx.Delete(k); err != nil {
		return wrap(err)
	}
	t.count, t.size = t.count+1, t.size+entryCost(k, nil)
	return nil
}

// goesBig reports whether a write goes to the overlay: the transaction
// is big already, or Badger's batch has no room left for it (with big
// transactions allowed).
func (t *txn) goesBig(key, value []byte) bool {
	return t.big != nil || t.d.maxTxn > 0 && !t.room(entryCost(key, value))
}

func (t *txn) Iterate(start, end []byte, opts drivers.IterOptions, fn func(k, v []byte) (bool, error)) error {
	if t.big != nil {
		return t.iterateBig(start, end, opts, fn)
	}
	return t.iterate(start, end, opts, fn)
}

// iterate is Iterate over Badger's keys (its pending writes included).
func (t *txn) iterate(start, end []byte, opts drivers.IterOptions, fn func(k, v []byte) (bool, error)) error {
	io := bdg.DefaultIteratorOptions
	io.Reverse = opts.Reverse
	io.PrefetchValues = false
	if end != nil {
		// Every key of the range shares it: Badger then reads only the
		// tables that can hold such keys, not every table of every level,
		// and (forward) stops at the first key past it without stepping
		// over that key's older versions. Backwards the iterator starts
		// at end, so the prefix must be end's too: Badger's iterator is
		// not valid on a key without it.
		io.Prefix = commonPrefix(start, end)
		if !opts.Reverse {
			io.Prefix = rangePrefix(start, end)
		}
	}
	it := t.tx.NewIterator(io)
	defer it.Close()
	if opts.Reverse {
		if end == nil {
			it.Rewind()
		} else {
			it.Seek(end)
		}
	} else {
		it.Seek(start)
	}
	n := 0
	for ; it.Valid(); it.Next() {
		item := it.Item()
		k := item.Key()
		if opts.Reverse {
			if end != nil && string(k) >= string(end) {
				continue
			}
			if string(k) < string(start) {
				break
			}
		} else if end != nil && string(k) >= string(end) {
			break
		}
		var more bool
		var err error
		if opts.KeysOnly {
			more, err = fn(k, nil)
		} else {
			err = item.Value(func(v []byte) error {
				var err error
				more, err = fn(k, v)
				return err
			})
		}
		if err != nil {
			return err
		}
		n++
		if !more || (opts.Limit > 0 && n >= opts.Limit) {
			break
		}
	}
	return nil
}

func (t *txn) Commit() error {
	if t.big != nil {
		return t.commitBig()
	}
	if t.wrote {
		if err := t.d.gone(); err != nil {
			return err
		}
		if err := t.d.room(t.bytes); err != nil {
			return err
		}
	}
	t.d.bigMu.RLock() // not while a big transaction shows its writes
	err := t.tx.Commit()
	t.d.bigMu.RUnlock()
	if err != nil {
		return t.commitError(err)
	}
	return t.d.syncCommitted()
}

// commitError classifies Badger's commit error.
func (t *txn) commitError(err error) error {
	err = wrap(err)
	if errors.Is(err, drivers.ErrConflict) || errors.Is(err, drivers.ErrTxnTooBig) {
		return err
	}
	// Badger flattens the errors of its files into text; Check says
	// whether the file system is at fault (full, read-only, gone), in
	// errors that carry the errno.
	if cerr := t.d.Check(); cerr != nil {
		return fmt.Errorf("%w: %w", err, cerr)
	}
	return err
}

func (t *txn) Rollback() { t.tx.Discard(); t.big = nil }

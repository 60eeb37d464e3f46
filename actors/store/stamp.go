package store

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"

	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// Write stamps (shared stores only).
//
// WATCH on one node must see writes made on another, which never pass
// through this node's watch registry. So on a shared store every write
// transaction also sets, for each key it touched, a stamp record
// (codec.StampKey) to a fresh random value, and deletes it when the key no
// longer exists. WATCH records the stamps and the db's flush marker; EXEC
// reads them again in its own transaction (locked, so a write committed
// in between makes EXEC conflict and retry) and aborts if any differs.
// A key created and deleted again entirely on another node between WATCH
// and EXEC leaves no trace and does not break the watch.

// writeStamps sets or deletes the stamps of the keys this transaction
// touched; Commit calls it on shared stores.
func (t *Tx) writeStamps() error {
	for _, k := range t.jr.touched.list {
		slot := t.slotOf(k.DB)
		sk := codec.StampKey(slot, k.Key)
		if r, ok := t.seen.getBytes(codec.MetaKey(slot, k.Key)); ok && !r.exists {
			if err := t.txn.Delete(sk); err != nil {
				return err
			}
			continue
		}
		if err := t.txn.Set(sk, binary.BigEndian.AppendUint64(nil, rand.Uint64())); err != nil {
			return err
		}
	}
	return nil
}

// lockRead marks a key this transaction read (its meta, and on a shared
// store its stamp, which every write of the key or its members changes):
// a write of it committed by another node after this transaction began
// then makes this transaction's commit conflict (drivers.ReadLocker).
func (t *Tx) lockRead(mk string, key []byte) error {
	if err := drivers.LockRead(t.txn, bytesOf(mk)); err != nil {
		return err
	}
	if t.markers.Shared() {
		return drivers.LockRead(t.txn, codec.StampKey(t.slot, key))
	}
	return nil
}

// Stamp returns key's write stamp in database db (nil when it has none,
// or when the key does not exist: a dead key's stamp may linger until the
// GC reclaims the key, and that reclaim must not look like a write) and
// marks it read, so a concurrent change makes this transaction conflict.
// It is only meaningful on a shared store.
func (t *Tx) Stamp(db int, key []byte) ([]byte, error) {
	sk := codec.StampKey(t.slotOf(db), key)
	v, err := t.txn.Get(sk)
	if errors.Is(err, drivers.ErrNotFound) {
		v, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := drivers.LockRead(t.txn, sk); err != nil {
		return nil, err
	}
	if _, live, err := t.MetaIn(db, key); err != nil || !live {
		return nil, err
	}
	return v, nil
}

// Shared reports whether other nodes write the same store.
func (t *Tx) Shared() bool { return t.markers.Shared() }

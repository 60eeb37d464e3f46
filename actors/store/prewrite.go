package store

import (
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// Pre-written values.
//
// A string of at least preWriteMin bytes, stored under a fresh version,
// has its chunks written before the transaction commits, outside it,
// when the driver can (drivers.PreWriter, Badger) and the transaction
// runs one command (Env.PreWrite; the transaction itself cannot read
// them back, as its snapshot is older): no other reader finds them
// until the meta naming the version commits, so the value is still all
// or nothing. The transaction remembers each version it pre-wrote; once
// it has ended, the driver forgets them (Settle), and those of a
// transaction that did not commit become garbage, which the GC reclaims.
// A crash in between leaves chunks no meta names and no garbage entry:
// the GC's orphan search finds them, as it does any orphan, once they are
// no longer pending.

// preWriteMin is the shortest value pre-written: a shorter one goes into
// the transaction, which commits it in one write.
const preWriteMin = 4 << 20

// prewritten is a version pre-written by a transaction.
type prewritten struct {
	slot    codec.Slot
	key     []byte
	version uint64
}

// prefix is where the version's chunks are.
func (p prewritten) prefix() []byte { return codec.SubKeyPrefix(p.slot, p.key, p.version) }

// preWriter returns the driver's PreWriter when val is worth pre-writing.
func (t *Tx) preWriter(val []byte) (drivers.PreWriter, bool) {
	if len(val) < preWriteMin || !t.preWriteOK {
		return nil, false
	}
	pw, ok := t.drv.(drivers.PreWriter)
	return pw, ok
}

// preWrite writes val's chunks under version v of key, outside the
// transaction, and remembers the version.
func (t *Tx) preWrite(pw drivers.PreWriter, key []byte, v uint64, val []byte) error {
	p := prewritten{slot: t.slot, key: append([]byte(nil), key...), version: v}
	t.prewrites = append(t.prewrites, p)
	w := chunkWriter{prefix: p.prefix()} // its chunks' keys
	return pw.PreWrite(w.prefix, func(yield func(k, v []byte) error) error {
		for i := int64(0); len(val) > 0; i++ {
			n := min(len(val), chunk)
			c := trimZeros(val[:n])
			val = val[n:]
			if len(c) == 0 {
				continue // an all-zero chunk is not stored
			}
			if err := yield(w.key(i), c); err != nil {
				return err
			}
		}
		return nil
	})
}

// settlePreWrites ends the pending state of the versions the transaction
// pre-wrote; when it did not commit, they are recorded as garbage first
// (if that fails, the orphan search finds them).
func (t *Tx) settlePreWrites(committed bool) {
	if len(t.prewrites) == 0 {
		return
	}
	pw := t.drv.(drivers.PreWriter)
	if !committed {
		if tx, err := t.drv.Begin(true); err == nil {
			for _, p := range t.prewrites {
				if err = tx.Set(codec.GarbageKey(p.slot, p.key, p.version), nil); err != nil {
					break
				}
			}
			if err == nil {
				_ = tx.Commit() // else left to the orphan search
			}
			tx.Rollback()
		}
	}
	for _, p := range t.prewrites {
		pw.Settle(p.prefix())
	}
	t.prewrites = nil
}

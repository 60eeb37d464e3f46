package gc

import (
	"bytes"
	"errors"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// OrphanStep checks up to OrphanBatch versions of stored sub-keys and
// score entries, resuming where the last step stopped (a cursor kept in
// storage, wrapping at the end). A version whose key's meta no longer has
// it, and that has no garbage entry, is an orphan (left by a crash or a
// bug): it gets a garbage entry, so reclaim deletes it. It returns the
// orphans found. Sub-keys and their meta are written in one transaction,
// so one snapshot shows either both or a garbage entry for a dead version
// — but for a big string's chunks written ahead of their transaction
// (drivers.PreWriter): those are left alone while pending, and each
// orphan is checked again in the transaction that records it.
func (c *Collector) OrphanStep() (int, error) {
	tx, err := c.drv.Begin(false)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	cur, err := tx.Get(codec.OrphanCursorKey())
	if err != nil && !errors.Is(err, drivers.ErrNotFound) {
		return 0, err
	}
	if len(cur) == 0 {
		cur = []byte{codec.PrefixData}
	}
	type candidate struct {
		db      codec.Slot
		key     []byte
		version uint64
	}
	var found []candidate
	checked := 0
	for checked < max(c.o.OrphanBatch, 1) {
		k, ok, err := firstKey(tx, cur)
		if err != nil {
			return 0, err
		}
		if !ok {
			cur = nil // wrapped: the next step starts over
			break
		}
		decode, prefixOf := codec.DecodeSubKey, codec.SubKeyPrefix
		if k[0] == codec.PrefixScore {
			decode, prefixOf = codec.DecodeScoreKey, codec.ScoreKeyPrefix
		}
		db, key, version, _, err := decode(k)
		if err != nil {
			return 0, err
		}
		cur = codec.PrefixEnd(prefixOf(db, key, version)) // skip the rest of this version
		checked++
		dead, err := c.orphaned(tx, db, key, version)
		if err != nil {
			return 0, err
		}
		if dead && !c.pending(prefixOf(db, key, version)) {
			found = append(found, candidate{db, command.Copy(key), version})
		}
	}
	wtx, err := c.drv.Begin(true)
	if err != nil {
		return 0, err
	}
	defer wtx.Rollback()
	orphans := 0
	for _, o := range found {
		// Again in the writing transaction, which began after the
		// pending check: a pre-written version whose meta committed
		// since the snapshot above is found alive here.
		dead, err := c.orphaned(wtx, o.db, o.key, o.version)
		if err != nil {
			return 0, err
		}
		if !dead {
			continue
		}
		if err := wtx.Set(codec.GarbageKey(o.db, o.key, o.version), nil); err != nil {
			return 0, err
		}
		orphans++
	}
	if cur == nil {
		err = wtx.Delete(codec.OrphanCursorKey())
	} else {
		err = wtx.Set(codec.OrphanCursorKey(), cur)
	}
	if err == nil {
		err = wtx.Commit()
	}
	if err != nil {
		return 0, err
	}
	c.stats.OrphansFound.Add(int64(orphans))
	return orphans, nil
}

// pending reports whether the members under prefix are being written
// ahead of their transaction (drivers.PreWriter): not orphans, though no
// meta names them yet.
func (c *Collector) pending(prefix []byte) bool {
	pw, ok := c.drv.(drivers.PreWriter)
	return ok && pw.Pending(prefix)
}

// orphaned reports whether version of (db, key) is dead without a garbage
// entry. A meta hidden by a flush marker still counts as its owner: the
// flush sweep turns it into garbage.
func (c *Collector) orphaned(tx drivers.Txn, db codec.Slot, key []byte, version uint64) (bool, error) {
	if _, err := tx.Get(codec.GarbageKey(db, key, version)); err == nil {
		return false, nil
	} else if !errors.Is(err, drivers.ErrNotFound) {
		return false, err
	}
	v, err := tx.Get(codec.MetaKey(db, key))
	if errors.Is(err, drivers.ErrNotFound) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	m, _, err := codec.DecodeMeta(v)
	if err != nil {
		return false, err
	}
	return m.Version != version, nil
}

// firstKey returns the first sub-key or score key at or after from.
func firstKey(tx drivers.Txn, from []byte) ([]byte, bool, error) {
	for _, p := range []byte{codec.PrefixData, codec.PrefixScore} {
		start, end := []byte{p}, []byte{p + 1}
		if bytes.Compare(from, end) >= 0 {
			continue
		}
		if bytes.Compare(from, start) > 0 {
			start = from
		}
		var k []byte
		err := tx.Iterate(start, end, drivers.IterOptions{Limit: 1}, func(key, _ []byte) (bool, error) {
			k = command.Copy(key)
			return false, nil
		})
		if err != nil || k != nil {
			return k, k != nil, err
		}
	}
	return nil, false, nil
}

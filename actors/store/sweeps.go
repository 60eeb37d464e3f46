package store

import (
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// ReclaimFlushed is the GC's removal of a meta hidden by a flush marker: if
// key's stored meta is dead that way, it is deleted with its TTL entry (a
// collection's version left as garbage). It reports whether it removed one.
func (vw Records) ReclaimFlushed(key []byte) (bool, error) {
	t := vw.t
	mk, r, err := t.raw(key, false)
	if err != nil || !r.exists || r.meta.Version >= t.minVer {
		return false, err
	}
	_, err = t.del(key, mk, r)
	return err == nil, err
}

// ExpireDue is the GC's expiry of one TTL-index entry: if key's meta still
// expires at expireAt and that time has passed, the key is deleted (its
// TTL entry removed, a collection's version left as garbage). An entry no
// meta matches any more is stale and is removed. It reports whether a key
// was expired.
func (vw Records) ExpireDue(key []byte, expireAt int64) (bool, error) {
	t := vw.t
	mk, r, err := t.raw(key, false)
	if err != nil {
		return false, err
	}
	if r.exists && r.meta.ExpireAt == expireAt {
		if expireAt > t.now || r.meta.Version < t.minVer {
			return false, nil // not yet; or flushed: the flush sweep's (no event)
		}
		_, err := t.del(key, mk, r)
		return err == nil, err
	}
	return false, t.txn.Delete(codec.TTLKey(expireAt, t.slot, key))
}

// CountKeys counts the live keys of the 16 databases of the namespace
// database base is the first of (codec.NamespaceDB), and those of them
// with a TTL, by walking their meta records (INFO keyspace).
func (vw Records) CountKeys(base int) (keys, expires [Databases]int64, err error) {
	t := vw.t
	var dbOf [Databases]int // slot - base -> database - base
	for db := range dbOf {
		r, err := t.Records().Record(base + db)
		if err != nil {
			return keys, expires, err
		}
		dbOf[int(r.Slot)-base] = db
	}
	start, _ := codec.MetaRange(codec.Slot(base))
	_, end := codec.MetaRange(codec.Slot(base + Databases - 1))
	err = t.txn.Iterate(start, end, drivers.IterOptions{}, func(k, v []byte) (bool, error) {
		slot, _, err := codec.DecodeMetaKey(k)
		if err != nil {
			return false, err
		}
		m, _, err := codec.DecodeMeta(v)
		if err != nil {
			return false, err
		}
		if !m.Expired(t.now) && !t.deadIn(slot, m.Version) {
			db := dbOf[int(slot)-base]
			keys[db]++
			if m.ExpireAt != 0 {
				expires[db]++
			}
		}
		return true, nil
	})
	return keys, expires, err
}

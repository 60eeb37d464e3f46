package store

import (
	"errors"
	"unsafe"

	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// The member cache: collection members (sub-keys) of a shard's keys, so
// that HSET, SADD, ZADD, RPOP and their readers find whether a member
// exists, and its value when short, without a point read of the store
// (on Badger a search of every memtable and a table seek per level).
//
// Invariant: an entry equals the committed state of its sub-key, except
// while the transaction that wrote it is open, and that transaction holds
// the key's shard, so nothing else reads the entry meanwhile. Writes reach
// the cache as they happen (a read later in the same transaction must see
// them), and a transaction that ends without committing them removes the
// entries it wrote. A read that misses fills the cache at once: the store
// returns the committed state, or this transaction's own write, whose
// entry the rollback removes anyway. Deleting a member removes its entry.
// Sub-keys include the key's version, which is never reused, so entries
// of dead versions are never read again; they age out.
//
// Only writes through a Tx reach the cache, and everything that writes a
// live version's members does (the GC deletes only dead versions).

// MaxCachedMember is the longest member value the cache keeps; a longer
// one is cached as existing, with its value left in the store.
const MaxCachedMember = 64

// memberCache maps sub-keys to what they hold.
type memberCache struct {
	clockIndex[member]
}

// member is a cached sub-key: absent, or present with its value when
// loaded.
type member struct {
	val    string
	exists bool
	loaded bool
}

// EnableMembers gives the cache a member cache of size entries (0: none).
// A disabled MetaCache keeps none either.
func (c *MetaCache) EnableMembers(size int) {
	if c.Disabled() || size < 1 {
		c.members = nil
		return
	}
	c.members = &memberCache{newClockIndex[member](size, nil)}
}

// Members returns the number of members cached.
func (c *MetaCache) Members() int {
	if c.members == nil {
		return 0
	}
	return c.members.len()
}

// get returns the entry of sub-key sk.
func (m *memberCache) get(sk []byte) (member, bool) {
	i := m.findBytes(sk)
	if i < 0 {
		return member{}, false
	}
	return m.hit(i).val, true
}

// put records that sk holds v (exists) or nothing, and returns the key
// its entry is stored under.
func (m *memberCache) put(sk, v []byte, exists bool) string {
	short := exists && len(v) <= MaxCachedMember
	if i := m.findBytes(sk); i >= 0 {
		s := m.hit(i)
		switch {
		case !exists:
			s.val = member{loaded: true} // nothing to load
		case !short:
			s.val = member{exists: true}
		case !s.val.exists || !s.val.loaded || s.val.val != string(v):
			s.val = member{val: string(v), exists: true, loaded: true}
		}
		return s.key
	}
	// One allocation holds the key and a short value.
	n := len(sk)
	if short {
		n += len(v)
	}
	b := make([]byte, 0, n)
	b = append(b, sk...)
	if short {
		b = append(b, v...)
	}
	kv := unsafe.String(unsafe.SliceData(b), len(b))
	i := m.add(kv[:len(sk)])
	m.slots[i].val = member{val: kv[len(sk):], exists: exists, loaded: short || !exists}
	return kv[:len(sk)]
}

// remove forgets sk's entry.
func (m *memberCache) remove(sk []byte) {
	if i := m.findBytes(sk); i >= 0 {
		m.removeAt(i)
	}
}

// memberTxn is a Tx's driver transaction: writes of collection members
// keep the shard's member cache in step as they happen.
type memberTxn struct {
	lazyTxn
	t *Tx
}

func (m *memberTxn) Set(key, value []byte) error {
	if err := m.lazyTxn.Set(key, value); err != nil {
		return err
	}
	m.t.wroteMember(key, value, true)
	return nil
}

func (m *memberTxn) SetOwned(key, value []byte) error {
	if err := m.lazyTxn.SetOwned(key, value); err != nil {
		return err
	}
	m.t.wroteMember(key, value, true)
	return nil
}

func (m *memberTxn) Delete(key []byte) error {
	if err := m.lazyTxn.Delete(key); err != nil {
		return err
	}
	m.t.wroteMember(key, nil, false)
	return nil
}

var _ drivers.OwnedSetter = (*memberTxn)(nil)

// membersOf returns the member cache of the shard owning sub-key sk (nil:
// none).
func (t *Tx) membersOf(sk []byte) *memberCache {
	if t.caches == nil || len(sk) == 0 || sk[0] != codec.PrefixData {
		return nil
	}
	db, key, _, _, err := codec.DecodeSubKey(sk)
	if err != nil {
		return nil
	}
	t.mbuf = codec.AppendMetaKey(t.mbuf[:0], db, key)
	c := t.caches(t.mbuf)
	if c == nil {
		return nil
	}
	return c.members
}

// wroteMember updates the member cache for a write of key, when key is a
// member: the value set, or (exists false) deleted.
func (t *Tx) wroteMember(key, value []byte, exists bool) {
	m := t.membersOf(key)
	if m == nil {
		return
	}
	if !exists {
		m.remove(key)
		return
	}
	t.memberWrites = append(t.memberWrites, m.put(key, value, true))
}

// dropMemberWrites removes the entries this transaction wrote: it ends
// without their writes committed.
func (t *Tx) dropMemberWrites() {
	for _, k := range t.memberWrites {
		if m := t.membersOf(bytesOf(k)); m != nil {
			m.remove(bytesOf(k))
		}
	}
	t.memberWrites = t.memberWrites[:0]
}

// getMember reads sub-key sk through the member cache. Without
// needValue it may answer whether sk exists with a nil value.
func (t *Tx) getMember(sk []byte, needValue bool) (v []byte, ok bool, err error) {
	m := t.membersOf(sk)
	if m != nil {
		if e, hit := m.get(sk); hit && (e.loaded || !needValue) {
			if !e.exists || !needValue {
				return nil, e.exists, nil
			}
			return []byte(e.val), true, nil // a copy: callers may change it
		}
	}
	v, err = t.txn.Get(sk)
	if errors.Is(err, drivers.ErrNotFound) {
		if m != nil {
			m.put(sk, nil, false)
		}
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if m != nil {
		m.put(sk, v, true)
	}
	return v, true, nil
}

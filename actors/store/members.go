package store

import (
	"encoding/binary"
	"errors"

	"github.com/cespare/xxhash/v2"

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
// entries of every member it wrote or deleted. A read that misses fills
// the cache at once: the store returns the committed state, or this
// transaction's own write or delete, whose entry the rollback removes
// anyway. Deleting a member removes its entry. List elements are not
// kept here but in list windows (lists.go), under the same rules.
// Sub-keys include the key's version, which is never reused, so entries
// of dead versions are never read again; they age out.
//
// Only writes through a Tx reach the cache, and everything that writes a
// live version's members does (the GC deletes only dead versions).

// MaxCachedMember is the longest member value the cache keeps; a longer
// one is cached as existing, with its value left in the store.
const MaxCachedMember = 64

// memberCache maps members to what they hold. A member is named by its
// key's version and its field (the tail of its sub-key, memberName):
// versions are unique across keys and never reused, so the name is too.
// The index holds a 64-bit hash of the name; the entry holds the name, so
// two names sharing a hash only evict each other.
type memberCache struct {
	clockIndex[uint64, member]
}

// hashedKey is the index hash of a member cache key, already a hash of
// the member's name.
func hashedKey(h uint64) uint64 { return h }

// member is a cached member: absent, or present with its value when
// loaded. kv holds the name, then the value (one allocation for both).
type member struct {
	kv     string
	klen   uint32
	exists bool
	loaded bool
}

func (m *member) name() string  { return m.kv[:m.klen] }
func (m *member) value() string { return m.kv[m.klen:] }

// memberName returns the name of the member with sub-key sk whose field
// is field (the last bytes of sk): the version before it, and the field.
func memberName(sk []byte, field int) []byte { return sk[len(sk)-field-8:] }

// EnableMembers gives the cache a member cache of size entries (0: none).
// A disabled MetaCache keeps none either.
func (c *MetaCache) EnableMembers(size int) {
	if c.Disabled() || size < 1 {
		c.members = nil
		return
	}
	c.members = &memberCache{newClockIndex[uint64, member](size, hashedKey, nil)}
}

// Members returns the number of members cached.
func (c *MetaCache) Members() int {
	if c.members == nil {
		return 0
	}
	return c.members.len()
}

// slot returns the index of name's entry, or -1.
func (m *memberCache) slot(name []byte) int {
	i := m.find(xxhash.Sum64(name), 0)
	if i < 0 || m.slots[i].val.name() != string(name) {
		return -1
	}
	return i
}

// get returns the entry of name.
func (m *memberCache) get(name []byte) (member, bool) {
	i := m.slot(name)
	if i < 0 {
		return member{}, false
	}
	return m.hit(i).val, true
}

// put records that name holds v (exists) or nothing. A value longer than
// MaxCachedMember is recorded as existing only, and (add false) only over
// an entry that is already there.
func (m *memberCache) put(name, v []byte, exists, add bool) {
	short := exists && len(v) <= MaxCachedMember
	h := xxhash.Sum64(name)
	if i := m.find(h, 0); i >= 0 {
		s := m.hit(i)
		if s.val.name() == string(name) {
			e := &s.val
			switch {
			case !exists:
				e.kv, e.exists, e.loaded = e.name(), false, true // nothing to load
			case !short:
				e.kv, e.exists, e.loaded = e.name(), true, false
			case !e.exists || !e.loaded || e.value() != string(v):
				*e = newMember(name, v)
			}
			return
		}
		m.removeAt(i) // another name with the same hash
	}
	if !short && exists && !add {
		return
	}
	i := m.add(h)
	if short || !exists {
		m.slots[i].val = newMember(name, v[:len(v):len(v)])
		m.slots[i].val.exists = exists
	} else {
		m.slots[i].val = member{kv: string(name), klen: uint32(len(name)), exists: true}
	}
}

// newMember returns an entry of name holding the short value v.
func newMember(name, v []byte) member {
	b := make([]byte, 0, len(name)+len(v))
	b = append(append(b, name...), v...)
	return member{kv: stringOf(b), klen: uint32(len(name)), exists: true, loaded: true}
}

// remove forgets name's entry.
func (m *memberCache) remove(name []byte) {
	if i := m.slot(name); i >= 0 {
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

// memberRef names an entry a transaction wrote: its cache and the hash
// of its name.
type memberRef struct {
	m *memberCache
	h uint64
}

// subKeyCache returns the MetaCache of the shard owning sub-key sk (nil:
// none), and the version and field sk names.
func (t *Tx) subKeyCache(sk []byte) (*MetaCache, uint64, []byte) {
	if t.caches == nil || len(sk) == 0 || sk[0] != codec.PrefixData {
		return nil, 0, nil
	}
	db, key, version, field, err := codec.DecodeSubKey(sk)
	if err != nil {
		return nil, 0, nil
	}
	t.mbuf = codec.AppendMetaKey(t.mbuf[:0], db, key)
	c := t.caches(t.mbuf)
	if c == nil || c.Disabled() {
		return nil, 0, nil
	}
	return c, version, field
}

// wroteMember keeps the caches in step with a write of key, when key is a
// member: its value set, or (exists false) deleted. Elements of a list go
// to its window (lists.go), other members to the member cache.
func (t *Tx) wroteMember(key, value []byte, exists bool) {
	c, version, field := t.subKeyCache(key)
	if c == nil {
		return
	}
	if t.wroteElement(c.lists, version, field, value, exists) {
		return
	}
	m := c.members
	if m == nil {
		return
	}
	name := memberName(key, len(field))
	if exists {
		m.put(name, value, true, false)
	} else {
		m.remove(name)
	}
	// Recorded either way: a read after a delete fills in "absent".
	t.memberWrites = append(t.memberWrites, memberRef{m, xxhash.Sum64(name)})
}

// wroteElement applies a write of a list element to its window and
// reports whether the sub-key is a list element (a list being written,
// or one with a window).
func (t *Tx) wroteElement(lc *listCache, version uint64, field, value []byte, exists bool) bool {
	if lc == nil {
		return false
	}
	i, ok := codec.DecodeListField(field)
	if !ok {
		return false
	}
	w := t.writing
	list := w != nil && w.meta.Version == version && w.meta.Type == codec.TypeList
	if !list && lc.wins[version] == nil {
		return false
	}
	if exists {
		// A push reaches a list end: before it (LPUSH), after it (RPUSH),
		// or an empty list's first element.
		push := list && (w.meta.Size == 0 || i+1 == w.meta.Head || i == w.meta.Tail)
		lc.set(version, i, value, push)
	} else {
		lc.del(version, i)
	}
	// Recorded even when the window did not change: a read later in the
	// transaction may put the written value in it.
	if n := len(t.listWrites); n == 0 || t.listWrites[n-1] != (listRef{lc, version}) {
		t.listWrites = append(t.listWrites, listRef{lc, version})
	}
	return true
}

// dropMemberWrites removes the entries this transaction wrote, and the
// list windows it changed: it ends without their writes committed. (An
// entry of another name sharing a hash may go too: that only costs a
// read.)
func (t *Tx) dropMemberWrites() {
	for _, r := range t.memberWrites {
		if i := r.m.find(r.h, 0); i >= 0 {
			r.m.removeAt(i)
		}
	}
	for _, r := range t.listWrites {
		r.lc.drop(r.v)
	}
	t.forgetMemberWrites()
}

// forgetMemberWrites forgets the record of what the transaction wrote to
// the caches: after a commit, the entries stay.
func (t *Tx) forgetMemberWrites() {
	clear(t.memberWrites)
	t.memberWrites = t.memberWrites[:0]
	clear(t.listWrites)
	t.listWrites = t.listWrites[:0]
}

// listRef names a list window a transaction changed.
type listRef struct {
	lc *listCache
	v  uint64
}

// member reads field of c through the member cache. Without needValue it
// may answer whether the field exists with a nil value.
func (c *Coll) member(field []byte, needValue bool) (v []byte, ok bool, err error) {
	t := c.t
	var m *memberCache
	if mc := t.cacheFor(c.mk); mc != nil {
		if c.meta.Type == codec.TypeList {
			return c.element(mc.lists, field)
		}
		m = mc.members
	}
	if m != nil {
		t.nbuf = append(binary.BigEndian.AppendUint64(t.nbuf[:0], c.meta.Version), field...)
		if e, hit := m.get(t.nbuf); hit && (e.loaded || !needValue) {
			if !e.exists || !needValue {
				return nil, e.exists, nil
			}
			return []byte(e.value()), true, nil // a copy: callers may change it
		}
	}
	sk := c.SubKey(field)
	v, err = t.txn.Get(sk)
	if errors.Is(err, drivers.ErrNotFound) {
		if m != nil {
			m.put(memberName(sk, len(field)), nil, false, true)
		}
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if m != nil {
		m.put(memberName(sk, len(field)), v, true, true)
	}
	return v, true, nil
}

package store

import (
	"hash/maphash"
	"time"
	"unsafe"

	"github.com/hashicorp/golang-lru/v2/simplelru"

	"github.com/rekv/rekv/codec"
)

// MetaCache is a cache of key metadata, keyed by meta key, with the
// payload of short strings (up to MaxCachedPayload bytes) so GET of a hot
// key does not touch storage. It is owned by one shard and is not safe for
// concurrent use. Eviction is CLOCK (clockIndex).
//
// Look-ups return the entry's slot, which a later put of the same key may
// pass back as a hint: when the slot still holds that key, the update
// needs no second map look-up (a write reads its key's meta, then stores
// the new one at commit).
//
// A cached key's last access (OBJECT IDLETIME) is kept in its entry, where
// recording it costs no look-up of its own; the AccessClock holds the
// accesses of keys not cached, and takes over an entry's when the entry
// leaves the cache. An entry's time, when set, is the key's latest.
//
// Beside the metas it holds the shard's member cache (members.go).
type MetaCache struct {
	metas clockIndex[string, metaEntry]
	// edges holds, per index prefix and direction, a key no live entry of
	// that range lies before (forward) or after (reverse): scans start
	// there instead of stepping over the tombstones of popped entries.
	edges *simplelru.LRU[string, []byte]
	// clock records accesses even when the cache is disabled (nil: none).
	clock *AccessClock
	// members caches collection members (nil: none, see EnableMembers);
	// lists holds windows of list elements (nil: none, EnableLists).
	members *memberCache
	lists   *listCache
	// seed hashes the meta keys (clockIndex's tags).
	seed maphash.Seed
	// gen moves with every change of an entry's state (put, remove,
	// Purge), so a look-up kept since (Tx.last) knows it still holds.
	gen uint64
}

// metaEntry is a meta cache entry: the key's state, packed (pack and
// unpack: a codec.Meta with its stream part and padding takes half again
// as much, and a cache of 262,144 entries then costs 19 MB more), and,
// when timed, its last access (unix ms; else the clock has it).
type metaEntry struct {
	// key holds the entry's meta key when it has at most len(key) bytes
	// (keyLen > 0): a look-up compares it here, in the slot it reads
	// anyway, not in the key string's own memory, one cache miss less
	// (7% of GET -P 16's CPU). It comes first: the slot's first cache
	// line holds it with the key string's header, the type, the flags,
	// the expiry and the version.
	key      [metaInlineKey]byte
	keyLen   uint8
	typ      codec.Type
	flags    entryFlags
	payLen   uint8 // payload's length (at most MaxCachedPayload)
	expireAt int64
	version  uint64
	// payload is the first byte of a string's cached value (pack):
	// a pointer and payLen instead of a slice keep the slot at 128 bytes.
	// nil when the value is empty or not held (flagEmpty tells which).
	payload          *byte
	size, head, tail uint64
	stream           *codec.StreamMeta // streams only
	atime            int64
	// The slot (clockSlot[string, metaEntry]) is 128 bytes, two cache
	// lines the CPU fetches as a pair, and the slots of a cache past 128
	// entries start at a 128-byte boundary (Go gives an allocation of 32
	// KiB or more pages of its own; a smaller one holding pointers starts
	// 8 bytes in): a look-up reads one pair, where slots of 144 bytes
	// straddled three lines, half of them in two pairs
	// (TestMetaSlotLayout).
	_ [8]byte
}

// metaInlineKey is the longest meta key an entry holds inline: the
// prefix, the slot and a key of about 20 bytes.
const metaInlineKey = 24

// holdKey keeps mk in e when it fits (see metaEntry.key).
func (e *metaEntry) holdKey(mk string) {
	if len(mk) > 0 && len(mk) <= metaInlineKey {
		e.keyLen = uint8(copy(e.key[:], mk))
	}
}

// keyIs reports whether e is the entry of mk, whose string is key.
func (e *metaEntry) keyIs(key string, mk []byte) bool {
	if e.keyLen > 0 {
		return string(e.key[:e.keyLen]) == string(mk)
	}
	return key == string(mk)
}

type entryFlags uint8

const (
	flagExists entryFlags = 1 << iota
	flagLoaded
	flagChunked
	flagTimed
	flagConverted
	flagEmpty // the payload held is empty, not missing
)

// pack returns v as an entry; its access time is left unset.
func pack(v cached) metaEntry {
	m := v.meta
	e := metaEntry{expireAt: m.ExpireAt, version: m.Version, size: m.Size, head: m.Head, tail: m.Tail,
		typ: m.Type}
	switch {
	case len(v.payload) > MaxCachedPayload: // never expected (withPayload): the store has it
		v.loaded = false
	case len(v.payload) > 0:
		e.payload, e.payLen = unsafe.SliceData(v.payload), uint8(len(v.payload))
	case v.payload != nil:
		e.flags |= flagEmpty
	}
	if m.Stream != (codec.StreamMeta{}) {
		st := m.Stream
		e.stream = &st
	}
	if m.Type == codec.TypeHash { // a hash has no head: it keeps the field TTL there
		e.head = uint64(m.FieldTTL)
	}
	if v.exists {
		e.flags |= flagExists
	}
	if v.loaded {
		e.flags |= flagLoaded
	}
	if m.Chunked {
		e.flags |= flagChunked
	}
	if m.Converted {
		e.flags |= flagConverted
	}
	return e
}

// unpack returns the state e holds.
func (e *metaEntry) unpack() cached {
	v := cached{meta: codec.Meta{Type: e.typ, ExpireAt: e.expireAt, Version: e.version, Size: e.size,
		Head: e.head, Tail: e.tail, Chunked: e.flags&flagChunked != 0, Converted: e.flags&flagConverted != 0},
		exists: e.flags&flagExists != 0, loaded: e.flags&flagLoaded != 0}
	switch {
	case e.payload != nil:
		v.payload = unsafe.Slice(e.payload, e.payLen)
	case e.flags&flagEmpty != 0:
		v.payload = []byte{}
	}
	if e.stream != nil {
		v.meta.Stream = *e.stream
	}
	if e.typ == codec.TypeHash {
		v.meta.Head, v.meta.FieldTTL = 0, int64(e.head)
	}
	return v
}

// set replaces e's state with v's, keeping its access time and key.
func (e *metaEntry) set(v cached) {
	atime, timed, key, n := e.atime, e.flags&flagTimed, e.key, e.keyLen
	*e = pack(v)
	e.atime, e.flags, e.key, e.keyLen = atime, e.flags|timed, key, n
}

// timed reports whether e holds the key's last access.
func (e *metaEntry) timed() bool { return e.flags&flagTimed != 0 }

// SetClock makes the shard record key accesses in a (OBJECT IDLETIME).
func (c *MetaCache) SetClock(a *AccessClock) { c.clock = a }

type cached struct {
	meta    codec.Meta
	exists  bool
	payload []byte // a string's value when short; never modified
	loaded  bool   // payload is the value
}

// MaxCachedPayload is the longest string value the cache keeps.
const MaxCachedPayload = 64

// withPayload returns c holding payload p when it is short enough.
func withPayload(c cached, m codec.Meta, p []byte) cached {
	if m.Type == codec.TypeString && !m.Chunked && len(p) <= MaxCachedPayload {
		c.payload, c.loaded = p, true
	}
	return c
}

// NewMetaCache returns a cache of at most size entries; size 0 returns a
// disabled cache, which remembers nothing (nodes sharing one store cannot
// trust what they remember: another node may have changed it).
func NewMetaCache(size int) *MetaCache {
	if size < 1 {
		return &MetaCache{}
	}
	edges, err := simplelru.NewLRU[string, []byte](max(size/16, 64), nil)
	if err != nil {
		panic(err) // unreachable: size is positive
	}
	c := &MetaCache{edges: edges, seed: maphash.MakeSeed()}
	c.metas = newClockIndex(size, func(mk string) uint64 { return maphash.String(c.seed, mk) }, c.release)
	return c
}

// Disabled reports whether the cache remembers nothing.
func (c *MetaCache) Disabled() bool { return c.metas.size == 0 }

// Purge empties the cache.
func (c *MetaCache) Purge() {
	if c.Disabled() {
		return
	}
	c.gen++
	c.metas.purge()
	c.edges.Purge()
	if c.members != nil {
		c.members.purge()
	}
	if c.lists != nil {
		c.lists.purge()
	}
}

// Len returns the number of cached metas.
func (c *MetaCache) Len() int { return c.metas.len() }

// lookup returns the entry of meta key mk, its slot hint (0: none) and
// the key's string as the cache holds it.
func (c *MetaCache) lookup(mk []byte) (string, cached, int32, bool) {
	if c.metas.len() == 0 {
		return "", cached{}, 0, false
	}
	i, tag := -1, c.keyTag(mk)
	for p, j := c.metas.idx.first(tag); j >= 0; p, j = c.metas.idx.next(p, tag) {
		if s := &c.metas.slots[j]; s.val.keyIs(s.key, mk) {
			i = j
			break
		}
	}
	if i < 0 {
		return "", cached{}, 0, false
	}
	s := c.metas.hit(i)
	return s.key, s.val.unpack(), int32(i) + 1, true
}

// keyTag returns meta key mk's tag in the cache's index.
func (c *MetaCache) keyTag(mk []byte) uint32 { return tagOf(maphash.Bytes(c.seed, mk)) }

// put stores v as mk's entry and returns its slot hint. hint is one that
// lookup or put returned for mk earlier (0: none); a stale one is ignored.
func (c *MetaCache) put(mk string, v cached, hint int32) int32 {
	c.gen++
	if i := c.metas.find(mk, hint); i >= 0 {
		c.metas.hit(i).val.set(v)
		return int32(i) + 1
	}
	i := c.metas.add(mk)
	c.metas.slots[i].val = pack(v)
	c.metas.slots[i].val.holdKey(mk)
	return int32(i) + 1
}

// remove forgets mk's entry; the sweep takes its slot when it gets there.
func (c *MetaCache) remove(mk string) {
	c.gen++
	if i := c.metas.find(mk, 0); i >= 0 {
		c.metas.removeAt(i)
	}
}

// release hands the access time of s, an entry leaving the cache, to the
// clock.
func (c *MetaCache) release(s *clockSlot[string, metaEntry]) {
	if !s.val.timed() || c.clock == nil {
		return
	}
	if c.clock.lfu.On() { // the entry holds an LFU counter
		v := uint32(s.val.atime)
		c.clock.update(s.key, time.Now().UnixMilli(), func(uint32, bool) uint32 { return v })
		return
	}
	c.clock.touch(s.key, s.val.atime)
}

// touch records an access of mk at now: in its entry when cached (hint,
// from get or put, saves the look-up), else in the clock. It does nothing
// without a clock.
func (c *MetaCache) touch(mk string, hint int32, now int64) {
	if c.clock == nil {
		return
	}
	if i := c.metas.find(mk, hint); i >= 0 {
		e := &c.metas.slots[i].val
		if l := c.clock.lfu; l.On() {
			v, known := uint32(e.atime), e.timed()
			if !known {
				v, known = c.clock.raw(mk)
			}
			if !known {
				v = l.initial(now)
			}
			e.atime = int64(l.access(v, now))
		} else {
			e.atime = now
		}
		e.flags |= flagTimed
		return
	}
	c.clock.touch(mk, now)
}

// lfuValue returns the LFU value kept for mk, if any.
func (c *MetaCache) lfuValue(mk string) (uint32, bool) {
	if i := c.metas.find(mk, 0); i >= 0 && c.metas.slots[i].val.timed() {
		return uint32(c.metas.slots[i].val.atime), true
	}
	return c.clock.raw(mk)
}

// setLFU makes v the LFU value of mk.
func (c *MetaCache) setLFU(mk string, v uint32, now int64) {
	if i := c.metas.find(mk, 0); i >= 0 {
		e := &c.metas.slots[i].val
		e.atime, e.flags = int64(v), e.flags|flagTimed
		return
	}
	c.clock.update(mk, now, func(uint32, bool) uint32 { return v })
}

// lastAccess returns when mk was last accessed (see AccessClock.last).
func (c *MetaCache) lastAccess(mk string) int64 {
	if i := c.metas.find(mk, 0); i >= 0 && c.metas.slots[i].val.timed() {
		return c.metas.slots[i].val.atime
	}
	return c.clock.last(mk)
}

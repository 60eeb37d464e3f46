package store

import (
	"github.com/hashicorp/golang-lru/v2/simplelru"

	"github.com/rekv/rekv/codec"
)

// MetaCache is a cache of key metadata, keyed by meta key, with the
// payload of short strings (up to MaxCachedPayload bytes) so GET of a hot
// key does not touch storage. It is owned by one shard and is not safe for
// concurrent use.
//
// Eviction is CLOCK (second chance), an approximation of LRU: entries live
// in one slice, a hit only sets the entry's reference bit, and a miss that
// needs room sweeps a hand over the slice, clearing reference bits until
// it finds an entry without one, which it replaces. A hit therefore costs
// one map look-up and touches one entry, where a list-based LRU also
// relinks the entry and its two neighbours (three more cache misses on a
// large cache), and entries are not separate heap objects.
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
type MetaCache struct {
	idx   map[string]int32 // meta key -> index in slots
	slots []slot
	size  int // the most entries held
	hand  int // the next slot the sweep looks at
	// edges holds, per index prefix and direction, a key no live entry of
	// that range lies before (forward) or after (reverse): scans start
	// there instead of stepping over the tombstones of popped entries.
	edges *simplelru.LRU[string, []byte]
	// clock records accesses even when the cache is disabled (nil: none).
	clock *AccessClock
}

// slot is one cache entry; a slot not in use (its entry removed) holds
// the zero value, and the sweep takes it, evicting nothing, when the hand
// reaches it.
type slot struct {
	key   string
	val   cached
	atime int64 // the key's last access (unix ms), when timed
	timed bool  // an access was recorded here; else the clock has it
	used  bool
	ref   bool // accessed since the sweep last passed
}

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
	return &MetaCache{idx: make(map[string]int32), size: size, edges: edges}
}

// Disabled reports whether the cache remembers nothing.
func (c *MetaCache) Disabled() bool { return c.size == 0 }

// Purge empties the cache.
func (c *MetaCache) Purge() {
	if c.Disabled() {
		return
	}
	for i := range c.slots {
		c.release(&c.slots[i])
	}
	clear(c.idx)
	clear(c.slots)
	c.slots, c.hand = c.slots[:0], 0
	c.edges.Purge()
}

// Len returns the number of cached entries.
func (c *MetaCache) Len() int { return len(c.idx) }

// get returns the entry of mk and its slot hint (0: none).
func (c *MetaCache) get(mk string) (cached, int32, bool) {
	i := c.find(mk, 0)
	if i < 0 {
		return cached{}, 0, false
	}
	s := &c.slots[i]
	s.ref = true
	return s.val, int32(i) + 1, true
}

// put stores v as mk's entry and returns its slot hint. hint is one that
// get or put returned for mk earlier (0: none); a stale one is ignored.
func (c *MetaCache) put(mk string, v cached, hint int32) int32 {
	if i := c.find(mk, hint); i >= 0 {
		c.slots[i].val, c.slots[i].ref = v, true
		return int32(i) + 1
	}
	i := c.victim()
	c.slots[i] = slot{key: mk, val: v, used: true}
	c.idx[mk] = int32(i)
	return int32(i) + 1
}

// victim returns the index of a free slot for a new entry, evicting one
// when the cache is full.
func (c *MetaCache) victim() int {
	if len(c.slots) < c.size {
		c.slots = append(c.slots, slot{})
		return len(c.slots) - 1
	}
	// Bounded: one pass clears every reference bit, so the second finds
	// a victim.
	for {
		i := c.hand
		c.hand++
		if c.hand == len(c.slots) {
			c.hand = 0
		}
		s := &c.slots[i]
		if !s.used {
			return i
		}
		if s.ref {
			s.ref = false
			continue
		}
		delete(c.idx, s.key)
		c.release(s)
		return i
	}
}

// remove forgets mk's entry; the sweep takes its slot when it gets there.
func (c *MetaCache) remove(mk string) {
	if i, ok := c.idx[mk]; ok {
		delete(c.idx, mk)
		c.release(&c.slots[i])
		c.slots[i] = slot{}
	}
}

// release hands the access time of s, an entry leaving the cache, to the
// clock.
func (c *MetaCache) release(s *slot) {
	if s.used && s.timed && c.clock != nil {
		c.clock.touch(s.key, s.atime)
	}
}

// touch records an access of mk at now: in its entry when cached (hint,
// from get or put, saves the look-up), else in the clock. It does nothing
// without a clock.
func (c *MetaCache) touch(mk string, hint int32, now int64) {
	if c.clock == nil {
		return
	}
	if i := c.find(mk, hint); i >= 0 {
		c.slots[i].atime, c.slots[i].timed = now, true
		return
	}
	c.clock.touch(mk, now)
}

// lastAccess returns when mk was last accessed (see AccessClock.last).
func (c *MetaCache) lastAccess(mk string) int64 {
	if i := c.find(mk, 0); i >= 0 && c.slots[i].timed {
		return c.slots[i].atime
	}
	return c.clock.last(mk)
}

// find returns the index of mk's entry, or -1 when mk is not cached. hint
// is one that get or put returned for mk earlier (0: none); a stale one
// costs a look-up.
func (c *MetaCache) find(mk string, hint int32) int {
	if i := int(hint) - 1; i >= 0 && i < len(c.slots) && c.slots[i].used && c.slots[i].key == mk {
		return i
	}
	if i, ok := c.idx[mk]; ok {
		return int(i)
	}
	return -1
}

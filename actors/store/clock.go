package store

// clockIndex is the eviction core the shard's caches share: at most size
// entries keyed by K, with CLOCK (second chance) eviction, an
// approximation of LRU. Entries live in one slice; a hit only sets the
// entry's reference bit, and an insert that needs room sweeps a hand over
// the slice, clearing reference bits until it finds an entry without one,
// which it replaces. A hit therefore costs one index look-up (hashIndex)
// and touches one entry, where a list-based LRU also relinks the entry and its two
// neighbours (three more cache misses on a large cache), and entries are
// not separate heap objects.
//
// Look-ups return the entry's slot, which a later call for the same key
// may pass back as a hint: when the slot still holds that key, it needs
// no second index look-up. It is not safe for concurrent use.
type clockIndex[K comparable, V any] struct {
	idx   hashIndex // key's tag -> index in slots
	hash  func(K) uint64
	slots []clockSlot[K, V]
	size  int // the most entries held
	hand  int // the next slot the sweep looks at
	// leave, when set, hears of each entry leaving the cache (evicted,
	// removed or purged) just before it goes.
	leave func(*clockSlot[K, V])
}

// clockSlot is one entry; a slot not in use (its entry removed) holds the
// zero value, and the sweep takes it, evicting nothing, when the hand
// reaches it.
type clockSlot[K comparable, V any] struct {
	key  K
	val  V
	used bool
	ref  bool   // accessed since the sweep last passed
	tag  uint32 // the key's tag in idx
}

// newClockIndex returns an index of at most size entries; hash hashes
// keys (its high 32 bits are the key's tag).
func newClockIndex[K comparable, V any](size int, hash func(K) uint64, leave func(*clockSlot[K, V])) clockIndex[K, V] {
	return clockIndex[K, V]{hash: hash, size: size, leave: leave}
}

// len returns the number of entries.
func (c *clockIndex[K, V]) len() int { return c.idx.len() }

// find returns the index of key's entry, or -1 when key is not cached.
// hint is a slot hint returned for key earlier (0: none); a stale one
// costs a look-up.
func (c *clockIndex[K, V]) find(key K, hint int32) int {
	if i := int(hint) - 1; i >= 0 && i < len(c.slots) && c.slots[i].used && c.slots[i].key == key {
		return i
	}
	if c.idx.len() == 0 { // nothing to hash for (a disabled cache has no hash)
		return -1
	}
	return c.lookup(key, tagOf(c.hash(key)))
}

// lookup returns the index of key's entry, whose tag is tag, or -1.
func (c *clockIndex[K, V]) lookup(key K, tag uint32) int {
	for p, i := c.idx.first(tag); i >= 0; p, i = c.idx.next(p, tag) {
		if c.slots[i].key == key {
			return i
		}
	}
	return -1
}

// hit marks entry i accessed and returns it.
func (c *clockIndex[K, V]) hit(i int) *clockSlot[K, V] {
	s := &c.slots[i]
	s.ref = true
	return s
}

// add makes a new entry for key, which must not be cached, evicting one
// when the cache is full, and returns its index; its value is V's zero.
func (c *clockIndex[K, V]) add(key K) int {
	tag := tagOf(c.hash(key))
	i := c.victim()
	c.slots[i] = clockSlot[K, V]{key: key, used: true, tag: tag}
	c.idx.insert(tag, i)
	return i
}

// victim returns the index of a free slot for a new entry, evicting one
// when the cache is full.
func (c *clockIndex[K, V]) victim() int {
	if len(c.slots) < c.size {
		if len(c.slots) == cap(c.slots) {
			// Doubling, but never past size: append's own growth
			// would leave up to a quarter of a full cache unused.
			grown := make([]clockSlot[K, V], len(c.slots), min(c.size, max(2*cap(c.slots), 64)))
			copy(grown, c.slots)
			c.slots = grown
		}
		c.slots = append(c.slots, clockSlot[K, V]{})
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
		c.idx.remove(s.tag, i)
		c.release(s)
		return i
	}
}

// removeAt forgets entry i; the sweep takes its slot when it gets there.
func (c *clockIndex[K, V]) removeAt(i int) {
	s := &c.slots[i]
	c.idx.remove(s.tag, i)
	c.release(s)
	*s = clockSlot[K, V]{}
}

// purge forgets every entry and lets go of the memory they took: the
// slots and the index are made anew as entries come back (a FLUSHALL
// empties the caches, and what the keyspace held before must not stay
// allocated while a smaller one is used).
func (c *clockIndex[K, V]) purge() {
	for i := range c.slots {
		c.release(&c.slots[i])
	}
	c.slots, c.hand = nil, 0
	c.idx.reset()
}

func (c *clockIndex[K, V]) release(s *clockSlot[K, V]) {
	if s.used && c.leave != nil {
		c.leave(s)
	}
}

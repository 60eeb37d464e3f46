package store

import "github.com/rekv/rekv/codec"

// What a transaction keeps to spare the meta cache's map a look-up, and
// the heap an allocation, per command.

// lastLookup is a meta cache hit kept by Tx.raw, true while the cache's
// generation (MetaCache.gen: every put, remove and purge moves it) is the
// one it was read at.
type lastLookup struct {
	c   *MetaCache
	gen uint64
	mk  string
	// key is a copy of mk, compared instead of it: the cache compares a
	// short key in its entry, so mk's own bytes are not in the CPU's
	// cache, and comparing them missed it once per GET (7.9% of GET -P
	// 16's CPU).
	key  []byte
	buf  [48]byte // key's memory when it fits
	e    cached
	hint int32
}

// cachedEntry looks up the meta key in t.kbuf in c, or in t.last when it
// holds that key of c, unchanged since.
func (t *Tx) cachedEntry(c *MetaCache) (string, cached, int32, bool) {
	if l := &t.last; l.c == c && l.gen == c.gen && string(l.key) == string(t.kbuf) {
		return l.mk, l.e, l.hint, true
	}
	mk, e, hint, ok := c.lookup(t.kbuf)
	if ok {
		l := &t.last
		l.c, l.gen, l.mk, l.e, l.hint = c, c.gen, mk, e, hint
		l.key = appendKeyCopy(l.key, l.buf[:0], t.kbuf)
	}
	return mk, e, hint, ok
}

// metaBlockSize is the size of the blocks Tx.metas carves encoded metas
// from; a meta longer than a quarter of it gets an allocation of its own.
const metaBlockSize = 4 << 10

// encodeMeta returns m and payload encoded (codec.AppendMeta) in bytes
// the driver may keep, carved from t.metas.
func (t *Tx) encodeMeta(m codec.Meta, payload []byte) []byte {
	return codec.AppendMeta(t.metas.Take(codec.MetaLen(m, payload))[:0], m, payload)
}

// ownMetaKey returns the meta key write hands the driver: mk's bytes
// encoded again from key and the selected database into t.metas, not mk
// itself. mk is most often the meta cache's string, whose bytes the
// look-up did not touch (the entry holds its own copy), so the driver's
// first read of them, and the memtable's copy after it, missed the CPU
// cache: 2.6% of SET -P 1's CPU, 3.7% of MSET's. key was read moments
// ago. A key too long for the blocks (or, never expected, one that does
// not encode to mk's length) is handed over as mk.
func (t *Tx) ownMetaKey(key []byte, mk string) []byte {
	n := codec.MetaKeyLen(t.slot, key)
	if n != len(mk) || n > t.metas.Own {
		return bytesOf(mk)
	}
	return codec.AppendMetaKey(t.metas.Take(n)[:0], t.slot, key)
}

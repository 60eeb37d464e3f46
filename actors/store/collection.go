package store

import (
	"encoding/binary"
	"math"

	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// Coll is a collection key (hash, set, zset, list) open in a Tx. Members
// live under sub-keys of the key's live version. Every change of size is
// written to the meta at once, so the rest of the transaction sees it; a
// collection emptied by removals deletes its meta.
type Coll struct {
	t      *Tx
	key    []byte
	mk     string
	meta   codec.Meta
	live   bool   // the meta is stored and live
	prefix []byte // sub-key prefix of the version; nil until it exists
	// pbuf holds the first prefix a collection gets when its key is
	// short (one allocation less per command); a later version's prefix
	// gets its own array, since a caller may still hold the first.
	pbuf [48]byte
	// sprefix is ScorePrefix's, for version spVersion; spbuf holds the
	// first one when the key is short, as pbuf does.
	sprefix   []byte
	spVersion uint64
	spbuf     [48]byte
	// vbuf holds the value ScoreValue returns.
	vbuf [8]byte
	// expired holds the fields of a hash that a read-only transaction
	// hides: expired, not yet deleted (fieldttl.go). Nil: none.
	expired map[string]struct{}
}

// Open returns key's collection of type typ. A missing key yields nil,
// unless create is set, in which case an empty collection is returned that
// comes into existence with its first member. Another type is WRONGTYPE.
func (t *Tx) Open(key []byte, typ codec.Type, create bool) (*Coll, error) {
	mk, r, err := t.raw(key, false)
	if err != nil {
		return nil, err
	}
	if t.live(r) {
		if r.meta.Type != typ {
			return nil, rerr.ErrWrongType
		}
		c := &Coll{t: t, key: key, mk: mk, meta: r.meta, live: true}
		c.prefix = codec.AppendSubKeyPrefix(c.pbuf[:0], t.slot, key, r.meta.Version)
		if c.meta.FieldTTL == 0 {
			return c, nil
		}
		if err := c.openFields(); err != nil {
			return nil, err
		}
		if c.Size() > 0 {
			return c, nil
		}
		// Every field expired: the hash is gone (deleted, in a write).
		if !create {
			return nil, nil
		}
		if c.live { // read-only: a new hash would replace it
			return &Coll{t: t, key: key, mk: mk, meta: codec.Meta{Type: typ}}, nil
		}
		return c, nil
	}
	if !create {
		return nil, nil
	}
	return &Coll{t: t, key: key, mk: mk, meta: codec.Meta{Type: typ}}, nil
}

// Size returns the number of members (of a hash, those not expired).
func (c *Coll) Size() int64 { return int64(c.meta.Size) - int64(len(c.expired)) }

// Converted reports whether the collection is marked converted
// (codec.EncodingConverted: a set, hash or sorted set Redis would hold as
// a hashtable or skiplist); Convert marks it, stored with the next write
// of its meta (Grow).
func (c *Coll) Converted() bool { return c.meta.Converted }

// Convert marks the collection converted (see Converted).
func (c *Coll) Convert() { c.meta.Converted = true }

// Key returns the user key.
func (c *Coll) Key() []byte { return c.key }

// SubKey returns the storage key of a member (field) of this version.
func (c *Coll) SubKey(field []byte) []byte {
	return append(append(make([]byte, 0, len(c.prefix)+len(field)), c.prefix...), field...)
}

// scratchKey builds field's sub-key in the transaction's scratch buffer,
// for a driver call that copies it (drivers.Txn's Set and Delete; the
// member and list caches copy what they keep of it too).
func (c *Coll) scratchKey(field []byte) []byte {
	c.t.skbuf = append(append(c.t.skbuf[:0], c.prefix...), field...)
	return c.t.skbuf
}

// ScorePrefix returns the prefix of this version's zset score index,
// built once per version. Callers must not write into it; an append
// gets a new array (its capacity is its length).
func (c *Coll) ScorePrefix() []byte {
	if c.sprefix == nil || c.spVersion != c.meta.Version {
		var p []byte
		if c.sprefix == nil {
			p = codec.AppendScoreKeyPrefix(c.spbuf[:0], c.t.slot, c.key, c.meta.Version)
		} else { // a caller may still hold the first
			p = codec.ScoreKeyPrefix(c.t.slot, c.key, c.meta.Version)
		}
		c.sprefix, c.spVersion = p[:len(p):len(p)], c.meta.Version
	}
	return c.sprefix
}

// ScoreKeyScratch returns ScoreKey's key built in the transaction's
// scratch, which the next call reuses: for SetRaw and DeleteRaw, which
// copy it.
func (c *Coll) ScoreKeyScratch(score float64, member []byte) []byte {
	c.t.zbuf = codec.AppendScoreKey(c.t.zbuf[:0], c.t.slot, c.key, c.meta.Version, score, member)
	return c.t.zbuf
}

// ScoreValue returns a member's stored value for score (its bits, big
// endian) in the collection's scratch, which the next call reuses: for
// Put, which copies it.
func (c *Coll) ScoreValue(score float64) []byte {
	return binary.BigEndian.AppendUint64(c.vbuf[:0], math.Float64bits(score))
}

// ScoreKey returns the score index key of member at score, in one
// allocation.
func (c *Coll) ScoreKey(score float64, member []byte) []byte {
	return codec.AppendScoreKey(make([]byte, 0, 24+len(c.key)+len(member)), c.t.slot, c.key, c.meta.Version, score, member)
}

// ensure gives a collection that does not exist yet its version.
func (c *Coll) ensure() error {
	if c.prefix != nil {
		return nil
	}
	v, err := c.t.nextVersion()
	if err != nil {
		return err
	}
	c.meta.Version = v
	c.prefix = codec.AppendSubKeyPrefix(c.pbuf[:0], c.t.slot, c.key, v)
	return nil
}

// Get reads one member's value.
func (c *Coll) Get(field []byte) ([]byte, bool, error) {
	if c.prefix == nil || c.hidden(field) {
		return nil, false, nil
	}
	return c.member(field, true)
}

// hidden reports whether field is an expired hash field a read hides.
func (c *Coll) hidden(field []byte) bool {
	if c.expired == nil {
		return false
	}
	_, ok := c.expired[string(field)]
	return ok
}

// Has reports whether a member exists.
func (c *Coll) Has(field []byte) (bool, error) {
	if c.prefix == nil || c.hidden(field) {
		return false, nil
	}
	_, ok, err := c.member(field, false)
	return ok, err
}

// Put writes one member's value; the caller accounts for size with Grow.
func (c *Coll) Put(field, val []byte) error {
	if err := c.ensure(); err != nil {
		return err
	}
	c.DropEdges(c.prefix)
	c.t.touch(c.key)
	c.t.writing = c
	err := c.t.txn.Set(c.scratchKey(field), val)
	c.t.writing = nil
	return err
}

// Prefix returns the sub-key prefix of the collection's version (nil
// before it exists).
func (c *Coll) Prefix() []byte { return c.prefix }

// Remove deletes one member's sub-key; the caller accounts with Grow.
func (c *Coll) Remove(field []byte) error {
	if c.prefix == nil {
		return nil
	}
	c.t.touch(c.key)
	c.t.writing = c
	err := c.t.txn.Delete(c.scratchKey(field))
	c.t.writing = nil
	return err
}

// RemoveFields deletes those of fields the collection has, takes them
// from its count, and returns how many there were: the removal of a
// collection whose members are plain fields (hash fields, set members).
// A nil c is an empty collection.
func (c *Coll) RemoveFields(fields [][]byte) (int64, error) {
	if c == nil {
		return 0, nil
	}
	var n int64
	for _, f := range fields {
		ok, err := c.Has(f)
		if err != nil {
			return 0, err
		}
		if !ok {
			continue
		}
		if c.HasFieldTTLs() {
			if _, err := c.Persist(f); err != nil {
				return 0, err
			}
		}
		if err := c.Remove(f); err != nil {
			return 0, err
		}
		n++
	}
	if n > 0 {
		return n, c.Grow(-n)
	}
	return 0, nil
}

// SetRaw writes a key of this collection's version under the range
// prefix (score index entries), dropping that range's edges.
func (c *Coll) SetRaw(prefix, k, v []byte) error {
	c.DropEdges(prefix)
	c.t.touch(c.key)
	return c.t.txn.Set(k, v)
}

// DeleteRaw deletes any key of this collection's version.
func (c *Coll) DeleteRaw(k []byte) error {
	c.t.touch(c.key)
	return c.t.txn.Delete(k)
}

// Grow changes the size by delta and writes the meta, deleting it when the
// collection becomes empty.
func (c *Coll) Grow(delta int64) error {
	c.meta.Size = uint64(int64(c.meta.Size) + delta)
	return c.save()
}

func (c *Coll) save() error {
	if err := c.ensure(); err != nil {
		return err
	}
	_, old, err := c.t.raw(c.key, false)
	if err != nil {
		return err
	}
	if c.meta.Size == 0 && !c.meta.Type.Info().EmptyStays { // an empty stream stays
		c.live = false
		// Emptied member by member, the version has no sub-keys left; a
		// rebased collection leaves its old version to the GC.
		_, err := c.t.remove(c.key, c.mk, old, old.meta.Version != c.meta.Version)
		return err
	}
	c.live = true
	return c.t.write(c.key, c.mk, old, c.meta, nil)
}

// Scan calls fn for members in sub-key order from field from (inclusive)
// to to (exclusive, nil for the end), or backwards with reverse, stopping
// after limit members when limit > 0.
func (c *Coll) Scan(from, to []byte, reverse bool, limit int, fn func(field, val []byte) (bool, error)) error {
	if c.prefix == nil {
		return nil
	}
	start := c.SubKey(from)
	end := codec.PrefixEnd(c.prefix)
	if to != nil {
		end = c.SubKey(to)
	}
	n := len(c.prefix)
	if c.expired != nil { // skip the expired fields a read hides
		seen := 0
		return c.t.txn.Iterate(start, end, drivers.IterOptions{Reverse: reverse}, func(k, v []byte) (bool, error) {
			if c.hidden(k[n:]) {
				return true, nil
			}
			if seen++; limit > 0 && seen > limit {
				return false, nil
			}
			return fn(k[n:], v)
		})
	}
	return c.t.txn.Iterate(start, end, drivers.IterOptions{Reverse: reverse, Limit: limit}, func(k, v []byte) (bool, error) {
		return fn(k[n:], v)
	})
}

func edgeKey(prefix []byte, rev bool) string {
	if rev {
		return "r" + string(prefix)
	}
	return "f" + string(prefix)
}

// Edge returns a key of the range under prefix before which (forward) or
// after which (rev) no live entry lies, or nil if none is known.
func (c *Coll) Edge(prefix []byte, rev bool) []byte {
	if mc := c.t.cacheFor(c.mk); mc != nil {
		if k, ok := mc.edges.Get(edgeKey(prefix, rev)); ok {
			return k
		}
	}
	return nil
}

// SetEdge records key as the first (or, with rev, last) live entry of the
// range under prefix, as a scan just found it. It stays a valid bound when
// the entry is then deleted, or the transaction rolls back.
func (c *Coll) SetEdge(prefix []byte, rev bool, key []byte) {
	if mc := c.t.cacheFor(c.mk); mc != nil {
		mc.edges.Add(edgeKey(prefix, rev), append([]byte(nil), key...))
	}
}

// DropEdges forgets the edges of the range under prefix; every insert into
// the range calls it, so an edge never hides a live entry.
func (c *Coll) DropEdges(prefix []byte) {
	if mc := c.t.cacheFor(c.mk); mc != nil {
		mc.edges.Remove(edgeKey(prefix, false))
		mc.edges.Remove(edgeKey(prefix, true))
	}
}

// Head returns a field at or before the first live member of a
// collection that only grows at its end (a stream's entries: IDs only
// increase), or nil if none is known: trims start there instead of
// walking the tombstones of earlier trims.
func (c *Coll) Head() []byte {
	if mc := c.t.cacheFor(c.mk); mc != nil {
		if k, ok := mc.edges.Get("h" + string(c.prefix)); ok {
			return k
		}
	}
	return nil
}

// SetHead records field as the first live member a scan found. Appends
// leave it valid (unlike SetEdge's, which every Put drops), and so do
// deletions and a rollback: it only ever bounds from below.
func (c *Coll) SetHead(field []byte) {
	if mc := c.t.cacheFor(c.mk); mc != nil {
		mc.edges.Add("h"+string(c.prefix), append([]byte(nil), field...))
	}
}

// ScanEdge iterates the whole range under prefix from its first (or, with
// rev, last) live entry, starting at the known edge and recording the
// entry it finds first as the new edge.
func (c *Coll) ScanEdge(prefix []byte, rev bool, fn func(k, v []byte) (bool, error)) error {
	start, end := prefix, codec.PrefixEnd(prefix)
	if e := c.Edge(prefix, rev); e != nil {
		if rev {
			end = append(append([]byte{}, e...), 0)
		} else {
			start = e
		}
	}
	first := true
	return c.t.txn.Iterate(start, end, drivers.IterOptions{Reverse: rev}, func(k, v []byte) (bool, error) {
		if first {
			c.SetEdge(prefix, rev, k)
			first = false
		}
		return fn(k, v)
	})
}

// ScanRaw iterates any range of keys (the zset score index).
func (c *Coll) ScanRaw(start, end []byte, reverse bool, limit int, fn func(k, v []byte) (bool, error)) error {
	return c.t.txn.Iterate(start, end, drivers.IterOptions{Reverse: reverse, Limit: limit}, fn)
}

// copyCollection copies every sub-key and score entry of src's version to
// dst under a new version, keeping src's expiry. O(members).
func (t *Tx) copyCollection(src record, srcKey, dstKey []byte) (codec.Meta, error) {
	return t.copyVersion(src, t.slot, srcKey, t.slot, dstKey)
}

// copyVersion is copyCollection between databases.
func (t *Tx) copyVersion(src record, srcSlot codec.Slot, srcKey []byte, dstSlot codec.Slot, dstKey []byte) (codec.Meta, error) {
	m := src.meta
	v, err := t.nextVersion()
	if err != nil {
		return m, err
	}
	m.Version = v
	for _, p := range [][3][]byte{
		{codec.SubKeyPrefix(srcSlot, srcKey, src.meta.Version), codec.SubKeyPrefix(dstSlot, dstKey, v)},
		{codec.ScoreKeyPrefix(srcSlot, srcKey, src.meta.Version), codec.ScoreKeyPrefix(dstSlot, dstKey, v)},
	} {
		from, to := p[0], p[1]
		var pairs [][2][]byte
		err := t.txn.Iterate(from, codec.PrefixEnd(from), drivers.IterOptions{}, func(k, val []byte) (bool, error) {
			nk := append(append([]byte{}, to...), k[len(from):]...)
			pairs = append(pairs, [2][]byte{nk, append([]byte{}, val...)})
			return true, nil
		})
		if err != nil {
			return m, err
		}
		for _, kv := range pairs {
			if err := t.txn.Set(kv[0], kv[1]); err != nil {
				return m, err
			}
		}
	}
	return m, nil
}

// ListOrigin is where a new list's head and tail start, so both ends can
// grow by 2^63 elements.
const ListOrigin uint64 = 1 << 63

// Bounds returns a list's element indexes [head, tail); a list that does
// not exist yet is empty at ListOrigin.
func (c *Coll) Bounds() (head, tail uint64) {
	if c.meta.Size == 0 && c.meta.Head == 0 && c.meta.Tail == 0 {
		return ListOrigin, ListOrigin
	}
	return c.meta.Head, c.meta.Tail
}

// SetBounds sets a list's [head, tail) and its size, and writes the meta
// (deleting it when the list becomes empty).
func (c *Coll) SetBounds(head, tail uint64) error {
	c.meta.Head, c.meta.Tail, c.meta.Size = head, tail, tail-head
	return c.save()
}

// Rebase moves the collection to a fresh version: later Puts go under the
// new version, and the old one becomes a garbage entry once the meta is
// saved (SetBounds or Grow). Rewriting a few survivors this way makes a
// large removal O(survivors).
func (c *Coll) Rebase() error {
	v, err := c.t.nextVersion()
	if err != nil {
		return err
	}
	c.meta.Version = v
	c.prefix = codec.SubKeyPrefix(c.t.slot, c.key, v)
	return nil
}

// Drop deletes the whole collection in O(1), like DEL: the meta goes and
// the version becomes a garbage entry.
func (c *Coll) Drop() error {
	_, old, err := c.t.raw(c.key, false)
	if err != nil {
		return err
	}
	c.live = false
	c.meta.Size = 0
	_, err = c.t.remove(c.key, c.mk, old, true)
	return err
}

// Stream returns a stream's meta fields (IDs, entries added).
func (c *Coll) Stream() codec.StreamMeta { return c.meta.Stream }

// SetStream sets a stream's meta fields and size and writes the meta; a
// stream exists even when empty.
func (c *Coll) SetStream(s codec.StreamMeta, size int64) error {
	c.meta.Stream, c.meta.Size = s, uint64(size)
	return c.save()
}

// Signal records that key (a list) gained elements in this transaction, so
// clients blocked on it are served after the commit.
func (c *Coll) Signal() { c.t.signal(c.key) }

// Note records a keyspace notification for this key (see Tx.AddNote).
func (c *Coll) Note(class uint16, event string) { c.t.AddNote(class, event, c.key) }

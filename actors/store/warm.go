package store

import (
	"bytes"

	"github.com/rekv/rekv/codec"
)

// MaxWarm is the most keys one Warm reads ahead.
const MaxWarm = 16

// Warm reads ahead, changing nothing, what looking up keys in database
// db will read in the meta cache: each key's first index cell, the slot
// it names and a cached value's first byte. A look-up of a cache larger
// than the CPU's caches waits for two or three memory reads in a row;
// here the reads of every key are issued together, one pass for the
// cells and one for the slots, so the CPU overlaps their misses, and the
// commands that follow find them cached. A key of another database (the
// transaction has not selected db) is left alone, and a cell whose tag
// is another key's costs a wasted read, nothing else.
func (t *Tx) Warm(db int, keys [][]byte) {
	if t.db != db || t.err != nil {
		return
	}
	var (
		tags [MaxWarm]uint32
		cs   [MaxWarm]*MetaCache
		n    int
	)
	var last []byte
	for i, k := range keys[:min(len(keys), MaxWarm)] {
		if i > 0 && bytes.Equal(k, last) {
			continue // a pipeline of one key's commands (LPUSH, HSET...) reads it once
		}
		last = k
		t.wbuf = codec.AppendMetaKey(t.wbuf[:0], t.slot, k)
		c := t.caches.of(t.wbuf)
		if c == nil || c.metas.len() == 0 {
			continue
		}
		tags[n], cs[n] = c.keyTag(t.wbuf), c
		n++
	}
	var slots [MaxWarm]int
	for i := range n {
		slots[i] = cs[i].metas.idx.homeSlot(tags[i])
	}
	var sum uint64
	var pays [MaxWarm]*byte
	for i := range n {
		if j := slots[i]; j >= 0 {
			e := &cs[i].metas.slots[j].val
			sum += uint64(e.keyLen)
			pays[i] = e.payload
		}
	}
	for _, p := range pays[:n] {
		if p != nil {
			sum += uint64(*p)
		}
	}
	t.warmed += sum
}

// maxWarmPuts is the most cache slots warmPuts reads ahead.
const maxWarmPuts = 64

// warmPuts reads ahead the cache slots of the keys a committed
// transaction wrote, which Commit's puts update one after the other. The
// look-ups that found them read them before the commit, but the commit
// waited for Badger's insert, whose walk of its skiplist evicted them
// from the CPU's caches: each put waited for its own miss (the slot's
// check in clockIndex.find was 3.5% of MSET -P 1's CPU). Read here
// together, their misses overlap. It reads, changing nothing, the slot a
// record's hint names (a stale hint costs a wasted read).
func (t *Tx) warmPuts() {
	if len(t.dirty) < 2 {
		return
	}
	var sum uint64
	for _, i := range t.dirty[:min(len(t.dirty), maxWarmPuts)] {
		r := &t.seen.recs[i]
		if r.hint <= 0 {
			continue
		}
		if c := t.cacheFor(r.mk); c != nil {
			if j := int(r.hint) - 1; j < len(c.metas.slots) {
				s := &c.metas.slots[j] // both of its cache lines
				sum += uint64(len(s.key)) + uint64(s.tag)
			}
		}
	}
	t.warmed += sum
}

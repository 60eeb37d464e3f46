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

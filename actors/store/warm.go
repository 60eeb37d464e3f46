package store

import (
	"bytes"
	"hash/maphash"

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
		hs [MaxWarm]uint64
		cs [MaxWarm]*MetaCache
		n  int
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
		hs[n], cs[n] = maphash.Bytes(c.seed, t.wbuf), c
		n++
	}
	var cells [MaxWarm]uint64
	for i := range n {
		x := &cs[i].metas.idx
		cells[i] = x.cells[uint64(tagOf(hs[i]))&x.mask]
	}
	var sum uint64
	var pays [MaxWarm]*byte
	for i := range n {
		if c := cells[i]; c != 0 {
			e := &cs[i].metas.slots[int(uint32(c))-1].val
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

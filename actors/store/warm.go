package store

import (
	"bytes"
	"encoding/binary"

	"github.com/cespare/xxhash/v2"

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
//
// fields, when not nil, holds a field or member for each key (nil: none):
// where the key is a cached hash, set or sorted set, Warm reads ahead in
// the member cache the member's index cell, slot and name the same way
// (HSET's and SADD's look-ups of a big collection's members missed the
// CPU's caches three times each: 18.5% of SADD -P 16's CPU). For another
// command the third argument is no member: a wasted read.
func (t *Tx) Warm(db int, keys, fields [][]byte) {
	if t.db != db || t.err != nil {
		return
	}
	var (
		tags [MaxWarm]uint32
		cs   [MaxWarm]*MetaCache
		ent  [MaxWarm]int // keys[k]'s entry in tags and cs (-1: none)
		n    int
	)
	var last []byte
	for i, k := range keys[:min(len(keys), MaxWarm)] {
		if i > 0 && bytes.Equal(k, last) {
			ent[i] = ent[i-1] // a pipeline of one key's commands (LPUSH, HSET...) reads it once
			continue
		}
		last, ent[i] = k, -1
		t.wbuf = codec.AppendMetaKey(t.wbuf[:0], t.slot, k)
		c := t.caches.of(t.wbuf)
		if c == nil || c.metas.len() == 0 {
			continue
		}
		tags[n], cs[n], ent[i] = c.keyTag(t.wbuf), c, n
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
	if fields != nil {
		sum += t.warmMembers(fields, ent[:min(len(keys), MaxWarm)], cs[:n], tags[:n], slots[:n])
	}
	t.warmed += sum
}

// warmMembers is Warm's read ahead of fields[k] in the member cache of
// the k-th key's entry ent[k] (cs, tags and slots of Warm), when that
// entry is a hash, a set or a sorted set. The entry is judged by its tag
// (another key's is a wasted read). It returns what it read.
func (t *Tx) warmMembers(fields [][]byte, ent []int, cs []*MetaCache, tags []uint32, slots []int) uint64 {
	var (
		ms    [MaxWarm]*memberCache
		mtags [MaxWarm]uint32
		n     int
	)
	for k, f := range fields[:min(len(fields), len(ent))] {
		i := ent[k]
		if f == nil || i < 0 || slots[i] < 0 || cs[i].members == nil || cs[i].members.idx.len() == 0 {
			continue
		}
		s := &cs[i].metas.slots[slots[i]]
		if !s.used || s.tag != tags[i] || s.val.flags&flagExists == 0 || !membered(s.val.typ) {
			continue
		}
		t.nbuf = append(binary.BigEndian.AppendUint64(t.nbuf[:0], s.val.version), f...) // memberName
		ms[n], mtags[n] = cs[i].members, tagOf(xxhash.Sum64(t.nbuf))
		n++
	}
	var mslots [MaxWarm]int
	for q := range n {
		mslots[q] = ms[q].idx.homeSlot(mtags[q])
	}
	var sum uint64
	var names [MaxWarm]string
	for q := range n {
		if j := mslots[q]; j >= 0 {
			names[q] = ms[q].slots[j].val.kv
			sum += uint64(len(names[q]))
		}
	}
	for _, name := range names[:n] {
		if name != "" {
			sum += uint64(name[0])
		}
	}
	return sum
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

// membered reports whether a key of type typ keeps members in the member
// cache that a pipelined command's look-ahead names: a hash's field, a
// set's member, a sorted set's member (resp.ArgsAhead).
func membered(typ codec.Type) bool {
	return typ == codec.TypeHash || typ == codec.TypeSet || typ == codec.TypeZSet
}

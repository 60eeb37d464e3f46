package store

import (
	"github.com/rekv/rekv/codec"
)

// record is what a transaction knows of one key: its meta as stored, and
// its payload once read.
type record struct {
	mk       string // the meta key, as the seen map holds it
	meta     codec.Meta
	exists   bool // stored, possibly expired
	payload  []byte
	loaded   bool  // payload is known
	accessed bool  // recorded in the access clock by this transaction
	hint     int32 // the key's MetaCache slot hint (0: none)
}

// seenKeys holds the records of the keys a transaction looked up or
// wrote, by meta key. The records live in a slice the map indexes: a
// record (152 bytes) is past the size Go's maps store inline (128), so a
// map of records allocated one per key; a reused seenKeys allocates
// nothing.
type seenKeys struct {
	idx  map[string]int32
	recs []record
	// puts counts every put and reset, never going back (foundMemo).
	puts uint64
}

// getBytes returns the record of mk, a meta key in a scratch buffer (the
// map look-up's conversion copies nothing).
func (s *seenKeys) getBytes(mk []byte) (record, bool) {
	i, ok := s.idx[string(mk)]
	if !ok {
		return record{}, false
	}
	return s.recs[i], true
}

// put sets mk's record and returns its index in recs, which stays its
// until reset.
func (s *seenKeys) put(mk string, r record) int32 {
	s.puts++
	if i, ok := s.idx[mk]; ok {
		s.recs[i] = r
		return i
	}
	i := int32(len(s.recs))
	s.idx[mk] = i
	s.recs = append(s.recs, r)
	return i
}

// reset forgets every record, keeping the memory.
func (s *seenKeys) reset() {
	s.puts++
	clear(s.idx)
	clear(s.recs) // no payload kept alive
	s.recs = s.recs[:0]
}

package store

// Spare keeps what a finished transaction leaves for the next one begun
// with it: its map of keys looked up, emptied, so a shard's transactions
// (a group of hundreds of writes each) do not grow a new map every time,
// its map of database records read and its meta key scratch. It is not
// safe for concurrent use: one per shard, or per snapshot reader, whose
// transactions run one at a time.
type Spare struct {
	seen   seenKeys
	floors map[int]DBRecord
	kbuf   []byte
	// touched is the index of the keys a transaction wrote (Journal's
	// refSet), emptied: grown anew for every group of writes, it was 1%
	// of SET -P 16's CPU and 1.7% of MSET -P 1's.
	touched map[uint64]int32
	// versionRate is versionPool.rate, learned from the transactions
	// released here.
	versionRate float64
}

// maxSpareSeen bounds the map a Spare keeps: one left by a transaction
// that looked up many keys is dropped rather than kept forever. A group
// of 50 clients' MSETs of 10 keys, 16 pipelined, looks up 8,000 keys: at
// 1,024 its map was dropped and grown again from nothing each time (the
// map's rehashing was 4% of MSET -P 16's CPU). Kept, it holds about 1.4
// MB a shard at the most (a record is 152 bytes).
const maxSpareSeen = 8192

// maxSpareRecords bounds the map of database records a Spare keeps.
const maxSpareRecords = 16

// maxSpareKey bounds the meta key scratch a Spare keeps (a transaction
// that looked up a huge key leaves its buffer to the collector).
const maxSpareKey = 1024

// Release hands t's map of keys looked up, its map of records read, the
// index of the keys it wrote and its key scratch, emptied, to s for the
// next transaction begun with it. t, committed or rolled back, must not
// be used afterwards except for Touched, Ready, Flushes, Swaps and Notes
// (and Wrote and Expired, which scan the keys written without their
// index).
func (t *Tx) Release(s *Spare) {
	if s == nil {
		return
	}
	s.versionRate = t.versions.learn(s.versionRate)
	m := t.jr.touched.idx
	if m == nil {
		m = t.jr.touched.spare // the index was not needed
	}
	if m != nil && len(m) <= maxSpareSeen {
		clear(m)
		s.touched, t.jr.touched.idx, t.jr.touched.spare = m, nil, nil
	}
	if t.floors != nil && len(t.floors) <= maxSpareRecords {
		clear(t.floors)
		s.floors, t.floors = t.floors, nil
	}
	if cap(t.kbuf) <= maxSpareKey {
		s.kbuf, t.kbuf = t.kbuf[:0], nil
	}
	if t.seen.idx == nil || len(t.seen.idx) > maxSpareSeen {
		return
	}
	t.seen.reset()
	s.seen, t.seen = t.seen, seenKeys{}
}

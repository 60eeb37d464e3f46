package store

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// Use switches the database later operations address (SELECT inside
// MULTI); the transaction's state is keyed by database, so it stays valid.
func (t *Tx) Use(db int) {
	if err := t.use(db); err != nil && t.err == nil {
		t.err = err
	}
}

func (t *Tx) use(db int) error {
	if t.mt.first != nil && db == t.presumedDB {
		r := t.presumed // confirmed by the first operation
		t.db, t.slot, t.minVer = db, r.Slot, r.Marker
		return nil
	}
	r, err := t.Records().Record(db)
	t.db, t.slot, t.minVer = db, r.Slot, r.Marker
	return err
}

// presume selects db as its record was last seen, on a shared store, and
// leaves reading the record to the transaction's first operation, which
// reads it along with its own key in one batch (confirm): a read is then
// one round trip where it was two, the record's and the key's.
func (t *Tx) presume(db int) {
	if r, ok := t.atRecords.get(db); ok { // read at this snapshot already
		t.db, t.slot, t.minVer = db, r.Slot, r.Marker
		t.keepFloor(db, r)
		return
	}
	r := t.markers.Held(db)
	t.db, t.slot, t.minVer = db, r.Slot, r.Marker
	t.presumed, t.presumedDB = r, db
	t.mt.first = t.confirm
}

// keepFloor keeps r as database db's record read at the transaction's
// snapshot (Records.Record answers from it).
func (t *Tx) keepFloor(db int, r DBRecord) {
	if t.floors == nil {
		t.floors = make(map[int]DBRecord, 1)
	}
	t.floors[db] = r
}

// errMoved makes a transaction that presumed a database's record retry
// when the database was flushed or swapped since it was last seen (by
// another node): what it read may be dead or another database's.
var errMoved = fmt.Errorf("%w: the database was flushed or swapped since last seen", drivers.ErrConflict)

// confirm reads the record presumed at Begin, with key when not nil (see
// lazyTxn.first), and checks the presumption: a database now under another
// slot fails the transaction with a conflict, retried with the record now
// held.
func (t *Tx) confirm(tx drivers.Txn, key []byte) ([]byte, bool, error) {
	db := t.presumedDB
	mk := codec.FlushMarkerKey(codec.Slot(db))
	keys := [][]byte{mk}
	if key != nil && !bytes.Equal(key, mk) {
		keys = append(keys, key)
	}
	n := len(keys)
	for _, k := range t.ahead {
		if !bytes.Equal(k, key) {
			keys = append(keys, k)
		}
	}
	t.ahead = nil
	vals, err := tx.BatchGet(keys) // the driver keeps what it read for the transaction's later reads
	vals = vals[:min(len(vals), n)]
	if err != nil {
		return nil, false, err
	}
	var found error
	if vals[0] == nil {
		found = drivers.ErrNotFound
	}
	r, err := t.markers.stored(db, vals[0], found)
	if err != nil {
		return nil, false, err
	}
	if r != t.presumed {
		return nil, false, errMoved
	}
	t.keepFloor(db, r)
	t.atRecords.put(db, r)
	if key == nil {
		return nil, false, nil
	}
	v := vals[len(vals)-1]
	if v == nil {
		return nil, true, drivers.ErrNotFound
	}
	return v, true, nil
}

// Slot returns the slot the selected database's keys are stored under.
func (vw Records) Slot() int {
	t := vw.t
	return int(t.slot)
}

// Record returns database db's record as this transaction sees it: one it
// wrote, else (shared store) the one in its snapshot, read once per
// database — the Use of every grouped command would otherwise read it
// again — else the one held in memory.
func (vw Records) Record(db int) (DBRecord, error) {
	t := vw.t
	if r, ok := t.records[db]; ok {
		return r, nil
	}
	if r, ok := t.floors[db]; ok {
		return r, nil
	}
	if t.mt.first != nil && db == t.presumedDB {
		// Confirm the presumed record (a read of it alone) before
		// handing it out: the caller may write what it derives from it.
		if _, err := t.mt.txn(); err != nil {
			return DBRecord{}, err
		}
		return t.floors[db], nil
	}
	r, err := t.markers.Record(t.txn, db)
	if err == nil && t.markers.Shared() {
		t.keepFloor(db, r)
	}
	return r, err
}

// slotOf returns the slot of database db (see Record); an error is kept
// for the next read, as Use does.
func (t *Tx) slotOf(db int) codec.Slot {
	if db == int(t.db) {
		return t.slot
	}
	r, err := t.Records().Record(db)
	if err != nil && t.err == nil {
		t.err = err
	}
	return r.Slot
}

// Flush empties db (FLUSHDB) by writing its flush marker: a new version,
// below which every meta of db is dead. The caller holds every shard and
// purges their caches.
func (vw Records) Flush(db int) error {
	t := vw.t
	r, err := t.Records().Record(db)
	if err != nil {
		return err
	}
	if r.Marker, err = t.freshVersion(); err != nil {
		return err
	}
	if err := t.writeRecord(db, r); err != nil {
		return err
	}
	t.jr.flushed = append(t.jr.flushed, db)
	t.wrote()
	return nil
}

// Swap exchanges databases a and b (SWAPDB) by exchanging their records:
// no key moves. The caller holds every shard.
func (vw Records) Swap(a, b int) error {
	t := vw.t
	ra, err := t.Records().Record(a)
	if err != nil {
		return err
	}
	rb, err := t.Records().Record(b)
	if err != nil {
		return err
	}
	if err := t.writeRecord(a, rb); err != nil {
		return err
	}
	if err := t.writeRecord(b, ra); err != nil {
		return err
	}
	t.jr.swapped = append(t.jr.swapped, [2]int{a, b})
	t.wrote()
	return nil
}

// writeRecord stores db's record; the selected database follows it.
func (t *Tx) writeRecord(db int, r DBRecord) error {
	if err := t.txn.Set(codec.FlushMarkerKey(codec.Slot(db)), codec.EncodeDBRecord(r.Marker, r.Slot)); err != nil {
		return err
	}
	if t.records == nil {
		t.records = map[int]DBRecord{}
	}
	t.records[db] = r
	if db == int(t.db) {
		t.slot, t.minVer = r.Slot, r.Marker
	}
	return nil
}

// deadIn reports whether a meta stored under slot with version v is dead
// by FLUSHDB.
func (t *Tx) deadIn(slot codec.Slot, v uint64) bool {
	for _, r := range t.records {
		if r.Slot == slot {
			return v < r.Marker
		}
	}
	return t.markers.Dead(int(slot), v)
}

// Prefetch reads the metas of keys of the selected database ahead of the
// commands that will look them up, in one batch, on a shared store (a
// group's writes: their reads are then one round trip, not one each);
// the driver keeps the values for the transaction's later reads. Before
// the transaction's first operation the keys join the batch that
// confirms the database's record. Elsewhere it does nothing.
func (t *Tx) Prefetch(keys [][]byte) {
	if !t.markers.Shared() || len(keys) == 0 {
		return
	}
	t.versions.expect += len(keys)
	mks := make([][]byte, len(keys))
	for i, k := range keys {
		mks[i] = codec.MetaKey(t.slot, k)
	}
	if t.mt.first != nil {
		t.ahead = append(t.ahead, mks...)
		return
	}
	_, _ = t.txn.BatchGet(mks) // a failure is met again by the reads themselves
}

// SnapshotRecords are the databases' records as read at one snapshot
// (Env.At), shared by the transactions that read at it: the first to read
// one keeps it, the others use it without reading it again. Safe for
// concurrent use.
type SnapshotRecords struct {
	mu sync.Mutex
	r  map[int]DBRecord
}

func (s *SnapshotRecords) get(db int) (DBRecord, bool) {
	if s == nil {
		return DBRecord{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.r[db]
	return r, ok
}

func (s *SnapshotRecords) put(db int, r DBRecord) {
	if s == nil {
		return
	}
	s.mu.Lock()
	if s.r == nil {
		s.r = make(map[int]DBRecord, 1)
	}
	s.r[db] = r
	s.mu.Unlock()
}

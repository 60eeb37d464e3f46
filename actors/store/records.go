package store

import (
	"github.com/rekv/rekv/codec"
)

// Use switches the database later operations address (SELECT inside
// MULTI); the transaction's state is keyed by database, so it stays valid.
func (t *Tx) Use(db int) {
	if err := t.use(db); err != nil && t.err == nil {
		t.err = err
	}
}

func (t *Tx) use(db int) error {
	r, err := t.Record(db)
	t.db, t.slot, t.minVer = uint8(db), r.Slot, r.Marker
	return err
}

// Slot returns the slot the selected database's keys are stored under.
func (t *Tx) Slot() int { return int(t.slot) }

// Record returns database db's record as this transaction sees it: one it
// wrote, else (shared store) the one in its snapshot, read once per
// database — the Use of every grouped command would otherwise read it
// again — else the one held in memory.
func (t *Tx) Record(db int) (DBRecord, error) {
	if r, ok := t.records[db]; ok {
		return r, nil
	}
	if r, ok := t.floors[db]; ok {
		return r, nil
	}
	r, err := t.markers.Record(t.txn, db)
	if err == nil && t.markers.Shared() {
		if t.floors == nil {
			t.floors = make(map[int]DBRecord, 1)
		}
		t.floors[db] = r
	}
	return r, err
}

// slotOf returns the slot of database db (see Record); an error is kept
// for the next read, as Use does.
func (t *Tx) slotOf(db int) uint8 {
	if db == int(t.db) {
		return t.slot
	}
	r, err := t.Record(db)
	if err != nil && t.err == nil {
		t.err = err
	}
	return r.Slot
}

// Flush empties db (FLUSHDB) by writing its flush marker: a new version,
// below which every meta of db is dead. The caller holds every shard and
// purges their caches.
func (t *Tx) Flush(db int) error {
	r, err := t.Record(db)
	if err != nil {
		return err
	}
	if r.Marker, err = t.drv.NextVersion(); err != nil {
		return err
	}
	if err := t.writeRecord(db, r); err != nil {
		return err
	}
	t.flushed = append(t.flushed, db)
	return nil
}

// Swap exchanges databases a and b (SWAPDB) by exchanging their records:
// no key moves. The caller holds every shard.
func (t *Tx) Swap(a, b int) error {
	ra, err := t.Record(a)
	if err != nil {
		return err
	}
	rb, err := t.Record(b)
	if err != nil {
		return err
	}
	if err := t.writeRecord(a, rb); err != nil {
		return err
	}
	if err := t.writeRecord(b, ra); err != nil {
		return err
	}
	t.swapped = append(t.swapped, [2]int{a, b})
	return nil
}

// writeRecord stores db's record; the selected database follows it.
func (t *Tx) writeRecord(db int, r DBRecord) error {
	if err := t.txn.Set(codec.FlushMarkerKey(uint8(db)), codec.EncodeDBRecord(r.Marker, r.Slot)); err != nil {
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
func (t *Tx) deadIn(slot uint8, v uint64) bool {
	for _, r := range t.records {
		if r.Slot == slot {
			return v < r.Marker
		}
	}
	return t.markers.Dead(int(slot), v)
}

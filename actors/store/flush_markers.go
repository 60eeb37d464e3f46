package store

import (
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// Databases is the number of logical databases.
const Databases = 16

// DBRecord is a logical database's record: the slot (the db byte of the
// codec keys) its keys live under, and that slot's flush marker. Keys of
// the slot whose meta version is below the marker are dead: FLUSHDB is one
// marker write and the GC reclaims what it hides. SWAPDB exchanges two
// databases' records, so it moves no key either.
type DBRecord struct {
	Slot   codec.Slot
	Marker uint64
}

// FlushMarkers holds every database's record: which slot it uses, and
// each slot's flush marker. Readers load them without locks; only a
// command holding every shard changes them.
//
// When several nodes share the store (shared), another node may flush or
// swap at any time: every transaction then reads its databases' records
// from its own snapshot (Record); the markers here only grow to the
// highest seen, and the slots here are a hint (for the GC, which checks).
type FlushMarkers struct {
	v      [Databases]atomic.Uint64 // flush marker per slot
	swap   [Databases]atomic.Uint32 // slot per logical database, xor the database (zero: its own)
	shared bool
}

// LoadFlushMarkers reads the records from storage; shared makes every
// transaction re-read them (see FlushMarkers).
func LoadFlushMarkers(drv drivers.Driver, shared bool) (*FlushMarkers, error) {
	f := &FlushMarkers{shared: shared}
	return f, f.Reload(drv)
}

// Reload takes the records storage holds now (one batch read).
func (f *FlushMarkers) Reload(drv drivers.Driver) error {
	tx, err := drv.Begin(false)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	keys := make([][]byte, Databases)
	for db := range keys {
		keys[db] = codec.FlushMarkerKey(codec.Slot(db))
	}
	vals, err := tx.BatchGet(keys)
	if err != nil {
		return err
	}
	for db, b := range vals {
		if b == nil {
			continue
		}
		r, err := decodeRecord(db, b)
		if err != nil {
			return err
		}
		f.set(db, r)
	}
	return nil
}

func decodeRecord(db int, b []byte) (DBRecord, error) {
	m, slot, err := codec.DecodeDBRecord(codec.Slot(db), b)
	if err == nil && int(slot) >= Databases {
		err = fmt.Errorf("store: database %d record names slot %d: %w", db, slot, codec.ErrCorrupt)
	}
	return DBRecord{Slot: slot, Marker: m}, err
}

// Shared reports whether other nodes may flush the store.
func (f *FlushMarkers) Shared() bool { return f != nil && f.shared }

// Record returns db's record as transaction tx sees it: read from tx when
// the store is shared, else the one held here.
func (f *FlushMarkers) Record(tx drivers.Txn, db int) (DBRecord, error) {
	if !f.Shared() {
		return f.Held(db), nil
	}
	b, err := tx.Get(codec.FlushMarkerKey(codec.Slot(db)))
	return f.stored(db, b, err)
}

// stored returns db's record from its stored form b as read with error
// err (drivers.ErrNotFound: none stored), and takes it (set).
func (f *FlushMarkers) stored(db int, b []byte, err error) (DBRecord, error) {
	if errors.Is(err, drivers.ErrNotFound) {
		return DBRecord{Slot: codec.Slot(db)}, nil
	}
	if err != nil {
		return DBRecord{}, err
	}
	r, err := decodeRecord(db, b)
	if err != nil {
		return DBRecord{}, err
	}
	f.set(db, r)
	return r, nil
}

// Held returns db's record as held in memory.
func (f *FlushMarkers) Held(db int) DBRecord {
	if f == nil || db < 0 || db >= Databases {
		return DBRecord{Slot: codec.Slot(max(db, 0))}
	}
	s := f.swap[db].Load() ^ uint32(db)
	return DBRecord{Slot: codec.Slot(s), Marker: f.v[s].Load()}
}

// set takes a committed (or read) record of db: its slot, and its marker
// unless the slot's is already higher.
func (f *FlushMarkers) set(db int, r DBRecord) {
	f.swap[db].Store(uint32(r.Slot) ^ uint32(db))
	for {
		cur := f.v[r.Slot].Load()
		if r.Marker <= cur || f.v[r.Slot].CompareAndSwap(cur, r.Marker) {
			return
		}
	}
}

// Get returns slot's marker (0: never flushed).
func (f *FlushMarkers) Get(slot int) uint64 {
	if f == nil || slot < 0 || slot >= Databases {
		return 0
	}
	return f.v[slot].Load()
}

// DBOf returns the logical database held to use slot (on a shared store,
// as last seen: the caller checks in its transaction, see Tx.Slot).
func (f *FlushMarkers) DBOf(slot int) int {
	for db := range f.swap {
		if int(f.swap[db].Load()^uint32(db)) == slot {
			return db
		}
	}
	return slot
}

// Dead reports whether a meta of slot with version v was flushed.
func (f *FlushMarkers) Dead(slot int, v uint64) bool { return v < f.Get(slot) }

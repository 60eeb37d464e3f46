package store

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// Databases is the number of logical databases (of a namespace).
const Databases = codec.NamespaceDatabases

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
// Databases are numbered across namespaces (codec.NamespaceDB): the 16 of
// namespace n are 16n..16n+15, held in page n, made when one of them is
// first recorded; a database's slot is always one of its own
// namespace's (SWAPDB stays inside a namespace).
//
// When several nodes share the store (shared), another node may flush or
// swap at any time: every transaction then reads its databases' records
// from its own snapshot (Record); the markers here only grow to the
// highest seen, and the slots here are a hint (for the GC, which checks).
type FlushMarkers struct {
	pages  atomic.Pointer[[]*markerPage] // by namespace; nil: none recorded
	grow   sync.Mutex                    // adding pages (copy on write)
	shared bool
}

// markerPage is one namespace's records.
type markerPage struct {
	v    [Databases]atomic.Uint64 // flush marker per slot
	swap [Databases]atomic.Uint32 // slot per database, xor the database (zero: its own)
}

// page returns the page of database (or slot) db, nil if none; with
// add, it makes it.
func (f *FlushMarkers) page(db int, add bool) *markerPage {
	if f == nil || db < 0 || db > int(codec.MaxSlot) {
		return nil
	}
	n := db / Databases
	if ps := f.pages.Load(); ps != nil && n < len(*ps) && (*ps)[n] != nil {
		return (*ps)[n]
	}
	if !add {
		return nil
	}
	f.grow.Lock()
	defer f.grow.Unlock()
	var ps []*markerPage
	if cur := f.pages.Load(); cur != nil {
		ps = *cur
	}
	if n < len(ps) && ps[n] != nil {
		return ps[n]
	}
	next := make([]*markerPage, max(len(ps), n+1))
	copy(next, ps)
	next[n] = &markerPage{}
	f.pages.Store(&next)
	return next[n]
}

// LoadFlushMarkers reads the records from storage; shared makes every
// transaction re-read them (see FlushMarkers).
func LoadFlushMarkers(drv drivers.Driver, shared bool) (*FlushMarkers, error) {
	f := &FlushMarkers{shared: shared}
	return f, f.Reload(drv)
}

// Reload takes the records storage holds now, every namespace's.
func (f *FlushMarkers) Reload(drv drivers.Driver) error {
	tx, err := drv.Begin(false)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	start, end := codec.RecordRange()
	return tx.Iterate(start, end, drivers.IterOptions{}, func(k, v []byte) (bool, error) {
		db, err := codec.DecodeRecordKey(k)
		if err != nil {
			return false, err
		}
		r, err := decodeRecord(int(db), v)
		if err != nil {
			return false, err
		}
		f.set(int(db), r)
		return true, nil
	})
}

func decodeRecord(db int, b []byte) (DBRecord, error) {
	m, slot, err := codec.DecodeDBRecord(codec.Slot(db), b)
	if err == nil && int(slot)/Databases != db/Databases {
		err = fmt.Errorf("store: database %d record names slot %d, another namespace's: %w", db, slot, codec.ErrCorrupt)
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
	p := f.page(db, false)
	if p == nil {
		return DBRecord{Slot: codec.Slot(max(db, 0))}
	}
	base := db - db%Databases
	s := p.swap[db-base].Load() ^ uint32(db-base)
	return DBRecord{Slot: codec.Slot(base + int(s)), Marker: p.v[s].Load()}
}

// set takes a committed (or read) record of db: its slot, and its marker
// unless the slot's is already higher.
func (f *FlushMarkers) set(db int, r DBRecord) {
	p := f.page(db, true)
	if p == nil {
		return
	}
	base := db - db%Databases
	s := int(r.Slot) - base // within the namespace (decodeRecord checks)
	p.swap[db-base].Store(uint32(s) ^ uint32(db-base))
	for {
		cur := p.v[s].Load()
		if r.Marker <= cur || p.v[s].CompareAndSwap(cur, r.Marker) {
			return
		}
	}
}

// Get returns slot's marker (0: never flushed).
func (f *FlushMarkers) Get(slot int) uint64 {
	p := f.page(slot, false)
	if p == nil {
		return 0
	}
	return p.v[slot%Databases].Load()
}

// FlushedSlots returns the slots, of every namespace, whose marker is set
// (FLUSHDB ran on them): those the GC sweeps.
func (f *FlushMarkers) FlushedSlots() []int {
	if f == nil {
		return nil
	}
	ps := f.pages.Load()
	if ps == nil {
		return nil
	}
	var out []int
	for n, p := range *ps {
		if p == nil {
			continue
		}
		for s := range p.v {
			if p.v[s].Load() != 0 {
				out = append(out, n*Databases+s)
			}
		}
	}
	return out
}

// DBOf returns the logical database held to use slot (on a shared store,
// as last seen: the caller checks in its transaction, see Tx.Slot).
func (f *FlushMarkers) DBOf(slot int) int {
	p := f.page(slot, false)
	if p == nil {
		return slot
	}
	base := slot - slot%Databases
	for db := range p.swap {
		if int(p.swap[db].Load()^uint32(db)) == slot-base {
			return base + db
		}
	}
	return slot
}

// Dead reports whether a meta of slot with version v was flushed.
func (f *FlushMarkers) Dead(slot int, v uint64) bool { return v < f.Get(slot) }

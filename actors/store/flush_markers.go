package store

import (
	"errors"
	"sync/atomic"

	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// Databases is the number of logical databases.
const Databases = 16

// FlushMarkers holds each db's flush marker: metas with a lower version are
// dead. FLUSHDB is one marker write; the GC reclaims what it hides. Readers
// load markers without locks; only a command holding every shard sets one.
//
// When several nodes share the store (shared), another node may flush at
// any time: every transaction then reads its db's marker from its own
// snapshot (Marker), and the values here only grow to the highest seen.
type FlushMarkers struct {
	v      [Databases]atomic.Uint64
	shared bool
}

// LoadFlushMarkers reads the markers from storage; shared makes every
// transaction re-read them (see FlushMarkers).
func LoadFlushMarkers(drv drivers.Driver, shared bool) (*FlushMarkers, error) {
	f := &FlushMarkers{shared: shared}
	return f, f.Reload(drv)
}

// Reload raises the markers to what storage holds now (one batch read).
func (f *FlushMarkers) Reload(drv drivers.Driver) error {
	tx, err := drv.Begin(false)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	keys := make([][]byte, Databases)
	for db := range keys {
		keys[db] = codec.FlushMarkerKey(uint8(db))
	}
	vals, err := tx.BatchGet(keys)
	if err != nil {
		return err
	}
	for db, b := range vals {
		if b == nil {
			continue
		}
		v, err := codec.DecodeVersion(b)
		if err != nil {
			return err
		}
		f.raise(db, v)
	}
	return nil
}

// Shared reports whether other nodes may flush the store.
func (f *FlushMarkers) Shared() bool { return f != nil && f.shared }

// Marker returns db's marker as transaction tx sees it: read from tx when
// the store is shared, else the value held here.
func (f *FlushMarkers) Marker(tx drivers.Txn, db int) (uint64, error) {
	if !f.Shared() {
		return f.Get(db), nil
	}
	return f.read(tx, db)
}

func (f *FlushMarkers) read(tx drivers.Txn, db int) (uint64, error) {
	b, err := tx.Get(codec.FlushMarkerKey(uint8(db)))
	if errors.Is(err, drivers.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	v, err := codec.DecodeVersion(b)
	if err != nil {
		return 0, err
	}
	f.raise(db, v)
	return v, nil
}

// raise sets db's marker to v unless it is already higher.
func (f *FlushMarkers) raise(db int, v uint64) {
	for {
		cur := f.v[db].Load()
		if v <= cur || f.v[db].CompareAndSwap(cur, v) {
			return
		}
	}
}

// Get returns db's marker (0: never flushed).
func (f *FlushMarkers) Get(db int) uint64 {
	if f == nil || db < 0 || db >= Databases {
		return 0
	}
	return f.v[db].Load()
}

// Dead reports whether a meta of db with version v was flushed.
func (f *FlushMarkers) Dead(db int, v uint64) bool { return v < f.Get(db) }

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
type FlushMarkers struct {
	v [Databases]atomic.Uint64
}

// LoadFlushMarkers reads the markers from storage.
func LoadFlushMarkers(drv drivers.Driver) (*FlushMarkers, error) {
	f := &FlushMarkers{}
	tx, err := drv.Begin(false)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	for db := 0; db < Databases; db++ {
		b, err := tx.Get(codec.FlushMarkerKey(uint8(db)))
		if errors.Is(err, drivers.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		v, err := codec.DecodeVersion(b)
		if err != nil {
			return nil, err
		}
		f.v[db].Store(v)
	}
	return f, nil
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

package storetest

import (
	"testing"

	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/drivers/badger"
)

// Now is the transactions' clock, unix ms.
const Now = 1_700_000_000_000

// Store is a fresh in-memory store with one meta cache.
type Store struct {
	t     testing.TB
	drv   *badger.DB
	cache *store.MetaCache
}

// New opens a store closed at the end of the test.
func New(t testing.TB) *Store {
	drv, err := badger.Open(badger.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = drv.Close() })
	cache := store.NewMetaCache(1000)
	cache.EnableMembers(64) // small: type tests also go through its evictions
	cache.EnableLists(2 << 10)
	return &Store{t: t, drv: drv, cache: cache}
}

// Begin starts a write transaction in db 0.
func (s *Store) Begin() *store.Tx {
	s.t.Helper()
	tx, err := store.Env{Drv: s.drv, Caches: func([]byte) *store.MetaCache { return s.cache },
		Markers: &store.FlushMarkers{}}.Begin(true, 0, Now)
	if err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(tx.Rollback)
	return tx
}

// Commit commits tx or fails the test.
func (s *Store) Commit(tx *store.Tx) {
	s.t.Helper()
	if err := tx.Commit(); err != nil {
		s.t.Fatal(err)
	}
}

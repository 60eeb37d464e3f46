package gc

import (
	"fmt"
	"testing"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/drivers/badger"
	"github.com/rekv/rekv/drivers/driverstest"
)

// TestSharedStoreRunsReadMetasInOneBatch: on a shared store (TiKV) the
// collector's runs on a shard read the metas of their keys in one batch,
// not one round trip each (1,000 sequential reads a pass held the shard,
// and every GET behind it, for over 100 ms on the network cluster), and
// still remove every key.
func TestSharedStoreRunsReadMetasInOneBatch(t *testing.T) {
	inner, err := badger.Open(badger.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer inner.Close()
	d := &driverstest.Counting{Driver: inner}
	markers, err := store.LoadFlushMarkers(d, true)
	if err != nil {
		t.Fatal(err)
	}
	env := store.Env{Drv: d, Markers: markers}
	const n = 50
	const now = int64(1_700_000_000_000)
	keys := make([][]byte, n)
	items := make([]ttlItem, n)
	for i := range keys {
		keys[i] = fmt.Appendf(nil, "k%d", i)
		items[i] = ttlItem{expireAt: now + 1000, key: fmt.Appendf(nil, "t%d", i)}
	}
	run := func(db int, at int64, fn func(tx *store.Tx) error) {
		t.Helper()
		tx, err := env.Begin(true, db, at)
		if err != nil {
			t.Fatal(err)
		}
		if err := fn(tx); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	// db 0: keys then a flush; db 1: keys that expired.
	run(0, now, func(tx *store.Tx) error {
		for _, k := range keys {
			if err := tx.SetString(k, []byte("v"), 0); err != nil {
				return err
			}
		}
		return nil
	})
	run(0, now, func(tx *store.Tx) error { return tx.Records().Flush(0) })
	run(1, now, func(tx *store.Tx) error {
		for _, it := range items {
			if err := tx.SetString(it.key, []byte("v"), it.expireAt); err != nil {
				return err
			}
		}
		return nil
	})
	if err := markers.Reload(d); err != nil {
		t.Fatal(err)
	}

	check := func(name string, db int, r countedRun, want int) {
		t.Helper()
		d.Unbatched.Store(0)
		d.Batches.Store(0)
		run(db, now+2000, func(tx *store.Tx) error { return r.Run(&command.Ctx{Tx: tx}) })
		if got := r.count(); got != want {
			t.Errorf("%s removed %d keys, want %d", name, got, want)
		}
		if g, b := d.Unbatched.Load(), d.Batches.Load(); g != 0 || b == 0 {
			t.Errorf("%s read the metas of %d keys with %d point reads and %d batches, want no point read", name, n, g, b)
		}
	}
	flushed := &reclaimFlushedRun{keys: keys, slot: 0}
	check("the flush sweep", 0, flushedCounted{flushed}, n)
	expire := &expireRun{items: items, slot: 1}
	check("the expiry", 1, expire, n)
}

// flushedCounted gives reclaimFlushedRun the countedRun shape.
type flushedCounted struct{ *reclaimFlushedRun }

func (f flushedCounted) count() int { return f.n }

// TestRunParts: on a shared store a shard's keys go in runs of at most
// sharedRunKeys, in order, none lost; elsewhere in one run.
func TestRunParts(t *testing.T) {
	for _, n := range []int{0, 1, sharedRunKeys, sharedRunKeys + 1, 3*sharedRunKeys + 5} {
		items := make([]int, n)
		for i := range items {
			items[i] = i
		}
		if parts := runParts(false, items); len(parts) != 1 || len(parts[0]) != n {
			t.Errorf("%d keys not shared: %d runs", n, len(parts))
		}
		parts := runParts(true, items)
		next := 0
		for _, p := range parts {
			if len(p) > sharedRunKeys || len(p) == 0 && n > 0 {
				t.Errorf("%d keys shared: a run of %d", n, len(p))
			}
			for _, v := range p {
				if v != next {
					t.Fatalf("%d keys shared: %d where %d was due", n, v, next)
				}
				next++
			}
		}
		if next != n {
			t.Errorf("%d keys shared: %d in the runs", n, next)
		}
	}
}

package store

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/drivers/badger"
)

const now = int64(1_700_000_000_000)

func open(t *testing.T) *badger.DB {
	d, err := badger.Open(badger.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}

// cachedEnv opens a store whose keys share one meta cache of size
// entries.
func cachedEnv(t *testing.T, size int) (*badger.DB, *MetaCache, Env) {
	d := open(t)
	c := NewMetaCache(size)
	return d, c, Env{Drv: d, Caches: func([]byte) *MetaCache { return c }}
}

func begin(t *testing.T, d drivers.Driver, c *MetaCache) *Tx {
	tx, err := Env{Drv: d, Caches: func([]byte) *MetaCache { return c }}.Begin(true, 0, now)
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

// family lists the keys stored under one prefix byte.
func family(t *testing.T, d drivers.Driver, prefix byte) []string {
	tx, _ := d.Begin(false)
	defer tx.Rollback()
	var out []string
	_ = tx.Iterate([]byte{prefix}, []byte{prefix + 1}, drivers.IterOptions{}, func(k, _ []byte) (bool, error) {
		out = append(out, fmt.Sprintf("%x", k))
		return true, nil
	})
	return out
}

// update runs fn in a writable transaction of env on database db, at
// now, and commits it.
func update(t *testing.T, env Env, db int, fn func(tx *Tx) error) *Tx {
	t.Helper()
	tx, err := env.Begin(true, db, now)
	if err != nil {
		t.Fatal(err)
	}
	if err := fn(tx); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return tx
}

func commit(t *testing.T, tx *Tx) {
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func TestTTLIndexFollowsExpiry(t *testing.T) {
	d := open(t)
	c := NewMetaCache(10)
	tx := begin(t, d, c)
	if err := tx.SetString([]byte("k"), []byte("v"), now+1000); err != nil {
		t.Fatal(err)
	}
	commit(t, tx)
	want := fmt.Sprintf("%x", codec.TTLKey(now+1000, 0, []byte("k")))
	if got := family(t, d, codec.PrefixTTL); len(got) != 1 || got[0] != want {
		t.Fatalf("ttl index = %v, want [%s]", got, want)
	}
	tx = begin(t, d, c)
	if ok, err := tx.SetExpire([]byte("k"), now+5000); !ok || err != nil {
		t.Fatalf("SetExpire: %v %v", ok, err)
	}
	commit(t, tx)
	want = fmt.Sprintf("%x", codec.TTLKey(now+5000, 0, []byte("k")))
	if got := family(t, d, codec.PrefixTTL); len(got) != 1 || got[0] != want {
		t.Fatalf("ttl index after move = %v", got)
	}
	tx = begin(t, d, c)
	if _, err := tx.SetExpire([]byte("k"), 0); err != nil {
		t.Fatal(err)
	}
	commit(t, tx)
	if got := family(t, d, codec.PrefixTTL); len(got) != 0 {
		t.Fatalf("ttl index after persist = %v", got)
	}
}

func TestDeadCollectionLeavesGarbage(t *testing.T) {
	d := open(t)
	c := NewMetaCache(10)
	// Plant a hash meta the way the hash type will write it.
	raw, _ := d.Begin(true)
	_ = raw.Set(codec.MetaKey(0, []byte("h")), codec.AppendMeta(nil, codec.Meta{Type: codec.TypeHash, Version: 77, Size: 3}, nil))
	if err := raw.Commit(); err != nil {
		t.Fatal(err)
	}
	tx := begin(t, d, c)
	if _, _, err := tx.GetString([]byte("h")); err == nil || err.Error() != "WRONGTYPE Operation against a key holding the wrong kind of value" {
		t.Fatalf("GetString on a hash: %v", err)
	}
	if err := tx.SetString([]byte("h"), []byte("now a string"), 0); err != nil {
		t.Fatal(err)
	}
	commit(t, tx)
	want := fmt.Sprintf("%x", codec.GarbageKey(0, []byte("h"), 77))
	if got := family(t, d, codec.PrefixGarbage); len(got) != 1 || got[0] != want {
		t.Fatalf("garbage = %v, want [%s]", got, want)
	}
	tx = begin(t, d, c)
	m, ok, err := tx.Meta([]byte("h"))
	if err != nil || !ok || m.Type != codec.TypeString || m.Version == 77 {
		t.Fatalf("new incarnation meta = %+v %v %v", m, ok, err)
	}
	tx.Rollback()
}

func TestCacheSeesOnlyCommittedWrites(t *testing.T) {
	d := open(t)
	c := NewMetaCache(10)
	tx := begin(t, d, c)
	if err := tx.SetString([]byte("k"), []byte("v"), 0); err != nil {
		t.Fatal(err)
	}
	tx.Rollback()
	tx = begin(t, d, c)
	if ok, _ := tx.Exists([]byte("k")); ok {
		t.Fatal("rolled back write visible")
	}
	tx.Rollback()
	mk := string(codec.MetaKey(0, []byte("k")))
	if e, _, ok := get(c, mk); !ok || e.exists {
		t.Fatalf("cache after rollback = %+v %v, want a negative entry", e, ok)
	}
	tx = begin(t, d, c)
	_ = tx.SetString([]byte("k"), []byte("v"), 0)
	commit(t, tx)
	if e, _, ok := get(c, mk); !ok || !e.exists || e.meta.Type != codec.TypeString {
		t.Fatalf("cache after commit = %+v %v", e, ok)
	}
}

func TestFailedCommitEvictsCache(t *testing.T) {
	d := open(t)
	c := NewMetaCache(10)
	tx := begin(t, d, c)
	if _, err := tx.Exists([]byte("k")); err != nil { // read k: a conflict witness
		t.Fatal(err)
	}
	other, _ := d.Begin(true)
	_ = other.Set(codec.MetaKey(0, []byte("k")), codec.AppendMeta(nil, codec.Meta{Type: codec.TypeString, Version: 1}, []byte("x")))
	if err := other.Commit(); err != nil {
		t.Fatal(err)
	}
	_ = tx.SetString([]byte("k"), []byte("mine"), 0)
	if err := tx.Commit(); err == nil {
		t.Fatal("expected a conflict")
	}
	if _, _, ok := get(c, string(codec.MetaKey(0, []byte("k")))); ok {
		t.Fatal("cache kept an entry for a key whose commit failed")
	}
}

func TestCollectionSizeEmptyAndRename(t *testing.T) {
	d := open(t)
	c := NewMetaCache(10)
	tx := begin(t, d, c)
	h, err := tx.Open([]byte("h"), codec.TypeHash, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"a", "b", "c"} {
		if err := h.Put([]byte(f), []byte("v"+f)); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.Grow(3); err != nil {
		t.Fatal(err)
	}
	if ok, err := tx.SetExpire([]byte("h"), now+1000); !ok || err != nil {
		t.Fatalf("SetExpire: %v %v", ok, err)
	}
	commit(t, tx)

	tx = begin(t, d, c)
	if err := tx.Rename([]byte("h"), []byte("h2")); err != nil {
		t.Fatal(err)
	}
	commit(t, tx)
	tx = begin(t, d, c)
	m, ok, err := tx.Meta([]byte("h2"))
	if err != nil || !ok || m.Size != 3 || m.ExpireAt != now+1000 {
		t.Fatalf("renamed meta = %+v %v %v", m, ok, err)
	}
	h2, _ := tx.Open([]byte("h2"), codec.TypeHash, false)
	if v, ok, _ := h2.Get([]byte("b")); !ok || string(v) != "vb" {
		t.Fatalf("renamed field b = %q %v", v, ok)
	}
	if _, err := tx.Open([]byte("h2"), codec.TypeSet, false); err == nil {
		t.Fatal("opening a hash as a set: no WRONGTYPE")
	}
	for _, f := range []string{"a", "b", "c"} {
		_ = h2.Remove([]byte(f))
	}
	if err := h2.Grow(-3); err != nil {
		t.Fatal(err)
	}
	commit(t, tx)
	// Emptied: no meta, no TTL entry; the renamed-away version is garbage.
	if got := family(t, d, codec.PrefixMeta); len(got) != 0 {
		t.Fatalf("meta left: %v", got)
	}
	if got := family(t, d, codec.PrefixTTL); len(got) != 0 {
		t.Fatalf("ttl entries left: %v", got)
	}
	if got := family(t, d, codec.PrefixGarbage); len(got) != 1 {
		t.Fatalf("garbage = %v, want the old version of h only", got)
	}
	if got := family(t, d, codec.PrefixData); len(got) != 3 {
		t.Fatalf("sub-keys = %d, want h's 3 dead ones awaiting GC", len(got))
	}
}

// TestSpareLendsAnEmptyMap: a transaction begun with a Spare that a
// rolled-back one released sees none of that one's writes, and one that
// looked up too many keys leaves nothing to reuse.
func TestSpareLendsAnEmptyMap(t *testing.T) {
	d := open(t)
	c := NewMetaCache(10)
	var spare Spare
	env := Env{Drv: d, Caches: func([]byte) *MetaCache { return c }, Spare: &spare}
	tx, err := env.Begin(true, 0, now)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.SetString([]byte("k"), []byte("uncommitted"), 0); err != nil {
		t.Fatal(err)
	}
	tx.Rollback()
	tx.Release(&spare)
	if spare.seen.idx == nil || len(spare.seen.idx) != 0 || len(spare.seen.recs) != 0 || cap(spare.seen.recs) == 0 {
		t.Fatalf("kept for reuse: %d keys, %d/%d records; want an empty map and record slice with room",
			len(spare.seen.idx), len(spare.seen.recs), cap(spare.seen.recs))
	}
	if r := spare.seen.recs[:1][0]; r.payload != nil || r.mk != "" {
		t.Fatalf("a released record still holds %q / %q", r.mk, r.payload)
	}
	tx, err = env.Begin(true, 0, now)
	if err != nil {
		t.Fatal(err)
	}
	if spare.seen.idx != nil {
		t.Fatal("the map is still in the spare while lent")
	}
	if v, ok, err := tx.GetString([]byte("k")); err != nil || ok {
		t.Fatalf("GET k = %q %v %v in the next transaction, want nothing", v, ok, err)
	}
	for i := range maxSpareSeen + 1 {
		if _, err := tx.Exists([]byte(fmt.Sprint("x", i))); err != nil {
			t.Fatal(err)
		}
	}
	tx.Rollback()
	tx.Release(&spare)
	if spare.seen.idx != nil {
		t.Fatalf("a map of %d keys kept, want it dropped", maxSpareSeen+1)
	}
}

// TestSpareLendsRecordsAndScratchEmptied: the map of database records a
// transaction read and its key scratch go to the Spare emptied, and the
// next transaction begun with it takes them: a record read by the first
// is not the next one's (another snapshot's, or the database flushed
// since), and a huge key's scratch is not kept.
func TestSpareLendsRecordsAndScratchEmptied(t *testing.T) {
	d := open(t)
	var spare Spare
	env := Env{Drv: d, Spare: &spare}
	tx, err := env.Begin(false, 0, now)
	if err != nil {
		t.Fatal(err)
	}
	tx.floors = map[int]DBRecord{0: {Slot: 3, Marker: 9}}
	if _, err := tx.Exists([]byte("k")); err != nil {
		t.Fatal(err)
	}
	if len(tx.kbuf) == 0 {
		t.Fatal("a look-up left its key scratch empty")
	}
	tx.Rollback()
	tx.Release(&spare)
	if spare.floors == nil || len(spare.floors) != 0 || spare.kbuf == nil || len(spare.kbuf) != 0 {
		t.Fatalf("kept for reuse: records %v, scratch %q; want both empty and there", spare.floors, spare.kbuf)
	}
	floors := spare.floors
	tx, err = env.Begin(false, 0, now)
	if err != nil {
		t.Fatal(err)
	}
	if spare.floors != nil || spare.kbuf != nil {
		t.Fatal("the records or the scratch are still in the spare while lent")
	}
	if r, ok := tx.floors[0]; ok {
		t.Fatalf("the next transaction sees the first one's record %v", r)
	}
	tx.floors[1] = DBRecord{Slot: 1}
	if len(floors) != 1 {
		t.Fatal("the next transaction got another map than the one released")
	}
	tx.kbuf = make([]byte, maxSpareKey+1)
	tx.Rollback()
	tx.Release(&spare)
	if spare.kbuf != nil {
		t.Fatalf("a scratch of %d bytes kept", cap(spare.kbuf))
	}
}

// TestReclaimFlushedTouchesNothing: the GC's removal of a key that a
// FLUSHDB marker hides is no visible change (a WATCH on that name must not
// break, as it did when the sweep overlapped a client's WATCH), while
// deleting a live key still counts as touching and deleting it.
func TestReclaimFlushedTouchesNothing(t *testing.T) {
	d := open(t)
	markers, err := LoadFlushMarkers(d, false)
	if err != nil {
		t.Fatal(err)
	}
	c := NewMetaCache(10)
	env := Env{Drv: d, Caches: func([]byte) *MetaCache { return c }, Markers: markers}
	run := func(fn func(tx *Tx) error) *Tx {
		t.Helper()
		return update(t, env, 0, fn)
	}
	run(func(tx *Tx) error { return tx.SetString([]byte("old"), []byte("v"), 0) })
	run(func(tx *Tx) error { return tx.Records().Flush(0) })
	run(func(tx *Tx) error { return tx.SetString([]byte("live"), []byte("v"), 0) })
	tx := run(func(tx *Tx) error {
		ok, err := tx.Records().ReclaimFlushed([]byte("old"))
		if err == nil && !ok {
			t.Error("the flushed key was not reclaimed")
		}
		return err
	})
	if len(tx.Journal().Touched()) != 0 || len(tx.Journal().Deleted()) != 0 {
		t.Fatalf("reclaiming a flushed key touched %v and deleted %v, want nothing", tx.Journal().Touched(), tx.Journal().Deleted())
	}
	raw, err := d.Begin(false)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Rollback()
	if _, err := raw.Get(codec.MetaKey(0, []byte("old"))); !errors.Is(err, drivers.ErrNotFound) {
		t.Fatalf("the flushed meta is still stored: %v", err)
	}
	tx = run(func(tx *Tx) error {
		_, err := tx.Delete([]byte("live"))
		return err
	})
	if len(tx.Journal().Touched()) != 1 || len(tx.Journal().Deleted()) != 1 {
		t.Fatalf("DEL of a live key touched %v and deleted %v, want it in both", tx.Journal().Touched(), tx.Journal().Deleted())
	}
}

// TestJournalExpired: a transaction records the keys it found expired
// but stored (for lazy expiry), once each, and not those it then wrote.
func TestJournalExpired(t *testing.T) {
	d := open(t)
	env := Env{Drv: d}
	update(t, env, 0, func(tx *Tx) error {
		for _, k := range []string{"a", "b", "c"} {
			if err := tx.SetString([]byte(k), []byte("v"), now+10); err != nil {
				return err
			}
		}
		return tx.SetString([]byte("live"), []byte("v"), 0)
	})
	tx, err := env.Begin(true, 0, now+20)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	for _, k := range []string{"a", "b", "a", "live", "missing"} {
		if _, _, err := tx.GetString([]byte(k)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.SetString([]byte("b"), []byte("new"), 0); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range tx.Journal().Expired() {
		got = append(got, fmt.Sprintf("%d/%s@%d", e.DB, e.Key, e.ExpireAt-now))
	}
	if fmt.Sprint(got) != "[0/a@10]" {
		t.Fatalf("expired keys recorded = %v, want [0/a@10] (b was written since, c never read)", got)
	}
}

// TestFoundAfterLookup: Found right after a look-up of the same key
// answers from what the look-up found (foundMemo), and agrees with a
// look-up of its own whatever happened in between: another key in the
// same buffer, the clock moving past the key's expiry, the key deleted or
// written, another database in use.
func TestFoundAfterLookup(t *testing.T) {
	d := open(t)
	c := NewMetaCache(100)
	env := Env{Drv: d, Caches: func([]byte) *MetaCache { return c }}
	update(t, env, 0, func(tx *Tx) error {
		must(t, tx.SetString([]byte("a"), []byte("1"), 0))
		return tx.SetString([]byte("t"), []byte("1"), now+1000)
	})
	update(t, env, 1, func(tx *Tx) error { return tx.SetString([]byte("b"), []byte("1"), 0) })
	tx := begin(t, d, c)
	peek := func(key []byte) {
		t.Helper()
		if _, _, _, err := tx.PeekString(key); err != nil {
			t.Fatal(err)
		}
	}
	check := func(step string, key []byte, want bool) {
		t.Helper()
		memo := tx.found.valid && bytes.Equal(tx.found.key, key)
		got, err := tx.Found(key)
		if err != nil {
			t.Fatal(err)
		}
		tx.found.valid = false // a look-up of its own
		fresh, err := tx.Found(key)
		if err != nil {
			t.Fatal(err)
		}
		if got != want || fresh != want {
			t.Fatalf("%s: Found(%q) = %v (memo in play: %v), its own look-up %v; want %v", step, key, got, memo, fresh, want)
		}
	}
	peek([]byte("a"))
	check("after its look-up", []byte("a"), true)
	peek([]byte("a"))
	check("another key", []byte("zz"), false)
	buf := []byte("a")
	peek(buf)
	buf[0] = 'x'
	check("the same buffer, another key", buf, false)
	peek([]byte("t"))
	tx.SetNow(now + 2000)
	check("expired since", []byte("t"), false)
	peek([]byte("a"))
	if _, err := tx.Delete([]byte("a")); err != nil {
		t.Fatal(err)
	}
	check("deleted since", []byte("a"), false)
	peek([]byte("n"))
	must(t, tx.SetString([]byte("n"), []byte("v"), 0))
	check("written since", []byte("n"), true)
	peek([]byte("b"))
	tx.Use(1)
	check("another database", []byte("b"), true)
}

// TestSpareLendsTheWrittenKeysIndex: the index of the keys a transaction
// wrote goes, emptied, to the next transaction begun with the Spare,
// which finds in it only its own keys; a transaction too small to index
// its keys hands the lent map back unused; the released transaction
// still answers for its own keys (by a scan).
func TestSpareLendsTheWrittenKeysIndex(t *testing.T) {
	d := open(t)
	var spare Spare
	env := Env{Drv: d, Spare: &spare}
	write := func(keys ...string) *Tx {
		t.Helper()
		tx := beginSetting(t, env, "v", keys...)
		tx.Rollback()
		return tx
	}
	var first []string
	for i := range 20 {
		first = append(first, fmt.Sprintf("a%d", i))
	}
	tx := write(first...)
	idx := tx.jr.touched.idx
	if len(idx) != 20 {
		t.Fatalf("20 keys written, an index of %d", len(idx))
	}
	tx.Release(&spare)
	if spare.touched == nil || len(spare.touched) != 0 || tx.jr.touched.idx != nil {
		t.Fatalf("kept for reuse: %v (the transaction's %v); want it emptied and moved", spare.touched, tx.jr.touched.idx)
	}
	for _, k := range first {
		if !tx.Journal().Wrote(0, []byte(k)) {
			t.Fatalf("the released transaction forgot it wrote %s", k)
		}
	}
	small := write("b")
	if small.jr.touched.idx != nil || spare.touched != nil {
		t.Fatal("one key written took the lent index")
	}
	small.Release(&spare)
	if spare.touched == nil {
		t.Fatal("a transaction that did not need the index kept it")
	}
	var second []string
	for i := range 12 {
		second = append(second, fmt.Sprintf("c%d", i))
	}
	next := write(second...)
	if len(next.jr.touched.idx) != 12 {
		t.Fatalf("12 keys written, an index of %d", len(next.jr.touched.idx))
	}
	next.jr.touched.idx[1] = 1 // the map lent is the one released
	if len(idx) != 13 {
		t.Fatal("the next transaction did not get the index released")
	}
	delete(next.jr.touched.idx, 1)
	for _, k := range first {
		if next.Journal().Wrote(0, []byte(k)) {
			t.Fatalf("the next transaction sees the first one's %s", k)
		}
	}
	for _, k := range second {
		if !next.Journal().Wrote(0, []byte(k)) {
			t.Fatalf("the next transaction lost %s", k)
		}
	}
}

// beginSetting begins a write transaction of env, database 0, that sets
// each of keys to v, and returns it open.
func beginSetting(t *testing.T, env Env, v string, keys ...string) *Tx {
	t.Helper()
	tx, err := env.Begin(true, 0, now)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if err := tx.SetString([]byte(k), []byte(v), 0); err != nil {
			t.Fatal(err)
		}
	}
	return tx
}

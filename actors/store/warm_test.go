package store

import (
	"fmt"
	"testing"

	"github.com/rekv/rekv/codec"
)

// TestWarmChangesNothing: Warm reads the entries of cached keys (what it
// read shows in warmed), leaves every entry's state, reference bit and
// the cache's generation as they were, and skips keys of a database the
// transaction has not selected, missing keys, an empty or disabled cache.
func TestWarmChangesNothing(t *testing.T) {
	d, c, env := cachedEnv(t, 1000)
	var keys [][]byte
	for i := range 20 {
		keys = append(keys, fmt.Appendf(nil, "k%02d", i))
	}
	update(t, env, 0, func(tx *Tx) error {
		for _, k := range keys[:10] {
			if err := tx.SetString(k, []byte("v"), 0); err != nil {
				return err
			}
		}
		return nil
	})
	tx := begin(t, d, c)
	defer tx.Rollback()
	if _, _, _, err := tx.PeekString(keys[0]); err != nil { // k00 referenced, the rest not
		t.Fatal(err)
	}
	type state struct {
		val       metaEntry
		used, ref bool
	}
	snapshot := func() ([]state, uint64) {
		var s []state
		for _, sl := range c.metas.slots {
			s = append(s, state{sl.val, sl.used, sl.ref})
		}
		return s, c.gen
	}
	before, gen := snapshot()
	tx.Warm(0, keys, nil) // 10 cached, 10 missing; more than MaxWarm
	if tx.warmed == 0 {
		t.Fatal("Warm read nothing of ten cached keys")
	}
	after, gen2 := snapshot()
	if gen2 != gen || len(after) != len(before) {
		t.Fatalf("Warm changed the cache: generation %d -> %d, %d -> %d slots", gen, gen2, len(before), len(after))
	}
	for i := range before {
		if before[i] != after[i] {
			t.Fatalf("Warm changed slot %d: %+v -> %+v", i, before[i], after[i])
		}
	}
	read := tx.warmed
	tx.Warm(1, keys, keys) // database 1 is not selected
	if tx.warmed != read {
		t.Fatal("Warm read keys of a database the transaction has not selected")
	}
	empty := NewMetaCache(1000)
	tx2 := begin(t, d, empty)
	defer tx2.Rollback()
	tx2.Warm(0, keys, nil)
	off := NewMetaCache(0)
	tx3 := begin(t, d, off)
	defer tx3.Rollback()
	tx3.Warm(0, keys, keys)
	if tx2.warmed != 0 || tx3.warmed != 0 {
		t.Fatalf("Warm read %d from an empty cache, %d from a disabled one", tx2.warmed, tx3.warmed)
	}
}

// TestWarmPutsStaleHints: the slots a commit reads ahead are named by
// its records' hints, which may be stale (past the cache's slots, or
// another key's): the commit still puts every key's entry right.
func TestWarmPutsStaleHints(t *testing.T) {
	_, c, env := cachedEnv(t, 64)
	keys := []string{"a", "b", "c", "d"}
	update(t, env, 0, func(tx *Tx) error {
		for _, k := range keys {
			if err := tx.SetString([]byte(k), []byte("1"), 0); err != nil {
				return err
			}
		}
		return nil
	})
	tx := beginSetting(t, env, "22", keys...)
	if len(tx.dirty) != len(keys) {
		t.Fatalf("%d records to put, want %d", len(tx.dirty), len(keys))
	}
	for n, i := range tx.dirty {
		tx.seen.recs[i].hint = []int32{1 << 30, 3, 0, -5}[n] // past the slots, maybe another key's, none, nonsense
	}
	commit(t, tx)
	check, err := env.Begin(false, 0, now)
	if err != nil {
		t.Fatal(err)
	}
	defer check.Rollback()
	for _, k := range keys {
		if v, ok, err := check.GetString([]byte(k)); err != nil || !ok || string(v) != "22" {
			t.Fatalf("%s: %q %v %v after a commit with stale hints", k, v, ok, err)
		}
		if _, e, _, ok := c.lookup(codec.AppendMetaKey(nil, check.slot, []byte(k))); !ok || !e.exists {
			t.Fatalf("%s: not cached after the commit", k)
		}
	}
}

// TestWarmMembersChangesNothing: given fields, Warm also reads the member
// cache entries of a cached hash's fields, a set's and a sorted set's
// members (what it read shows in warmed), changing no entry of either
// cache, and reads no member for a string key or a missing one.
func TestWarmMembersChangesNothing(t *testing.T) {
	_, c, env := cachedEnv(t, 1000)
	c.EnableMembers(1000)
	var fields [][]byte
	for i := range 8 {
		fields = append(fields, fmt.Appendf(nil, "f%d", i))
	}
	update(t, env, 0, func(tx *Tx) error {
		for _, typ := range []codec.Type{codec.TypeHash, codec.TypeSet, codec.TypeZSet} {
			coll, err := tx.Open([]byte(fmt.Sprint("coll", typ)), typ, true)
			if err != nil {
				return err
			}
			for _, f := range fields {
				if err := coll.Put(f, []byte("v")); err != nil {
					return err
				}
			}
			if err := coll.Grow(int64(len(fields))); err != nil {
				return err
			}
		}
		return tx.SetString([]byte("str"), []byte("v"), 0)
	})
	type state struct {
		val       member
		used, ref bool
	}
	snapshot := func() []state {
		var s []state
		for _, sl := range c.members.slots {
			s = append(s, state{sl.val, sl.used, sl.ref})
		}
		return s
	}
	warm := func(key string, fields [][]byte) uint64 {
		t.Helper()
		tx, err := env.Begin(false, 0, now)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		keys := make([][]byte, len(fields))
		for i := range keys {
			keys[i] = []byte(key)
		}
		tx.Warm(0, keys, nil)
		without := tx.warmed
		before, gen := snapshot(), c.gen
		tx.Warm(0, keys, fields)
		after := snapshot()
		if c.gen != gen || len(after) != len(before) {
			t.Fatalf("%s: Warm changed the member cache", key)
		}
		for i := range before {
			if before[i] != after[i] {
				t.Fatalf("%s: Warm changed member slot %d: %+v -> %+v", key, i, before[i], after[i])
			}
		}
		return tx.warmed - 2*without
	}
	for _, typ := range []codec.Type{codec.TypeHash, codec.TypeSet, codec.TypeZSet} {
		if got := warm(fmt.Sprint("coll", typ), fields); got == 0 {
			t.Errorf("type %d: Warm read no member of eight cached", typ)
		}
	}
	if got := warm("str", fields); got != 0 {
		t.Errorf("Warm read %d of members of a string", got)
	}
	if got := warm("nope", fields); got != 0 {
		t.Errorf("Warm read %d of members of a missing key", got)
	}
}

package store

import (
	"fmt"
	"slices"
	"testing"

	"github.com/rekv/rekv/codec"
)

// TestNamespaceDatabases: databases past the default namespace's 16 (a
// namespace's, codec.NamespaceDB; one of them on a 3-byte slot) hold the
// same key names apart from each other and from the default namespace;
// FLUSHDB and SWAPDB act on one namespace's databases only, and their
// records are what a fresh load (a restart) finds.
func TestNamespaceDatabases(t *testing.T) {
	d := open(t)
	markers, err := LoadFlushMarkers(d, false)
	if err != nil {
		t.Fatal(err)
	}
	env := Env{Drv: d, Markers: markers}
	run := func(db int, fn func(tx *Tx) error) {
		t.Helper()
		update(t, env, db, fn)
	}
	get := func(db int) string {
		t.Helper()
		var out string
		run(db, func(tx *Tx) error {
			v, ok, err := tx.GetString([]byte("k"))
			if ok {
				out = string(v)
			}
			return err
		})
		return out
	}
	ns1, far := int(codec.NamespaceDB(1, 3)), int(codec.NamespaceDB(9000, 0))
	dbs := []int{3, ns1, far, far + 1}
	for _, db := range dbs {
		run(db, func(tx *Tx) error { return tx.SetString([]byte("k"), []byte(fmt.Sprint(db)), 0) })
	}
	for _, db := range dbs {
		if got := get(db); got != fmt.Sprint(db) {
			t.Errorf("db %d reads %q", db, got)
		}
	}
	if !slices.Contains(family(t, d, codec.PrefixMeta), fmt.Sprintf("%x", codec.MetaKey(codec.Slot(far), []byte("k")))) {
		t.Errorf("no meta key on slot %d (3 bytes) among %v", far, family(t, d, codec.PrefixMeta))
	}
	run(ns1, func(tx *Tx) error { return tx.Records().Flush(ns1) })
	run(far, func(tx *Tx) error { return tx.Records().Swap(far, far+1) })
	check := func(when string) {
		t.Helper()
		for db, want := range map[int]string{3: "3", ns1: "", far: fmt.Sprint(far + 1), far + 1: fmt.Sprint(far)} {
			if got := get(db); got != want {
				t.Errorf("%s: db %d reads %q, want %q", when, db, got, want)
			}
		}
	}
	check("after FLUSHDB of one and SWAPDB of two")
	if got := env.Markers.FlushedSlots(); !slices.Equal(got, []int{ns1}) {
		t.Errorf("flushed slots %v, want [%d] (the GC sweeps those)", got, ns1)
	}
	if env.Markers, err = LoadFlushMarkers(d, false); err != nil {
		t.Fatal(err)
	}
	check("loaded again")
	if r := env.Markers.Held(far); r.Slot != codec.Slot(far+1) {
		t.Errorf("db %d held on slot %d, want %d", far, r.Slot, far+1)
	}
	if db := env.Markers.DBOf(far + 1); db != far {
		t.Errorf("slot %d held by db %d, want %d", far+1, db, far)
	}
}

package store

import (
	"fmt"
	"testing"

	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// TestFieldTTLBookkeeping follows a hash's field TTLs through the store:
// the hash-TTL index holds one entry at the meta's bound, reads at a later
// time hide expired fields and count the rest, a write deletes them, and
// the GC's ExpireFields moves the entry on and finally drops it.
func TestFieldTTLBookkeeping(t *testing.T) {
	d := open(t)
	c := NewMetaCache(64)
	key := []byte("h")
	tx := begin(t, d, c)
	h, err := tx.Open(key, codec.TypeHash, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"a", "b", "c"} {
		if err := h.Put([]byte(f), []byte("v")); err != nil {
			t.Fatal(err)
		}
	}
	must(t, h.Grow(3))
	must(t, h.SetFieldTTL([]byte("a"), now+100))
	must(t, h.SetFieldTTL([]byte("b"), now+50)) // lowers the bound
	must(t, h.SetFieldTTL([]byte("a"), now+200))
	must(t, tx.Commit())
	if got := family(t, d, codec.PrefixHashTTL); len(got) != 1 || got[0] != keyHex(codec.HashTTLKey(now+50, 0, key)) {
		t.Fatalf("hash-TTL index %v, want one entry at the earliest expiry", got)
	}
	at := func(ms int64, writable bool) *Tx {
		tx, err := Env{Drv: d, Caches: func([]byte) *MetaCache { return c }}.Begin(writable, 0, ms)
		if err != nil {
			t.Fatal(err)
		}
		return tx
	}
	// A read at now+60 hides b and counts two fields.
	r := at(now+60, false)
	h, err = r.Open(key, codec.TypeHash, false)
	if err != nil || h == nil || h.Size() != 2 {
		t.Fatalf("read at +60: %v, %v", h, err)
	}
	if ok, _ := h.Has([]byte("b")); ok {
		t.Fatal("an expired field is visible")
	}
	r.Rollback()
	// The GC at +60 deletes b and moves the entry to a's expiry.
	w := at(now+60, true)
	n, err := w.ExpireFields(key, now+50)
	if err != nil || n != 1 {
		t.Fatalf("ExpireFields = %d, %v", n, err)
	}
	must(t, w.Commit())
	if got := family(t, d, codec.PrefixHashTTL); len(got) != 1 || got[0] != keyHex(codec.HashTTLKey(now+200, 0, key)) {
		t.Fatalf("after the GC: %v", got)
	}
	// HPERSIST of a: the bound stays until the GC finds no TTL left.
	w = at(now+70, true)
	h, _ = w.Open(key, codec.TypeHash, false)
	if had, err := h.Persist([]byte("a")); !had || err != nil {
		t.Fatalf("Persist = %v, %v", had, err)
	}
	must(t, w.Commit())
	w = at(now+300, true)
	if n, err := w.ExpireFields(key, now+200); n != 0 || err != nil {
		t.Fatalf("ExpireFields with nothing due = %d, %v", n, err)
	}
	must(t, w.Commit())
	if got := family(t, d, codec.PrefixHashTTL); len(got) != 0 {
		t.Fatalf("index after the last TTL went: %v", got)
	}
	r = at(now+300, false)
	if h, _ = r.Open(key, codec.TypeHash, false); h == nil || h.Size() != 2 || h.HasFieldTTLs() {
		t.Fatalf("hash after: %+v", h)
	}
	r.Rollback()
	// Every score-range record went with the TTLs.
	tx2, _ := d.Begin(false)
	defer tx2.Rollback()
	p := codec.ScoreKeyPrefix(0, key, h.meta.Version)
	_ = tx2.Iterate(p, codec.PrefixEnd(p), drivers.IterOptions{}, func(k, _ []byte) (bool, error) {
		t.Fatalf("TTL record %x left", k)
		return false, nil
	})
}

func keyHex(k []byte) string { return fmt.Sprintf("%x", k) }

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

package store

import (
	"bytes"
	"errors"
	"testing"

	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// bigValue returns preWriteMin+1000 bytes of a pattern with an all-zero
// chunk in it (not stored, read back as zeros).
func bigValue() []byte {
	v := make([]byte, preWriteMin+1000)
	for i := range v {
		v[i] = byte(i%253) + 1
	}
	clear(v[3*chunk : 4*chunk])
	return v
}

// TestPreWrittenString: with Env.PreWrite a big string's chunks are
// written before the commit and not through the transaction; the value
// reads back whole once committed, no chunk is stored for the all-zero
// one, and nothing stays pending.
func TestPreWrittenString(t *testing.T) {
	d := open(t)
	val := bigValue()
	env := Env{Drv: d, PreWrite: true}
	var prefix []byte
	update(t, env, 0, func(tx *Tx) error {
		if err := tx.SetString([]byte("k"), val, 0); err != nil {
			return err
		}
		if len(tx.prewrites) != 1 {
			t.Fatalf("%d versions pre-written, want 1", len(tx.prewrites))
		}
		prefix = tx.prewrites[0].prefix()
		if !d.Pending(prefix) {
			t.Fatal("the version is not pending before the commit")
		}
		return nil
	})
	if d.Pending(prefix) {
		t.Fatal("still pending after the commit")
	}
	tx := begin(t, d, nil)
	defer tx.Rollback()
	got, ok, err := tx.GetString([]byte("k"))
	if err != nil || !ok || !bytes.Equal(got, val) {
		t.Fatalf("GetString after the commit: ok %v, err %v, %d bytes equal %v", ok, err, len(got), bytes.Equal(got, val))
	}
	if _, err := tx.txn.Get(append(bytes.Clone(prefix), codec.ChunkField(3)...)); !errors.Is(err, drivers.ErrNotFound) {
		t.Fatalf("the all-zero chunk was stored: %v", err)
	}
	if g := family(t, d, codec.PrefixGarbage); len(g) != 0 {
		t.Fatalf("garbage entries after a committed pre-write: %v", g)
	}
}

// TestPreWriteRolledBack: a transaction that pre-wrote a version and
// then did not commit (rolled back, or its commit failed on a conflict)
// leaves the key as it was and the version as garbage, not pending.
func TestPreWriteRolledBack(t *testing.T) {
	for _, how := range []string{"rollback", "conflict"} {
		t.Run(how, func(t *testing.T) {
			d := open(t)
			env := Env{Drv: d, PreWrite: true}
			update(t, env, 0, func(tx *Tx) error { return tx.SetString([]byte("k"), []byte("old"), 0) })
			tx, err := env.Begin(true, 0, now)
			if err != nil {
				t.Fatal(err)
			}
			if err := tx.SetString([]byte("k"), bigValue(), 0); err != nil {
				t.Fatal(err)
			}
			p := tx.prewrites[0]
			if how == "rollback" {
				tx.Rollback()
			} else {
				update(t, Env{Drv: d}, 0, func(tx *Tx) error { return tx.SetString([]byte("k"), []byte("other"), 0) })
				if err := tx.Commit(); !errors.Is(err, drivers.ErrConflict) {
					t.Fatalf("commit after a concurrent write of the key: %v", err)
				}
				tx.Rollback()
			}
			if d.Pending(p.prefix()) {
				t.Fatal("still pending after the transaction ended")
			}
			want := "old"
			if how == "conflict" {
				want = "other"
			}
			r := begin(t, d, nil)
			defer r.Rollback()
			if v, _, _ := r.GetString([]byte("k")); string(v) != want {
				t.Fatalf("the key holds %q, want %q", v, want)
			}
			if _, err := r.txn.Get(codec.GarbageKey(p.slot, p.key, p.version)); err != nil {
				t.Fatalf("no garbage entry for the pre-written version: %v", err)
			}
		})
	}
}

// TestNoPreWriteWithoutEnv: without Env.PreWrite (a group, MULTI, a
// script) a big string goes through the transaction, which reads it back.
func TestNoPreWriteWithoutEnv(t *testing.T) {
	d := open(t)
	val := bigValue()
	update(t, Env{Drv: d}, 0, func(tx *Tx) error {
		if err := tx.SetString([]byte("k"), val, 0); err != nil {
			return err
		}
		if len(tx.prewrites) != 0 {
			t.Fatal("pre-written without Env.PreWrite")
		}
		got, _, err := tx.GetString([]byte("k"))
		if err != nil || !bytes.Equal(got, val) {
			t.Fatalf("read back in the transaction: %v, equal %v", err, bytes.Equal(got, val))
		}
		return nil
	})
}

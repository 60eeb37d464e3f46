package rhash_test

import (
	"testing"

	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/actors/store/storetest"
	"github.com/rekv/rekv/actors/types/rhash"
	"github.com/rekv/rekv/codec"
)

func b(s ...string) [][]byte {
	out := make([][]byte, len(s))
	for i, x := range s {
		out[i] = []byte(x)
	}
	return out
}

// TestCountsKept checks every operation keeps the field count: each step
// reports what it did and the hash's size follows.
func TestCountsKept(t *testing.T) {
	tx := storetest.New(t).Begin()
	h, err := rhash.Open(tx, []byte("h"), true)
	if err != nil {
		t.Fatal(err)
	}
	lim := codec.ListpackLimits{Entries: 512, Value: 64}
	steps := []struct {
		name string
		do   func() (int64, error)
		want int64 // what the step reports
		size int64
	}{
		{"set two", func() (int64, error) { return rhash.Set(h, b("a", "1", "b", "2"), lim) }, 2, 2},
		{"set one twice", func() (int64, error) { return rhash.Set(h, b("c", "1", "c", "2"), lim) }, 1, 3},
		{"overwrite", func() (int64, error) { return rhash.Set(h, b("a", "9"), lim) }, 0, 3},
		{"set new", func() (int64, error) { return rhash.Set(h, b("d", "x"), lim) }, 1, 4},
		{"set old", func() (int64, error) { return rhash.Set(h, b("d", "y"), lim) }, 0, 4},
		{"setnx old", func() (int64, error) { n, err := rhash.SetNX(h, []byte("a"), []byte("z"), lim); return boolN(n), err }, 0, 4},
		{"setnx new", func() (int64, error) { n, err := rhash.SetNX(h, []byte("e"), []byte("z"), lim); return boolN(n), err }, 1, 5},
		{"write counted", func() (int64, error) { return 1, rhash.Write(h, []byte("w"), []byte("1"), false, lim) }, 1, 6},
		{"write known", func() (int64, error) { return 0, rhash.Write(h, []byte("w"), []byte("2"), true, lim) }, 0, 6},
		{"delete some", func() (int64, error) { return rhash.Delete(h, b("a", "nope", "b", "a")) }, 2, 4},
	}
	for _, s := range steps {
		got, err := s.do()
		if err != nil || got != s.want || h.Size() != s.size {
			t.Fatalf("%s: reported %d (want %d), size %d (want %d), err %v", s.name, got, s.want, h.Size(), s.size, err)
		}
	}
	if v, ok, err := h.Get([]byte("c")); !ok || err != nil || string(v) != "2" {
		t.Fatalf("c = %q %v %v", v, ok, err)
	}
	if n, err := rhash.Delete(h, b("c", "d", "e", "w")); n != 4 || err != nil {
		t.Fatalf("delete the rest: %d %v", n, err)
	}
	if ok, err := tx.Exists([]byte("h")); ok || err != nil {
		t.Fatalf("an emptied hash still exists (%v)", err)
	}
	if err := tx.SetString([]byte("s"), []byte("v"), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := rhash.Open(tx, []byte("s"), false); err == nil {
		t.Fatal("a string opened as a hash")
	}
}

func boolN(ok bool) int64 {
	if ok {
		return 1
	}
	return 0
}

// TestConverts: a hash is marked converted (Redis's listpack turned
// hashtable) by a field or value too long, even an overwrite (not a
// refused HSETNX), or by more fields than the limit, and stays so.
func TestConverts(t *testing.T) {
	tx := storetest.New(t).Begin()
	lim := codec.ListpackLimits{Entries: 2, Value: 3}
	for _, tc := range []struct {
		name    string
		do      func(h *store.Coll) error
		convert bool
	}{
		{"small", func(h *store.Coll) error { _, err := rhash.Set(h, b("a", "1", "b", "2"), lim); return err }, false},
		{"too many", func(h *store.Coll) error { _, err := rhash.Set(h, b("a", "1", "b", "2", "c", "3"), lim); return err }, true},
		{"long value", func(h *store.Coll) error { _, err := rhash.Set(h, b("a", "1234"), lim); return err }, true},
		{"long field", func(h *store.Coll) error { _, err := rhash.Set(h, b("abcd", "1"), lim); return err }, true},
		{"long overwrite", func(h *store.Coll) error {
			if _, err := rhash.Set(h, b("a", "1"), lim); err != nil {
				return err
			}
			_, err := rhash.Set(h, b("a", "1234"), lim)
			return err
		}, true},
		{"refused setnx", func(h *store.Coll) error {
			if _, err := rhash.Set(h, b("a", "1"), lim); err != nil {
				return err
			}
			_, err := rhash.SetNX(h, []byte("a"), []byte("1234"), lim)
			return err
		}, false},
		{"counter", func(h *store.Coll) error {
			if err := rhash.Write(h, []byte("a"), []byte("1"), false, lim); err != nil {
				return err
			}
			return rhash.Write(h, []byte("a"), []byte("2"), true, lim)
		}, false},
		{"third counter", func(h *store.Coll) error {
			for _, f := range []string{"a", "b", "c"} {
				if err := rhash.Write(h, []byte(f), []byte("1"), false, lim); err != nil {
					return err
				}
			}
			return nil
		}, true},
	} {
		h, err := rhash.Open(tx, []byte(tc.name), true)
		if err != nil {
			t.Fatal(err)
		}
		if err := tc.do(h); err != nil {
			t.Fatal(err)
		}
		if h.Converted() != tc.convert {
			t.Errorf("%s: converted %v, want %v", tc.name, h.Converted(), tc.convert)
		}
	}
	h, _ := rhash.Open(tx, []byte("long value"), false)
	if _, err := rhash.Delete(h, b("z")); err != nil {
		t.Fatal(err)
	}
	if h, _ := rhash.Open(tx, []byte("long value"), false); h == nil || !h.Converted() {
		t.Error("the mark was not stored")
	}
}

package rhash_test

import (
	"testing"

	"github.com/rekv/rekv/actors/store/storetest"
	"github.com/rekv/rekv/actors/types/rhash"
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
	steps := []struct {
		name string
		do   func() (int64, error)
		want int64 // what the step reports
		size int64
	}{
		{"set two", func() (int64, error) { return rhash.Set(h, b("a", "1", "b", "2")) }, 2, 2},
		{"set one twice", func() (int64, error) { return rhash.Set(h, b("c", "1", "c", "2")) }, 1, 3},
		{"overwrite", func() (int64, error) { return rhash.Set(h, b("a", "9")) }, 0, 3},
		{"set new", func() (int64, error) { return rhash.Set(h, b("d", "x")) }, 1, 4},
		{"set old", func() (int64, error) { return rhash.Set(h, b("d", "y")) }, 0, 4},
		{"setnx old", func() (int64, error) { n, err := rhash.SetNX(h, []byte("a"), []byte("z")); return boolN(n), err }, 0, 4},
		{"setnx new", func() (int64, error) { n, err := rhash.SetNX(h, []byte("e"), []byte("z")); return boolN(n), err }, 1, 5},
		{"write counted", func() (int64, error) { return 1, rhash.Write(h, []byte("w"), []byte("1"), false) }, 1, 6},
		{"write known", func() (int64, error) { return 0, rhash.Write(h, []byte("w"), []byte("2"), true) }, 0, 6},
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

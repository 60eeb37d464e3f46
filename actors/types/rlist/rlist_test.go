package rlist_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rekv/rekv/actors/store/storetest"
	"github.com/rekv/rekv/actors/types/rlist"
)

func contents(t *testing.T, l *rlist.List) string {
	t.Helper()
	vs, err := l.Values(l.Head(), l.Tail())
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%q", vs)
}

func b(ss ...string) [][]byte {
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = []byte(s)
	}
	return out
}

func TestPushPopInsertRemoveTrim(t *testing.T) {
	st := storetest.New(t)
	tx := st.Begin()
	l, err := rlist.Open(tx, []byte("l"), true)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Push(true, b("b", "a")...); err != nil { // LPUSH b a -> a b
		t.Fatal(err)
	}
	if err := l.Push(false, b("c", "d", "e")...); err != nil {
		t.Fatal(err)
	}
	if got, want := contents(t, l), `["a" "b" "c" "d" "e"]`; got != want {
		t.Fatalf("after pushes %s, want %s", got, want)
	}
	if i, ok := l.Abs(-1); !ok || i != l.Tail()-1 {
		t.Errorf("Abs(-1) = %d %v", i, ok)
	}
	if _, ok := l.Abs(5); ok {
		t.Error("Abs(5) in range of 5 elements")
	}
	if err := l.InsertAt(l.Head()+1, []byte("x")); err != nil { // before b
		t.Fatal(err)
	}
	if err := l.InsertAt(l.Tail()-1, []byte("y")); err != nil { // before e
		t.Fatal(err)
	}
	if got, want := contents(t, l), `["a" "x" "b" "c" "d" "y" "e"]`; got != want {
		t.Fatalf("after inserts %s, want %s", got, want)
	}
	h := l.Head()
	if err := l.RemoveAt([]uint64{h + 1, h + 5}); err != nil {
		t.Fatal(err)
	}
	if got, want := contents(t, l), `["a" "b" "c" "d" "e"]`; got != want {
		t.Fatalf("after RemoveAt %s, want %s", got, want)
	}
	popped, err := l.Pop(false, 2)
	if err != nil || fmt.Sprintf("%q", popped) != `["e" "d"]` {
		t.Fatalf("Pop right 2 = %q %v", popped, err)
	}
	st.Commit(tx)

	tx = st.Begin()
	l, _ = rlist.Open(tx, []byte("l"), false)
	if l.Len() != 3 {
		t.Fatalf("Len after commit = %d", l.Len())
	}
	if err := l.Trim(1, -1); err != nil {
		t.Fatal(err)
	}
	if got, want := contents(t, l), `["b" "c"]`; got != want || l.Len() != 2 {
		t.Fatalf("after Trim %s (len %d), want %s", got, l.Len(), want)
	}
	if err := l.Set(l.Head(), []byte("B")); err != nil {
		t.Fatal(err)
	}
	if v, err := l.Get(l.Head()); err != nil || string(v) != "B" {
		t.Fatalf("Get head = %q %v", v, err)
	}
}

func TestOpenMissingAndWrongType(t *testing.T) {
	st := storetest.New(t)
	tx := st.Begin()
	if l, err := rlist.Open(tx, []byte("none"), false); l != nil || err != nil {
		t.Fatalf("missing list: %v %v", l, err)
	}
	if err := tx.SetString([]byte("s"), []byte("v"), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := rlist.Open(tx, []byte("s"), false); err == nil {
		t.Fatal("a string opened as a list")
	}
}

// TestTrimKeepsCounts trims lists each of the three ways (in place, by
// copying what is kept, dropping all) and checks contents and length.
func TestTrimKeepsCounts(t *testing.T) {
	for _, c := range []struct {
		start, stop int64
		want        string
	}{
		{1, -2, `["b" "c" "d" "e"]`}, // in place: keeps more than it removes
		{2, 2, `["c"]`},              // copies the one element kept
		{0, -1, `["a" "b" "c" "d" "e" "f"]`},
		{4, 1, `[]`}, // nothing kept: dropped
		{-100, 100, `["a" "b" "c" "d" "e" "f"]`},
	} {
		st := storetest.New(t)
		tx := st.Begin()
		l, err := rlist.Open(tx, []byte("l"), true)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Push(false, []byte("a"), []byte("b"), []byte("c"), []byte("d"), []byte("e"), []byte("f")); err != nil {
			t.Fatal(err)
		}
		if err := l.Trim(c.start, c.stop); err != nil {
			t.Fatal(err)
		}
		st.Commit(tx)
		tx = st.Begin()
		l, err = rlist.Open(tx, []byte("l"), false)
		if err != nil {
			t.Fatal(err)
		}
		got := "[]"
		if l != nil {
			got = contents(t, l)
			if int(l.Len()) != strings.Count(got, `"`)/2 {
				t.Errorf("trim %d %d: length %d for %s", c.start, c.stop, l.Len(), got)
			}
		}
		if got != c.want {
			t.Errorf("trim %d %d = %s, want %s", c.start, c.stop, got, c.want)
		}
	}
}

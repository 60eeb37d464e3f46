package store

import (
	"fmt"
	"slices"
	"testing"
)

// TestRefSet: keys come out once each, in the order first added, across
// databases, before and after the set builds its index.
func TestRefSet(t *testing.T) {
	var s refSet
	var want []string
	for i := range 40 {
		db, k := i%3, fmt.Sprint("k", i%20)
		s.add(db, []byte(k))
		if id := fmt.Sprint(db, "/", k); !slices.Contains(want, id) {
			want = append(want, id)
		}
		s.add(0, []byte("k0")) // a repeat, not only of the last key
	}
	var got []string
	for _, r := range s.list {
		got = append(got, fmt.Sprint(r.DB, "/", string(r.Key)))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
}

// TestRefSetHashCollision: a key whose hash the index already gives to
// another key is still told apart from it, and still found once added.
func TestRefSetHashCollision(t *testing.T) {
	var s refSet
	for i := range 9 {
		s.add(0, []byte(fmt.Sprint("k", i)))
	}
	// Make "x" collide with "k0": the index sends its hash to k0's entry.
	s.idx[refHash(0, []byte("x"))] = 0
	s.add(0, []byte("x"))
	s.add(0, []byte("y")) // so that x is not the last entry
	s.add(0, []byte("x"))
	s.add(0, []byte("k0"))
	var got []string
	for _, r := range s.list[9:] {
		got = append(got, string(r.Key))
	}
	if len(s.list) != 11 || got[0] != "x" || got[1] != "y" {
		t.Fatalf("list has %d entries, the added ones %q; want 11 ending with x, y", len(s.list), got)
	}
}

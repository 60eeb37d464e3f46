package rstream_test

import (
	"testing"

	"github.com/rekv/rekv/actors/store/storetest"
	"github.com/rekv/rekv/actors/types/rstream"
	"github.com/rekv/rekv/codec"
)

func id(ms, seq uint64) codec.StreamID { return codec.StreamID{Ms: ms, Seq: seq} }

func TestAddRangeDeleteTrim(t *testing.T) {
	st := storetest.New(t)
	tx := st.Begin()
	s, err := rstream.Open(tx, []byte("s"), true)
	if err != nil {
		t.Fatal(err)
	}
	for i := uint64(1); i <= 5; i++ {
		if err := s.Add(id(i, 0), [][]byte{[]byte("f"), []byte{byte('0' + i)}}); err != nil {
			t.Fatal(err)
		}
	}
	st.Commit(tx)

	tx = st.Begin()
	s, _ = rstream.Open(tx, []byte("s"), false)
	if s.Len() != 5 || s.Meta().LastID != id(5, 0) || s.Meta().EntriesAdded != 5 {
		t.Fatalf("len %d meta %+v", s.Len(), s.Meta())
	}
	es, err := s.Range(id(2, 0), id(4, 0), true, 2)
	if err != nil || len(es) != 2 || es[0].ID != id(4, 0) || es[1].ID != id(3, 0) || string(es[0].Fields[1]) != "4" {
		t.Fatalf("reverse range: %+v %v", es, err)
	}
	n, err := s.Delete([]codec.StreamID{id(3, 0), id(9, 9)})
	if err != nil || n != 1 || s.Len() != 4 || s.Meta().MaxDeletedID != id(3, 0) {
		t.Fatalf("delete: %d %v len %d meta %+v", n, err, s.Len(), s.Meta())
	}
	n, err = s.TrimBefore(func(length int64, _ codec.StreamID) bool { return length > 1 }, 0)
	if err != nil || n != 3 || s.Len() != 1 {
		t.Fatalf("trim to 1: %d %v len %d", n, err, s.Len())
	}
	if e, ok, err := s.First(false); err != nil || !ok || e.ID != id(5, 0) {
		t.Fatalf("first after trim: %+v %v %v", e, ok, err)
	}
	n, _ = s.TrimBefore(func(int64, codec.StreamID) bool { return true }, 0)
	if n != 1 || s.Len() != 0 {
		t.Fatalf("trim all: %d len %d", n, s.Len())
	}
	st.Commit(tx)

	tx = st.Begin()
	s, err = rstream.Open(tx, []byte("s"), false)
	if err != nil || s == nil || s.Len() != 0 || s.Meta().LastID != id(5, 0) {
		t.Fatalf("an emptied stream must still exist with its last ID: %v %v", s, err)
	}
}

// Trims start at the first entry an earlier trim found live, across
// transactions, one rolled back, and reads skip what they deleted; no
// entry is ever hidden.
func TestTrimHead(t *testing.T) {
	st := storetest.New(t)
	next := uint64(1)
	add := func(s *rstream.Stream, n int) {
		for range n {
			if err := s.Add(id(next, 0), [][]byte{[]byte("f"), []byte("v")}); err != nil {
				t.Fatal(err)
			}
			next++
		}
	}
	keep := func(max int64) func(int64, codec.StreamID) bool {
		return func(length int64, _ codec.StreamID) bool { return length > max }
	}
	check := func(s *rstream.Stream, from, to uint64) {
		t.Helper()
		es, err := s.Range(codec.StreamID{}, rstream.MaxID, false, 0)
		if err != nil || uint64(len(es)) != to-from+1 || es[0].ID != id(from, 0) || es[len(es)-1].ID != id(to, 0) {
			t.Fatalf("entries %v..%v: got %d (%v)", from, to, len(es), err)
		}
		if e, ok, _ := s.First(false); !ok || e.ID != id(from, 0) {
			t.Fatalf("first: %+v", e)
		}
	}
	for round := range 20 {
		tx := st.Begin()
		s, err := rstream.Open(tx, []byte("s"), true)
		if err != nil {
			t.Fatal(err)
		}
		add(s, 10)
		if n, err := s.TrimBefore(keep(5), 0); err != nil || n != 10 && round > 0 || round == 0 && n != 5 {
			t.Fatalf("round %d: trimmed %d %v", round, n, err)
		}
		check(s, next-5, next-1)
		st.Commit(tx)
	}
	// A trim rolled back leaves its entries live before the head it saw.
	tx := st.Begin()
	s, _ := rstream.Open(tx, []byte("s"), false)
	if n, _ := s.TrimBefore(keep(1), 0); n != 4 {
		t.Fatalf("trimmed %d", n)
	}
	tx.Rollback()
	tx = st.Begin()
	s, _ = rstream.Open(tx, []byte("s"), false)
	check(s, next-5, next-1)
	if _, err := s.Delete([]codec.StreamID{id(next-5, 0)}); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.TrimBefore(keep(2), 0); n != 2 {
		t.Fatalf("after XDEL of the first: trimmed %d", n)
	}
	check(s, next-2, next-1)
	st.Commit(tx)
}

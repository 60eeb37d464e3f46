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

package rset_test

import (
	"fmt"
	"testing"

	"github.com/rekv/rekv/actors/store/storetest"
	"github.com/rekv/rekv/actors/types/rset"
)

func TestAddRemoveMembers(t *testing.T) {
	st := storetest.New(t)
	tx := st.Begin()
	s, err := rset.Open(tx, []byte("s"), true)
	if err != nil {
		t.Fatal(err)
	}
	n, err := rset.Add(s, [][]byte{[]byte("b"), []byte("a"), []byte("b")})
	if err != nil || n != 2 || s.Size() != 2 {
		t.Fatalf("Add = %d %v, size %d", n, err, s.Size())
	}
	st.Commit(tx)
	tx = st.Begin()
	s, _ = rset.Open(tx, []byte("s"), false)
	if ok, err := rset.IsMember(s, []byte("a")); !ok || err != nil {
		t.Fatal("a is not a member", err)
	}
	n, err = rset.Remove(s, [][]byte{[]byte("a"), []byte("z")})
	if err != nil || n != 1 || s.Size() != 1 {
		t.Fatalf("Remove = %d %v, size %d", n, err, s.Size())
	}
	ms, err := rset.Members(s)
	if err != nil || fmt.Sprintf("%q", ms) != `["b"]` {
		t.Fatalf("Members = %q %v", ms, err)
	}
	none, _ := rset.Open(tx, []byte("none"), false)
	if ok, err := rset.IsMember(none, []byte("a")); ok || err != nil {
		t.Fatal("member of a missing set", err)
	}
	if ms, err := rset.Members(none); len(ms) != 0 || err != nil {
		t.Fatal("members of a missing set", ms, err)
	}
}

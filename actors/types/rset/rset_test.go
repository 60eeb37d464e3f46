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
	n, err := rset.Add(s, [][]byte{[]byte("b"), []byte("a"), []byte("b")}, 512)
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

// TestAddConverts: a set is marked converted (Redis's intset turned
// hashtable) by a new member that is not an integer or by growing past
// the intset limit, and stays so when those members go.
func TestAddConverts(t *testing.T) {
	st := storetest.New(t)
	tx := st.Begin()
	for _, tc := range []struct {
		key     string
		adds    [][]string
		convert bool
	}{
		{"ints", [][]string{{"1", "2", "-3"}, {"2"}}, false},
		{"at the limit", [][]string{{"1", "2"}, {"3"}}, false},
		{"past the limit", [][]string{{"1", "2"}, {"3", "4"}}, true},
		{"a word", [][]string{{"1", "a"}}, true},
		{"not canonical", [][]string{{"01"}}, true},
		{"an existing member", [][]string{{"1"}, {"1", "1"}}, false},
	} {
		s, err := rset.Open(tx, []byte(tc.key), true)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range tc.adds {
			var ms [][]byte
			for _, m := range a {
				ms = append(ms, []byte(m))
			}
			if _, err := rset.Add(s, ms, 3); err != nil {
				t.Fatal(err)
			}
		}
		if s.Converted() != tc.convert {
			t.Errorf("%s: converted %v, want %v", tc.key, s.Converted(), tc.convert)
		}
	}
	s, _ := rset.Open(tx, []byte("a word"), false)
	if _, err := rset.Remove(s, [][]byte{[]byte("a")}); err != nil {
		t.Fatal(err)
	}
	st.Commit(tx)
	tx = st.Begin()
	if s, _ := rset.Open(tx, []byte("a word"), false); !s.Converted() {
		t.Error("a set emptied of its word is no longer marked converted")
	}
}

package rstream_test

import (
	"bytes"
	"fmt"
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
		if err := s.Add(id(i, 0), [][]byte{[]byte("f"), []byte{byte('0' + i)}}, rstream.DefaultNodeLimits); err != nil {
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
	n, err = s.Trim(rstream.TrimArgs{MaxLen: true, Len: 1})
	if err != nil || n != 3 || s.Len() != 1 {
		t.Fatalf("trim to 1: %d %v len %d", n, err, s.Len())
	}
	if e, ok, err := s.First(false); err != nil || !ok || e.ID != id(5, 0) {
		t.Fatalf("first after trim: %+v %v %v", e, ok, err)
	}
	n, _ = s.Trim(rstream.TrimArgs{MaxLen: true})
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
			if err := s.Add(id(next, 0), [][]byte{[]byte("f"), []byte("v")}, rstream.DefaultNodeLimits); err != nil {
				t.Fatal(err)
			}
			next++
		}
	}
	keep := func(max int64) rstream.TrimArgs { return rstream.TrimArgs{MaxLen: true, Len: max} }
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
		if n, err := s.Trim(keep(5)); err != nil || n != 10 && round > 0 || round == 0 && n != 5 {
			t.Fatalf("round %d: trimmed %d %v", round, n, err)
		}
		check(s, next-5, next-1)
		st.Commit(tx)
	}
	// A trim rolled back leaves its entries live before the head it saw.
	tx := st.Begin()
	s, _ := rstream.Open(tx, []byte("s"), false)
	if n, _ := s.Trim(keep(1)); n != 4 {
		t.Fatalf("trimmed %d", n)
	}
	tx.Rollback()
	tx = st.Begin()
	s, _ = rstream.Open(tx, []byte("s"), false)
	check(s, next-5, next-1)
	if _, err := s.Delete([]codec.StreamID{id(next-5, 0)}); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Trim(keep(2)); n != 2 {
		t.Fatalf("after XDEL of the first: trimmed %d", n)
	}
	check(s, next-2, next-1)
	st.Commit(tx)
}

// addN adds n entries ms = next.. with one small field, under lim.
func addN(t *testing.T, s *rstream.Stream, next *uint64, n int, lim rstream.NodeLimits) {
	t.Helper()
	for range n {
		if err := s.Add(id(*next, 0), [][]byte{[]byte("item"), []byte("1")}, lim); err != nil {
			t.Fatal(err)
		}
		*next++
	}
}

// Approximate trimming removes whole nodes as Redis's radix tree holds
// them, counting what exact trims and XDEL left in each (Redis's own
// test: 1,000 entries, MAXLEN 666, = 555, ~ 444 leaves 500).
func TestTrimByNodes(t *testing.T) {
	st := storetest.New(t)
	tx := st.Begin()
	s, _ := rstream.Open(tx, []byte("s"), true)
	var next uint64 = 1
	addN(t, s, &next, 1000, rstream.DefaultNodeLimits)
	for _, c := range []struct {
		args      rstream.TrimArgs
		deleted   int64
		remaining int64
	}{
		{rstream.TrimArgs{MaxLen: true, Len: 666}, 334, 666},
		{rstream.TrimArgs{MaxLen: true, Len: 555}, 111, 555},
		{rstream.TrimArgs{MaxLen: true, Len: 444, Approx: true}, 55, 500},
		{rstream.TrimArgs{MaxLen: true, Len: 444, Approx: true}, 0, 500},
		// A LIMIT smaller than a node removes nothing.
		{rstream.TrimArgs{MaxLen: true, Len: 0, Approx: true, Limit: 99}, 0, 500},
		{rstream.TrimArgs{MaxLen: true, Len: 0, Approx: true, Limit: 250}, 200, 300},
		// MINID ~ removes a node only when its last ID is older.
		{rstream.TrimArgs{MinID: id(850, 0), Approx: true}, 100, 200},
		{rstream.TrimArgs{MinID: id(850, 0)}, 49, 151},
	} {
		n, err := s.Trim(c.args)
		if err != nil || n != c.deleted || s.Len() != c.remaining {
			t.Fatalf("%+v: deleted %d (%v), %d left; want %d, %d left", c.args, n, err, s.Len(), c.deleted, c.remaining)
		}
	}
	if e, _, _ := s.First(false); e.ID != id(850, 0) {
		t.Fatalf("first entry %v", e.ID)
	}
	st.Commit(tx)

	// XDEL of a node's every entry removes the node: the next approximate
	// trim removes the following one whole.
	tx = st.Begin()
	s, _ = rstream.Open(tx, []byte("s"), false)
	var ids []codec.StreamID
	for ms := uint64(850); ms <= 900; ms++ {
		ids = append(ids, id(ms, 0))
	}
	if n, err := s.Delete(ids); err != nil || n != 51 || s.Len() != 100 {
		t.Fatalf("XDEL: %d %v, %d left", n, err, s.Len())
	}
	if n, err := s.Trim(rstream.TrimArgs{MaxLen: true, Len: 1, Approx: true}); err != nil || n != 0 {
		t.Fatalf("the tail node is never removed while it holds the length: %d %v", n, err)
	}
	st.Commit(tx)
}

// Nodes close at stream-node-max-entries, deleted entries included, or
// when the listpack would reach stream-node-max-bytes (Redis's
// encoding: small entries sharing the master's fields take 8 bytes).
func TestNodeLimits(t *testing.T) {
	st := storetest.New(t)
	tx := st.Begin()
	s, _ := rstream.Open(tx, []byte("s"), true)
	var next uint64 = 1
	lim := rstream.NodeLimits{Entries: 10, Bytes: 4096}
	addN(t, s, &next, 100, lim)
	if _, err := s.Delete([]codec.StreamID{id(12, 0), id(13, 0)}); err != nil {
		t.Fatal(err)
	}
	// Nodes of 10: the second has 8 live entries; MAXLEN ~ 85 removes the
	// first (90 left) and the second (82 < 85: no).
	if n, _ := s.Trim(rstream.TrimArgs{MaxLen: true, Len: 85, Approx: true}); n != 10 || s.Len() != 88 {
		t.Fatalf("deleted %d, %d left", n, s.Len())
	}
	if n, _ := s.Trim(rstream.TrimArgs{MaxLen: true, Len: 80, Approx: true}); n != 8 || s.Len() != 80 {
		t.Fatalf("deleted %d, %d left", n, s.Len())
	}
	st.Commit(tx)

	// By bytes: what redis-server 7.0.15 answered, with
	// stream-node-max-entries 0, for the same XADDs and XTRIM MAXLEN ~ 1.
	tx = st.Begin()
	for _, c := range []struct {
		name    string
		entry   func(i uint64) (codec.StreamID, [][]byte)
		n       uint64
		deleted int64
		bytes   int64
	}{
		{"item 1", func(i uint64) (codec.StreamID, [][]byte) {
			return id(i, 0), [][]byte{[]byte("item"), []byte("1")}
		}, 2000, 1910, 4096},
		{"mixed fields", func(i uint64) (codec.StreamID, [][]byte) {
			return id(i*1000, i), [][]byte{[]byte(fmt.Sprintf("field%d", i%3)), []byte(fmt.Sprintf("value-%d", i)), []byte("name"), []byte("12345678901")}
		}, 300, 291, 4096},
		{"negative, long and zero-padded values", func(i uint64) (codec.StreamID, [][]byte) {
			return id(i/3, (i%3)*1000), [][]byte{[]byte("n"), []byte(fmt.Sprintf("-%d", i*37)),
				[]byte("blob"), bytes.Repeat([]byte("x"), int(i%150)+1), []byte("z"), []byte("007")}
		}, 600, 592, 4096},
		{"big integers, 64 KiB nodes", func(i uint64) (codec.StreamID, [][]byte) {
			return id(i*100000, 0), [][]byte{[]byte(fmt.Sprintf("k%d", i%2)), []byte(fmt.Sprint(i * i * 1000))}
		}, 3000, 2862, 65536},
	} {
		b, _ := rstream.Open(tx, []byte(c.name), true)
		for i := uint64(1); i <= c.n; i++ {
			eid, fields := c.entry(i)
			if err := b.Add(eid, fields, rstream.NodeLimits{Bytes: c.bytes}); err != nil {
				t.Fatal(err)
			}
		}
		if n, err := b.Trim(rstream.TrimArgs{MaxLen: true, Len: 1, Approx: true}); err != nil || n != c.deleted {
			t.Errorf("%s: deleted %d (%v), redis-server %d", c.name, n, err, c.deleted)
		}
	}
	st.Commit(tx)
}

// A stream stored before nodes were kept trims its entries in groups of
// 100, then the nodes that followed.
func TestTrimLegacyEntries(t *testing.T) {
	st := storetest.New(t)
	tx := st.Begin()
	c, err := tx.Open([]byte("s"), codec.TypeStream, true)
	if err != nil {
		t.Fatal(err)
	}
	for ms := uint64(1); ms <= 250; ms++ {
		if err := c.Put(codec.StreamEntryField(id(ms, 0)), codec.AppendStreamFields(nil, [][]byte{[]byte("f"), []byte("v")})); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.SetStream(codec.StreamMeta{LastID: id(250, 0), EntriesAdded: 250}, 250); err != nil {
		t.Fatal(err)
	}
	st.Commit(tx)
	tx = st.Begin()
	s, _ := rstream.Open(tx, []byte("s"), false)
	var next uint64 = 251
	addN(t, s, &next, 150, rstream.DefaultNodeLimits) // one node of 100, a tail of 50
	// Groups of 100, 100 and 50 old entries go, then the node of 100 stays
	// (50 left would be under 120).
	if n, err := s.Trim(rstream.TrimArgs{MaxLen: true, Len: 120, Approx: true, Limit: 1000}); err != nil || n != 250 || s.Len() != 150 {
		t.Fatalf("deleted %d (%v), %d left", n, err, s.Len())
	}
	if e, _, _ := s.First(false); e.ID != id(251, 0) {
		t.Fatalf("first entry %v", e.ID)
	}
	st.Commit(tx)
}

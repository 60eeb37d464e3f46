package rcuckoo_test

import (
	"strconv"
	"testing"

	"github.com/rekv/rekv/actors/store/storetest"
	"github.com/rekv/rekv/actors/types/rcuckoo"
)

// A filter sized as RedisBloom sizes one: capacity 1000 makes 512
// buckets of 2, which CF.INFO reports as 1080 bytes (redis.io's example).
func TestHeader(t *testing.T) {
	h := rcuckoo.NewHeader(1000, 2, 20, 1)
	if h.Buckets != 512 || h.MemUsage() != 1080 || h.Expansion != 1 {
		t.Fatalf("header %+v, %d bytes", h, h.MemUsage())
	}
	if got, err := rcuckoo.DecodeHeader(h.Encode()); err != nil || got != h {
		t.Fatalf("decoded %+v (%v)", got, err)
	}
	if h := rcuckoo.NewHeader(100, 4, 20, 3); h.Buckets != 32 || h.Expansion != 4 {
		t.Fatalf("rounded: %+v", h)
	}
	bad := h.Encode()
	bad[8] = 3 // 3 buckets: not a power of two
	if _, err := rcuckoo.DecodeHeader(bad); err == nil {
		t.Fatal("a header with 3 buckets decoded")
	}
}

// Items are found after insertion, counted once per copy, and deleted one
// copy at a time; a full filter grows (and compacts back after
// deletions); with expansion 0 it answers NoSpace; few false positives.
func TestFilter(t *testing.T) {
	st := storetest.New(t)
	tx := st.Begin()
	f, err := rcuckoo.Create(tx, []byte("f"), rcuckoo.NewHeader(1000, 2, 20, 1))
	if err != nil {
		t.Fatal(err)
	}
	const n = 3000
	for i := range n {
		if s, err := f.Insert([]byte("i"+strconv.Itoa(i)), false); err != nil || s != rcuckoo.Inserted {
			t.Fatalf("insert %d: %v %v", i, s, err)
		}
	}
	if f.H.Filters < 2 || f.H.Items != n {
		t.Fatalf("after %d inserts into 1000: %+v", n, f.H)
	}
	for i := range n {
		if ok, _ := f.Exists([]byte("i" + strconv.Itoa(i))); !ok {
			t.Fatalf("item %d not found", i)
		}
	}
	fp := 0
	for i := range 10000 {
		if ok, _ := f.Exists([]byte("o" + strconv.Itoa(i))); ok {
			fp++
		}
	}
	t.Logf("%d sub-filters: %d false positives in 10,000", f.H.Filters, fp)
	if fp > 500 {
		t.Fatalf("%d false positives in 10,000", fp)
	}
	if s, _ := f.Insert([]byte("i1"), true); s != rcuckoo.Exists {
		t.Fatalf("ADDNX of a present item: %v", s)
	}
	if _, err := f.Insert([]byte("i1"), false); err != nil {
		t.Fatal(err)
	}
	if c, _ := f.Count([]byte("i1")); c < 2 {
		t.Fatalf("count of an item added twice: %d", c)
	}
	if err := f.Flush(); err != nil {
		t.Fatal(err)
	}
	st.Commit(tx)

	tx = st.Begin()
	f, _ = rcuckoo.Open(tx, []byte("f"))
	filters := f.H.Filters
	for i := range n {
		if ok, err := f.Delete([]byte("i" + strconv.Itoa(i))); err != nil || !ok {
			t.Fatalf("delete %d: %v %v", i, ok, err)
		}
	}
	if f.H.Items != 1 || f.H.Filters >= filters {
		t.Fatalf("after deleting all but one: %+v (had %d sub-filters)", f.H, filters)
	}
	if ok, _ := f.Exists([]byte("i1")); !ok {
		t.Fatal("the second copy of i1 went with the first")
	}
	if ok, _ := f.Delete([]byte("never")); ok {
		t.Fatal("deleted an item never added")
	}
	st.Commit(tx)

	tx = st.Begin()
	fixed, _ := rcuckoo.Create(tx, []byte("fixed"), rcuckoo.NewHeader(8, 2, 5, 0))
	full := false
	for i := range 100 {
		s, err := fixed.Insert([]byte(strconv.Itoa(i)), false)
		if err != nil {
			t.Fatal(err)
		}
		if s == rcuckoo.NoSpace {
			full = true
			break
		}
	}
	if !full || fixed.H.Filters != 1 {
		t.Fatalf("a filter with expansion 0 took 100 items: %+v", fixed.H)
	}
	st.Commit(tx)
}

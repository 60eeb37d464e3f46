package rtopk_test

import (
	"strconv"
	"testing"

	"github.com/rekv/rekv/actors/store/storetest"
	"github.com/rekv/rekv/actors/types/rtopk"
)

// On a skewed stream (5 items 1,000 times each among 2,000 seen 7.5 times)
// the heavy items end in the heap with counts near
// their true ones; the same commands on a copy of the key give the same
// results (the decays are drawn from the key's own generator).
func TestHeavyHitters(t *testing.T) {
	st := storetest.New(t)
	tx := st.Begin()
	h := rtopk.Header{K: 5, Width: 50, Depth: 5, Decay: 0.9, RNG: 1}
	a, err := rtopk.Create(tx, []byte("a"), h)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := rtopk.Create(tx, []byte("b"), h)
	for i := range 20000 {
		item := "noise:" + strconv.Itoa(i%2000)
		if i%4 == 0 {
			item = "heavy:" + strconv.Itoa(i%20)
		}
		ea, err := a.Add([]byte(item), 1)
		if err != nil {
			t.Fatal(err)
		}
		eb, _ := b.Add([]byte(item), 1)
		if string(ea) != string(eb) {
			t.Fatalf("step %d: expelled %q and %q from equal keys", i, ea, eb)
		}
	}
	list := a.List()
	if len(list) != 5 {
		t.Fatalf("list: %v", list)
	}
	for _, e := range list {
		if len(e.Item) < 6 || string(e.Item[:6]) != "heavy:" {
			t.Fatalf("a light item in the top 5: %q (%d)", e.Item, e.Count)
		}
		if e.Count < 800 || e.Count > 1000 {
			t.Fatalf("%s counted %d, true count 1000", e.Item, e.Count)
		}
		if !a.Query(e.Item) {
			t.Fatalf("%s listed but not found", e.Item)
		}
	}
	if err := a.Flush(); err != nil {
		t.Fatal(err)
	}
	st.Commit(tx)
	tx = st.Begin()
	a, err = rtopk.Open(tx, []byte("a"))
	if err != nil || len(a.List()) != 5 {
		t.Fatalf("reopened: %v", err)
	}
	st.Commit(tx)
}

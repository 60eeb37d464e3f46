package store

import (
	"fmt"
	"testing"

	"github.com/rekv/rekv/drivers"
)

// batcher is a driver whose versions come in batches, counted: the
// Badger driver's own, asked for one by one.
type batcher struct {
	drivers.Driver
	batches []int // sizes asked, in order
	begun   []int // versions asked with a start, in order
	singles int   // NextVersion calls
}

func (b *batcher) NextVersion() (uint64, error) {
	b.singles++
	return b.Driver.NextVersion()
}

func (b *batcher) BeginWithVersions(n int) (drivers.Txn, []uint64, error) {
	b.begun = append(b.begun, n)
	tx, err := b.Driver.Begin(true)
	if err != nil {
		return nil, nil, err
	}
	vs, err := b.versions(n)
	return tx, vs, err
}

func (b *batcher) NextVersions(n int) ([]uint64, error) {
	b.batches = append(b.batches, n)
	return b.versions(n)
}

func (b *batcher) versions(n int) ([]uint64, error) {
	vs := make([]uint64, n)
	for i := range vs {
		v, err := b.Driver.NextVersion()
		if err != nil {
			return nil, err
		}
		vs[i] = v
	}
	return vs, nil
}

// batcherStore returns a batcher on a fresh store, shared (flush markers
// read by every transaction), and a function beginning a write
// transaction in db 0 with spare (nil: none).
func batcherStore(t *testing.T) (*batcher, func(spare *Spare) *Tx) {
	b := &batcher{Driver: open(t)}
	markers, err := LoadFlushMarkers(b, true)
	if err != nil {
		t.Fatal(err)
	}
	c := NewMetaCache(1000)
	return b, func(spare *Spare) *Tx {
		t.Helper()
		tx, err := Env{Drv: b, Caches: func([]byte) *MetaCache { return c }, Markers: markers, Spare: spare}.Begin(true, 0, now)
		if err != nil {
			t.Fatal(err)
		}
		return tx
	}
}

// TestVersionsTakenAhead: on a driver that batches versions, a group
// that prefetched its keys takes its new keys' versions in one batch of
// their number; without a count, batches double; a flush takes its own
// version past the pool, and keys set after it in the same transaction
// are newer than its marker (live, not flushed).
func TestVersionsTakenAhead(t *testing.T) {
	b, beginWith := batcherStore(t)
	begin := func() *Tx { return beginWith(nil) }
	keys := func(prefix string, n int) [][]byte {
		ks := make([][]byte, n)
		for i := range ks {
			ks[i] = fmt.Appendf(nil, "%s%d", prefix, i)
		}
		return ks
	}
	versions := make(map[uint64]string)
	set := func(tx *Tx, ks [][]byte) {
		for _, k := range ks {
			if err := tx.SetString(k, []byte("v"), 0); err != nil {
				t.Fatal(err)
			}
			m, ok, err := tx.Meta(k)
			if err != nil || !ok {
				t.Fatalf("meta of %s: %v %v", k, ok, err)
			}
			if other, dup := versions[m.Version]; dup {
				t.Fatalf("%s and %s share version %d", k, other, m.Version)
			}
			versions[m.Version] = string(k)
		}
	}

	tx := begin()
	group := keys("g", 40)
	tx.Prefetch(group)
	set(tx, group)
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(b.batches) != "[40]" || b.singles != 0 {
		t.Fatalf("a group of 40 new keys: batches %v and %d single versions, want [40] and 0", b.batches, b.singles)
	}

	b.batches = nil
	tx = begin()
	set(tx, keys("u", 10))
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(b.batches) != "[1 2 4 8]" {
		t.Fatalf("10 new keys without a count: batches %v, want [1 2 4 8]", b.batches)
	}

	b.batches = nil
	tx = begin()
	set(tx, keys("a", 2)) // batches of 1 and 2: the pool holds one more version
	if err := tx.Records().Flush(0); err != nil {
		t.Fatal(err)
	}
	after := keys("f", 3)
	set(tx, after)
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if b.singles != 1 {
		t.Fatalf("the flush took %d versions of its own, want 1", b.singles)
	}
	tx = begin()
	defer tx.Rollback()
	for _, k := range after {
		if _, ok, err := tx.GetString(k); err != nil || !ok {
			t.Fatalf("%s set after the flush in its transaction: found %v, %v", k, ok, err)
		}
	}
	for _, k := range append(group, []byte("a0"), []byte("a1")) {
		if _, ok, err := tx.GetString(k); err != nil || ok {
			t.Fatalf("%s set before the flush: found %v, %v", k, ok, err)
		}
	}
}

// TestVersionsWithStart: transactions begun with a shard's Spare learn how
// many versions its transactions use per key and ask for them with their
// start: a group of new keys after one like it waits for no batch of its
// own; groups that create nothing soon ask for none (at most one).
func TestVersionsWithStart(t *testing.T) {
	b, begin := batcherStore(t)
	spare := &Spare{}
	group := func(prefix string) {
		t.Helper()
		tx := begin(spare)
		ks := make([][]byte, 20)
		for i := range ks {
			ks[i] = fmt.Appendf(nil, "%s%d", prefix, i)
		}
		tx.Prefetch(ks)
		for _, k := range ks {
			if err := tx.SetString(k, []byte("v"), 0); err != nil {
				t.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		tx.Release(spare)
	}
	group("a") // learns: 20 versions for 20 keys
	if fmt.Sprint(b.begun, b.batches) != "[] [20]" {
		t.Fatalf("first group: %v with its start, batches %v; want none and [20]", b.begun, b.batches)
	}
	b.begun, b.batches = nil, nil
	group("b")
	if fmt.Sprint(b.begun) != "[20]" || len(b.batches) != 0 {
		t.Fatalf("second group of new keys: %v with its start, batches %v; want [20] and none", b.begun, b.batches)
	}
	b.begun, b.batches = nil, nil
	group("b") // the same keys again: strings keep their versions
	if fmt.Sprint(b.begun) != "[20]" {
		t.Fatalf("third group: %v with its start, want [20] (learned from the one before)", b.begun)
	}
	for range 8 {
		group("b")
	}
	b.begun, b.batches = nil, nil
	group("b")
	if len(b.begun) != 0 && b.begun[0] > 1 || len(b.batches) != 0 {
		t.Fatalf("after groups that created no key: %v with the start, batches %v; want at most 1, none", b.begun, b.batches)
	}
}

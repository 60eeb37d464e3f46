package store

import (
	"fmt"
	"hash/maphash"
	"strings"
	"testing"

	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers/badger"
)

func metaOf(v uint64) cached {
	return cached{meta: codec.Meta{Type: codec.TypeHash, Version: v}, exists: true}
}

// TestMetaCacheSecondChance: a full cache evicts an entry not accessed
// since the sweep last passed, and keeps the ones that were.
func TestMetaCacheSecondChance(t *testing.T) {
	c := NewMetaCache(3)
	for i, k := range []string{"a", "b", "c"} {
		c.put(k, metaOf(uint64(i+1)), 0)
	}
	// A new entry is not referenced and none was read since, so the
	// first insert beyond the size evicts "a", where the hand starts.
	c.put("d", metaOf(4), 0)
	if _, _, ok := get(c, "a"); ok {
		t.Fatal("a survived, want it evicted first")
	}
	// b is read: it gets a second chance, so c goes next.
	if _, _, ok := get(c, "b"); !ok {
		t.Fatal("b missing")
	}
	c.put("e", metaOf(5), 0)
	if _, _, ok := get(c, "c"); ok {
		t.Fatal("c survived, want it evicted before the referenced b")
	}
	for _, k := range []string{"b", "d", "e"} {
		if _, _, ok := get(c, k); !ok {
			t.Fatalf("%s missing", k)
		}
	}
	if c.Len() != 3 {
		t.Fatalf("Len = %d, want 3", c.Len())
	}
}

// TestMetaCacheBounded: many distinct keys never grow it past its size,
// and every key it reports holds the value last put.
func TestMetaCacheBounded(t *testing.T) {
	c := NewMetaCache(64)
	for i := range 10_000 {
		k := fmt.Sprint(i % 300)
		c.put(k, metaOf(uint64(i)), 0)
		if i%7 == 0 {
			get(c, fmt.Sprint(i%50))
		}
		if i%11 == 0 {
			c.remove(fmt.Sprint(i % 90))
		}
		if c.Len() > 64 || len(c.metas.slots) > 64 {
			t.Fatalf("after %d puts: %d entries, %d slots, want at most 64", i, c.Len(), len(c.metas.slots))
		}
	}
	used := 0
	for i, s := range c.metas.slots {
		if !s.used {
			continue
		}
		used++
		if at := c.metas.find(s.key, 0); at != i {
			t.Fatalf("slot %d holds %q, which the index finds at %d", i, s.key, at)
		}
	}
	if used != c.metas.len() {
		t.Fatalf("%d slots in use, the index holds %d", used, c.metas.len())
	}
	// The last put of key 9999 % 300 = 99 was i = 9999.
	if e, _, ok := get(c, "99"); !ok || e.meta.Version != 9999 {
		t.Fatalf("99 = %+v %v, want version 9999", e.meta, ok)
	}
}

// TestMetaCachePurgeFrees: a purge (FLUSHALL) lets go of the slots a full
// cache grew, and the cache fills again after it.
func TestMetaCachePurgeFrees(t *testing.T) {
	c := NewMetaCache(4096)
	for i := range 4096 {
		c.put(fmt.Sprint(i), metaOf(uint64(i)), 0)
	}
	if cap(c.metas.slots) < 4096 {
		t.Fatalf("%d slots for 4096 entries", cap(c.metas.slots))
	}
	c.Purge()
	if c.Len() != 0 || cap(c.metas.slots) != 0 {
		t.Fatalf("after a purge: %d entries, %d slots kept", c.Len(), cap(c.metas.slots))
	}
	c.put("k", metaOf(7), 0)
	if e, _, ok := get(c, "k"); !ok || e.meta.Version != 7 {
		t.Fatalf("k after the purge = %+v %v", e.meta, ok)
	}
}

// TestMetaCacheHints: a hint updates its key's entry in place; a stale one
// (its slot taken by another key, or the cache purged) is ignored and
// never overwrites another key's entry.
func TestMetaCacheHints(t *testing.T) {
	c := NewMetaCache(2)
	ha := c.put("a", metaOf(1), 0)
	if _, h, _ := get(c, "a"); h != ha {
		t.Fatalf("get's hint %d, put's %d", h, ha)
	}
	if h := c.put("a", metaOf(2), ha); h != ha {
		t.Fatalf("in-place put moved a from %d to %d", ha, h)
	}
	c.remove("a")
	hb := c.put("b", metaOf(3), 0)
	c.put("c", metaOf(4), 0)
	// a's old slot now holds b or c: its stale hint must not touch them.
	c.put("a", metaOf(5), ha)
	if e, _, ok := get(c, "a"); !ok || e.meta.Version != 5 {
		t.Fatalf("a = %+v %v, want version 5", e.meta, ok)
	}
	if e, _, ok := get(c, "b"); ok && e.meta.Version != 3 {
		t.Fatalf("b = %d, overwritten through a's stale hint", e.meta.Version)
	}
	if e, _, ok := get(c, "c"); ok && e.meta.Version != 4 {
		t.Fatalf("c = %d, overwritten through a's stale hint", e.meta.Version)
	}
	c.Purge()
	if c.Len() != 0 {
		t.Fatalf("Len after Purge = %d", c.Len())
	}
	c.put("b", metaOf(6), hb)
	if e, _, ok := get(c, "b"); !ok || e.meta.Version != 6 {
		t.Fatalf("b after Purge = %+v %v, want version 6", e.meta, ok)
	}
}

// TestMetaCacheDisabled: a disabled cache remembers nothing, and with an
// access clock (a shared store's shards have one) its accesses, which
// look for an entry first, go to the clock (a look-up in its empty index
// once hashed with no hash function: a panic on every TiKV write).
func TestMetaCacheDisabled(t *testing.T) {
	c := NewMetaCache(0)
	if !c.Disabled() || c.Len() != 0 {
		t.Fatal("size 0 is not disabled")
	}
	a := NewAccessClock(16, 100_000)
	c.SetClock(a)
	c.touch("k", 0, 200_000)
	c.touch("k", 3, 210_000) // a stale hint
	if c.lastAccess("k") != 210_000 || a.last("k") != 210_000 {
		t.Fatalf("k: %d, clock %d; want 210_000 in the clock", c.lastAccess("k"), a.last("k"))
	}
	c.remove("k")
	if _, _, ok := get(c, "k"); ok {
		t.Fatal("a disabled cache found k")
	}
	c.Purge()
}

// TestMetaCacheAccessTimes: a cached key's accesses are kept in its entry,
// not in the clock, and reach the clock when the entry leaves the cache
// (evicted, removed or purged); an uncached key's go to the clock.
func TestMetaCacheAccessTimes(t *testing.T) {
	c := NewMetaCache(2)
	a := NewAccessClock(16, 100_000)
	c.SetClock(a)
	ha := c.put("a", metaOf(1), 0)
	c.touch("a", ha, 200_000)
	c.touch("x", 0, 210_000) // not cached
	if c.lastAccess("a") != 200_000 || a.last("a") != 100_000 {
		t.Fatalf("a: cache %d, clock %d; want 200_000 in the entry only", c.lastAccess("a"), a.last("a"))
	}
	if c.lastAccess("x") != 210_000 || a.last("x") != 210_000 {
		t.Fatalf("x: %d, clock %d; want 210_000 in the clock", c.lastAccess("x"), a.last("x"))
	}
	c.touch("a", 0, 150_000) // RESTORE IDLETIME: an older time, no hint
	if c.lastAccess("a") != 150_000 {
		t.Fatalf("a after an older time: %d, want 150_000", c.lastAccess("a"))
	}
	c.put("b", metaOf(2), 0)
	c.put("c", metaOf(3), 0) // evicts a (unreferenced since its put)
	if _, _, ok := get(c, "a"); ok {
		t.Fatal("a still cached")
	}
	if c.lastAccess("a") != 150_000 || a.last("a") != 150_000 {
		t.Fatalf("a after eviction: %d, clock %d; want 150_000", c.lastAccess("a"), a.last("a"))
	}
	// A removed entry hands its time over, and so does a purged one.
	c.touch("b", 0, 300_000)
	c.remove("b")
	if a.last("b") != 300_000 {
		t.Fatalf("b after remove: clock %d, want 300_000", a.last("b"))
	}
	hc := c.put("c", metaOf(4), 0)
	c.touch("c", hc, 400_000)
	c.Purge()
	if a.last("c") != 400_000 || c.lastAccess("c") != 400_000 {
		t.Fatalf("c after Purge: clock %d, want 400_000", a.last("c"))
	}
}

// get returns the entry of mk and its slot hint, as raw's look-up does.
func get(c *MetaCache, mk string) (cached, int32, bool) {
	_, e, hint, ok := c.lookup([]byte(mk))
	return e, hint, ok
}

// TestMetaEntryPacking: every field of a cached state survives the packed
// entry, an update keeps the entry's access time, and the cache's slots
// never grow past its size.
func TestMetaEntryPacking(t *testing.T) {
	states := []cached{
		{},
		{meta: codec.Meta{Type: codec.TypeString, ExpireAt: 1700000000123, Version: 1<<63 + 5}, exists: true, payload: []byte("v"), loaded: true},
		{meta: codec.Meta{Type: codec.TypeString, Version: 9, Size: 1 << 30, Chunked: true}, exists: true},
		{meta: codec.Meta{Type: codec.TypeList, Version: 7, Size: 3, Head: 1<<63 - 1, Tail: 1<<63 + 2}, exists: true},
		{meta: codec.Meta{Type: codec.TypeStream, Version: 8, Size: 2, Stream: codec.StreamMeta{
			LastID: codec.StreamID{Ms: 5, Seq: 6}, MaxDeletedID: codec.StreamID{Ms: 1, Seq: 2}, EntriesAdded: 11}}, exists: true},
	}
	c := NewMetaCache(len(states) + 1)
	c.SetClock(NewAccessClock(16, 1))
	for i, v := range states {
		e := pack(v)
		if got := e.unpack(); fmt.Sprint(got) != fmt.Sprint(v) {
			t.Fatalf("state %d: unpacked %+v, want %+v", i, got, v)
		}
		k := fmt.Sprint("k", i)
		c.put(k, v, 0)
		c.touch(k, 0, int64(100+i))
		// An update, here to the next state, keeps the access time.
		next := states[(i+1)%len(states)]
		c.put(k, next, 0)
		if got, _, ok := get(c, k); !ok || fmt.Sprint(got) != fmt.Sprint(next) {
			t.Fatalf("state %d: cached %+v %v, want %+v", i, got, ok, next)
		}
		if at := c.lastAccess(k); at != int64(100+i) {
			t.Fatalf("state %d: last access %d after an update, want %d", i, at, 100+i)
		}
	}
	big := NewMetaCache(1000)
	for i := range 5000 {
		big.put(fmt.Sprint(i), metaOf(uint64(i)), 0)
	}
	if n := cap(big.metas.slots); n != 1000 {
		t.Fatalf("slots capacity %d, want the size, 1000", n)
	}
}

// TestTxLastLookupFollowsCache: a transaction serves a key's second
// look-up from the entry it found first (Tx.last) only while the cache
// is unchanged; a change of the cache since (here other transactions'
// commits, and a purge) is seen, as a look-up in the cache sees it.
func TestTxLastLookupFollowsCache(t *testing.T) {
	d, err := badger.Open(badger.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	c := NewMetaCache(16)
	env := Env{Drv: d, Caches: func([]byte) *MetaCache { return c }}
	set := func(v string) {
		w, err := env.Begin(true, 0, now)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.SetString([]byte("k"), []byte(v), 0); err != nil {
			t.Fatal(err)
		}
		if err := w.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	set("one")
	r, err := env.Begin(false, 0, now)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Rollback()
	want := func(step, v string) {
		t.Helper()
		got, ok, err := r.GetString([]byte("k"))
		if err != nil || !ok || string(got) != v {
			t.Fatalf("%s: GET = %q %v %v, want %q", step, got, ok, err, v)
		}
	}
	want("first", "one")
	want("again", "one")
	set("two") // committed into the cache the reader's look-up reads
	want("after a commit", "two")
	c.Purge() // the next look-up reads the store, whose lazy transaction starts then
	want("after a purge", "two")
}

// TestMetaCacheInlineKeys: entries are found by their whole key whether
// it is held in the entry (at most metaInlineKey bytes) or only in its
// string: keys one byte apart in length or content, a value update that
// keeps the entry, and two keys whose tags collide under the cache's
// seed (found by trying keys until two share one).
func TestMetaCacheInlineKeys(t *testing.T) {
	c := NewMetaCache(1 << 12)
	long := strings.Repeat("k", metaInlineKey)
	keys := []string{"a", "ab", long[:metaInlineKey-1], long, long + "k", long + "kk", long[:metaInlineKey-1] + "x", "b"}
	for i, k := range keys {
		c.put(k, metaOf(uint64(i+1)), 0)
	}
	c.put(long, metaOf(100), 0) // an update keeps the entry and its key
	for i := range c.metas.slots {
		s := &c.metas.slots[i]
		want := len(s.key)
		if want > metaInlineKey {
			want = 0
		}
		if s.used && int(s.val.keyLen) != want {
			t.Fatalf("%q holds %d bytes of its key inline, want %d", s.key, s.val.keyLen, want)
		}
	}
	for i, k := range keys {
		want := uint64(i + 1)
		if k == long {
			want = 100
		}
		if e, _, ok := get(c, k); !ok || e.meta.Version != want {
			t.Fatalf("%q = %+v %v, want version %d", k, e.meta, ok, want)
		}
	}
	for _, k := range []string{"", "abc", long[:metaInlineKey-2], long + "kkk", "a\x00"} {
		if _, _, ok := get(c, k); ok {
			t.Fatalf("%q found, never put", k)
		}
	}
	seen := map[uint32]string{}
	var x, y string
	for i := 0; x == ""; i++ {
		for _, k := range []string{fmt.Sprintf("c%d", i), fmt.Sprintf("%s-%d", long, i)} {
			tag := tagOf(maphash.String(c.seed, k))
			if o, ok := seen[tag]; ok {
				x, y = o, k
				break
			}
			seen[tag] = k
		}
	}
	c.put(x, metaOf(1), 0)
	if _, _, ok := get(c, y); ok {
		t.Fatalf("%q found through %q, which shares its tag", y, x)
	}
	c.put(y, metaOf(2), 0)
	for k, v := range map[string]uint64{x: 1, y: 2} {
		if e, _, ok := get(c, k); !ok || e.meta.Version != v {
			t.Fatalf("colliding %q = %+v %v, want version %d", k, e.meta, ok, v)
		}
	}
}

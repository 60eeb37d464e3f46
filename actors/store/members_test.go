package store

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"

	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/drivers/faulty"
)

// TestMemberCacheEntries: what put records is what get returns — absent,
// a short value, or (long values) only that the member exists — and a
// later put replaces it whatever it held.
func TestMemberCacheEntries(t *testing.T) {
	c := NewMetaCache(10)
	c.EnableMembers(10)
	m := c.members
	long := bytes.Repeat([]byte("x"), MaxCachedMember+1)
	type want struct {
		val            string
		exists, loaded bool
	}
	steps := []struct {
		v      []byte
		exists bool
		want   want
	}{
		{nil, false, want{loaded: true}},
		{nil, true, want{exists: true, loaded: true}}, // a set member: empty value
		{[]byte("v1"), true, want{val: "v1", exists: true, loaded: true}},
		{long, true, want{exists: true}},
		{[]byte("v2"), true, want{val: "v2", exists: true, loaded: true}},
		{nil, false, want{loaded: true}},
		{[]byte(""), true, want{exists: true, loaded: true}},
	}
	for i, s := range steps {
		m.put([]byte("k"), s.v, s.exists, true)
		got, ok := m.get([]byte("k"))
		if !ok || got.exists != s.want.exists || got.loaded != s.want.loaded || got.loaded && got.value() != s.want.val {
			t.Fatalf("step %d: get = %+v %v, want %+v", i, got, ok, s.want)
		}
	}
	m.remove([]byte("k"))
	if _, ok := m.get([]byte("k")); ok {
		t.Fatal("removed entry still cached")
	}
	if c.Members() != 0 {
		t.Fatalf("Members = %d, want 0", c.Members())
	}
	// A long value is not added by a write (add false: big string chunks
	// would only crowd the cache), only recorded over an entry there.
	m.put([]byte("big"), long, true, false)
	if _, ok := m.get([]byte("big")); ok {
		t.Fatal("a long value written was added")
	}
}

// TestMemberCacheHashCollision: names sharing an index hash never answer
// for each other; the later one replaces the earlier.
func TestMemberCacheHashCollision(t *testing.T) {
	c := NewMetaCache(10)
	c.EnableMembers(10)
	m := c.members
	m.put([]byte("a"), []byte("va"), true, true)
	// Make b's hash point at a's entry, as a collision would.
	i, hb := m.find(xxhash.Sum64String("a"), 0), xxhash.Sum64String("b")
	m.idx.remove(m.slots[i].tag, i)
	m.slots[i].key, m.slots[i].tag = hb, tagOf(hb)
	m.idx.insert(tagOf(hb), i)
	if e, ok := m.get([]byte("b")); ok {
		t.Fatalf("b answered by a's entry: %+v", e)
	}
	m.put([]byte("b"), []byte("vb"), true, true)
	if e, ok := m.get([]byte("b")); !ok || e.value() != "vb" {
		t.Fatalf("b = %+v %v, want vb", e, ok)
	}
}

// TestMemberCacheOffWithMetaCache: a disabled meta cache (shared store)
// keeps no members either.
func TestMemberCacheOffWithMetaCache(t *testing.T) {
	c := NewMetaCache(0)
	c.EnableMembers(100)
	if c.members != nil {
		t.Fatal("a disabled meta cache got a member cache")
	}
}

// hashField reads field f of hash h in a new transaction on d with cache c.
func hashField(t *testing.T, d drivers.Driver, c *MetaCache, h, f string) (string, bool) {
	t.Helper()
	tx := begin(t, d, c)
	defer tx.Rollback()
	coll, err := tx.Open([]byte(h), codec.TypeHash, false)
	if err != nil || coll == nil {
		t.Fatalf("open %s: %v %v", h, coll, err)
	}
	v, ok, err := coll.Get([]byte(f))
	if err != nil {
		t.Fatal(err)
	}
	return string(v), ok
}

// putField sets field f of hash h to v in tx (growing the hash when new).
func putField(t *testing.T, tx *Tx, h, f, v string) {
	t.Helper()
	coll, err := tx.Open([]byte(h), codec.TypeHash, true)
	if err != nil {
		t.Fatal(err)
	}
	ok, err := coll.Has([]byte(f))
	if err != nil {
		t.Fatal(err)
	}
	if err := coll.Put([]byte(f), []byte(v)); err != nil {
		t.Fatal(err)
	}
	if !ok {
		if err := coll.Grow(1); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMemberWritesSeenInTransaction: a transaction reads its own member
// writes (the cache holds them at once), and the store agrees once it
// commits.
func TestMemberWritesSeenInTransaction(t *testing.T) {
	d := open(t)
	c := NewMetaCache(10)
	c.EnableMembers(10)
	tx := begin(t, d, c)
	putField(t, tx, "h", "f", "one")
	coll, _ := tx.Open([]byte("h"), codec.TypeHash, false)
	if v, ok, _ := coll.Get([]byte("f")); !ok || string(v) != "one" {
		t.Fatalf("in tx: %q %v", v, ok)
	}
	putField(t, tx, "h", "f", "two")
	if v, ok, _ := coll.Get([]byte("f")); !ok || string(v) != "two" {
		t.Fatalf("in tx after overwrite: %q %v", v, ok)
	}
	commit(t, tx)
	tx.Rollback() // as the engine does after a commit: keeps the entries
	if c.Members() == 0 {
		t.Fatal("the committed write left no entry")
	}
	if v, ok := hashField(t, d, c, "h", "f"); !ok || v != "two" {
		t.Fatalf("after commit: %q %v", v, ok)
	}
	if v, ok := hashField(t, d, NewMetaCache(0), "h", "f"); !ok || v != "two" {
		t.Fatalf("store after commit: %q %v", v, ok)
	}
}

// TestMemberWritesUndone: writes of a transaction that rolls back, or
// whose commit fails, leave no entry behind: readers see the committed
// value, not the lost one.
func TestMemberWritesUndone(t *testing.T) {
	for _, end := range []string{"rollback", "failed commit"} {
		t.Run(end, func(t *testing.T) {
			f := faulty.Wrap(open(t))
			c := NewMetaCache(10)
			c.EnableMembers(10)
			tx := begin(t, f, c)
			putField(t, tx, "h", "f", "committed")
			commit(t, tx)

			tx = begin(t, f, c)
			putField(t, tx, "h", "f", "lost")
			putField(t, tx, "h", "g", "lost too")
			if end == "rollback" {
				tx.Rollback()
			} else {
				f.FailCommits(errors.New("disk full"))
				if err := tx.Commit(); err == nil {
					t.Fatal("commit succeeded")
				}
				f.FailCommits(nil)
				tx.Rollback()
			}
			if v, ok := hashField(t, f, c, "h", "f"); !ok || v != "committed" {
				t.Fatalf("f = %q %v, want the committed value", v, ok)
			}
			if v, ok := hashField(t, f, c, "h", "g"); ok {
				t.Fatalf("g = %q, want missing", v)
			}
		})
	}
}

// TestMemberLongValues: a value past MaxCachedMember is cached only as
// existing, and reads still get all of it.
func TestMemberLongValues(t *testing.T) {
	d := open(t)
	c := NewMetaCache(10)
	c.EnableMembers(10)
	long := strings.Repeat("abc", MaxCachedMember)
	tx := begin(t, d, c)
	putField(t, tx, "h", "f", long)
	commit(t, tx)
	if v, ok := hashField(t, d, c, "h", "f"); !ok || v != long {
		t.Fatalf("long value: %d bytes %v", len(v), ok)
	}
}

// TestMemberCacheAgreesWithStore runs random hash, set and list changes
// in transactions that commit or roll back, on one store with a tiny
// member cache (so entries are evicted all the time) and on another with
// no member cache, and checks that every read agrees between the two.
func TestMemberCacheAgreesWithStore(t *testing.T) {
	const keys, fields, rounds = 2, 6, 3000
	type side struct {
		d drivers.Driver
		c *MetaCache
	}
	cached := side{open(t), NewMetaCache(100)}
	cached.c.EnableMembers(5)
	plain := side{open(t), NewMetaCache(100)}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range rounds {
		// One transaction per side, the same operations on both.
		ops := make([]func(*Tx) string, 1+rng.IntN(6))
		for i := range ops {
			key := []byte(fmt.Sprintf("k%d", rng.IntN(keys)))
			field := []byte(fmt.Sprintf("f%d", rng.IntN(fields)))
			val := []byte(fmt.Sprintf("v%d", rng.IntN(1000)))
			if rng.IntN(5) == 0 {
				val = bytes.Repeat(val, 20) // past MaxCachedMember
			}
			switch rng.IntN(5) {
			case 0, 1: // HSET
				ops[i] = func(tx *Tx) string {
					c, err := tx.Open(key, codec.TypeHash, true)
					if err != nil {
						return err.Error()
					}
					ok, err := c.Has(field)
					if err == nil {
						err = c.Put(field, val)
					}
					if err == nil && !ok {
						err = c.Grow(1)
					}
					return fmt.Sprint(ok, err)
				}
			case 2: // HDEL
				ops[i] = func(tx *Tx) string {
					c, err := tx.Open(key, codec.TypeHash, false)
					if c == nil || err != nil {
						return fmt.Sprint(err)
					}
					ok, err := c.Has(field)
					if ok && err == nil {
						if err = c.Remove(field); err == nil {
							err = c.Grow(-1)
						}
					}
					return fmt.Sprint(ok, err)
				}
			default: // HGET
				ops[i] = func(tx *Tx) string {
					c, err := tx.Open(key, codec.TypeHash, false)
					if c == nil || err != nil {
						return fmt.Sprint(err)
					}
					v, ok, err := c.Get(field)
					return fmt.Sprint(string(v), ok, err, c.Size())
				}
			}
		}
		keep := rng.IntN(4) != 0
		var got [2][]string
		for s, sd := range []side{cached, plain} {
			tx := begin(t, sd.d, sd.c)
			for _, op := range ops {
				got[s] = append(got[s], op(tx))
			}
			if keep {
				commit(t, tx)
			}
			tx.Rollback()
		}
		for i := range got[0] {
			if got[0][i] != got[1][i] {
				t.Fatalf("round %d op %d: with member cache %q, without %q", round, i, got[0][i], got[1][i])
			}
		}
	}
	if cached.c.Members() == 0 || plain.c.Members() != 0 {
		t.Fatalf("members cached: %d and %d, want some and none", cached.c.Members(), plain.c.Members())
	}
}

// TestListCacheBudget: random pushes, sets, deletes and merges over a few
// windows keep the byte count exact and within the budget, and every
// window consistent with a model of the values it should hold.
func TestListCacheBudget(t *testing.T) {
	c := NewMetaCache(10)
	c.EnableLists(600)
	lc := c.lists
	model := map[uint64]map[uint64]string{} // version -> index -> value
	held := 0
	rng := rand.New(rand.NewPCG(5, 6))
	for step := range 20000 {
		v := uint64(rng.IntN(3))
		if model[v] == nil {
			model[v] = map[uint64]string{}
		}
		i := uint64(100 + rng.IntN(40))
		val := fmt.Sprintf("x%d", step)
		switch rng.IntN(4) {
		case 0, 1:
			lc.set(v, i, []byte(val), rng.IntN(2) == 0)
			model[v][i] = val
		case 2:
			lc.del(v, i)
			delete(model[v], i)
		default:
			from := uint64(100 + rng.IntN(40))
			var vals [][]byte
			for j := from; j < from+5; j++ {
				s, ok := model[v][j]
				if !ok {
					break
				}
				vals = append(vals, []byte(s))
			}
			lc.merge(v, from, vals)
		}
		total := 0
		for wv, w := range lc.wins {
			total += w.bytes
			sum := 0
			for k := range w.n {
				s := *w.at(k)
				sum += elemCost(s)
				if want, ok := model[wv][w.lo+uint64(k)]; !ok || want != s {
					t.Fatalf("step %d: window %d index %d = %q, model %q %v", step, wv, w.lo+uint64(k), s, want, ok)
				}
			}
			if sum != w.bytes || w.n == 0 {
				t.Fatalf("step %d: window %d counts %d bytes, holds %d (%d elements)", step, wv, w.bytes, sum, w.n)
			}
		}
		if total != lc.bytes || lc.bytes > lc.max {
			t.Fatalf("step %d: cache counts %d bytes, windows hold %d, budget %d", step, lc.bytes, total, lc.max)
		}
		held = max(held, c.ListElements())
	}
	if held < 10 {
		t.Fatalf("at most %d elements held at once: the windows were hardly used", held)
	}
}

package rlist_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/actors/types/rlist"
	"github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/drivers/badger"
)

// side is one store with its cache.
type side struct {
	d drivers.Driver
	c *store.MetaCache
}

func newSide(t *testing.T, listBytes int) side {
	d, err := badger.Open(badger.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	c := store.NewMetaCache(100)
	c.EnableMembers(50)
	c.EnableLists(listBytes)
	return side{d, c}
}

func (s side) begin(t *testing.T) *store.Tx {
	tx, err := store.Env{Drv: s.d, Caches: func([]byte) *store.MetaCache { return s.c },
		Markers: &store.FlushMarkers{}}.Begin(true, 0, 1_700_000_000_000)
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

// TestListWindowsAgreeWithStore runs random pushes, pops, LSETs, inserts,
// removals, trims and reads of a few lists, in transactions that commit
// or roll back, on a store with small list windows (cut and evicted all
// the time) and on one without any, and checks every result agrees.
func TestListWindowsAgreeWithStore(t *testing.T) {
	cached, plain := newSide(t, 1500), newSide(t, 0)
	rng := rand.New(rand.NewPCG(3, 4))
	val := func() []byte {
		v := []byte(fmt.Sprintf("v%d", rng.IntN(50)))
		if rng.IntN(40) == 0 {
			v = bytes.Repeat(v, 400) // past MaxCachedElement
		}
		return v
	}
	for round := range 5000 {
		type op func(tx *store.Tx) string
		ops := make([]op, 1+rng.IntN(5))
		for i := range ops {
			key := []byte(fmt.Sprintf("l%d", rng.IntN(3)))
			a, b2 := int64(rng.IntN(30)-10), int64(rng.IntN(30)-10)
			left := rng.IntN(2) == 0
			elems := make([][]byte, 1+rng.IntN(3))
			for k := range elems {
				elems[k] = val()
			}
			kind, step := rng.IntN(9), uint64(2+rng.IntN(3))
			ops[i] = func(tx *store.Tx) string {
				l, err := rlist.Open(tx, key, kind < 2)
				if err != nil || l == nil {
					return fmt.Sprint(err)
				}
				switch kind {
				case 0, 1: // LPUSH / RPUSH
					return fmt.Sprint(l.Push(left, elems...))
				case 2: // LPOP / RPOP count
					vs, err := l.Pop(left, 1+a%3+3)
					return fmt.Sprintf("%q %v", vs, err)
				case 3: // LSET
					if at, ok := l.Abs(a); ok {
						return fmt.Sprint(l.Set(at, elems[0]))
					}
					return "out of range"
				case 4: // LINSERT
					if at, ok := l.Abs(a); ok {
						return fmt.Sprint(l.InsertAt(at, elems[0]))
					}
					return "no pivot"
				case 5: // LREM of a few indexes
					var hits []uint64
					for i := l.Head(); i < l.Tail(); i += step {
						hits = append(hits, i)
					}
					return fmt.Sprint(l.RemoveAt(hits))
				case 6: // LINDEX
					if at, ok := l.Abs(a); ok {
						v, err := l.Get(at)
						return fmt.Sprintf("%q %v", v, err)
					}
					return "nil"
				default: // LRANGE
					from, to := l.Span(a, b2)
					vs, err := l.Values(from, to)
					return fmt.Sprintf("%q %v", vs, err)
				}
			}
		}
		keep := rng.IntN(4) != 0
		var got [2][]string
		for s, sd := range []side{cached, plain} {
			tx := sd.begin(t)
			for _, op := range ops {
				got[s] = append(got[s], op(tx))
			}
			if keep {
				if err := tx.Commit(); err != nil {
					t.Fatal(err)
				}
			}
			tx.Rollback()
		}
		for i := range got[0] {
			if got[0][i] != got[1][i] {
				t.Fatalf("round %d op %d: with windows %s, without %s", round, i, got[0][i], got[1][i])
			}
		}
	}
	if cached.c.ListElements() == 0 || plain.c.ListElements() != 0 {
		t.Fatalf("elements in windows: %d and %d, want some and none", cached.c.ListElements(), plain.c.ListElements())
	}
}

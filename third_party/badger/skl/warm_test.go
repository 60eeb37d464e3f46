package skl

// Added for rekv (patch 0006): Warm reads and changes nothing, and a
// PutHint after it makes the list a Put makes.

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dgraph-io/badger/v4/y"
)

func warmKey(i int) []byte { return y.KeyWithTs([]byte(fmt.Sprintf("key%08d", i)), 1) }

func listEntries(l *Skiplist) []string {
	var out []string
	it := l.NewIterator()
	defer it.Close()
	for it.SeekToFirst(); it.Valid(); it.Next() {
		out = append(out, string(it.Key())+"="+string(it.Value().Value))
	}
	return out
}

// TestWarmChangesNothing: Warm over keys present, absent, before the
// first and after the last, and nil, in batches of every size around its
// lanes, leaves the list as it was, compares nodes, and allocates
// nothing.
func TestWarmChangesNothing(t *testing.T) {
	l := NewSkiplist(1 << 22)
	defer l.DecrRef()
	hints := make([]Hint, 64)
	if got := l.Warm([][]byte{warmKey(1)}, hints); got != 0 {
		t.Fatalf("Warm on an empty list compared %d nodes", got)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		l.Put(warmKey(2*r.IntN(10000)+1), y.ValueStruct{Value: []byte("v")}) // odd keys
	}
	before := listEntries(l)
	for n := 1; n <= 3*warmLanes+1; n++ {
		keys := make([][]byte, n)
		for i := range keys {
			keys[i] = warmKey(r.IntN(20002) - 1) // present, absent, and both ends
		}
		keys[n/2] = nil
		if got := l.Warm(keys, hints); got == 0 && n > 1 {
			t.Fatalf("Warm of %d keys compared no node", n)
		}
		if after := listEntries(l); !equal(after, before) {
			t.Fatalf("Warm of %d keys changed the list", n)
		}
	}
	keys := make([][]byte, 64)
	for i := range keys {
		keys[i] = warmKey(2*i + 2)
	}
	if allocs := testing.AllocsPerRun(100, func() { l.Warm(keys, hints) }); allocs != 0 {
		t.Fatalf("Warm allocated %.1f times, want 0", allocs)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestPutHintAsPut: batches warmed then put with their hints (new keys,
// overwrites, neighbours put between a key's Warm and its Put, the same
// key twice in a batch) make exactly the list that Puts alone make.
func TestPutHintAsPut(t *testing.T) {
	hinted, plain := NewSkiplist(1<<24), NewSkiplist(1<<24)
	defer hinted.DecrRef()
	defer plain.DecrRef()
	r := rand.New(rand.NewPCG(5, 6))
	hints := make([]Hint, 64)
	for batch := range 400 {
		n := 1 + r.IntN(64)
		keys := make([][]byte, n)
		for i := range keys {
			switch r.IntN(4) {
			case 0:
				keys[i] = warmKey(r.IntN(50)) // crowded: neighbours in one batch
			case 1:
				if i > 0 {
					keys[i] = bytes.Clone(keys[i-1]) // the same key again
					break
				}
				fallthrough
			default:
				keys[i] = warmKey(r.IntN(100000))
			}
		}
		hinted.Warm(keys, hints)
		for i, k := range keys {
			v := y.ValueStruct{Value: []byte(fmt.Sprintf("%d.%d", batch, i))}
			hinted.PutHint(k, v, &hints[i])
			plain.Put(k, v)
		}
	}
	h, p := listEntries(hinted), listEntries(plain)
	if !equal(h, p) {
		t.Fatalf("hinted puts made %d entries, plain puts %d, or different ones", len(h), len(p))
	}
	for i := 1; i < len(h); i++ {
		if h[i-1] >= h[i] {
			t.Fatalf("out of order: %q then %q", h[i-1], h[i])
		}
	}
}

// BenchmarkPutBatch puts batches of 64 random keys into a list of
// 200,000 (a memtable of megabytes, as rekv's group commits fill it),
// each batch warmed first (and put with its hints) or not.
func BenchmarkPutBatch(b *testing.B) {
	for _, warm := range []bool{false, true} {
		b.Run(fmt.Sprintf("warm=%v", warm), func(b *testing.B) {
			l := NewSkiplist(256 << 20)
			defer l.DecrRef()
			r := rand.New(rand.NewPCG(3, 4))
			v := y.ValueStruct{Value: []byte("value")}
			ts := uint64(1)
			for range 200_000 {
				l.Put(y.KeyWithTs([]byte(fmt.Sprintf("key:%08d", r.IntN(1_000_000))), ts), v)
			}
			keys := make([][]byte, 64)
			hints := make([]Hint, 64)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if i%64 == 0 {
					ts++
					for j := range keys {
						keys[j] = y.KeyWithTs(fmt.Appendf(keys[j][:0], "key:%08d", r.IntN(1_000_000)), ts)
					}
					if warm {
						l.Warm(keys, hints)
					}
				}
				if warm {
					l.PutHint(keys[i%64], v, &hints[i%64])
				} else {
					l.Put(keys[i%64], v)
				}
			}
		})
	}
}

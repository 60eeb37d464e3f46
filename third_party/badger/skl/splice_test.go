package skl

// Added for rekv (patch 0006): FindSplices and PutSpliced make the list
// Put makes, with splices gone stale and keys already there, and put
// nothing on the heap.

import (
	"bytes"
	"fmt"
	"math/rand"
	"sync"
	"testing"

	"github.com/dgraph-io/badger/v4/y"
)

// putChunks puts keys into l in chunks of MaxSplices, each chunk's
// splices found before any of its keys is put.
func putChunks(l *Skiplist, keys [][]byte, val func(int) []byte) {
	var sp [MaxSplices]Splice
	for i := 0; i < len(keys); i += MaxSplices {
		chunk := keys[i:min(i+MaxSplices, len(keys))]
		l.FindSplices(chunk, sp[:len(chunk)])
		for j, k := range chunk {
			l.PutSpliced(k, y.ValueStruct{Value: val(i + j)}, &sp[j])
		}
	}
}

// contents lists l's keys and values in order, checking the order and
// that every level is a sorted sublist of the one below.
func contents(t *testing.T, l *Skiplist) []string {
	t.Helper()
	var out []string
	var last []byte
	for it := l.NewIterator(); ; {
		if out == nil {
			it.SeekToFirst()
		} else {
			it.Next()
		}
		if !it.Valid() {
			_ = it.Close()
			break
		}
		if last != nil && y.CompareKeys(last, it.Key()) >= 0 {
			t.Fatalf("keys out of order: %q then %q", last, it.Key())
		}
		last = append(last[:0], it.Key()...)
		out = append(out, fmt.Sprintf("%x=%s", it.Key(), it.Value().Value))
	}
	for h := 1; h < int(l.getHeight()); h++ {
		for n := l.getNext(l.head, h); n != nil; {
			next := l.getNext(n, h)
			if next != nil && y.CompareKeys(n.key(l.arena), next.key(l.arena)) >= 0 {
				t.Fatalf("level %d out of order", h)
			}
			n = next
		}
	}
	return out
}

// TestSpliceMatchesPut: random keys (some repeated, within a chunk and
// across chunks; some next to each other, so that the splices of a
// chunk go stale as its keys go in) make the same list through
// FindSplices and PutSpliced as through Put, values of repeated keys
// replaced alike.
func TestSpliceMatchesPut(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, tc := range []struct {
		name  string
		n     int
		space int
	}{{"sparse", 5000, 1 << 30}, {"dense", 5000, 3000}, {"adjacent", 2000, 40}} {
		keys := make([][]byte, tc.n)
		for i := range keys {
			keys[i] = y.KeyWithTs([]byte(fmt.Sprintf("k%010d", rng.Intn(tc.space))), 7)
		}
		val := func(i int) []byte { return []byte(fmt.Sprint(i)) }
		a, b := NewSkiplist(64<<20), NewSkiplist(64<<20)
		for i, k := range keys {
			a.Put(k, y.ValueStruct{Value: val(i)})
		}
		putChunks(b, keys, val)
		want, got := contents(t, a), contents(t, b)
		if len(want) != len(got) {
			t.Fatalf("%s: %d keys through PutSpliced, %d through Put", tc.name, len(got), len(want))
		}
		for i := range want {
			if want[i] != got[i] {
				t.Fatalf("%s: entry %d is %s through PutSpliced, %s through Put", tc.name, i, got[i], want[i])
			}
		}
		a.DecrRef()
		b.DecrRef()
	}
}

// TestSpliceStaleAcrossLists: a splice found in one list put into
// another goes through Put's own search.
func TestSpliceStaleAcrossLists(t *testing.T) {
	a, b := NewSkiplist(1<<20), NewSkiplist(1<<20)
	defer a.DecrRef()
	defer b.DecrRef()
	for i := range 100 {
		a.Put(y.KeyWithTs([]byte(fmt.Sprintf("a%03d", i)), 1), y.ValueStruct{Value: []byte("a")})
	}
	k := y.KeyWithTs([]byte("a050x"), 1)
	var sp [1]Splice
	a.FindSplices([][]byte{k}, sp[:])
	b.PutSpliced(k, y.ValueStruct{Value: []byte("b")}, &sp[0])
	if got := contents(t, b); len(got) != 1 || !bytes.HasSuffix([]byte(got[0]), []byte("=b")) {
		t.Fatalf("b holds %q", got)
	}
	if n := len(contents(t, a)); n != 100 {
		t.Fatalf("a holds %d keys, want 100", n)
	}
}

// TestSpliceReadersMeanwhile: readers iterating while chunks go in
// always see sorted keys, and in the end all of them (run with -race).
func TestSpliceReadersMeanwhile(t *testing.T) {
	l := NewSkiplist(64 << 20)
	defer l.DecrRef()
	rng := rand.New(rand.NewSource(2))
	keys := make([][]byte, 20000)
	for i := range keys {
		keys[i] = y.KeyWithTs([]byte(fmt.Sprintf("k%08d", rng.Intn(1<<20))), uint64(i))
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				it := l.NewIterator()
				var last []byte
				for it.SeekToFirst(); it.Valid(); it.Next() {
					if last != nil && y.CompareKeys(last, it.Key()) >= 0 {
						t.Errorf("a reader saw %q then %q", last, it.Key())
						break
					}
					last = append(last[:0], it.Key()...)
				}
				_ = it.Close()
			}
		}()
	}
	putChunks(l, keys, func(int) []byte { return []byte("v") })
	close(stop)
	wg.Wait()
	if n := len(contents(t, l)); n != len(keys) {
		t.Fatalf("%d keys in the list, want %d", n, len(keys))
	}
}

// TestSplicePutAllocatesNothing: finding the splices of a chunk and
// putting its keys allocates nothing on the heap.
func TestSplicePutAllocatesNothing(t *testing.T) {
	const n = 1000
	keys := make([][]byte, (n+1)*MaxSplices) // AllocsPerRun runs once more
	for i := range keys {
		keys[i] = y.KeyWithTs([]byte(fmt.Sprintf("key%08d", (i*7919)%len(keys))), 1)
	}
	l := NewSkiplist(16 << 20)
	defer l.DecrRef()
	var sp [MaxSplices]Splice
	i := 0
	allocs := testing.AllocsPerRun(n, func() {
		chunk := keys[i : i+MaxSplices]
		l.FindSplices(chunk, sp[:])
		for j, k := range chunk {
			l.PutSpliced(k, y.ValueStruct{Value: []byte("value")}, &sp[j])
		}
		i += MaxSplices
	})
	if allocs != 0 {
		t.Fatalf("a chunk allocated %.1f times, want 0", allocs)
	}
}

// BenchmarkSplicedPut: random keys into a list of 400,000, one at a time
// (Put) and sixteen at a time (FindSplices, then PutSpliced).
func BenchmarkSplicedPut(b *testing.B) {
	rng := rand.New(rand.NewSource(3))
	key := func() []byte { return y.KeyWithTs([]byte(fmt.Sprintf("key:%012d", rng.Intn(1<<30))), 1) }
	for _, mode := range []string{"put", "spliced"} {
		b.Run(mode, func(b *testing.B) {
			l := NewSkiplist(256 << 20)
			defer l.DecrRef()
			for range 400000 {
				l.Put(key(), y.ValueStruct{Value: []byte("v")})
			}
			keys := make([][]byte, 1<<16)
			var sp [MaxSplices]Splice
			b.ResetTimer()
			for i := 0; i < b.N; i += MaxSplices {
				if i%len(keys) == 0 { // fresh keys: none is in the list
					b.StopTimer()
					for j := range keys {
						keys[j] = key()
					}
					b.StartTimer()
				}
				chunk := keys[i%len(keys) : i%len(keys)+MaxSplices]
				if mode == "put" {
					for _, k := range chunk {
						l.Put(k, y.ValueStruct{Value: []byte("v")})
					}
					continue
				}
				l.FindSplices(chunk, sp[:])
				for j, k := range chunk {
					l.PutSpliced(k, y.ValueStruct{Value: []byte("v")}, &sp[j])
				}
			}
		})
	}
}

package store

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers/badger"
)

// BenchmarkMSetTx is the storage side of MSET as a shard runs it: one
// transaction setting ten random keys of a 100,000-key space (a warm meta
// cache and access clock, a short value), then its commit, on in-memory
// Badger.
func BenchmarkMSetTx(b *testing.B) {
	d, err := badger.Open(badger.Options{InMemory: true, MemTableSize: 16 << 20})
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	c := NewMetaCache(1 << 18)
	c.SetClock(NewAccessClock(1<<18, now)) // as the engine's shards have
	env := Env{Drv: d, Caches: func([]byte) *MetaCache { return c }}
	keys := make([][]byte, 100_000)
	for i := range keys {
		keys[i] = fmt.Appendf(nil, "key:%012d", i)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	val := []byte("xxx")
	run := func() {
		tx, err := env.Begin(true, 0, now)
		if err != nil {
			b.Fatal(err)
		}
		for range 10 {
			if err := tx.SetString(keys[rng.IntN(len(keys))], val, 0); err != nil {
				b.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
		tx.Rollback()
	}
	for range 20_000 { // every key cached and stored
		run()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		run()
	}
}

// BenchmarkMetaCacheLookup looks up random keys of a cache holding
// 200,000 meta keys (larger than the CPU's caches, as a server's is):
// the cost is the memory the look-up touches. Half of the look-ups find
// their key.
func BenchmarkMetaCacheLookup(b *testing.B) {
	const n = 200_000
	c := NewMetaCache(1 << 18)
	keys := make([][]byte, 2*n)
	for i := range keys {
		keys[i] = codec.AppendMetaKey(nil, 0, fmt.Appendf(nil, "key:%012d", i))
		if i%2 == 0 {
			c.put(string(keys[i]), cached{meta: codec.Meta{Type: codec.TypeString}, exists: true}, 0)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	order := make([]int32, 1<<20)
	for i := range order {
		order[i] = int32(rng.IntN(len(keys)))
	}
	found := 0
	b.ResetTimer()
	for i := range b.N {
		if _, _, _, ok := c.lookup(keys[order[i&(len(order)-1)]]); ok {
			found++
		}
	}
	if b.N > len(order) && (found < b.N/3 || found > 2*b.N/3) {
		b.Fatalf("found %d of %d, want about half", found, b.N)
	}
}

package actors

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"math"
	"testing"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/command/hash"
	"github.com/rekv/rekv/actors/command/keys"
	"github.com/rekv/rekv/actors/command/list"
	"github.com/rekv/rekv/actors/command/set"
	"github.com/rekv/rekv/actors/command/strings"
	"github.com/rekv/rekv/actors/command/zset"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers/badger"
)

// The floor under rekv's writes (issue "Performance IV"): the same
// records a SET, INCR, HSET and ZADD write, put straight into in-memory
// Badger in transactions of 64 commands (a full group commit), beside
// the same commands through the engine (routing, the actor hop, the
// group, the replies). go test -bench 'Floor|Engine' ./actors: the
// difference per command is rekv's own cost above the store's.

// floorKeys is the key space both benchmarks write.
const floorKeys = 10_000

// floorOp writes one command's records into tx (what the command reads,
// rekv serves from its shard's caches once warm: the floor reads
// nothing).
type floorOp func(tx interface {
	Get([]byte) ([]byte, error)
	Set([]byte, []byte) error
}, i int) error

func floorOps() map[string]floorOp {
	meta := func(key []byte, m codec.Meta, payload []byte) ([]byte, []byte) {
		return codec.MetaKey(0, key), codec.AppendMeta(nil, m, payload)
	}
	return map[string]floorOp{
		"set": func(tx interface {
			Get([]byte) ([]byte, error)
			Set([]byte, []byte) error
		}, i int) error {
			k, v := meta(fmt.Appendf(nil, "key:%d", i%floorKeys), codec.Meta{Type: codec.TypeString, Version: uint64(i + 1)}, []byte("value"))
			return tx.Set(k, v)
		},
		"incr": func(tx interface {
			Get([]byte) ([]byte, error)
			Set([]byte, []byte) error
		}, i int) error {
			key := fmt.Appendf(nil, "ctr:%d", i%floorKeys)
			k, v := meta(key, codec.Meta{Type: codec.TypeString, Version: 1}, fmt.Append(nil, i))
			return tx.Set(k, v)
		},
		"hset": func(tx interface {
			Get([]byte) ([]byte, error)
			Set([]byte, []byte) error
		}, i int) error {
			key := fmt.Appendf(nil, "h:%d", i%floorKeys)
			if err := tx.Set(codec.AppendSubKey(nil, 0, key, 1, []byte("f")), []byte("value")); err != nil {
				return err
			}
			k, v := meta(key, codec.Meta{Type: codec.TypeHash, Version: 1, Size: 1}, nil)
			return tx.Set(k, v)
		},
		"zadd": func(tx interface {
			Get([]byte) ([]byte, error)
			Set([]byte, []byte) error
		}, i int) error {
			key := fmt.Appendf(nil, "z:%d", i%floorKeys)
			score := binary.BigEndian.AppendUint64(nil, math.Float64bits(float64(i)))
			if err := tx.Set(codec.AppendSubKey(nil, 0, key, 1, []byte("m")), score); err != nil {
				return err
			}
			if err := tx.Set(codec.AppendScoreKey(nil, 0, key, 1, float64(i), []byte("m")), nil); err != nil {
				return err
			}
			k, v := meta(key, codec.Meta{Type: codec.TypeZSet, Version: 1, Size: 1}, nil)
			return tx.Set(k, v)
		},
	}
}

// BenchmarkFloor puts each command's records straight into Badger, 64
// commands a transaction.
func BenchmarkFloor(b *testing.B) {
	for _, name := range []string{"set", "incr", "hset", "zadd"} {
		op := floorOps()[name]
		b.Run(name, func(b *testing.B) {
			d, err := badger.Open(badger.Options{InMemory: true})
			if err != nil {
				b.Fatal(err)
			}
			defer d.Close()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if i%64 == 0 {
					tx, err := d.Begin(true)
					if err != nil {
						b.Fatal(err)
					}
					for j := range 64 {
						if err := op(tx, i+j); err != nil {
							b.Fatal(err)
						}
					}
					if err := tx.Commit(); err != nil {
						b.Fatal(err)
					}
				}
				i++
			}
		})
	}
}

// BenchmarkEngine runs the same commands through the engine, 64 in
// flight at a time, one shard (as one core serves them).
func BenchmarkEngine(b *testing.B) {
	lines := map[string]func(i int) [][]byte{
		"set": func(i int) [][]byte {
			return [][]byte{[]byte("set"), fmt.Appendf(nil, "key:%d", i%floorKeys), []byte("value")}
		},
		"incr": func(i int) [][]byte { return [][]byte{[]byte("incr"), fmt.Appendf(nil, "ctr:%d", i%floorKeys)} },
		"get":  func(i int) [][]byte { return [][]byte{[]byte("get"), fmt.Appendf(nil, "key:%d", i%floorKeys)} },
		"hset": func(i int) [][]byte {
			return [][]byte{[]byte("hset"), fmt.Appendf(nil, "h:%d", i%floorKeys), []byte("f"), []byte("value")}
		},
		"zadd": func(i int) [][]byte { // a key's score changes each time
			return [][]byte{[]byte("zadd"), fmt.Appendf(nil, "z:%d", i%floorKeys), fmt.Append(nil, i%(2*floorKeys)), []byte("m")}
		},
		// One list and one set, as redis-benchmark's LPUSH and SADD.
		"lpush": func(i int) [][]byte { return [][]byte{[]byte("lpush"), []byte("mylist"), []byte("xxx")} },
		"sadd": func(i int) [][]byte {
			return [][]byte{[]byte("sadd"), []byte("myset"), fmt.Appendf(nil, "element:%d", i%100_000)}
		},
	}
	// The command lines are made before the clock starts and used again
	// (a line repeats every period commands), and the Requests come 64
	// to an allocation, so -benchmem counts the engine's allocations.
	period := map[string]int{"zadd": 2 * floorKeys, "sadd": 100_000}
	made := func(name string) [][][]byte {
		n := period[name]
		if n == 0 {
			n = floorKeys
		}
		out := make([][][]byte, n)
		for i := range out {
			out[i] = lines[name](i)
		}
		return out
	}
	for _, name := range []string{"get", "set", "incr", "hset", "zadd", "lpush", "sadd"} {
		b.Run(name, func(b *testing.B) {
			bdb, err := badger.Open(badger.Options{InMemory: true})
			if err != nil {
				b.Fatal(err)
			}
			reg := command.NewRegistry(strings.Commands(), keys.Commands(), hash.Commands(), zset.Commands(), list.Commands(), set.Commands())
			// The caches as the server has them by default (but the meta
			// cache, sized to the keys): HSET and ZADD find their member
			// in the member cache, LPUSH its list's window.
			e, err := New(Options{Shards: 1, MetaCacheSize: 100000, MemberCacheSize: 1 << 20, ListCacheBytes: 64 << 20, ScanCursors: 10}, bdb, reg, command.Server{},
				slog.New(slog.NewTextHandler(io.Discard, nil)))
			if err != nil {
				b.Fatal(err)
			}
			defer func() { _ = e.Stop(context.Background()); _ = bdb.Close() }()
			done := make(chanReplier, 64)
			run := func(lines [][][]byte, from, to int) {
				for i := from; i < to; i += 64 {
					n := min(64, to-i)
					reqs := make([]Request, n)
					for j := range reqs {
						args := lines[(i+j)%len(lines)]
						spec, _ := reg.Resolve(args)
						run, err := spec.Parse(args)
						if err != nil {
							b.Fatal(err)
						}
						reqs[j] = Request{Seq: uint64(j), Client: done, Spec: spec, Runner: run, Proto: 2, Shards: e.Route(spec, args)}
						e.Dispatch(&reqs[j])
					}
					for j := 0; j < n; j++ {
						if r := <-done; len(r) > 0 && r[0] == '-' {
							b.Fatalf("%s: %s", name, r)
						}
					}
				}
			}
			own := made(name)
			if name == "get" { // GETs of keys that exist
				run(made("set"), 0, floorKeys)
			}
			b.ReportAllocs()
			b.ResetTimer()
			run(own, 0, b.N)
		})
	}
}

package keys

import (
	"fmt"
	"testing"

	"github.com/rekv/rekv/actors/command/commandtest"
	"github.com/rekv/rekv/actors/command/hash"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers/badger"
	"github.com/rekv/rekv/drivers/driverstest"
)

// TestDelOfMillionFieldHashIsO1 loads a 1,000,000-field hash and checks DEL
// writes exactly the meta deletion and one garbage entry.
func TestDelOfMillionFieldHashIsO1(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 1,000,000 fields")
	}
	bdb, err := badger.Open(badger.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	drv := &driverstest.Counting{Driver: bdb}
	const n, version = 1_000_000, 42
	key := []byte("big")
	for start := 0; start < n; start += 50_000 {
		tx, _ := bdb.Begin(true)
		for i := start; i < start+50_000; i++ {
			if err := tx.Set(codec.AppendSubKey(nil, 0, key, version, fmt.Appendf(nil, "f%07d", i)), []byte("v")); err != nil {
				t.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	tx, _ := bdb.Begin(true)
	_ = tx.Set(codec.MetaKey(0, key), codec.AppendMeta(nil, codec.Meta{Type: codec.TypeHash, Version: version, Size: n}, nil))
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	h := commandtest.NewWithDriver(t, drv, Commands(), hash.Commands())
	h.Run([]c{{"hlen big", ":1000000\r\n"}, {"hget big f0999999", "$1\r\nv\r\n"}})
	before := drv.Writes.Load()
	h.Run([]c{{"del big", ":1\r\n"}})
	if w := drv.Writes.Load() - before; w != 2 {
		t.Fatalf("DEL of a 1,000,000-field hash made %d writes, want 2 (meta + garbage entry)", w)
	}
	h.Run([]c{{"exists big", ":0\r\n"}, {"hlen big", ":0\r\n"}, {"hset big f v", ":1\r\n"}, {"hlen big", ":1\r\n"}})
	// The garbage entry names the dead version for the GC.
	rtx, _ := bdb.Begin(false)
	defer rtx.Rollback()
	if _, err := rtx.Get(codec.GarbageKey(0, key, version)); err != nil {
		t.Fatalf("garbage entry: %v", err)
	}
}

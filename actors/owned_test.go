package actors

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
)

// ownedEngine is heldEngine in owned mode: caches authoritative for the
// keys Serves accepts, which refuses everything while refuse is set.
func ownedEngine(t *testing.T, refuse *atomic.Bool) (*Engine, *heldStamps, *command.Registry) {
	serves := func([]store.KeyRef) error {
		if refuse.Load() {
			return rerr.Moved(1, "127.0.0.1:1")
		}
		return nil
	}
	return heldEngineWith(t, Options{Shards: 2, Shared: true, Owned: true, Hooks: Hooks{Serves: serves}, MetaCacheSize: 1000, ScanCursors: 10})
}

// TestOwnedReadsFromCache: in owned mode a GET of a key the node wrote is
// answered from its shard's cache (no stamp, no read of the store); a
// miss, a key the node no longer serves, and a read after PurgeCaches
// take the snapshot path and still read what was written; a GET
// pipelined after a SET of its key sees it; a write of a key not served
// is refused with the redirection.
func TestOwnedReadsFromCache(t *testing.T) {
	var refuse atomic.Bool
	e, h, reg := ownedEngine(t, &refuse)
	send(t, e, reg, []string{"set k1 v1", "set k2 v2"}, nil)

	asked, reads := h.asked.Load(), h.atReads.Load()
	got := send(t, e, reg, []string{"get k1", "get k2", "strlen k1", "exists k1 k2"}, nil)
	if want := []string{"$2\r\nv1\r\n", "$2\r\nv2\r\n", ":2\r\n", ":2\r\n"}; !slices.Equal(got, want) {
		t.Fatalf("cached reads: %q, want %q", got, want)
	}
	if h.asked.Load() != asked || h.atReads.Load() != reads {
		t.Fatalf("cached reads asked %d stamps and read the store %d times", h.asked.Load()-asked, h.atReads.Load()-reads)
	}

	// A miss reads the store.
	if got := send(t, e, reg, []string{"get nokey"}, nil); got[0] != "$-1\r\n" || h.asked.Load() == asked {
		t.Fatalf("GET of a missing key: %q after %d stamps", got[0], h.asked.Load()-asked)
	}

	// A write, then a read of its key in one pipeline: the read sees it.
	if got := send(t, e, reg, []string{"set k1 v3", "get k1"}, nil); got[1] != "$2\r\nv3\r\n" {
		t.Fatalf("GET after SET in one pipeline: %q", got[1])
	}

	// Not served: the snapshot path answers reads; writes are refused.
	refuse.Store(true)
	asked = h.asked.Load()
	if got := send(t, e, reg, []string{"get k1"}, nil); got[0] != "$2\r\nv3\r\n" || h.asked.Load() == asked {
		t.Fatalf("GET of a key not served: %q after %d stamps", got[0], h.asked.Load()-asked)
	}
	if got := send(t, e, reg, []string{"set k1 v4"}, nil); got[0] != "-MOVED 1 127.0.0.1:1\r\n" {
		t.Fatalf("SET of a key not served: %q", got[0])
	}
	refuse.Store(false)

	// Emptied caches: the next read goes to the store, then is cached.
	if err := e.PurgeCaches(context.Background()); err != nil {
		t.Fatal(err)
	}
	asked = h.asked.Load()
	if got := send(t, e, reg, []string{"get k2"}, nil); got[0] != "$2\r\nv2\r\n" || h.asked.Load() == asked {
		t.Fatalf("GET after PurgeCaches: %q after %d stamps", got[0], h.asked.Load()-asked)
	}
}

// TestOwnedReadsInPlace: in owned mode an event loop answers a cached
// read itself (RunHere), and leaves a miss, or a key not served, to the
// shard.
func TestOwnedReadsInPlace(t *testing.T) {
	var refuse atomic.Bool
	e, h, reg := ownedEngine(t, &refuse)
	send(t, e, reg, []string{"set k1 v1"}, nil)
	// inPlace reports whether RunHere ran line, trying again for a while
	// when it did not: the shard may still hold its lock a moment after
	// its last reply (RunHere only tries it).
	inPlace := func(line string) (string, bool) {
		for range 200 {
			col := &collector{replies: map[uint64]string{}, done: make(chan struct{}), want: 1}
			if e.RunHere(request(t, e, reg, col, line)) {
				return col.results(t, 1)[0], true
			}
			time.Sleep(time.Millisecond)
		}
		return "", false
	}
	asked := h.asked.Load()
	if got, ok := inPlace("get k1"); !ok || got != "$2\r\nv1\r\n" || h.asked.Load() != asked {
		t.Fatalf("cached GET in place: %v %q after %d stamps", ok, got, h.asked.Load()-asked)
	}
	if _, ok := inPlace("get nokey"); ok {
		t.Fatal("a GET of a key not cached was answered in place")
	}
	refuse.Store(true)
	if _, ok := inPlace("get k1"); ok {
		t.Fatal("a GET of a key not served was answered in place")
	}
}

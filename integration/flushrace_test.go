package integration

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestMultiNodeWriteAfterFlush: a write sent after another node's FLUSHDB
// answered acts on the flushed database, while the node it reaches is busy
// with write groups begun before the flush (they read at a snapshot taken
// when they began, and take commands that arrive meanwhile): an INCR of a
// flushed counter counts from nothing, and a key set after the flush is
// there to read.
func TestMultiNodeWriteAfterFlush(t *testing.T) {
	addrs := startCluster(t, 2)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	busy := newClient(t, addrs[0], 2)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	for g := range 16 { // keep node 0's shards writing in groups
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 1_000_000 && ctx.Err() == nil; i++ {
				_ = busy.Set(ctx, fmt.Sprintf("bg:%d:%d", g, i%100), i, 0).Err()
			}
		}()
	}
	a, b := newClient(t, addrs[0], 2), newClient(t, addrs[1], 2)
	deadline := time.Now().Add(10 * time.Second)
	rounds := 0
	for ; rounds < 100 && time.Now().Before(deadline); rounds++ {
		ctr, key := fmt.Sprintf("ctr:%d", rounds), fmt.Sprintf("key:%d", rounds)
		must(t, a.Set(ctx, ctr, 41, 0).Err())
		must(t, b.FlushDB(ctx).Err())
		if n, err := a.Incr(ctx, ctr).Result(); err != nil || n != 1 {
			t.Fatalf("round %d: INCR after the flush = %d, %v; want 1", rounds, n, err)
		}
		must(t, a.Set(ctx, key, "v", 0).Err())
		for i, c := range []*redis.Client{a, b} {
			if v, err := c.Get(ctx, key).Result(); err != nil || v != "v" {
				t.Fatalf("round %d: node %d reads %q, %v for a key set after the flush", rounds, i, v, err)
			}
		}
	}
	t.Logf("%d rounds", rounds)
}

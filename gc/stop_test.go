package gc_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/rekv/rekv/drivers/badger"
	"github.com/rekv/rekv/drivers/faulty"
)

// TestCloseStopsALongReclaim: a node closing while its collector is deep
// in a pass over a big dead collection on a slow store stops the pass at
// its next transaction instead of waiting for the whole pass. The
// collector deletes through transactions here (the faulty wrapper hides
// Badger's blind deletes), 1,024 members each, every commit slowed to
// 300 ms: the pass over 30,000 members would take about 9 s.
func TestCloseStopsALongReclaim(t *testing.T) {
	cfg := testConfig(t, 20*time.Millisecond)
	cfg.GC.BatchSize = 40000
	bd, err := badger.Open(badger.Options{Dir: cfg.Storage.Badger.Dir, Durability: "no", MemTableSize: 16 << 20})
	if err != nil {
		t.Fatal(err)
	}
	fd := faulty.Wrap(bd)
	n, c := startDriver(t, cfg, fd, nil)
	ctx := context.Background()
	const members = 30000
	for i := 0; i < members; i += 1000 {
		args := make([]any, 0, 2000)
		for j := i; j < i+1000; j++ {
			args = append(args, "f"+strconv.Itoa(j), "v")
		}
		if err := c.HSet(ctx, "big", args...).Err(); err != nil {
			t.Fatal(err)
		}
	}
	fd.SlowCommits(300 * time.Millisecond)
	if err := c.Del(ctx, "big").Err(); err != nil {
		t.Fatal(err)
	}
	// Wait until the collector has committed deletes of the dead hash:
	// it is then inside its long pass.
	before := fd.Commits.Load()
	deadline := time.Now().Add(20 * time.Second)
	for fd.Commits.Load() < before+2 {
		if time.Now().After(deadline) {
			t.Fatal("the collector committed no delete in 20 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cctx, cancel := context.WithTimeout(ctx, 6*time.Second)
	defer cancel()
	t0 := time.Now()
	if err := n.Close(cctx); err != nil {
		t.Fatalf("close during a long reclaim, after %v: %v", time.Since(t0).Round(time.Millisecond), err)
	}
	t.Logf("closed in %v, %d commits", time.Since(t0).Round(time.Millisecond), fd.Commits.Load()-before)
}

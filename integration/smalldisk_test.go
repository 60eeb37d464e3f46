package integration

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rekv/rekv/conf"
)

// TestStartsOnASmallVolume: on a 64 MiB volume rekv starts (its value
// log was allocated whole, 128 MiB, and the start failed with "fallocate:
// no space left on device"), serves writes until the volume is nearly
// full, then answers MISCONF (not before: storage.badger.min_free_mib
// shrinks with the volume; nor after: a commit is refused under it, not
// only the next health check), and every acknowledged write is there,
// also after a restart on the same volume. It guards Badger's patch 0001
// (third_party/patches/badger): a compaction whose output table could not
// be written dropped its keys, 1 to 4 thousand acknowledged ones in about
// one run of four.
func TestStartsOnASmallVolume(t *testing.T) {
	dir := mountTmpfs(t, "64m") + "/data"
	edit := func(c *conf.Config) { c.Storage.Badger.Dir = dir }
	n := startNode(t, "badger", edit)
	ctx := context.Background()
	c := newClient(t, n.Addr(), 2)
	var acked []string
	var refusal error
	buf := make([]byte, 500)
	for i := 0; i < 100_000 && refusal == nil; i += 100 {
		p := c.Pipeline()
		cmds := make([]*redis.StatusCmd, 0, 100)
		for j := i; j < i+100; j++ {
			_, _ = rand.Read(buf) // incompressible
			cmds = append(cmds, p.Set(ctx, fmt.Sprintf("k:%d", j), hex.EncodeToString(buf), 0))
		}
		_, _ = p.Exec(ctx)
		for j, cmd := range cmds {
			if err := cmd.Err(); err != nil {
				if refusal == nil {
					refusal = err
				}
				continue // a refused write is not applied; a later one may be
			}
			acked = append(acked, fmt.Sprintf("k:%d", i+j))
		}
	}
	if refusal == nil || !strings.HasPrefix(refusal.Error(), "MISCONF") {
		t.Fatalf("after %d writes: %v, want MISCONF once the volume is nearly full", len(acked), refusal)
	}
	if len(acked) < 30_000 { // 30 MB of values: the volume was serving, not refusing from the start
		t.Fatalf("MISCONF after only %d writes of 1 KB: %v", len(acked), refusal)
	}
	check := func(c *redis.Client, when string) {
		var missing []string
		for i := 0; i < len(acked); i += 1000 {
			p := c.Pipeline()
			batch := acked[i:min(i+1000, len(acked))]
			cmds := make([]*redis.IntCmd, len(batch))
			for j, k := range batch {
				cmds[j] = p.Exists(ctx, k)
			}
			if _, err := p.Exec(ctx); err != nil {
				t.Fatalf("%s: %v", when, err)
			}
			for j, cmd := range cmds {
				if cmd.Val() != 1 {
					missing = append(missing, batch[j])
				}
			}
		}
		if len(missing) > 0 {
			t.Fatalf("%s: %d acknowledged keys are missing (DBSIZE %d): %v", when, len(missing), c.DBSize(ctx).Val(), missing[:min(len(missing), 20)])
		}
	}
	check(c, "before the restart")
	closeCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := n.Close(closeCtx); err != nil {
		t.Fatalf("close: %v", err)
	}
	n2 := startNode(t, "badger", edit)
	c2 := newClient(t, n2.Addr(), 2)
	check(c2, "after the restart")
	if got := c2.DBSize(ctx).Val(); got != int64(len(acked)) {
		t.Fatalf("DBSIZE %d after the restart, %d acknowledged", got, len(acked))
	}
}

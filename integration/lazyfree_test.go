package integration

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/rekv/rekv/conf"
)

// TestLazyfreePending: a value of more than 64 members deleted counts in
// INFO lazyfree_pending_objects from the UNLINK until the GC reclaimed it,
// then in lazyfreed_objects, as Redis's background free does; a small
// one in neither. The GC waits an hour here, and the test runs its pass.
func TestLazyfreePending(t *testing.T) {
	for _, d := range drivers() {
		t.Run(d, func(t *testing.T) {
			n := startNode(t, d, func(c *conf.Config) { c.GC.Interval = time.Hour })
			ctx := context.Background()
			c := newClient(t, n.Addr(), 2)
			members := make([]any, 1000)
			for i := range members {
				members[i] = strconv.Itoa(i)
			}
			must(t, c.SAdd(ctx, "big", members...).Err())
			must(t, c.SAdd(ctx, "small", members[:10]...).Err())
			must(t, c.ConfigResetStat(ctx).Err())
			must(t, c.Unlink(ctx, "big", "small").Err())
			figures := func() (string, string) {
				m := infoMap(t, ctx, c, "memory")
				return m["lazyfree_pending_objects"], m["lazyfreed_objects"]
			}
			if p, f := figures(); p != "1" || f != "0" {
				t.Fatalf("after UNLINK: pending %s, lazyfreed %s; want 1, 0", p, f)
			}
			for range 10 {
				if _, err := n.GC().Pass(ctx); err != nil {
					t.Fatal(err)
				}
			}
			if p, f := figures(); p != "0" || f != "1" {
				t.Fatalf("after the GC's passes: pending %s, lazyfreed %s; want 0, 1", p, f)
			}
		})
	}
}

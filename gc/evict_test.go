package gc_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestEvictRanks: each policy deletes the key its rank puts first. With
// one shard every draw of up to 5 keys is ranked together, so asking for
// one byte evicts exactly one key: volatile-ttl the one expiring first
// (past the entries of keys expired but not yet collected),
// allkeys-lru the longest idle, allkeys-lfu the least used, volatile-*
// never a key without a TTL; none left, Evict reports nothing done.
func TestEvictRanks(t *testing.T) {
	cases := []struct {
		policy string
		setup  func(t *testing.T, do func(args ...any))
		want   string
	}{
		{"volatile-ttl", func(t *testing.T, do func(args ...any)) {
			do("SET", "forever", "v")
			do("SET", "late", "v", "EX", 9000)
			do("SET", "soon", "v", "EX", 100)
			do("SET", "mid", "v", "EX", 500)
		}, "soon"},
		{"allkeys-lru", func(t *testing.T, do func(args ...any)) {
			do("SET", "old", "v")
			time.Sleep(1100 * time.Millisecond) // the access clock counts in milliseconds
			do("SET", "new1", "v")
			do("SET", "new2", "v")
			do("GET", "new1")
		}, "old"},
		{"allkeys-lfu", func(t *testing.T, do func(args ...any)) {
			for _, k := range []string{"a", "b", "c"} {
				do("SET", k, "v")
			}
			for range 200 {
				do("GET", "a")
				do("GET", "c")
			}
		}, "b"},
	}
	for _, tc := range cases {
		t.Run(tc.policy, func(t *testing.T) {
			cfg := testConfig(t, time.Hour)
			cfg.Actors.Shards = 1
			cfg.Server.Redis = map[string]string{"maxmemory-policy": tc.policy}
			n, c := startCfg(t, cfg, nil)
			ctx := context.Background()
			do := func(args ...any) {
				if err := c.Do(ctx, args...).Err(); err != nil && err.Error() != "redis: nil" {
					t.Fatalf("%v: %v", args, err)
				}
			}
			tc.setup(t, do)
			before, _ := c.Keys(ctx, "*").Result() // KEYS deletes expired keys it meets
			if tc.policy == "volatile-ttl" {
				// Keys expired and left for the GC (it waits an hour
				// here): the first entries of the TTL index, none of
				// them one to evict.
				for i := range 30 {
					do("SET", fmt.Sprint("expired", i), "v", "PX", 1)
				}
				time.Sleep(10 * time.Millisecond)
			}
			keys, freed, err := n.GC().Evict(ctx, tc.policy, 5, 1, 100)
			if err != nil || keys != 1 || freed <= 0 {
				t.Fatalf("Evict: %d keys, %d bytes, %v", keys, freed, err)
			}
			after, _ := c.Keys(ctx, "*").Result()
			gone := slices.DeleteFunc(before, func(k string) bool { return slices.Contains(after, k) })
			if fmt.Sprint(gone) != fmt.Sprint([]string{tc.want}) {
				t.Fatalf("evicted %v, want %s", gone, tc.want)
			}
		})
	}
	t.Run("nothing left", func(t *testing.T) {
		n, c := start(t, time.Hour, nil)
		ctx := context.Background()
		if err := c.Set(ctx, "k", "v", 0).Err(); err != nil {
			t.Fatal(err)
		}
		if keys, _, err := n.GC().Evict(ctx, "volatile-lru", 5, 1<<20, 100); err != nil || keys != 0 {
			t.Fatalf("volatile-lru with no key with a TTL: %d evicted, %v", keys, err)
		}
		if keys, _, err := n.GC().Evict(ctx, "allkeys-random", 5, 1<<20, 100); err != nil || keys != 1 {
			t.Fatalf("allkeys-random: %d evicted, %v", keys, err)
		}
		if n, _ := c.DBSize(ctx).Result(); n != 0 {
			t.Fatalf("DBSIZE %d after evicting", n)
		}
	})
}

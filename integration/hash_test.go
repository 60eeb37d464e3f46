package integration

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/redis/go-redis/v9"
)

// TestHashGoRedis drives every hash command through go-redis, RESP2 and 3.
func TestHashGoRedis(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, ctx context.Context, c *redis.Client, _ string, _ int) {
		if n := c.HSet(ctx, "h", "a", "1", "b", "2").Val(); n != 2 {
			t.Fatalf("HSET = %d", n)
		}
		must(t, c.HMSet(ctx, "h", "c", "3").Err())
		if ok := c.HSetNX(ctx, "h", "a", "x").Val(); ok {
			t.Fatal("HSETNX on an existing field")
		}
		if m := c.HGetAll(ctx, "h").Val(); fmt.Sprint(m) != "map[a:1 b:2 c:3]" {
			t.Fatalf("HGETALL = %v", m)
		}
		if v := c.HMGet(ctx, "h", "a", "zz").Val(); fmt.Sprint(v) != "[1 <nil>]" {
			t.Fatalf("HMGET = %v", v)
		}
		keys := c.HKeys(ctx, "h").Val()
		vals := c.HVals(ctx, "h").Val()
		slices.Sort(keys)
		slices.Sort(vals)
		if fmt.Sprint(keys, vals) != "[a b c] [1 2 3]" {
			t.Fatalf("HKEYS/HVALS = %v %v", keys, vals)
		}
		if n := c.HIncrBy(ctx, "h", "a", 41).Val(); n != 42 {
			t.Fatalf("HINCRBY = %d", n)
		}
		if f := c.HIncrByFloat(ctx, "h", "f", 2.5).Val(); f != 2.5 {
			t.Fatalf("HINCRBYFLOAT = %v", f)
		}
		if n, _ := c.Do(ctx, "HSTRLEN", "h", "a").Int(); n != 2 {
			t.Fatalf("HSTRLEN = %d", n)
		}
		if !c.HExists(ctx, "h", "b").Val() || c.HLen(ctx, "h").Val() != 4 {
			t.Fatal("HEXISTS/HLEN")
		}
		if fs := c.HRandField(ctx, "h", 2).Val(); len(fs) != 2 || fs[0] == fs[1] {
			t.Fatalf("HRANDFIELD 2 = %v", fs)
		}
		kv := c.HRandFieldWithValues(ctx, "h", -6).Val()
		if len(kv) != 6 {
			t.Fatalf("HRANDFIELD -6 WITHVALUES = %v", kv)
		}
		var seen []string
		var cur uint64
		for i := 0; i < 10; i++ {
			items, next, err := c.HScan(ctx, "h", cur, "*", 1).Result()
			must(t, err)
			for j := 0; j < len(items); j += 2 {
				seen = append(seen, items[j])
			}
			if cur = next; cur == 0 {
				break
			}
		}
		slices.Sort(seen)
		if fmt.Sprint(seen) != "[a b c f]" {
			t.Fatalf("HSCAN saw %v", seen)
		}
		if n := c.HDel(ctx, "h", "a", "b", "c", "f").Val(); n != 4 {
			t.Fatalf("HDEL = %d", n)
		}
		if c.Exists(ctx, "h").Val() != 0 {
			t.Fatal("emptied hash still exists")
		}
		must(t, c.Set(ctx, "s", "v", 0).Err())
		if err := c.HGet(ctx, "s", "f").Err(); err == nil || err.Error() != "WRONGTYPE Operation against a key holding the wrong kind of value" {
			t.Fatalf("HGET on a string: %v", err)
		}
	})
}

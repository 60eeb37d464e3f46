package integration

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestZSetGoRedis drives the sorted-set commands through go-redis.
func TestZSetGoRedis(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, ctx context.Context, c *redis.Client, _ string, _ int) {
		if n := c.ZAdd(ctx, "z", redis.Z{Score: 1, Member: "a"}, redis.Z{Score: 2.5, Member: "b"}, redis.Z{Score: -3, Member: "c"}).Val(); n != 3 {
			t.Fatalf("ZADD = %d", n)
		}
		if n := c.ZAddArgs(ctx, "z", redis.ZAddArgs{GT: true, Ch: true, Members: []redis.Z{{Score: 0, Member: "a"}, {Score: 9, Member: "b"}}}).Val(); n != 1 {
			t.Fatalf("ZADD GT CH = %d", n)
		}
		if s := c.ZScore(ctx, "z", "b").Val(); s != 9 {
			t.Fatalf("ZSCORE = %v", s)
		}
		if s := c.ZIncrBy(ctx, "z", 0.5, "a").Val(); s != 1.5 {
			t.Fatalf("ZINCRBY = %v", s)
		}
		if m := c.ZMScore(ctx, "z", "a", "nope").Val(); len(m) != 2 || m[0] != 1.5 {
			t.Fatalf("ZMSCORE = %v", m)
		}
		if v := c.ZRangeWithScores(ctx, "z", 0, -1).Val(); fmt.Sprint(v) != "[{-3 c} {1.5 a} {9 b}]" {
			t.Fatalf("ZRANGE WITHSCORES = %v", v)
		}
		if v := c.ZRangeArgs(ctx, redis.ZRangeArgs{Key: "z", Start: "(1", Stop: "+inf", ByScore: true}).Val(); fmt.Sprint(v) != "[a b]" {
			t.Fatalf("ZRANGE BYSCORE = %v", v)
		}
		if v := c.ZRevRange(ctx, "z", 0, 0).Val(); fmt.Sprint(v) != "[b]" {
			t.Fatalf("ZREVRANGE = %v", v)
		}
		if r := c.ZRank(ctx, "z", "a").Val(); r != 1 {
			t.Fatalf("ZRANK = %d", r)
		}
		if rs := c.ZRankWithScore(ctx, "z", "b").Val(); rs.Rank != 2 || rs.Score != 9 {
			t.Fatalf("ZRANK WITHSCORE = %+v", rs)
		}
		if n := c.ZCount(ctx, "z", "-inf", "1.5").Val(); n != 2 {
			t.Fatalf("ZCOUNT = %d", n)
		}
		c.ZAdd(ctx, "lex", redis.Z{Member: "a"}, redis.Z{Member: "b"}, redis.Z{Member: "c"})
		if v := c.ZRangeByLex(ctx, "lex", &redis.ZRangeBy{Min: "(a", Max: "+"}).Val(); fmt.Sprint(v) != "[b c]" {
			t.Fatalf("ZRANGEBYLEX = %v", v)
		}
		if n := c.ZLexCount(ctx, "lex", "-", "[b").Val(); n != 2 {
			t.Fatalf("ZLEXCOUNT = %d", n)
		}
		if n := c.ZUnionStore(ctx, "u", &redis.ZStore{Keys: []string{"z", "lex"}, Aggregate: "MAX"}).Val(); n != 3 {
			t.Fatalf("ZUNIONSTORE = %d", n)
		}
		if v := c.ZInterWithScores(ctx, &redis.ZStore{Keys: []string{"z", "u"}, Weights: []float64{1, 2}}).Val(); len(v) != 3 || v[2].Score != 27 {
			t.Fatalf("ZINTER WEIGHTS = %v", v)
		}
		if n := c.ZInterCard(ctx, 0, "z", "u").Val(); n != 3 {
			t.Fatalf("ZINTERCARD = %d", n)
		}
		if v := c.ZDiff(ctx, "u", "z").Val(); len(v) != 0 {
			t.Fatalf("ZDIFF = %v", v)
		}
		if v := c.ZDiffWithScores(ctx, "z", "nokey").Val(); fmt.Sprint(v) != "[{-3 c} {1.5 a} {9 b}]" {
			t.Fatalf("ZDIFF WITHSCORES = %v", v)
		}
		// u = max per member: c 0, a 1.5, b 9.
		if v := c.ZPopMin(ctx, "u", 2).Val(); fmt.Sprint(v) != "[{0 c} {1.5 a}]" {
			t.Fatalf("ZPOPMIN = %v", v)
		}
		if v := c.ZPopMax(ctx, "u").Val(); len(v) != 1 || v[0].Score != 9 {
			t.Fatalf("ZPOPMAX = %v", v)
		}
		if n := c.ZRangeStore(ctx, "rs", redis.ZRangeArgs{Key: "z", Start: 0, Stop: 1}).Val(); n != 2 {
			t.Fatalf("ZRANGESTORE = %d", n)
		}
		if n := c.ZRemRangeByRank(ctx, "rs", 0, 0).Val(); n != 1 {
			t.Fatalf("ZREMRANGEBYRANK = %d", n)
		}
		if v := c.ZRandMemberWithScores(ctx, "z", 2).Val(); len(v) != 2 {
			t.Fatalf("ZRANDMEMBER WITHSCORES = %v", v)
		}
		members, cur, err := c.ZScan(ctx, "z", 0, "*", 10).Result()
		if err != nil || cur != 0 || len(members) != 6 {
			t.Fatalf("ZSCAN = %v %d %v", members, cur, err)
		}
		if n := c.ZRem(ctx, "z", "a", "b", "c").Val(); n != 3 || c.Exists(ctx, "z").Val() != 0 {
			t.Fatalf("ZREM = %d", n)
		}
	})
}

// TestScanTypeOverAllTypes checks TYPE and SCAN TYPE for every type.
func TestScanTypeOverAllTypes(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		ctx := context.Background()
		c := newClient(t, addr, 3)
		c.Set(ctx, "s", "v", 0)
		c.HSet(ctx, "h", "f", "v")
		c.SAdd(ctx, "st", "m")
		c.ZAdd(ctx, "z", redis.Z{Score: 1, Member: "m"})
		for key, typ := range map[string]string{"s": "string", "h": "hash", "st": "set", "z": "zset"} {
			if got := c.Type(ctx, key).Val(); got != typ {
				t.Errorf("TYPE %s = %s", key, got)
			}
			keys, _, err := c.ScanType(ctx, 0, "*", 100, typ).Result()
			must(t, err)
			if fmt.Sprint(keys) != "["+key+"]" {
				t.Errorf("SCAN TYPE %s = %v", typ, keys)
			}
		}
		keys := c.Keys(ctx, "*").Val()
		slices.Sort(keys)
		if fmt.Sprint(keys) != "[h s st z]" {
			t.Fatalf("KEYS = %v", keys)
		}
	})
}

// TestZUnionStoreAtomicAcrossShards rewrites a destination from two sources
// on other shards while a reader checks it is never seen half-written.
func TestZUnionStoreAtomicAcrossShards(t *testing.T) {
	forEachDriverParallel(t, func(t *testing.T, addr string) {
		ctx := context.Background()
		w := newClient(t, addr, 2)
		r := newClient(t, addr, 2)
		for i := 0; i < 50; i++ {
			w.ZAdd(ctx, "src1", redis.Z{Score: float64(i), Member: fmt.Sprint("a", i)})
			w.ZAdd(ctx, "src2", redis.Z{Score: float64(i), Member: fmt.Sprint("b", i)})
		}
		done := make(chan error, 1)
		go func() {
			for i := 0; i < 100; i++ {
				keys := []string{"src1", "src2"}
				if i%2 == 1 {
					keys = keys[:1]
				}
				if err := w.ZUnionStore(ctx, "dest", &redis.ZStore{Keys: keys}).Err(); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
		deadline := time.Now().Add(20 * time.Second)
		for finished := false; !finished && time.Now().Before(deadline); {
			select {
			case err := <-done:
				must(t, err)
				finished = true
			default:
			}
			n := len(r.ZRange(ctx, "dest", 0, -1).Val())
			if n != 0 && n != 50 && n != 100 {
				t.Fatalf("ZRANGE dest saw %d members mid-write", n)
			}
		}
	})
}

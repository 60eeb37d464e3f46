package integration

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestDumpRestoreWithRedis moves strings of every RDB encoding (integers,
// short, long and compressible, chunked), every collection type, HLLs and
// streams with their groups both ways between redis-server and rekv with
// DUMP and RESTORE, and copies 10,000 keys from redis-server
// into rekv with a DUMP/RESTORE loop.
func TestDumpRestoreWithRedis(t *testing.T) {
	ctx := context.Background()
	forEachDriverParallel(t, func(t *testing.T, addr string) {
		red := newClient(t, redisServer(t), 2)
		rk := newClient(t, addr, 2)
		must(t, red.FlushAll(ctx).Err())
		values := []string{"", "hello", "12", "-129", "65536", "2147483648", "-2147483649", "007",
			string(bytes.Repeat([]byte("ab"), 50)),     // LZF-compressed by Redis
			string(bytes.Repeat([]byte("xyz"), 10000)), // compressed, and chunked in rekv
			"\x00\xff binary \r\n"}
		for i, v := range values {
			key := fmt.Sprint("v", i)
			for _, pair := range [][2]*redis.Client{{red, rk}, {rk, red}} {
				from, to := pair[0], pair[1]
				must(t, from.Set(ctx, key, v, 0).Err())
				p, err := from.Dump(ctx, key).Result()
				must(t, err)
				must(t, to.RestoreReplace(ctx, key, 0, p).Err())
				if got := to.Get(ctx, key).Val(); got != v {
					t.Fatalf("value %d: restored %.40q, want %.40q", i, got, v)
				}
			}
		}
		// Collections, small (Redis's listpacks and intsets) and large
		// (its plain encodings), both ways.
		for _, size := range []int{3, 300} {
			must(t, red.FlushAll(ctx).Err())
			must(t, rk.FlushAll(ctx).Err())
			for _, c := range []*redis.Client{red, rk} {
				for i := 0; i < size; i++ {
					must(t, c.RPush(ctx, "list", fmt.Sprint("e", i), i, -i*1000).Err())
					must(t, c.SAdd(ctx, "ints", i*70000-5).Err())
					must(t, c.SAdd(ctx, "strs", fmt.Sprint("m", i)).Err())
					must(t, c.HSet(ctx, "hash", fmt.Sprint("f", i), i).Err())
					must(t, c.ZAdd(ctx, "zset", redis.Z{Score: float64(i) / 3, Member: fmt.Sprint("z", i)}).Err())
				}
				must(t, c.ZAdd(ctx, "zset", redis.Z{Score: math.Inf(-1), Member: "low"}).Err())
			}
			read := map[string]func(c *redis.Client, k string) string{
				"list": func(c *redis.Client, k string) string { return fmt.Sprint(c.LRange(ctx, k, 0, -1).Val()) },
				"ints": func(c *redis.Client, k string) string { return fmt.Sprint(sorted(c.SMembers(ctx, k).Val())) },
				"strs": func(c *redis.Client, k string) string { return fmt.Sprint(sorted(c.SMembers(ctx, k).Val())) },
				"hash": func(c *redis.Client, k string) string { return fmt.Sprint(c.HGetAll(ctx, k).Val()) },
				"zset": func(c *redis.Client, k string) string { return fmt.Sprint(c.ZRangeWithScores(ctx, k, 0, -1).Val()) },
			}
			for key, get := range read {
				want := get(red, key)
				for _, pair := range [][2]*redis.Client{{red, rk}, {rk, red}} {
					p, err := pair[0].Dump(ctx, key).Result()
					must(t, err)
					must(t, pair[1].Restore(ctx, key+"-copy", time.Minute, p).Err())
					if got := get(pair[1], key+"-copy"); got != want {
						t.Fatalf("%s (%d) restored %.200s, want %.200s", key, size, got, want)
					}
					if ttl := pair[1].TTL(ctx, key+"-copy").Val(); ttl <= 0 || ttl > time.Minute {
						t.Fatalf("%s: TTL %v", key, ttl)
					}
					must(t, pair[1].Del(ctx, key+"-copy").Err())
				}
			}
		}
		// HyperLogLogs (sparse, and dense: LZF-compressed by Redis), both
		// ways, counting the same afterwards.
		for _, n := range []int{50, 5000} {
			args := []any{"pfadd", "hll"}
			for i := 0; i < n; i++ {
				args = append(args, fmt.Sprint("x", i))
			}
			for _, c := range []*redis.Client{red, rk} {
				must(t, c.Del(ctx, "hll", "hll-copy").Err())
				must(t, c.Do(ctx, args...).Err())
			}
			want := red.PFCount(ctx, "hll").Val()
			for _, pair := range [][2]*redis.Client{{red, rk}, {rk, red}} {
				p, err := pair[0].Dump(ctx, "hll").Result()
				must(t, err)
				must(t, pair[1].RestoreReplace(ctx, "hll-copy", 0, p).Err())
				if got := pair[1].PFCount(ctx, "hll-copy").Val(); got != want {
					t.Fatalf("HLL of %d: restored count %d, want %d", n, got, want)
				}
			}
		}
		// Streams (several listpack nodes in Redis, deleted entries,
		// entries with their own fields, consumer groups with pending
		// entries and consumers, an empty stream with a group), both ways.
		for _, c := range []*redis.Client{red, rk} {
			must(t, c.Del(ctx, "st", "empty").Err())
			for i := 1; i <= 250; i++ {
				fields := []any{"f", i, "g", "x"}
				if i%7 == 0 {
					fields = []any{"other", i}
				}
				must(t, c.XAdd(ctx, &redis.XAddArgs{Stream: "st", ID: fmt.Sprintf("%d-%d", 1000+i/3, i%3), Values: fields}).Err())
			}
			must(t, c.XDel(ctx, "st", "1001-0", "1050-2", "1083-2").Err())
			must(t, c.XGroupCreate(ctx, "st", "g1", "0").Err())
			must(t, c.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "g1", Consumer: "alice", Streams: []string{"st", ">"}, Count: 5}).Err())
			must(t, c.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "g1", Consumer: "bob", Streams: []string{"st", ">"}, Count: 3}).Err())
			must(t, c.XAck(ctx, "st", "g1", "1000-2").Err())
			must(t, c.XGroupCreate(ctx, "st", "g2", "$").Err())
			must(t, c.XGroupCreateConsumer(ctx, "st", "g2", "carol").Err())
			must(t, c.XGroupCreateMkStream(ctx, "empty", "g", "$").Err())
		}
		streamState := func(c *redis.Client, k string) string {
			info, err := c.XInfoStream(ctx, k).Result()
			must(t, err)
			groups, err := c.XInfoGroups(ctx, k).Result()
			must(t, err)
			out := fmt.Sprint(c.XRange(ctx, k, "-", "+").Val(), info.Length, info.LastGeneratedID,
				info.MaxDeletedEntryID, info.EntriesAdded, info.RecordedFirstEntryID, groups)
			for _, g := range groups {
				pend, err := c.XPendingExt(ctx, &redis.XPendingExtArgs{Stream: k, Group: g.Name, Start: "-", End: "+", Count: 100}).Result()
				must(t, err)
				for _, p := range pend {
					out += fmt.Sprint(" ", p.ID, p.Consumer, p.RetryCount)
				}
				cs, err := c.XInfoConsumers(ctx, k, g.Name).Result()
				must(t, err)
				for _, cn := range cs {
					out += fmt.Sprint(" ", cn.Name, cn.Pending)
				}
			}
			return out
		}
		for _, key := range []string{"st", "empty"} {
			want := streamState(red, key)
			if key == "st" && (!strings.Contains(want, "alice4 bob3 carol0") || !strings.Contains(want, "1083-1")) {
				t.Fatalf("stream state lacks what was built: %s", want[max(0, len(want)-400):])
			}
			if got := streamState(rk, key); got != want {
				t.Fatalf("%s built alike differs before any DUMP:\n%.300s\nredis-server:\n%.300s", key, got, want)
			}
			for _, pair := range [][2]*redis.Client{{red, rk}, {rk, red}} {
				p, err := pair[0].Dump(ctx, key).Result()
				must(t, err)
				must(t, pair[1].RestoreReplace(ctx, key+"-copy", 0, p).Err())
				if got := streamState(pair[1], key+"-copy"); got != want {
					t.Fatalf("%s restored:\n%.300s\nwant:\n%.300s", key, got, want)
				}
				// The restored stream takes new entries (Redis appends to
				// the last listpack node rekv wrote).
				must(t, pair[1].XAdd(ctx, &redis.XAddArgs{Stream: key + "-copy", ID: "2000-0", Values: []any{"f", "new"}}).Err())
				if last := pair[1].XRevRangeN(ctx, key+"-copy", "+", "-", 2).Val(); len(last) == 0 || last[0].ID != "2000-0" ||
					key == "st" && (len(last) != 2 || last[1].ID != "1083-1") {
					t.Fatalf("%s restored then XADD: %v", key, last)
				}
			}
		}
		// A 10,000-key copy from redis-server, with TTLs kept.
		must(t, red.FlushAll(ctx).Err())
		must(t, rk.FlushAll(ctx).Err())
		pipe := red.Pipeline()
		for i := 0; i < 10000; i++ {
			ttl := 100000
			if i%10 == 0 {
				ttl = 1000
			}
			pipe.Do(ctx, "set", fmt.Sprint("key:", i), fmt.Sprint("value-", i*7919), "ex", ttl)
		}
		_, err := pipe.Exec(ctx)
		must(t, err)
		keys, err := red.Keys(ctx, "key:*").Result()
		must(t, err)
		for _, k := range keys {
			p := red.Dump(ctx, k).Val()
			ttl := red.PTTL(ctx, k).Val()
			must(t, rk.Restore(ctx, k, ttl, p).Err())
		}
		if n := rk.DBSize(ctx).Val(); n != 10000 {
			t.Fatalf("copied %d keys", n)
		}
		for i := 0; i < 10000; i += 97 {
			k := fmt.Sprint("key:", i)
			if got, want := rk.Get(ctx, k).Val(), red.Get(ctx, k).Val(); got != want {
				t.Fatalf("%s = %q, want %q", k, got, want)
			}
			if d := rk.TTL(ctx, k).Val() - red.TTL(ctx, k).Val(); d > 2e9 || d < -2e9 {
				t.Fatalf("%s: TTL differs by %v", k, d)
			}
		}
	})
}

func sorted(ss []string) []string {
	slices.Sort(ss)
	return ss
}

// TestMigrateWithRedis moves keys with MIGRATE from rekv to redis-server
// and from redis-server to rekv (whose RESTORE it drives), with COPY,
// REPLACE, KEYS and AUTH, and checks Redis's replies for the edge cases.
func TestMigrateWithRedis(t *testing.T) {
	ctx := context.Background()
	redisAddr := redisServer(t)
	red := newClient(t, redisAddr, 2)
	n := startNode(t, "badger", nil)
	rk := newClient(t, n.Addr(), 2)
	host, port, _ := strings.Cut(redisAddr, ":")
	khost, kport, _ := strings.Cut(n.Addr(), ":")
	must(t, red.FlushAll(ctx).Err())

	must(t, rk.Set(ctx, "a", "1", time.Hour).Err())
	must(t, rk.RPush(ctx, "l", "x", "y").Err())
	if got := rk.Do(ctx, "migrate", host, port, "a", 0, 1000).Val(); got != "OK" {
		t.Fatalf("MIGRATE a = %v", got)
	}
	if rk.Exists(ctx, "a").Val() != 0 || red.Get(ctx, "a").Val() != "1" || red.TTL(ctx, "a").Val() < 59*time.Minute {
		t.Fatal("a did not move with its TTL")
	}
	if got := rk.Do(ctx, "migrate", host, port, "", 3, 1000, "copy", "keys", "l", "nokey").Val(); got != "OK" {
		t.Fatalf("MIGRATE KEYS COPY = %v", got)
	}
	if rk.Exists(ctx, "l").Val() != 1 {
		t.Fatal("COPY removed the local key")
	}
	red3 := redis.NewClient(&redis.Options{Addr: redisAddr, DB: 3})
	defer red3.Close()
	if got := red3.LRange(ctx, "l", 0, -1).Val(); fmt.Sprint(got) != "[x y]" {
		t.Fatalf("l on redis db 3: %v", got)
	}
	err := rk.Do(ctx, "migrate", host, port, "", 3, 1000, "keys", "l").Err()
	if err == nil || err.Error() != "ERR Target instance replied with error: BUSYKEY Target key name already exists." {
		t.Fatalf("MIGRATE onto an existing key: %v", err)
	}
	must(t, rk.Do(ctx, "migrate", host, port, "", 3, 1000, "replace", "keys", "l").Err())
	if got := rk.Do(ctx, "migrate", host, port, "nokey", 0, 1000).Val(); got != "NOKEY" {
		t.Fatalf("MIGRATE of a missing key = %v", got)
	}
	must(t, rk.Set(ctx, "b", "2", 0).Err())
	if err := rk.Do(ctx, "migrate", "127.0.0.1", 1, "b", 0, 200).Err(); err == nil || err.Error() != "IOERR error or timeout writing to target instance" {
		t.Fatalf("MIGRATE to a closed port: %v", err)
	}
	if err := rk.Do(ctx, "migrate", host, port, "b", 0, 1000, "auth", "nopass").Err(); err == nil ||
		!strings.HasPrefix(err.Error(), "ERR Target instance replied with error: ERR AUTH") {
		t.Fatalf("MIGRATE with a wrong AUTH: %v", err)
	}
	if rk.Exists(ctx, "b").Val() != 1 {
		t.Fatal("a refused MIGRATE removed the key")
	}

	// redis-server migrating into rekv drives rekv's RESTORE.
	must(t, red.HSet(ctx, "h", "f", "v", "g", "w").Err())
	must(t, red.ZAdd(ctx, "z", redis.Z{Score: 1.5, Member: "m"}).Err())
	if got := red.Do(ctx, "migrate", khost, kport, "", 0, 2000, "keys", "h", "z").Val(); got != "OK" {
		t.Fatalf("redis MIGRATE into rekv = %v", got)
	}
	if got := rk.HGetAll(ctx, "h").Val(); fmt.Sprint(got) != "map[f:v g:w]" {
		t.Fatalf("h on rekv: %v", got)
	}
	if got := rk.ZScore(ctx, "z", "m").Val(); got != 1.5 {
		t.Fatalf("z on rekv: %v", got)
	}
}

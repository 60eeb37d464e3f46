package integration

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestEvictionLikeRedis: with used memory over maxmemory (1 byte), every
// maxmemory-policy but noeviction evicts keys, as on redis-server: the
// allkeys-* policies every key, the volatile-* ones those with a TTL.
// Each evicted key raises "evicted" and no "del"; INFO evicted_keys
// counts them; once no key is left to evict, denyoom commands get -OOM;
// maxmemory 0 lifts it. rekv evicts in the background, between
// commands: the test waits for it (5 s at most).
func TestEvictionLikeRedis(t *testing.T) {
	type outcome struct {
		events, left []string
		evicted, oom string
	}
	run := func(t *testing.T, addr, policy string) outcome {
		c, sub := dialRaw(t, addr), dialRaw(t, addr)
		c.do("FLUSHALL")
		c.do("CONFIG", "RESETSTAT")
		c.do("CONFIG", "SET", "notify-keyspace-events", "Ege")
		t.Cleanup(func() {
			c.do("CONFIG", "SET", "maxmemory", "0")
			c.do("CONFIG", "SET", "maxmemory-policy", "noeviction")
		})
		sub.do("PSUBSCRIBE", "__keyevent@*")
		for _, k := range []string{"p1", "p2", "p3"} {
			c.do("SET", k, "v")
		}
		for i, k := range []string{"e1", "e2", "e3"} {
			c.do("SET", k, "v", "EX", strings.Repeat("9", i+2))
		}
		c.do("CONFIG", "SET", "maxmemory-policy", policy)
		c.do("CONFIG", "SET", "maxmemory", "1")
		// A denyoom command that changes nothing when it runs (XX on a
		// key that is not there) until it is refused: no key left.
		var o outcome
		for end := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			if o.oom = c.do("SET", "absent", "v", "XX"); strings.HasPrefix(o.oom, "-OOM") || time.Now().After(end) {
				break
			}
		}
		o.evicted = infoField(c.do("INFO", "stats"), "evicted_keys")
		o.left = strings.Split(strings.TrimSpace(c.do("KEYS", "*")), "\r\n")[1:]
		slices.Sort(o.left)
		c.do("CONFIG", "SET", "maxmemory", "0")
		c.do("SET", "last", "v")
		c.do("DEL", "last")
		for {
			ev := sub.reply()
			lines := strings.Split(strings.TrimSpace(ev), "\r\n")
			event := lines[len(lines)-3][strings.LastIndex(lines[len(lines)-3], ":")+1:] + " " + lines[len(lines)-1]
			if event == "del last" {
				break
			}
			o.events = append(o.events, event)
		}
		slices.Sort(o.events)
		return o
	}
	red := redisServer(t)
	for _, policy := range []string{"allkeys-lru", "allkeys-lfu", "allkeys-random", "volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl"} {
		t.Run(policy, func(t *testing.T) {
			want := run(t, red, policy)
			if !strings.HasPrefix(want.oom, "-OOM") || len(want.events) == 0 {
				t.Fatalf("redis-server did not evict: %+v", want)
			}
			forEachDriver(t, func(t *testing.T, addr string) {
				if got := run(t, addr, policy); !slices.Equal(got.events, want.events) || !slices.Equal(got.left, want.left) ||
					got.evicted != want.evicted || got.oom != want.oom {
					t.Errorf("\nrekv  %+v\nredis %+v", got, want)
				}
			})
		})
	}
}

// TestEvictionReplicated: a redis-server replica of a rekv master loses
// the keys the master evicts (each a DEL in the stream), and only those.
func TestEvictionReplicated(t *testing.T) {
	ctx := context.Background()
	n := startNode(t, "badger", nil)
	host, port, _ := strings.Cut(n.Addr(), ":")
	replica := redisServer(t, "--replicaof", host, port)
	m, r := newClient(t, n.Addr(), 2), newClient(t, replica, 2)
	for i := range 50 {
		must(t, m.Set(ctx, "p"+strconv.Itoa(i), "v", 0).Err())
		must(t, m.Set(ctx, "e"+strconv.Itoa(i), "v", time.Hour).Err())
	}
	waitCaughtUp(t, ctx, m, r)
	must(t, m.ConfigSet(ctx, "maxmemory-policy", "volatile-random").Err())
	must(t, m.ConfigSet(ctx, "maxmemory", "1").Err())
	t.Cleanup(func() { m.ConfigSet(ctx, "maxmemory", "0") })
	for end := time.Now().Add(5 * time.Second); m.DBSize(ctx).Val() > 50 && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
	must(t, m.ConfigSet(ctx, "maxmemory", "0").Err())
	waitCaughtUp(t, ctx, m, r)
	mk, rk := m.Keys(ctx, "*").Val(), r.Keys(ctx, "*").Val()
	slices.Sort(mk)
	slices.Sort(rk)
	if len(mk) != 50 || !slices.Equal(mk, rk) || slices.ContainsFunc(mk, func(k string) bool { return k[0] == 'e' }) {
		t.Fatalf("after eviction: master %v, replica %v", mk, rk)
	}
}

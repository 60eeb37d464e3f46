package integration

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestBloomReplies: the BF.* commands' replies and errors byte for byte,
// in RESP2 and RESP3, as Redis 8 documents them (redis.io's examples:
// BF.ADD then BF.INFO reports capacity 100 and size 240) and as
// RedisBloom's sources word its errors; no Redis 8 server is available
// to record them from.
func TestBloomReplies(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		for _, proto := range []string{"2", "3"} {
			t.Run("resp"+proto, func(t *testing.T) {
				c := dialRaw(t, addr)
				c.do("FLUSHALL")
				if proto == "3" {
					c.do("HELLO", "3")
				}
				nilReply := "$-1\r\n"
				info := "*10\r\n"
				if proto == "3" {
					nilReply, info = "_\r\n", "%5\r\n"
				}
				info += "+Capacity\r\n:100\r\n+Size\r\n:240\r\n+Number of filters\r\n:1\r\n" +
					"+Number of items inserted\r\n:1\r\n+Expansion rate\r\n:2\r\n"
				for _, tc := range []struct {
					cmd  []string
					want string
				}{
					{[]string{"BF.ADD", "bf1", "observation1"}, ":1\r\n"},
					{[]string{"BF.ADD", "bf1", "observation1"}, ":0\r\n"},
					{[]string{"BF.INFO", "bf1"}, info},
					{[]string{"BF.INFO", "bf1", "CAPACITY"}, "*1\r\n:100\r\n"},
					{[]string{"BF.INFO", "bf1", "size"}, "*1\r\n:240\r\n"},
					{[]string{"BF.INFO", "bf1", "frob"}, "-ERR Invalid information value\r\n"},
					{[]string{"BF.CARD", "bf1"}, ":1\r\n"},
					{[]string{"BF.EXISTS", "bf1", "observation1"}, ":1\r\n"},
					{[]string{"BF.EXISTS", "bf1", "never"}, ":0\r\n"},
					{[]string{"BF.MADD", "bf", "item1", "item2", "item2"}, "*3\r\n:1\r\n:1\r\n:0\r\n"},
					{[]string{"BF.MEXISTS", "bf", "item1", "item2", "item3"}, "*3\r\n:1\r\n:1\r\n:0\r\n"},
					{[]string{"BF.DEBUG", "bf"}, "*2\r\n$6\r\nsize:2\r\n$73\r\nbytes:144 bits:1152 hashes:8 hashwidth:64 capacity:100 size:2 ratio:0.005\r\n"},
					// Missing keys.
					{[]string{"BF.EXISTS", "nokey", "x"}, ":0\r\n"},
					{[]string{"BF.MEXISTS", "nokey", "x", "y"}, "*2\r\n:0\r\n:0\r\n"},
					{[]string{"BF.CARD", "nokey"}, ":0\r\n"},
					{[]string{"BF.INFO", "nokey"}, "-ERR not found\r\n"},
					{[]string{"BF.SCANDUMP", "nokey", "0"}, "-ERR not found\r\n"},
					{[]string{"BF.INSERT", "nokey", "NOCREATE", "ITEMS", "x"}, "-ERR not found\r\n"},
					{[]string{"EXISTS", "nokey"}, ":0\r\n"},
					// BF.RESERVE's checks.
					{[]string{"BF.RESERVE", "r", "abc", "10"}, "-ERR bad error rate\r\n"},
					{[]string{"BF.RESERVE", "r", "1", "10"}, "-ERR (0 < error rate range < 1) \r\n"},
					{[]string{"BF.RESERVE", "r", "0.01", "x"}, "-ERR bad capacity\r\n"},
					{[]string{"BF.RESERVE", "r", "0.01", "0"}, "-ERR (capacity should be larger than 0)\r\n"},
					{[]string{"BF.RESERVE", "r", "0.01", "10", "EXPANSION"}, "-ERR no expansion\r\n"},
					{[]string{"BF.RESERVE", "r", "0.01", "10", "EXPANSION", "x"}, "-ERR bad expansion\r\n"},
					{[]string{"BF.RESERVE", "r", "0.01"}, "-ERR wrong number of arguments for 'bf.reserve' command\r\n"},
					{[]string{"BF.RESERVE", "bf1", "0.01", "10"}, "-ERR item exists\r\n"},
					{[]string{"BF.RESERVE", "r", "0.001", "1000", "EXPANSION", "4"}, "+OK\r\n"},
					{[]string{"BF.INFO", "r", "EXPANSION"}, "*1\r\n:4\r\n"},
					// A non-scaling filter refuses what it cannot hold.
					{[]string{"BF.RESERVE", "nb", "0.01", "2", "NONSCALING"}, "+OK\r\n"},
					{[]string{"BF.INFO", "nb", "EXPANSION"}, "*1\r\n" + nilReply},
					{[]string{"BF.MADD", "nb", "x", "y", "z", "w"}, "*3\r\n:1\r\n:1\r\n-ERR non scaling filter is full\r\n"},
					{[]string{"BF.ADD", "nb", "v"}, "-ERR non scaling filter is full\r\n"},
					{[]string{"BF.ADD", "nb", "x"}, ":0\r\n"},
					{[]string{"BF.CARD", "nb"}, ":2\r\n"},
					// BF.INSERT's options.
					{[]string{"BF.INSERT", "ins", "CAPACITY", "1000", "ERROR", "0.001", "ITEMS", "a", "b", "a"}, "*3\r\n:1\r\n:1\r\n:0\r\n"},
					{[]string{"BF.INFO", "ins", "CAPACITY"}, "*1\r\n:1000\r\n"},
					{[]string{"BF.INSERT", "ins2", "NOCREATE", "CAPACITY", "10", "ITEMS", "a"}, "-ERR NOCREATE cannot be used together with CAPACITY or ERROR\r\n"},
					{[]string{"BF.INSERT", "ins2", "FROB", "ITEMS", "a"}, "-ERR Unknown argument received\r\n"},
					{[]string{"BF.INSERT", "ins2", "ITEMS"}, "-ERR wrong number of arguments for 'bf.insert' command\r\n"},
					// The type among the others.
					{[]string{"TYPE", "bf1"}, "+MBbloom--\r\n"},
					{[]string{"OBJECT", "ENCODING", "bf1"}, "$3\r\nraw\r\n"},
					{[]string{"SET", "s", "v"}, "+OK\r\n"},
					{[]string{"BF.ADD", "s", "x"}, "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"},
					{[]string{"BF.EXISTS", "s", "x"}, "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"},
					{[]string{"BF.RESERVE", "s", "0.01", "10"}, "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"},
					{[]string{"GET", "bf1"}, "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"},
					{[]string{"LPUSH", "bf1", "x"}, "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"},
					{[]string{"SCAN", "0", "TYPE", "mbbloom--", "MATCH", "bf1"}, "*2\r\n$1\r\n0\r\n*1\r\n$3\r\nbf1\r\n"},
				} {
					if got := c.do(tc.cmd...); got != tc.want {
						t.Errorf("%v: %q, want %q", tc.cmd, got, tc.want)
					}
				}
			})
		}
	})
}

// TestBloomAsAKey: a filter scales past its capacity with every item
// still found, survives SCANDUMP/LOADCHUNK, DUMP/RESTORE, RENAME, COPY,
// MOVE and a restart of its key's lifetime (EXPIRE), runs in MULTI and
// scripts, and raises its keyspace event.
func TestBloomAsAKey(t *testing.T) {
	forEachDriverClient(t, 2, func(t *testing.T, ctx context.Context, c *redis.Client, addr string) {
		must(t, c.BFReserve(ctx, "sc", 0.01, 10).Err())
		var items []any
		for i := range 300 {
			items = append(items, fmt.Sprintf("item-%d", i))
		}
		added, err := c.BFMAdd(ctx, "sc", items...).Result()
		must(t, err)
		fresh := 0
		for _, a := range added {
			if a {
				fresh++
			}
		}
		info, err := c.BFInfo(ctx, "sc").Result()
		must(t, err)
		if info.Filters < 4 || info.ItemsInserted != int64(fresh) || fresh < 295 || info.ExpansionRate != 2 {
			t.Fatalf("after 300 items into capacity 10: %+v (%d fresh)", info, fresh)
		}
		exists := func(key string) {
			t.Helper()
			got, err := c.BFMExists(ctx, key, items...).Result()
			must(t, err)
			for i, ok := range got {
				if !ok {
					t.Fatalf("%s: %v not found", key, items[i])
				}
			}
		}
		exists("sc")

		// SCANDUMP into LOADCHUNK rebuilds the same filter.
		for iter := int64(0); ; {
			d, err := c.BFScanDump(ctx, "sc", iter).Result()
			must(t, err)
			if d.Iter == 0 {
				break
			}
			must(t, c.BFLoadChunk(ctx, "copy", d.Iter, d.Data).Err())
			iter = d.Iter
		}
		exists("copy")
		if ci, _ := c.BFInfo(ctx, "copy").Result(); ci != info {
			t.Fatalf("loaded %+v, dumped %+v", ci, info)
		}
		if err := c.BFLoadChunk(ctx, "copy", 1, "garbage").Err(); err == nil {
			t.Fatal("LOADCHUNK of a header onto an existing filter")
		}
		if err := c.BFLoadChunk(ctx, "bad", 1, "garbage").Err(); err == nil || err.Error() != "ERR received bad data" {
			t.Fatalf("LOADCHUNK of a bad header: %v", err)
		}

		// DUMP/RESTORE, RENAME, COPY, MOVE, EXPIRE.
		payload, err := c.Dump(ctx, "sc").Result()
		must(t, err)
		must(t, c.Restore(ctx, "restored", 0, payload).Err())
		exists("restored")
		must(t, c.Rename(ctx, "restored", "renamed").Err())
		exists("renamed")
		must(t, c.Copy(ctx, "renamed", "copied", 0, false).Err())
		must(t, c.BFAdd(ctx, "copied", "only-in-copy").Err())
		if ok, _ := c.BFExists(ctx, "renamed", "only-in-copy").Result(); ok {
			t.Fatal("an item added to a COPY shows in its source")
		}
		must(t, c.Move(ctx, "copied", 1).Err())
		if n, _ := c.Exists(ctx, "copied").Result(); n != 0 {
			t.Fatal("MOVE left the key")
		}
		must(t, c.Expire(ctx, "renamed", time.Hour).Err())
		if ttl, _ := c.TTL(ctx, "renamed").Result(); ttl <= 0 {
			t.Fatalf("TTL %v", ttl)
		}
		must(t, c.Del(ctx, "renamed").Err())
		if n, _ := c.BFCard(ctx, "renamed").Result(); n != 0 {
			t.Fatalf("BF.CARD after DEL: %d", n)
		}

		// MULTI and scripts.
		tx := c.TxPipeline()
		tx.BFAdd(ctx, "m", "a")
		tx.BFExists(ctx, "m", "a")
		cmds, err := tx.Exec(ctx)
		must(t, err)
		if !cmds[1].(*redis.BoolCmd).Val() {
			t.Fatal("BF.EXISTS in MULTI did not see the BF.ADD before it")
		}
		got, err := c.Eval(ctx, "redis.call('BF.ADD', KEYS[1], ARGV[1]); return redis.call('BF.EXISTS', KEYS[1], ARGV[1])",
			[]string{"sc"}, "from-script").Result()
		if err != nil || got != int64(1) {
			t.Fatalf("script: %v %v", got, err)
		}

		// The keyspace event of a module type (class d).
		must(t, c.ConfigSet(ctx, "notify-keyspace-events", "Ed").Err())
		defer c.ConfigSet(ctx, "notify-keyspace-events", "")
		sub := c.Subscribe(ctx, "__keyevent@0__:bf.add")
		defer sub.Close()
		if _, err := sub.Receive(ctx); err != nil {
			t.Fatal(err)
		}
		must(t, c.BFAdd(ctx, "ev", "x").Err())
		select {
		case m := <-sub.Channel():
			if m.Payload != "ev" {
				t.Fatalf("event for %q", m.Payload)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no bf.add event")
		}
	})
}

// TestBloomModuleList: clients that probe MODULE LIST for the Bloom or
// JSON module find them, as on Redis 8; COMMAND INFO describes BF.ADD as
// a module command in @bloom, and ACL CAT lists the JSON commands.
func TestBloomModuleList(t *testing.T) {
	c := newClient(t, startNode(t, "badger", nil).Addr(), 2)
	ctx := context.Background()
	mods, err := c.Do(ctx, "module", "list").Slice()
	must(t, err)
	if len(mods) != 2 || !strings.Contains(fmt.Sprint(mods[0]), "name ReJSON") || !strings.Contains(fmt.Sprint(mods[1]), "name bf") {
		t.Fatalf("MODULE LIST: %v", mods)
	}
	info, err := c.Do(ctx, "command", "info", "bf.add").Slice()
	must(t, err)
	if s := fmt.Sprint(info); len(info) != 1 || !strings.Contains(s, "module") || !strings.Contains(s, "@bloom") {
		t.Fatalf("COMMAND INFO bf.add: %v", info)
	}
	cats, err := c.Do(ctx, "acl", "cat", "bloom").StringSlice()
	must(t, err)
	if len(cats) != 11 {
		t.Fatalf("ACL CAT bloom: %v", cats)
	}
	if cats, err = c.Do(ctx, "acl", "cat", "json").StringSlice(); err != nil || len(cats) != 25 {
		t.Fatalf("ACL CAT json: %v %v", cats, err)
	}
	if cats, err = c.Do(ctx, "acl", "cat", "tdigest").StringSlice(); err != nil || len(cats) != 14 {
		t.Fatalf("ACL CAT tdigest: %v %v", cats, err)
	}
}

// TestBloomReplicates: filters, t-digests and JSON documents reach a
// rekv replica by the full sync (an RDB file of RedisBloom- and
// RedisJSON-encoded values) and by the write stream, whole.
func TestBloomReplicates(t *testing.T) {
	ctx := context.Background()
	m, r := startNode(t, "badger", nil), startNode(t, "badger", nil)
	mc, rc := newClient(t, m.Addr(), 2), newClient(t, r.Addr(), 2)
	must(t, mc.BFReserve(ctx, "before", 0.001, 20).Err())
	for i := range 100 {
		must(t, mc.BFAdd(ctx, "before", i).Err())
	}
	must(t, mc.TDigestCreate(ctx, "td-before").Err())
	must(t, mc.TDigestAdd(ctx, "td-before", 1, 2, 3, 4.5).Err())
	must(t, mc.JSONSet(ctx, "doc-before", "$", `{"x":[1.0,"two",null],"y":{"z":true}}`).Err())
	host, port, _ := strings.Cut(m.Addr(), ":")
	must(t, rc.Do(ctx, "replicaof", host, port).Err())
	waitCaughtUp(t, ctx, mc, rc)
	must(t, mc.BFInsert(ctx, "after", &redis.BFInsertOptions{Capacity: 5, Error: 0.01}, "a", "b", "c", "d", "e", "f", "g").Err())
	must(t, mc.BFAdd(ctx, "before", "late").Err())
	// The other Redis 8 types replicate as commands too: a t-digest
	// compressing on the master, a JSON document edited by paths.
	must(t, mc.TDigestCreate(ctx, "td").Err())
	for i := range 700 {
		must(t, mc.TDigestAdd(ctx, "td", float64(i%37)).Err())
	}
	must(t, mc.JSONSet(ctx, "doc", "$", `{"a":[1,2],"b":{"c":"x"}}`).Err())
	must(t, mc.JSONArrAppend(ctx, "doc", "$.a", 3).Err())
	must(t, mc.JSONDel(ctx, "doc", "$.b.c").Err())
	must(t, mc.JSONNumIncrBy(ctx, "doc", "$.a[0]", 1.5).Err())
	waitCaughtUp(t, ctx, mc, rc)
	for _, k := range []string{"before", "after", "td", "doc", "td-before", "doc-before"} {
		want, err := mc.Dump(ctx, k).Result()
		must(t, err)
		got, err := rc.Dump(ctx, k).Result()
		must(t, err)
		if got != want {
			t.Fatalf("%s differs on the replica", k)
		}
	}
	if ok, _ := rc.BFExists(ctx, "before", "late").Result(); !ok {
		t.Fatal("an item added after the sync is missing on the replica")
	}
}

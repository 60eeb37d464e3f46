package integration

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
)

// TestCuckooReplies: the CF.* commands' replies and errors byte for byte,
// in RESP2 and RESP3, as Redis 8 documents them (CF.RESERVE cf 1000 then
// CF.INFO: size 1080, 512 buckets) and RedisBloom's sources word them.
func TestCuckooReplies(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		for _, proto := range []string{"2", "3"} {
			t.Run("resp"+proto, func(t *testing.T) {
				c := dialRaw(t, addr)
				c.do("FLUSHALL")
				info := "*16\r\n"
				if proto == "3" {
					c.do("HELLO", "3")
					info = "%8\r\n"
				}
				info += "+Size\r\n:1080\r\n+Number of buckets\r\n:512\r\n+Number of filters\r\n:1\r\n" +
					"+Number of items inserted\r\n:ITEMS\r\n+Number of items deleted\r\n:DELETED\r\n+Bucket size\r\n:2\r\n" +
					"+Expansion rate\r\n:1\r\n+Max iterations\r\n:20\r\n"
				for _, tc := range []struct {
					cmd  []string
					want string
				}{
					{[]string{"CF.RESERVE", "cf", "1000"}, "+OK\r\n"},
					{[]string{"CF.INFO", "cf"}, counts(info, 0, 0)},
					{[]string{"CF.RESERVE", "cf", "1000"}, "-ERR item exists\r\n"},
					{[]string{"CF.ADD", "cf", "item1"}, ":1\r\n"},
					{[]string{"CF.ADD", "cf", "item1"}, ":1\r\n"},
					{[]string{"CF.ADDNX", "cf", "item1"}, ":0\r\n"},
					{[]string{"CF.COUNT", "cf", "item1"}, ":2\r\n"},
					{[]string{"CF.EXISTS", "cf", "item1"}, ":1\r\n"},
					{[]string{"CF.MEXISTS", "cf", "item1", "item2"}, "*2\r\n:1\r\n:0\r\n"},
					{[]string{"CF.DEL", "cf", "item1"}, ":1\r\n"},
					{[]string{"CF.INFO", "cf"}, counts(info, 1, 1)},
					{[]string{"CF.DEL", "cf", "item1"}, ":1\r\n"},
					{[]string{"CF.DEL", "cf", "item1"}, ":0\r\n"},
					{[]string{"CF.EXISTS", "cf", "item1"}, ":0\r\n"},
					{[]string{"CF.DEBUG", "cf"}, "$79\r\nbktsize:2 buckets:512 items:0 deletes:2 filters:1 max_iterations:20 expansion:1\r\n"},
					{[]string{"CF.INSERT", "cf2", "CAPACITY", "1000", "ITEMS", "a", "b"}, "*2\r\n:1\r\n:1\r\n"},
					{[]string{"CF.INSERTNX", "cf2", "ITEMS", "a", "c"}, "*2\r\n:0\r\n:1\r\n"},
					{[]string{"CF.INSERT", "nokey", "NOCREATE", "ITEMS", "a"}, "-ERR not found\r\n"},
					{[]string{"CF.INSERT", "x", "CAPACITY", "1", "ITEMS", "a"}, "-ERR Capacity must be at least (BucketSize * 2)\r\n"},
					{[]string{"CF.INSERT", "x", "FROB", "ITEMS", "a"}, "-ERR Unknown argument received\r\n"},
					{[]string{"CF.RESERVE", "x", "1"}, "-ERR Capacity must be at least (BucketSize * 2)\r\n"},
					{[]string{"CF.RESERVE", "x", "abc"}, "-ERR Bad capacity\r\n"},
					{[]string{"CF.RESERVE", "x", "100", "BUCKETSIZE", "0"}, "-ERR BUCKETSIZE parameter needs to be a positive integer\r\n"},
					{[]string{"CF.RESERVE", "x", "100", "MAXITERATIONS", "z"}, "-ERR Couldn't parse MAXITERATIONS\r\n"},
					{[]string{"CF.RESERVE", "x", "100", "BUCKETSIZE"}, "-ERR wrong number of arguments for 'cf.reserve' command\r\n"},
					{[]string{"CF.DEL", "nokey", "x"}, "-ERR Not found\r\n"},
					{[]string{"CF.EXISTS", "nokey", "x"}, ":0\r\n"},
					{[]string{"CF.COUNT", "nokey", "x"}, ":0\r\n"},
					{[]string{"CF.INFO", "nokey"}, "-ERR not found\r\n"},
					{[]string{"CF.COMPACT", "nokey"}, "-ERR Cuckoo filter was not found\r\n"},
					{[]string{"CF.SCANDUMP", "cf", "0"}, "*2\r\n:0\r\n" + map[string]string{"2": "$-1\r\n", "3": "_\r\n"}[proto]},
					// A filter that may not grow fills up.
					{[]string{"CF.RESERVE", "small", "2", "BUCKETSIZE", "1", "MAXITERATIONS", "1", "EXPANSION", "0"}, "+OK\r\n"},
					{[]string{"CF.INSERT", "small", "ITEMS", "a", "b", "c", "d", "e", "f"}, ""},
					{[]string{"TYPE", "cf"}, "+MBbloomCF\r\n"},
					{[]string{"OBJECT", "ENCODING", "cf"}, "$3\r\nraw\r\n"},
					{[]string{"SET", "s", "v"}, "+OK\r\n"},
					{[]string{"CF.ADD", "s", "x"}, "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"},
					{[]string{"GET", "cf"}, "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"},
				} {
					got := c.do(tc.cmd...)
					if tc.want == "" { // some items refused: -1 among the replies
						if got[:4] != "*6\r\n" || !containsInt(got, -1) {
							t.Errorf("%v: %q, want some -1", tc.cmd, got)
						}
						continue
					}
					if got != tc.want {
						t.Errorf("%v: %q, want %q", tc.cmd, got, tc.want)
					}
				}
			})
		}
	})
}

// counts fills a CF.INFO reply's item counts.
func counts(info string, items, deleted int) string {
	return strings.NewReplacer("ITEMS", fmt.Sprint(items), "DELETED", fmt.Sprint(deleted)).Replace(info)
}

// containsInt reports whether a RESP reply holds the integer n.
func containsInt(reply string, n int) bool { return strings.Contains(reply, fmt.Sprintf(":%d\r\n", n)) }

// TestCuckooAsAKey: a filter that grew keeps every item through
// SCANDUMP/LOADCHUNK and DUMP/RESTORE; deletions compact it back.
func TestCuckooAsAKey(t *testing.T) {
	forEachDriverClient(t, 2, func(t *testing.T, ctx context.Context, c *redis.Client, addr string) {
		must(t, c.CFReserveWithArgs(ctx, "cf", &redis.CFReserveOptions{Capacity: 64, Expansion: 2}).Err())
		var items []any
		for i := range 400 {
			items = append(items, fmt.Sprintf("item-%d", i))
		}
		res, err := c.CFInsert(ctx, "cf", &redis.CFInsertOptions{}, items...).Result()
		must(t, err)
		for i, r := range res {
			if !r {
				t.Fatalf("item %d refused", i)
			}
		}
		info, err := c.CFInfo(ctx, "cf").Result()
		must(t, err)
		if info.NumFilters < 2 || info.NumItemsInserted != 400 {
			t.Fatalf("after 400 items into 64: %+v", info)
		}
		all := func(key string) {
			t.Helper()
			got, err := c.CFMExists(ctx, key, items...).Result()
			must(t, err)
			for i, ok := range got {
				if !ok {
					t.Fatalf("%s: %v missing", key, items[i])
				}
			}
		}
		for iter := int64(0); ; {
			d, err := c.CFScanDump(ctx, "cf", iter).Result()
			if err == redis.Nil || err == nil && d.Iter == 0 {
				break // [0, nil]: the end
			}
			must(t, err)
			must(t, c.CFLoadChunk(ctx, "copy", d.Iter, d.Data).Err())
			iter = d.Iter
		}
		all("copy")
		if ci, _ := c.CFInfo(ctx, "copy").Result(); ci != info {
			t.Fatalf("loaded %+v, dumped %+v", ci, info)
		}
		payload, err := c.Dump(ctx, "cf").Result()
		must(t, err)
		must(t, c.Restore(ctx, "restored", 0, payload).Err())
		all("restored")
		for _, it := range items {
			must(t, c.CFDel(ctx, "restored", it.(string)).Err())
		}
		after, _ := c.CFInfo(ctx, "restored").Result()
		if after.NumItemsInserted != 0 || after.NumFilters >= info.NumFilters {
			t.Fatalf("after deleting all: %+v (had %d sub-filters)", after, info.NumFilters)
		}
	})
}

package integration

import (
	"context"
	"fmt"
	"testing"

	"github.com/redis/go-redis/v9"
)

// TestTopKReplies: the TOPK.* commands' replies and errors byte for
// byte, in RESP2 and RESP3, as Redis 8 documents them and RedisBloom's
// sources word them.
func TestTopKReplies(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		for _, proto := range []string{"2", "3"} {
			t.Run("resp"+proto, func(t *testing.T) {
				c := dialRaw(t, addr)
				c.do("FLUSHALL")
				info, nilReply, decay := "*8\r\n", "$-1\r\n", "$19\r\n0.90000000000000002\r\n"
				if proto == "3" {
					c.do("HELLO", "3")
					info, nilReply, decay = "%4\r\n", "_\r\n", ",0.90000000000000002\r\n"
				}
				for _, tc := range []struct {
					cmd  []string
					want string
				}{
					{[]string{"TOPK.RESERVE", "tk", "2"}, "+OK\r\n"},
					{[]string{"TOPK.INFO", "tk"}, info + "+k\r\n:2\r\n+width\r\n:8\r\n+depth\r\n:7\r\n+decay\r\n" + decay},
					{[]string{"TOPK.RESERVE", "tk", "2"}, "-TopK: key already exists\r\n"},
					{[]string{"TOPK.ADD", "tk", "a", "b"}, "*2\r\n" + nilReply + nilReply},
					// c ties b and a at 1: the heap's first entry (a, after b moved
					// below it on the tie) is expelled.
					{[]string{"TOPK.ADD", "tk", "c", "c", "c"}, "*3\r\n$1\r\na\r\n" + nilReply + nilReply},
					{[]string{"TOPK.QUERY", "tk", "c", "a", "zz"}, "*3\r\n:1\r\n:0\r\n:0\r\n"},
					{[]string{"TOPK.COUNT", "tk", "c", "zz"}, "*2\r\n:3\r\n:0\r\n"},
					{[]string{"TOPK.LIST", "tk"}, "*2\r\n$1\r\nc\r\n$1\r\nb\r\n"},
					{[]string{"TOPK.LIST", "tk", "WITHCOUNT"}, "*4\r\n$1\r\nc\r\n:3\r\n$1\r\nb\r\n:1\r\n"},
					{[]string{"TOPK.LIST", "tk", "FROB"}, "-TopK: wrong argument, expecting WITHCOUNT\r\n"},
					{[]string{"TOPK.INCRBY", "tk", "d", "5"}, "*1\r\n$1\r\nb\r\n"},
					{[]string{"TOPK.INCRBY", "tk", "d", "0"}, "-TopK: increment must be an integer greater or equal to 1 and less or equal to 100,000\r\n"},
					{[]string{"TOPK.INCRBY", "tk", "d"}, "-ERR wrong number of arguments for 'topk.incrby' command\r\n"},
					{[]string{"TOPK.RESERVE", "x", "0"}, "-TopK: invalid k\r\n"},
					{[]string{"TOPK.RESERVE", "x", "5", "0", "7", "0.9"}, "-TopK: invalid width\r\n"},
					{[]string{"TOPK.RESERVE", "x", "5", "8", "0", "0.9"}, "-TopK: invalid depth\r\n"},
					{[]string{"TOPK.RESERVE", "x", "5", "8", "7", "1"}, "-TopK: invalid decay value. must be '< 1' & '> 0'\r\n"},
					{[]string{"TOPK.RESERVE", "x", "5", "8"}, "-ERR wrong number of arguments for 'topk.reserve' command\r\n"},
					{[]string{"TOPK.ADD", "nokey", "a"}, "-TopK: key does not exist\r\n"},
					{[]string{"TOPK.LIST", "nokey"}, "-TopK: key does not exist\r\n"},
					{[]string{"TYPE", "tk"}, "+TopK-TYPE\r\n"},
					{[]string{"SET", "s", "v"}, "+OK\r\n"},
					{[]string{"TOPK.ADD", "s", "a"}, "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"},
					{[]string{"TOPK.RESERVE", "s", "2"}, "-TopK: key already exists\r\n"},
				} {
					if got := c.do(tc.cmd...); got != tc.want {
						t.Errorf("%v: %q, want %q", tc.cmd, got, tc.want)
					}
				}
			})
		}
	})
}

// TestTopKAsAKey: the heavy items of a skewed stream top the list; a
// DUMP/RESTORE copy answers the same and, fed the same items, stays
// equal (the decays are the key's own).
func TestTopKAsAKey(t *testing.T) {
	forEachDriverClient(t, 2, func(t *testing.T, ctx context.Context, c *redis.Client, addr string) {
		must(t, c.TopKReserve(ctx, "tk", 3).Err())
		feed := func(key string, from, to int) {
			for i := from; i < to; i += 50 {
				var items []any
				for j := i; j < i+50; j++ {
					if j%3 == 0 {
						items = append(items, fmt.Sprint("heavy-", j%9))
					} else {
						items = append(items, fmt.Sprint("light-", j%500))
					}
				}
				must(t, c.TopKAdd(ctx, key, items...).Err())
			}
		}
		feed("tk", 0, 3000)
		list, err := c.TopKList(ctx, "tk").Result()
		must(t, err)
		if fmt.Sprint(list) != "[heavy-0 heavy-3 heavy-6]" && fmt.Sprint(list) != "[heavy-0 heavy-6 heavy-3]" &&
			fmt.Sprint(list) != "[heavy-3 heavy-0 heavy-6]" && fmt.Sprint(list) != "[heavy-3 heavy-6 heavy-0]" &&
			fmt.Sprint(list) != "[heavy-6 heavy-0 heavy-3]" && fmt.Sprint(list) != "[heavy-6 heavy-3 heavy-0]" {
			t.Fatalf("top 3: %v", list)
		}
		payload, err := c.Dump(ctx, "tk").Result()
		must(t, err)
		must(t, c.Restore(ctx, "copy", 0, payload).Err())
		feed("tk", 3000, 4000)
		feed("copy", 3000, 4000)
		a, _ := c.TopKListWithCount(ctx, "tk").Result()
		b, _ := c.TopKListWithCount(ctx, "copy").Result()
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("a key and its copy fed alike differ: %v, %v", a, b)
		}
	})
}

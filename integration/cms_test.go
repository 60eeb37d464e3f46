package integration

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"
)

// TestCMSReplies: the CMS.* commands' replies and errors byte for byte,
// in RESP2 and RESP3, as Redis 8 documents them and RedisBloom's sources
// word them (no Redis 8 server is available to record them from).
func TestCMSReplies(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		for _, proto := range []string{"2", "3"} {
			t.Run("resp"+proto, func(t *testing.T) {
				c := dialRaw(t, addr)
				c.do("FLUSHALL")
				info := "*6\r\n"
				if proto == "3" {
					c.do("HELLO", "3")
					info = "%3\r\n"
				}
				wrongType := "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"
				for _, tc := range []struct {
					cmd  []string
					want string
				}{
					{[]string{"CMS.INITBYDIM", "c", "2000", "5"}, "+OK\r\n"},
					{[]string{"CMS.INITBYDIM", "c", "2000", "5"}, "-CMS: key already exists\r\n"},
					{[]string{"CMS.INITBYDIM", "c", "0", "5"}, "-CMS: key already exists\r\n"},
					{[]string{"CMS.INITBYDIM", "x", "0", "5"}, "-CMS: invalid width\r\n"},
					{[]string{"CMS.INITBYDIM", "x", "abc", "5"}, "-CMS: invalid width\r\n"},
					{[]string{"CMS.INITBYDIM", "x", "10", "0"}, "-CMS: invalid depth\r\n"},
					{[]string{"CMS.INITBYDIM", "x", "10"}, "-ERR wrong number of arguments for 'cms.initbydim' command\r\n"},
					{[]string{"CMS.INITBYPROB", "p", "0.001", "0.01"}, "+OK\r\n"},
					{[]string{"CMS.INFO", "p"}, info + "+width\r\n:2000\r\n+depth\r\n:7\r\n+count\r\n:0\r\n"},
					{[]string{"CMS.INITBYPROB", "q", "0", "0.01"}, "-CMS: invalid overestimation value\r\n"},
					{[]string{"CMS.INITBYPROB", "q", "0.1", "1"}, "-CMS: invalid prob value\r\n"},
					{[]string{"CMS.INCRBY", "c", "foo", "10", "bar", "42"}, "*2\r\n:10\r\n:42\r\n"},
					{[]string{"CMS.QUERY", "c", "foo", "bar", "baz"}, "*3\r\n:10\r\n:42\r\n:0\r\n"},
					{[]string{"CMS.INCRBY", "c", "foo", "x"}, "-CMS: Cannot parse number\r\n"},
					{[]string{"CMS.INCRBY", "c", "foo", "-1"}, "-CMS: Number cannot be negative\r\n"},
					{[]string{"CMS.INCRBY", "nokey", "foo", "x"}, "-CMS: key does not exist\r\n"},
					{[]string{"CMS.INCRBY", "c", "foo", "1", "bar"}, "-ERR wrong number of arguments for 'cms.incrby' command\r\n"},
					{[]string{"CMS.QUERY", "nokey", "foo"}, "-CMS: key does not exist\r\n"},
					{[]string{"CMS.INFO", "c"}, info + "+width\r\n:2000\r\n+depth\r\n:5\r\n+count\r\n:52\r\n"},
					// CMS.MERGE: weights, and RedisBloom's checks in its order.
					{[]string{"CMS.INITBYDIM", "d", "2000", "5"}, "+OK\r\n"},
					{[]string{"CMS.MERGE", "d", "1", "c", "WEIGHTS", "3"}, "+OK\r\n"},
					{[]string{"CMS.QUERY", "d", "foo", "bar"}, "*2\r\n:30\r\n:126\r\n"},
					{[]string{"CMS.MERGE", "d", "2", "c", "d"}, "+OK\r\n"},
					{[]string{"CMS.QUERY", "d", "foo"}, "*1\r\n:40\r\n"},
					{[]string{"CMS.INFO", "d"}, info + "+width\r\n:2000\r\n+depth\r\n:5\r\n+count\r\n:208\r\n"},
					{[]string{"CMS.MERGE", "nokey", "1", "c"}, "-CMS: key does not exist\r\n"},
					{[]string{"CMS.MERGE", "d", "x", "c"}, "-CMS: invalid numkeys\r\n"},
					{[]string{"CMS.MERGE", "d", "0", "c"}, "-CMS: Number of keys must be positive\r\n"},
					{[]string{"CMS.MERGE", "d", "2", "c"}, "-CMS: wrong number of keys\r\n"},
					{[]string{"CMS.MERGE", "d", "1", "c", "WEIGHTS"}, "-CMS: wrong number of keys/weights\r\n"},
					{[]string{"CMS.MERGE", "d", "1", "c", "WEIGHTS", "z"}, "-CMS: invalid weight value\r\n"},
					{[]string{"CMS.MERGE", "d", "1", "nokey"}, "-CMS: key does not exist\r\n"},
					{[]string{"CMS.MERGE", "d", "1", "p"}, "-CMS: width/depth is not equal\r\n"},
					{[]string{"CMS.MERGE", "d", "1", "c", "WEIGHTS", "-1"}, "-CMS: MERGE overflow\r\n"},
					{[]string{"CMS.QUERY", "d", "foo"}, "*1\r\n:40\r\n"},
					// The type among the others.
					{[]string{"TYPE", "c"}, "+CMSk-TYPE\r\n"},
					{[]string{"OBJECT", "ENCODING", "c"}, "$3\r\nraw\r\n"},
					{[]string{"SET", "s", "v"}, "+OK\r\n"},
					{[]string{"CMS.INCRBY", "s", "foo", "1"}, wrongType},
					{[]string{"CMS.INITBYDIM", "s", "10", "10"}, "-CMS: key already exists\r\n"},
					{[]string{"GET", "c"}, wrongType},
					{[]string{"BF.ADD", "c", "x"}, wrongType},
					{[]string{"CMS.QUERY", "bf", "x"}, "-CMS: key does not exist\r\n"},
				} {
					if got := c.do(tc.cmd...); got != tc.want {
						t.Errorf("%v: %q, want %q", tc.cmd, got, tc.want)
					}
				}
			})
		}
	})
}

// TestCMSAsAKey: a sketch survives DUMP/RESTORE, RENAME and COPY whole,
// and CMS.INCRBY runs in MULTI and scripts.
func TestCMSAsAKey(t *testing.T) {
	forEachDriverClient(t, 2, func(t *testing.T, ctx context.Context, c *redis.Client, addr string) {
		must(t, c.CMSInitByProb(ctx, "s", 0.01, 0.01).Err())
		for i := range 200 {
			must(t, c.CMSIncrBy(ctx, "s", fmtItem(i%50), 1+i%3).Err())
		}
		want, err := c.CMSQuery(ctx, "s", fmtItem(0), fmtItem(7), fmtItem(49), "absent").Result()
		must(t, err)
		payload, err := c.Dump(ctx, "s").Result()
		must(t, err)
		must(t, c.Restore(ctx, "r", 0, payload).Err())
		must(t, c.Rename(ctx, "r", "renamed").Err())
		must(t, c.Copy(ctx, "renamed", "copied", 0, false).Err())
		for _, k := range []string{"renamed", "copied"} {
			got, err := c.CMSQuery(ctx, k, fmtItem(0), fmtItem(7), fmtItem(49), "absent").Result()
			must(t, err)
			if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
				t.Fatalf("%s: %v, want %v", k, got, want)
			}
		}
		if info, _ := c.CMSInfo(ctx, "copied").Result(); info.Count != 399 {
			t.Fatalf("count after COPY: %+v", info)
		}
		tx := c.TxPipeline()
		tx.CMSIncrBy(ctx, "s", "m", 5)
		q := tx.CMSQuery(ctx, "s", "m")
		_, err = tx.Exec(ctx)
		must(t, err)
		if v := q.Val(); len(v) != 1 || v[0] < 5 {
			t.Fatalf("CMS.QUERY in MULTI: %v", v)
		}
		got, err := c.Eval(ctx, "return redis.call('CMS.INCRBY', KEYS[1], 'from-script', 7)", []string{"s"}).Result()
		if err != nil || len(got.([]any)) != 1 || got.([]any)[0].(int64) < 7 {
			t.Fatalf("script: %v %v", got, err)
		}
	})
}

func fmtItem(i int) string { return "item-" + string(rune('a'+i%26)) + string(rune('a'+i/26)) }

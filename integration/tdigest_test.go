package integration

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
)

// TestTDigestReplies: the TDIGEST.* commands' replies and errors byte for
// byte, in RESP2 and RESP3, with redis.io's examples, the values
// RedisBloom's own tests (tests/flow/test_tdigest.py) expect and its
// sources' error texts (no Redis 8 server is available to record them
// from). Where the two disagree (that test file expects TDIGEST.RANK of
// the smallest observation to be 1; redis.io's example and RedisBloom's
// code, which rounds half an observation down, give 0), the code wins.
func TestTDigestReplies(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		for _, proto := range []int{2, 3} {
			t.Run(fmt.Sprint("resp", proto), func(t *testing.T) {
				c := dialRaw(t, addr)
				c.do("FLUSHALL")
				if proto == 3 {
					c.do("HELLO", "3")
				}
				dbl := func(s string) string {
					if proto == 3 {
						return "," + s + "\r\n"
					}
					return fmt.Sprintf("$%d\r\n%s\r\n", len(s), s)
				}
				dbls := func(vs ...string) string {
					out := fmt.Sprintf("*%d\r\n", len(vs))
					for _, v := range vs {
						out += dbl(v)
					}
					return out
				}
				ints := func(vs ...int) string {
					out := fmt.Sprintf("*%d\r\n", len(vs))
					for _, v := range vs {
						out += fmt.Sprintf(":%d\r\n", v)
					}
					return out
				}
				info := func(vals ...int) string {
					out := "*18\r\n"
					if proto == 3 {
						out = "%9\r\n"
					}
					for i, name := range []string{"Compression", "Capacity", "Merged nodes", "Unmerged nodes", "Merged weight",
						"Unmerged weight", "Observations", "Total compressions", "Memory usage"} {
						out += fmt.Sprintf("+%s\r\n:%d\r\n", name, vals[i])
					}
					return out
				}
				seq := func(cmd, key string, from, to int) []string {
					out := []string{cmd, key}
					for i := from; i <= to; i++ {
						out = append(out, fmt.Sprint(i))
					}
					return out
				}
				fifteen := strings.Fields("1 2 2 3 3 3 4 4 4 4 5 5 5 5 5")
				wrongType := "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"
				for _, tc := range []struct {
					cmd  []string
					want string
				}{
					{[]string{"TDIGEST.CREATE", "t"}, "+OK\r\n"},
					{[]string{"TDIGEST.CREATE", "t"}, "-ERR T-Digest: key already exists\r\n"},
					{[]string{"TDIGEST.MIN", "t"}, dbl("nan")},
					{[]string{"TDIGEST.MAX", "t"}, dbl("nan")},
					{[]string{"TDIGEST.QUANTILE", "t", "0.5"}, dbls("nan")},
					{[]string{"TDIGEST.CDF", "t", "1"}, dbls("nan")},
					{[]string{"TDIGEST.RANK", "t", "1"}, ints(-2)},
					{[]string{"TDIGEST.BYRANK", "t", "1"}, dbls("nan")},
					{[]string{"TDIGEST.TRIMMED_MEAN", "t", "0.1", "0.9"}, dbl("nan")},
					{[]string{"TDIGEST.ADD", "t", "1", "2", "3", "4", "5"}, "+OK\r\n"},
					// redis.io's TDIGEST.INFO example.
					{[]string{"TDIGEST.INFO", "t"}, info(100, 610, 0, 5, 0, 5, 5, 0, 9768)},
					{[]string{"TDIGEST.MIN", "t"}, dbl("1")},
					{[]string{"TDIGEST.MAX", "t"}, dbl("5")},
					{[]string{"TDIGEST.CREATE", "c", "COMPRESSION", "1000"}, "+OK\r\n"},
					{append([]string{"TDIGEST.ADD", "c"}, fifteen...), "+OK\r\n"},
					{seq("TDIGEST.RANK", "c", 0, 6), ints(-1, 0, 2, 4, 8, 12, 15)},
					{seq("TDIGEST.REVRANK", "c", 0, 6), ints(15, 14, 13, 10, 7, 2, -1)},
					{seq("TDIGEST.BYREVRANK", "c", 0, 15), dbls("5", "5", "5", "5", "5", "4", "4", "4", "4", "3", "3", "3", "2", "2", "1", "-inf")},
					{[]string{"TDIGEST.BYRANK", "c", "15", "14", "13", "12", "11", "10", "9", "8", "7", "6", "5", "4", "3", "2", "1", "0"},
						dbls("inf", "5", "5", "5", "5", "5", "4", "4", "4", "4", "3", "3", "3", "2", "2", "1")},
					{[]string{"TDIGEST.QUANTILE", "c", "0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1"},
						dbls("1", "2", "3", "3", "4", "4", "4", "5", "5", "5", "5")},
					{[]string{"TDIGEST.QUANTILE", "c", "0.9", "0.1"}, dbls("5", "2")},
					{[]string{"TDIGEST.CDF", "c", "0", "1", "3", "6"}, dbls("0", "0.033333333333333333", "0.29999999999999999", "1")},
					{[]string{"TDIGEST.INFO", "c"}, info(1000, 6010, 0, 15, 0, 15, 15, 0, 96168)},
					// redis.io's TDIGEST.RANK and REVRANK examples.
					{[]string{"TDIGEST.CREATE", "s", "COMPRESSION", "1000"}, "+OK\r\n"},
					{[]string{"TDIGEST.ADD", "s", "10", "20", "30", "40", "50", "60"}, "+OK\r\n"},
					{[]string{"TDIGEST.RANK", "s", "0", "10", "20", "30", "40", "50", "60", "70"}, ints(-1, 0, 1, 2, 3, 4, 5, 6)},
					{[]string{"TDIGEST.REVRANK", "s", "0", "10", "20", "30", "40", "50", "60", "70"}, ints(6, 5, 4, 3, 2, 1, 0, -1)},
					// RedisBloom's rank tests: 0..19, compression 500.
					{[]string{"TDIGEST.CREATE", "r", "compression", "500"}, "+OK\r\n"},
					{seq("TDIGEST.ADD", "r", 0, 19), "+OK\r\n"},
					{[]string{"TDIGEST.RANK", "r", "-1", "0", "19", "20", "18", "10", "1"}, ints(-1, 0, 19, 20, 18, 10, 1)},
					{[]string{"TDIGEST.RANK", "r", "-20", "20", "9"}, ints(-1, 20, 9)},
					{[]string{"TDIGEST.REVRANK", "r", "20", "0", "19", "50", "18", "10", "1"}, ints(-1, 19, 0, -1, 1, 9, 18)},
					{[]string{"TDIGEST.TRIMMED_MEAN", "r", "0.1", "0.9"}, dbl("9.5")},
					{[]string{"TDIGEST.TRIMMED_MEAN", "r", "0", "1"}, dbl("9.5")},
					{[]string{"TDIGEST.RESET", "r"}, "+OK\r\n"},
					{[]string{"TDIGEST.ADD", "r", "1", "1", "1", "1", "1", "1", "1", "1", "1", "5"}, "+OK\r\n"},
					{[]string{"TDIGEST.TRIMMED_MEAN", "r", "0.1", "0.9"}, dbl("1")},
					{[]string{"TDIGEST.TRIMMED_MEAN", "r", "0.095", "0.905"}, dbl("1.3999999999999999")},
					{[]string{"TDIGEST.BYRANK", "r", "0", "9", "10", "100"}, dbls("1", "5", "inf", "inf")},
					{[]string{"TDIGEST.BYREVRANK", "r", "0", "9", "10"}, dbls("5", "1", "-inf")},
					// Errors, in RedisBloom's order: the key first.
					{[]string{"TDIGEST.CREATE", "x", "COMPRESSION"}, "-ERR wrong number of arguments for 'tdigest.create' command\r\n"},
					{[]string{"TDIGEST.CREATE", "x", "100", "5"}, "-ERR T-Digest: wrong keyword\r\n"},
					{[]string{"TDIGEST.CREATE", "x", "COMPRESSION", "a"}, "-ERR T-Digest: error parsing compression parameter\r\n"},
					{[]string{"TDIGEST.CREATE", "x", "COMPRESSION", "0"}, "-ERR T-Digest: compression parameter needs to be a positive integer\r\n"},
					{[]string{"TDIGEST.CREATE", "x", "COMPRESSION", "-1"}, "-ERR T-Digest: compression parameter needs to be a positive integer\r\n"},
					{[]string{"TDIGEST.CREATE", "x", "COMPRESSION", "100000000000000000000"}, "-ERR T-Digest: error parsing compression parameter\r\n"},
					{[]string{"TDIGEST.CREATE", "x", "COMPRESSION", "1000000000"}, "-ERR T-Digest: allocation failed\r\n"},
					{[]string{"TDIGEST.ADD", "nokey", "1"}, "-ERR T-Digest: key does not exist\r\n"},
					{[]string{"TDIGEST.ADD", "nokey", "a"}, "-ERR T-Digest: key does not exist\r\n"},
					{[]string{"TDIGEST.ADD", "t", "a", "5"}, "-ERR T-Digest: error parsing val parameter\r\n"},
					{[]string{"TDIGEST.ADD", "t", "5", "nan"}, "-ERR T-Digest: error parsing val parameter\r\n"},
					{[]string{"TDIGEST.ADD", "t", "-inf"}, "-ERR T-Digest: val parameter needs to be a finite number\r\n"},
					{[]string{"TDIGEST.ADD", "t"}, "-ERR wrong number of arguments for 'tdigest.add' command\r\n"},
					{[]string{"TDIGEST.RESET", "nokey"}, "-ERR T-Digest: key does not exist\r\n"},
					{[]string{"TDIGEST.RESET", "t", "100"}, "-ERR wrong number of arguments for 'tdigest.reset' command\r\n"},
					{[]string{"TDIGEST.MIN", "nokey"}, "-ERR T-Digest: key does not exist\r\n"},
					{[]string{"TDIGEST.QUANTILE", "t", "1", "a"}, "-ERR T-Digest: error parsing quantile\r\n"},
					{[]string{"TDIGEST.QUANTILE", "t", "-0.5"}, "-ERR T-Digest: quantile should be in [0,1]\r\n"},
					{[]string{"TDIGEST.QUANTILE", "t", "1.1"}, "-ERR T-Digest: quantile should be in [0,1]\r\n"},
					{[]string{"TDIGEST.CDF", "t", "1.0", "foo"}, "-ERR T-Digest: error parsing cdf\r\n"},
					{[]string{"TDIGEST.RANK", "t", "nan"}, "-ERR T-Digest: error parsing value\r\n"},
					{[]string{"TDIGEST.REVRANK", "t", "1.5", "a"}, "-ERR T-Digest: error parsing value\r\n"},
					{[]string{"TDIGEST.BYRANK", "t", "-1"}, "-ERR T-Digest: rank needs to be non negative\r\n"},
					{[]string{"TDIGEST.BYRANK", "t", "0.5"}, "-ERR T-Digest: error parsing rank\r\n"},
					{[]string{"TDIGEST.BYREVRANK", "nokey", "0.5"}, "-ERR T-Digest: key does not exist\r\n"},
					{[]string{"TDIGEST.TRIMMED_MEAN", "t", "a", "a"}, "-ERR T-Digest: error parsing low_cut_percentile\r\n"},
					{[]string{"TDIGEST.TRIMMED_MEAN", "t", "0.1", "b"}, "-ERR T-Digest: error parsing high_cut_percentile\r\n"},
					{[]string{"TDIGEST.TRIMMED_MEAN", "t", "10.0", "20.0"}, "-ERR T-Digest: low_cut_percentile and high_cut_percentile should be in [0,1]\r\n"},
					{[]string{"TDIGEST.TRIMMED_MEAN", "t", "0.9", "0.1"}, "-ERR T-Digest: low_cut_percentile should be lower than high_cut_percentile\r\n"},
					{[]string{"TDIGEST.TRIMMED_MEAN", "t", "0.1", "0.1"}, "-ERR T-Digest: low_cut_percentile should be lower than high_cut_percentile\r\n"},
					{[]string{"TDIGEST.TRIMMED_MEAN", "t", "1", "1", "1"}, "-ERR wrong number of arguments for 'tdigest.trimmed_mean' command\r\n"},
					{[]string{"TDIGEST.INFO", "t", "1"}, "-ERR wrong number of arguments for 'tdigest.info' command\r\n"},
					// TDIGEST.MERGE: compression rules and checks, in order.
					{[]string{"TDIGEST.CREATE", "from-1", "COMPRESSION", "100"}, "+OK\r\n"},
					{[]string{"TDIGEST.CREATE", "from-2", "COMPRESSION", "200"}, "+OK\r\n"},
					{[]string{"TDIGEST.CREATE", "to-1", "COMPRESSION", "55"}, "+OK\r\n"},
					{[]string{"TDIGEST.ADD", "from-1", "1"}, "+OK\r\n"},
					{[]string{"TDIGEST.ADD", "from-2", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1"}, "+OK\r\n"},
					{[]string{"TDIGEST.MERGE", "to-200", "2", "from-1", "from-2"}, "+OK\r\n"},
					// A merge adds each source's centroids to a new digest,
					// compressing it before each source: from-1's one
					// observation is merged, from-2's ten wait unmerged.
					{[]string{"TDIGEST.INFO", "to-200"}, info(200, 1210, 1, 10, 1, 10, 11, 1, 19368)},
					{[]string{"TDIGEST.MERGE", "to-1", "2", "from-1", "from-2"}, "+OK\r\n"},
					{[]string{"TDIGEST.INFO", "to-1"}, info(55, 340, 1, 10, 1, 10, 11, 1, 5448)},
					{[]string{"TDIGEST.MERGE", "to-1", "2", "from-1", "from-2", "COMPRESSION", "500"}, "+OK\r\n"},
					{[]string{"TDIGEST.INFO", "to-1"}, info(500, 3010, 12, 10, 12, 10, 22, 2, 48168)},
					{[]string{"TDIGEST.MERGE", "to-1", "2", "from-1", "from-2", "OVERRIDE"}, "+OK\r\n"},
					{[]string{"TDIGEST.INFO", "to-1"}, info(200, 1210, 1, 10, 1, 10, 11, 1, 19368)},
					{[]string{"TDIGEST.MERGE", "to-1", "1", "to-1"}, "+OK\r\n"},
					{[]string{"TDIGEST.MERGE", "to-1", "1", "to-1"}, "+OK\r\n"},
					{[]string{"TDIGEST.MIN", "to-1"}, dbl("1")},
					{[]string{"TDIGEST.RANK", "to-1", "2"}, ints(44)},
					{[]string{"TDIGEST.MERGE", "z", "5", "z", "z", "z", "z", "z", "COMPRESSION", "3"}, "-ERR T-Digest: key does not exist\r\n"},
					{[]string{"TDIGEST.MERGE", "to-1", "x", "from-1"}, "-ERR T-Digest: error parsing numkeys\r\n"},
					{[]string{"TDIGEST.MERGE", "to-1", "0", "from-1"}, "-ERR T-Digest: numkeys needs to be a positive integer\r\n"},
					{[]string{"TDIGEST.MERGE", "to-1", "3", "from-1"}, "-ERR wrong number of arguments for 'tdigest.merge' command\r\n"},
					{[]string{"TDIGEST.MERGE", "to-1", "1", "from-1", "COMPRESSION"}, "-ERR wrong number of arguments for 'tdigest.merge' command\r\n"},
					{[]string{"TDIGEST.MERGE", "to-1", "1", "from-1", "extra-arg"}, "-ERR T-Digest: wrong keyword\r\n"},
					{[]string{"TDIGEST.MERGE", "to-1", "1", "from-1", "COMPRESSION", "a"}, "-ERR T-Digest: error parsing compression parameter\r\n"},
					{[]string{"TDIGEST.MERGE", "to-1", "1", "from-1", "COMPRESSION", "10000000000"}, "-ERR T-Digest: allocation of destination digest failed\r\n"},
					{[]string{"TDIGEST.MERGE", "to-1", "1", "nokey"}, "-ERR T-Digest: key does not exist\r\n"},
					// The type among the others.
					{[]string{"TYPE", "t"}, "+TDIS-TYPE\r\n"},
					{[]string{"OBJECT", "ENCODING", "t"}, "$3\r\nraw\r\n"},
					{[]string{"SET", "s", "v"}, "+OK\r\n"},
					{[]string{"TDIGEST.ADD", "s", "1"}, wrongType},
					{[]string{"TDIGEST.CREATE", "s"}, wrongType},
					{[]string{"TDIGEST.MERGE", "s", "1", "t"}, wrongType},
					{[]string{"TDIGEST.MERGE", "to-1", "1", "s"}, wrongType},
					{[]string{"GET", "t"}, wrongType},
					{[]string{"CMS.QUERY", "t", "x"}, wrongType},
				} {
					if got := c.do(tc.cmd...); got != tc.want {
						t.Errorf("%v: %q, want %q", tc.cmd, got, tc.want)
					}
				}
			})
		}
	})
}

// TestTDigestAsAKey: through go-redis, a digest of 100,000 observations
// estimates as it should, survives DUMP/RESTORE, RENAME and COPY with
// the same answers, and TDIGEST.ADD runs in MULTI and scripts.
func TestTDigestAsAKey(t *testing.T) {
	forEachDriverClient(t, 2, func(t *testing.T, ctx context.Context, c *redis.Client, addr string) {
		must(t, c.TDigestCreate(ctx, "d").Err())
		batch := make([]float64, 0, 1000)
		for i := range 100_000 {
			batch = append(batch, float64((i*7919)%100_000)) // 0..99999, each once, shuffled
			if len(batch) == cap(batch) {
				must(t, c.TDigestAdd(ctx, "d", batch...).Err())
				batch = batch[:0]
			}
		}
		qs := []float64{0.001, 0.01, 0.25, 0.5, 0.75, 0.99, 0.999}
		want, err := c.TDigestQuantile(ctx, "d", qs...).Result()
		must(t, err)
		for i, q := range qs {
			if e := math.Abs(want[i]/100_000 - q); e > 0.02 || (q <= 0.01 || q >= 0.99) && e > 0.002 {
				t.Errorf("quantile %v = %v", q, want[i])
			}
		}
		payload, err := c.Dump(ctx, "d").Result()
		must(t, err)
		must(t, c.Restore(ctx, "r", 0, payload).Err())
		must(t, c.Rename(ctx, "r", "renamed").Err())
		must(t, c.Copy(ctx, "renamed", "copied", 0, false).Err())
		for _, k := range []string{"d", "renamed", "copied"} {
			got, err := c.TDigestQuantile(ctx, k, qs...).Result()
			must(t, err)
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%s: quantiles %v, want %v", k, got, want)
				}
			}
		}
		info, err := c.TDigestInfo(ctx, "copied").Result()
		must(t, err)
		if info.Observations != 100_000 || info.UnmergedNodes != 0 || info.Compression != 100 {
			t.Fatalf("TDIGEST.INFO after RESTORE: %+v", info)
		}
		tx := c.TxPipeline()
		tx.TDigestAdd(ctx, "d", -1)
		mn := tx.TDigestMin(ctx, "d")
		_, err = tx.Exec(ctx)
		must(t, err)
		if mn.Val() != -1 {
			t.Fatalf("TDIGEST.MIN in MULTI: %v", mn.Val())
		}
		got, err := c.Eval(ctx, "redis.call('TDIGEST.ADD', KEYS[1], 200000); return redis.call('TDIGEST.MAX', KEYS[1])", []string{"d"}).Result()
		if err != nil || got != "200000" {
			t.Fatalf("script: %v %v", got, err)
		}
	})
}

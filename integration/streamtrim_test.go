package integration

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
)

// TestStreamTrimLikeRedis: approximate trimming (~, LIMIT) removes only
// whole nodes of Redis's radix tree, so what it leaves depends on where
// nodes begin: on stream-node-max-entries (deleted entries count),
// stream-node-max-bytes (the listpack encoding of each entry), and on
// what exact trims and XDEL left in each node. The same command
// sequences run on redis-server and on rekv, every reply compared: first
// Redis's own test (1,000 entries, MAXLEN 666, = 555, ~ 444 leaves 500),
// then seeded random mixes of XADD (with trimming), XDEL, XTRIM and CONFIG
// SET of the node limits.
func TestStreamTrimLikeRedis(t *testing.T) {
	ctx := context.Background()
	want := redis.NewClient(&redis.Options{Addr: redisServer(t), Protocol: 2})
	t.Cleanup(func() { _ = want.Close() })
	got := newClient(t, startNode(t, "badger", nil).Addr(), 2)
	reply := func(c *redis.Client, args []any) string {
		v, err := c.Do(ctx, args...).Result()
		if err != nil {
			return "error: " + err.Error()
		}
		return fmt.Sprint(v)
	}
	run := func(name string, cmds [][]any) {
		t.Helper()
		for i, args := range cmds {
			w, g := reply(want, args), reply(got, args)
			if w != g {
				t.Fatalf("%s, command %d %v: rekv %q, redis-server %q", name, i, args, g, w)
			}
		}
	}
	var cmds [][]any
	for i := 1; i <= 1000; i++ {
		cmds = append(cmds, []any{"xadd", "mystream", fmt.Sprintf("%d-0", i), "xitem", i})
	}
	cmds = append(cmds,
		[]any{"xtrim", "mystream", "maxlen", 666}, []any{"xlen", "mystream"},
		[]any{"xtrim", "mystream", "maxlen", "=", 555}, []any{"xlen", "mystream"},
		[]any{"xtrim", "mystream", "maxlen", "~", 444}, []any{"xlen", "mystream"},
		[]any{"xinfo", "stream", "mystream"})
	run("Redis's XTRIM test", cmds)

	for seed := range uint64(6) {
		r := rand.New(rand.NewPCG(seed, 7))
		key := fmt.Sprintf("s%d", seed)
		cmds = [][]any{{"config", "set", "stream-node-max-entries", []int{100, 10, 3, 0, 7, 50}[seed]},
			{"config", "set", "stream-node-max-bytes", []int{4096, 4096, 300, 1024, 0, 65536}[seed]}}
		ms := 0
		for range 600 {
			switch op := r.IntN(100); {
			case op < 70:
				ms += 1 + r.IntN(3)
				args := []any{"xadd", key}
				if r.IntN(8) == 0 {
					args = append(args, trimArgs(r)...)
				}
				args = append(args, fmt.Sprintf("%d-%d", ms, r.IntN(3)))
				for f := range 1 + r.IntN(3) {
					args = append(args, []string{"a", "b", "name", "n" + fmt.Sprint(f)}[r.IntN(4)], streamValue(r))
				}
				cmds = append(cmds, args)
			case op < 80:
				args := []any{"xdel", key}
				for range 1 + r.IntN(4) {
					args = append(args, fmt.Sprintf("%d-%d", 1+r.IntN(ms+1), r.IntN(3)))
				}
				cmds = append(cmds, args)
			case op < 95:
				cmds = append(cmds, append([]any{"xtrim", key}, trimArgs(r)...))
			default:
				cmds = append(cmds, []any{"config", "set", "stream-node-max-entries", r.IntN(20)})
			}
			cmds = append(cmds, []any{"xlen", key})
			if len(cmds)%100 == 0 {
				cmds = append(cmds, []any{"xinfo", "stream", key}) // the tree's keys and nodes
			}
		}
		cmds = append(cmds, []any{"xrange", key, "-", "+"}, []any{"xinfo", "stream", key})
		run("seed "+fmt.Sprint(seed), cmds)
	}
	for _, c := range []*redis.Client{want, got} {
		if err := c.ConfigSet(ctx, "stream-node-max-entries", "100").Err(); err != nil {
			t.Fatal(err)
		}
		if err := c.ConfigSet(ctx, "stream-node-max-bytes", "4096").Err(); err != nil {
			t.Fatal(err)
		}
	}
}

// trimArgs returns a random trimming strategy: MAXLEN or MINID, exact or
// approximate, with or without LIMIT.
func trimArgs(r *rand.Rand) []any {
	var args []any
	if r.IntN(4) == 0 {
		args = append(args, "minid")
	} else {
		args = append(args, "maxlen")
	}
	approx := r.IntN(3) > 0
	if approx {
		args = append(args, "~")
	} else if r.IntN(2) == 0 {
		args = append(args, "=")
	}
	if args[0] == "minid" {
		args = append(args, fmt.Sprintf("%d-0", r.IntN(1200)))
	} else {
		args = append(args, r.IntN(400))
	}
	if approx && r.IntN(2) == 0 {
		args = append(args, "limit", r.IntN(120))
	}
	return args
}

// streamValue returns a value of one of the sizes and forms the listpack
// encodes differently: small and big integers, zero-padded and negative
// numbers, short and long strings.
func streamValue(r *rand.Rand) string {
	switch r.IntN(6) {
	case 0:
		return fmt.Sprint(r.IntN(128))
	case 1:
		return fmt.Sprint(r.Int64() - r.Int64())
	case 2:
		return "0" + fmt.Sprint(r.IntN(100))
	case 3:
		return strings.Repeat("x", r.IntN(70))
	case 4:
		return strings.Repeat("y", 60+r.IntN(200))
	}
	return fmt.Sprint(-r.IntN(5000))
}

package integration

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestGoRedisBothProtocols drives the string and key commands through
// go-redis in RESP2 and RESP3.
func TestGoRedisBothProtocols(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, ctx context.Context, c *redis.Client, _ string, _ int) {
		must(t, c.Set(ctx, "k", "v", 0).Err())
		if v := c.Get(ctx, "k").Val(); v != "v" {
			t.Fatalf("GET = %q", v)
		}
		if err := c.Get(ctx, "missing").Err(); !errors.Is(err, redis.Nil) {
			t.Fatalf("GET missing err = %v", err)
		}
		if n := c.Incr(ctx, "n").Val(); n != 1 {
			t.Fatalf("INCR = %d", n)
		}
		if f := c.IncrByFloat(ctx, "f", 1.5).Val(); f != 1.5 {
			t.Fatalf("INCRBYFLOAT = %v", f)
		}
		must(t, c.MSet(ctx, "a", "1", "b", "2").Err())
		if v := c.MGet(ctx, "a", "b", "nope").Val(); fmt.Sprint(v) != "[1 2 <nil>]" {
			t.Fatalf("MGET = %v", v)
		}
		if ok := c.Expire(ctx, "a", time.Minute).Val(); !ok {
			t.Fatal("EXPIRE false")
		}
		if d := c.TTL(ctx, "a").Val(); d != time.Minute {
			t.Fatalf("TTL = %v", d)
		}
		if ty := c.Type(ctx, "a").Val(); ty != "string" {
			t.Fatalf("TYPE = %q", ty)
		}
		if n := c.DBSize(ctx).Val(); n != 5 {
			t.Fatalf("DBSIZE = %d", n)
		}
		keys := c.Keys(ctx, "*").Val()
		slices.Sort(keys)
		if fmt.Sprint(keys) != "[a b f k n]" {
			t.Fatalf("KEYS = %v", keys)
		}
		if err := c.Incr(ctx, "k").Err(); err == nil || err.Error() != "ERR value is not an integer or out of range" {
			t.Fatalf("INCR on text: %v", err)
		}
		if err := c.Do(ctx, "GET").Err(); err == nil || err.Error() != "ERR wrong number of arguments for 'get' command" {
			t.Fatalf("arity: %v", err)
		}
		must(t, c.Rename(ctx, "a", "renamed").Err())
		if d := c.TTL(ctx, "renamed").Val(); d <= 0 {
			t.Fatalf("TTL after RENAME = %v", d)
		}
		info := c.Info(ctx, "keyspace").Val()
		if !strings.Contains(info, "db0:keys=5,expires=1") {
			t.Fatalf("INFO keyspace = %q", info)
		}
		if _, err := c.Command(ctx).Result(); err != nil {
			t.Fatalf("COMMAND: %v", err)
		}
		if n := c.Del(ctx, "k", "n", "missing").Val(); n != 2 {
			t.Fatalf("DEL = %d", n)
		}
	})
}

// TestHelloAndClient checks HELLO's map, RESP3 nulls and the CLIENT
// commands go-redis uses on connect (Redis 7.2 texts).
func TestHelloAndClient(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		r := dialRaw(t, addr)
		hello := r.do("HELLO", "3")
		for _, part := range []string{"%7\r\n", "$6\r\nserver\r\n$5\r\nredis\r\n", "$5\r\nproto\r\n:3\r\n", "$4\r\nmode\r\n$10\r\nstandalone\r\n"} {
			if !strings.Contains(hello, part) {
				t.Fatalf("HELLO 3 reply %q lacks %q", hello, part)
			}
		}
		if got := r.do("GET", "missing"); got != "_\r\n" {
			t.Fatalf("RESP3 null = %q", got)
		}
		for _, c := range []struct {
			cmd  []string
			want string
		}{
			{[]string{"CLIENT", "SETINFO", "lib-name", "x"}, "+OK\r\n"},
			{[]string{"CLIENT", "SETINFO", "lib-ver", "1.0"}, "+OK\r\n"},
			{[]string{"CLIENT", "SETINFO", "foo", "x"}, "-ERR Unrecognized option 'foo'\r\n"},
			{[]string{"CLIENT", "SETINFO", "lib-name", "a b"}, "-ERR lib-name cannot contain spaces, newlines or special characters.\r\n"},
			{[]string{"HELLO", "2"}, ""},
			{[]string{"GET", "missing"}, "$-1\r\n"},
		} {
			if got := r.do(c.cmd...); c.want != "" && got != c.want {
				t.Errorf("%v = %q, want %q", c.cmd, got, c.want)
			}
		}
		list := r.do("CLIENT", "LIST")
		if !strings.Contains(list, "lib-name=x lib-ver=1.0") || !strings.Contains(list, "resp=2") {
			t.Fatalf("CLIENT LIST = %q", list)
		}
		ctx := context.Background()
		c := newClient(t, addr, 3)
		must(t, c.Ping(ctx).Err())
		id := c.ClientID(ctx).Val()
		if id <= 0 {
			t.Fatalf("CLIENT ID = %d", id)
		}
	})
}

// TestPipelineOrderAcrossShards sends 1,000 mixed commands over keys that
// live on different shards in one pipeline and checks every reply is in
// request order.
func TestPipelineOrderAcrossShards(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		ctx := context.Background()
		for _, proto := range []int{2, 3} {
			c := newClient(t, addr, proto)
			must(t, c.FlushAll(ctx).Err())
			p := c.Pipeline()
			var cmds []redis.Cmder
			for i := 0; i < 1000; i++ {
				k := fmt.Sprintf("key:%d", i%37)
				switch i % 5 {
				case 0:
					cmds = append(cmds, p.Set(ctx, k, i, 0))
				case 1:
					cmds = append(cmds, p.Get(ctx, k))
				case 2:
					cmds = append(cmds, p.Incr(ctx, fmt.Sprintf("ctr:%d", i%11)))
				case 3:
					cmds = append(cmds, p.Echo(ctx, fmt.Sprint(i)))
				case 4:
					cmds = append(cmds, p.Exists(ctx, k, "key:0"))
				}
			}
			if _, err := p.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
				t.Fatal(err)
			}
			// Replay the same sequence on a model to know each reply.
			model := map[string]string{}
			ctr := map[string]int64{}
			for i, cmd := range cmds {
				k := fmt.Sprintf("key:%d", i%37)
				switch i % 5 {
				case 0:
					model[k] = fmt.Sprint(i)
				case 1:
					if got := cmd.(*redis.StringCmd).Val(); got != model[k] {
						t.Fatalf("reply %d: GET %s = %q, want %q", i, k, got, model[k])
					}
				case 2:
					ck := fmt.Sprintf("ctr:%d", i%11)
					ctr[ck]++
					if got := cmd.(*redis.IntCmd).Val(); got != ctr[ck] {
						t.Fatalf("reply %d: INCR = %d, want %d", i, got, ctr[ck])
					}
				case 3:
					if got := cmd.(*redis.StringCmd).Val(); got != fmt.Sprint(i) {
						t.Fatalf("reply %d: ECHO = %q", i, got)
					}
				case 4:
					want := int64(0)
					if _, ok := model[k]; ok {
						want++
					}
					if _, ok := model["key:0"]; ok {
						want++
					}
					if got := cmd.(*redis.IntCmd).Val(); got != want {
						t.Fatalf("reply %d: EXISTS = %d, want %d", i, got, want)
					}
				}
			}
		}
	})
}

// TestMSetAtomicAcrossShards has writers MSET ten keys (spread over the
// shards) to one value while readers MGET them; a reader must never see a
// mix of two MSETs.
func TestMSetAtomicAcrossShards(t *testing.T) {
	forEachDriverParallel(t, func(t *testing.T, addr string) {
		ctx := context.Background()
		keys := []string{}
		for i := 0; i < 10; i++ {
			keys = append(keys, fmt.Sprintf("atomic:%d", i))
		}
		w := newClient(t, addr, 3)
		r := newClient(t, addr, 2)
		done := make(chan error, 1)
		go func() {
			for i := 0; i < 300; i++ {
				var kv []any
				for _, k := range keys {
					kv = append(kv, k, i)
				}
				if err := w.MSet(ctx, kv...).Err(); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
		deadline := time.Now().Add(20 * time.Second)
		reads := 0
		for finished := false; !finished && time.Now().Before(deadline); reads++ {
			select {
			case err := <-done:
				must(t, err)
				finished = true
			default:
			}
			vals, err := r.MGet(ctx, keys...).Result()
			must(t, err)
			for _, v := range vals[1:] {
				if fmt.Sprint(v) != fmt.Sprint(vals[0]) {
					t.Fatalf("partial MSET seen: %v", vals)
				}
			}
		}
		if reads < 10 {
			t.Fatalf("only %d reads", reads)
		}
	})
}

// TestRenameAtomicAcrossShards moves one key back and forth between names on
// different shards while a reader checks exactly one of them exists.
func TestRenameAtomicAcrossShards(t *testing.T) {
	forEachDriverParallel(t, func(t *testing.T, addr string) {
		ctx := context.Background()
		c := newClient(t, addr, 2)
		r := newClient(t, addr, 2)
		must(t, c.Set(ctx, "left", "x", 0).Err())
		done := make(chan error, 1)
		go func() {
			for i := 0; i < 300; i++ {
				from, to := "left", "right"
				if i%2 == 1 {
					from, to = to, from
				}
				if err := c.Rename(ctx, from, to).Err(); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
		for finished := false; !finished; {
			select {
			case err := <-done:
				must(t, err)
				finished = true
			default:
			}
			if n := r.Exists(ctx, "left", "right").Val(); n != 1 {
				t.Fatalf("EXISTS left right = %d during RENAME", n)
			}
		}
	})
}

// TestExpiry checks keys vanish once their TTL passes.
func TestExpiry(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		ctx := context.Background()
		c := newClient(t, addr, 2)
		must(t, c.Set(ctx, "short", "v", 50*time.Millisecond).Err())
		must(t, c.Set(ctx, "long", "v", time.Hour).Err())
		time.Sleep(120 * time.Millisecond)
		if n := c.Exists(ctx, "short", "long").Val(); n != 1 {
			t.Fatalf("EXISTS = %d, want 1", n)
		}
		if err := c.Get(ctx, "short").Err(); !errors.Is(err, redis.Nil) {
			t.Fatalf("expired GET: %v", err)
		}
		if n := c.DBSize(ctx).Val(); n != 1 {
			t.Fatalf("DBSIZE = %d", n)
		}
		// Writing over an expired key starts afresh, without the old TTL.
		must(t, c.Set(ctx, "short", "new", 0).Err())
		if d := c.TTL(ctx, "short").Val(); d != -1 {
			t.Fatalf("TTL = %v", d)
		}
	})
}

// TestScanVisitsEveryKeyOnce walks SCAN with small COUNTs.
func TestScanVisitsEveryKeyOnce(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		ctx := context.Background()
		c := newClient(t, addr, 3)
		for i := 0; i < 250; i++ {
			must(t, c.Set(ctx, fmt.Sprintf("s:%03d", i), i, 0).Err())
		}
		must(t, c.Set(ctx, "other", 1, 0).Err())
		seen := map[string]int{}
		var cursor uint64
		for rounds := 0; ; rounds++ {
			if rounds > 1000 {
				t.Fatal("SCAN did not finish")
			}
			keys, next, err := c.Scan(ctx, cursor, "s:*", 7).Result()
			must(t, err)
			for _, k := range keys {
				seen[k]++
			}
			if cursor = next; cursor == 0 {
				break
			}
		}
		if len(seen) != 250 {
			t.Fatalf("SCAN saw %d keys", len(seen))
		}
		for k, n := range seen {
			if n != 1 {
				t.Fatalf("%s seen %d times", k, n)
			}
		}
		keys, _, err := c.ScanType(ctx, 0, "*", 1000, "string").Result()
		must(t, err)
		if len(keys) != 251 {
			t.Fatalf("SCAN TYPE string = %d keys", len(keys))
		}
		keys, _, _ = c.ScanType(ctx, 0, "*", 1000, "hash").Result()
		if len(keys) != 0 {
			t.Fatalf("SCAN TYPE hash = %v", keys)
		}
		if err := c.Do(ctx, "SCAN", "abc").Err(); err == nil || err.Error() != "ERR invalid cursor" {
			t.Fatalf("bad cursor: %v", err)
		}
		if err := c.Do(ctx, "SCAN", "0", "COUNT", "0").Err(); err == nil || err.Error() != "ERR syntax error" {
			t.Fatalf("COUNT 0: %v", err)
		}
		k := c.RandomKey(ctx).Val()
		if k == "" {
			t.Fatal("RANDOMKEY empty")
		}
	})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

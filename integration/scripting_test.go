package integration

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestScriptGoRedis: go-redis's Script (EVALSHA, then EVAL on NOSCRIPT),
// SCRIPT LOAD/EXISTS/FLUSH, and a compile error with Redis's prefix.
func TestScriptGoRedis(t *testing.T) {
	forEachDriverClient(t, 3, func(t *testing.T, ctx context.Context, c *redis.Client, _ string) {
		incr := redis.NewScript(`return redis.call('INCRBY', KEYS[1], ARGV[1])`)
		for i := 1; i <= 3; i++ {
			n, err := incr.Run(ctx, c, []string{"n"}, 2).Int()
			if err != nil || n != 2*i {
				t.Fatalf("run %d: %d %v", i, n, err)
			}
		}
		exists, err := c.ScriptExists(ctx, incr.Hash(), strings.Repeat("0", 40)).Result()
		if err != nil || !exists[0] || exists[1] {
			t.Fatalf("SCRIPT EXISTS = %v %v", exists, err)
		}
		must(t, c.ScriptFlush(ctx).Err())
		if err := c.EvalSha(ctx, incr.Hash(), []string{"n"}, 1).Err(); err == nil || !strings.HasPrefix(err.Error(), "NOSCRIPT ") {
			t.Fatalf("EVALSHA after flush: %v", err)
		}
		if n, err := incr.Run(ctx, c, []string{"n"}, 1).Int(); err != nil || n != 7 {
			t.Fatalf("run after flush: %d %v", n, err)
		}
		sha, err := c.ScriptLoad(ctx, "return ARGV[1]").Result()
		if err != nil || len(sha) != 40 {
			t.Fatalf("SCRIPT LOAD = %q %v", sha, err)
		}
		if v, err := c.EvalSha(ctx, sha, nil, "x").Text(); err != nil || v != "x" {
			t.Fatalf("EVALSHA loaded = %q %v", v, err)
		}
		err = c.Eval(ctx, "return 1 +", nil).Err()
		if err == nil || !strings.HasPrefix(err.Error(), "ERR Error compiling script (new function): user_script:") {
			t.Fatalf("compile error = %v", err)
		}
	})
}

// TestScriptAtomicAcrossShards: scripts move units between 10 keys on
// different shards — one declaring its keys, one declaring only the source
// and building the destination's name in Lua (a destination on another
// shard aborts the first attempt, which re-runs holding every shard) — while
// readers sum the keys in one MGET; the sum never changes, and the
// per-key values stay exact.
func TestScriptAtomicAcrossShards(t *testing.T) {
	forEachDriverClientParallel(t, 2, func(t *testing.T, ctx context.Context, admin *redis.Client, addr string) {
		const keys, start = 10, 1000
		names := make([]string, keys)
		for i := range names {
			names[i] = fmt.Sprintf("acct:%d", i)
			must(t, admin.Set(ctx, names[i], start, 0).Err())
		}
		declared := redis.NewScript(`
local from, to = KEYS[tonumber(ARGV[1])], KEYS[tonumber(ARGV[2])]
redis.call('DECRBY', from, 1)
redis.call('INCRBY', to, 1)
return 1`)
		built := redis.NewScript(`
local from, to = KEYS[1], 'acct:' .. ARGV[1]
redis.call('DECRBY', from, 1)
redis.call('INCRBY', to, 1)
return 1`)
		deadline := time.Now().Add(3 * time.Second)
		var moves, reads atomic.Int64
		var wg sync.WaitGroup
		for w := 0; w < 4; w++ {
			c := newClient(t, addr, 2)
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for i := 0; i < 2000 && time.Now().Before(deadline); i++ {
					from, to := (i+w)%keys, (i*7+w+1)%keys
					if from == to {
						continue
					}
					var err error
					if w%2 == 0 {
						err = declared.Run(ctx, c, names, from+1, to+1).Err()
					} else {
						err = built.Run(ctx, c, []string{names[from]}, to).Err()
					}
					if err != nil {
						t.Error(err)
						return
					}
					moves.Add(1)
				}
			}(w)
		}
		for r := 0; r < 2; r++ {
			c := newClient(t, addr, 2)
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 5000 && time.Now().Before(deadline); i++ {
					vals, err := c.MGet(ctx, names...).Result()
					if err != nil {
						t.Error(err)
						return
					}
					sum := 0
					for _, v := range vals {
						n, _ := strconv.Atoi(v.(string))
						sum += n
					}
					if sum != keys*start {
						t.Errorf("a reader saw a partial move: sum %d", sum)
						return
					}
					reads.Add(1)
				}
			}()
		}
		wg.Wait()
		if moves.Load() == 0 || reads.Load() == 0 {
			t.Fatalf("moves %d, reads %d", moves.Load(), reads.Load())
		}
		t.Logf("%d scripted moves, %d consistent reads", moves.Load(), reads.Load())
	})
}

// TestScriptLock: a redlock-style lock (SET NX PX to acquire, scripts to
// extend and release only if the token matches, EVALSHA with the NOSCRIPT
// fallback) from 20 clients never grants the lock twice at once.
func TestScriptLock(t *testing.T) {
	forEachDriverClient(t, 2, func(t *testing.T, ctx context.Context, admin *redis.Client, addr string) {
		release := redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`)
		extend := redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`)
		var holders, maxHolders, grants atomic.Int64
		deadline := time.Now().Add(2 * time.Second)
		var wg sync.WaitGroup
		for i := 0; i < 20; i++ {
			c := newClient(t, addr, 2)
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				for n := 0; n < 200 && time.Now().Before(deadline); n++ {
					token := fmt.Sprintf("%d-%d", i, n)
					ok, err := c.SetNX(ctx, "lock", token, 5*time.Second).Result()
					if err != nil {
						t.Error(err)
						return
					}
					if !ok {
						continue
					}
					grants.Add(1)
					if h := holders.Add(1); h > maxHolders.Load() {
						maxHolders.Store(h)
					}
					if v, err := extend.Run(ctx, c, []string{"lock"}, token, 5000).Int(); err != nil || v != 1 {
						t.Errorf("extend by the holder: %d %v", v, err)
					}
					holders.Add(-1)
					if v, err := release.Run(ctx, c, []string{"lock"}, token).Int(); err != nil || v != 1 {
						t.Errorf("release by the holder: %d %v", v, err)
					}
					if v, _ := release.Run(ctx, c, []string{"lock"}, token).Int(); v != 0 {
						t.Error("a released lock was released again")
					}
				}
			}(i)
		}
		wg.Wait()
		if maxHolders.Load() != 1 || grants.Load() == 0 {
			t.Fatalf("grants %d, most holders at once %d", grants.Load(), maxHolders.Load())
		}
		t.Logf("%d grants, never two holders", grants.Load())
	})
}

// TestScriptRateLimiter: a fixed-window limiter script admits exactly its
// limit per window key under 50 concurrent clients.
func TestScriptRateLimiter(t *testing.T) {
	forEachDriverClient(t, 2, func(t *testing.T, ctx context.Context, admin *redis.Client, addr string) {
		limiter := redis.NewScript(`
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if n > tonumber(ARGV[1]) then return 0 end
return 1`)
		const limit, clients, each = 300, 50, 20
		var admitted atomic.Int64
		var wg sync.WaitGroup
		for i := 0; i < clients; i++ {
			c := newClient(t, addr, 2+i%2)
			wg.Add(1)
			go func() {
				defer wg.Done()
				for n := 0; n < each; n++ {
					ok, err := limiter.Run(ctx, c, []string{"rl:{user1}:window"}, limit, 60000).Int()
					if err != nil {
						t.Error(err)
						return
					}
					admitted.Add(int64(ok))
				}
			}()
		}
		wg.Wait()
		if admitted.Load() != limit {
			t.Fatalf("admitted %d of %d, limit %d", admitted.Load(), clients*each, limit)
		}
		if n, _ := admin.Get(ctx, "rl:{user1}:window").Int(); n != clients*each {
			t.Fatalf("counter %d, want %d", n, clients*each)
		}
	})
}

// TestScriptInMulti: EVAL queued in MULTI runs in EXEC's transaction, also
// when it touches a key on a shard the transaction did not declare.
func TestScriptInMulti(t *testing.T) {
	forEachDriverClient(t, 2, func(t *testing.T, ctx context.Context, c *redis.Client, _ string) {
		cmds, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, "a", "1", 0)
			p.Eval(ctx, `redis.call('SET', 'other' .. KEYS[1], 'x'); return redis.call('INCR', KEYS[1])`, []string{"a"})
			p.Get(ctx, "othera")
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(cmds[1].(*redis.Cmd).Val(), " ", cmds[2].(*redis.StringCmd).Val()); got != "2 x" {
			t.Fatalf("EXEC replies %q, want \"2 x\"", got)
		}
		var rerr error = c.Eval(ctx, "return redis.call('MULTI')", nil).Err()
		if rerr == nil || errors.Is(rerr, redis.Nil) {
			t.Fatal("MULTI from a script was allowed")
		}
	})
}

// TestScriptBusyAndKill: past busy-reply-threshold other clients get BUSY;
// SCRIPT KILL stops a script that has not written (its caller gets
// Redis's error), even inside a long pattern search, and refuses one that
// has (UNKILLABLE); FUNCTION KILL stops a function.
func TestScriptBusyAndKill(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		ctx := context.Background()
		a, b := newClient(t, addr, 2), newClient(t, addr, 2)
		must(t, b.ConfigSet(ctx, "busy-reply-threshold", "100").Err())
		// The probe is a connection command: it never queues behind the
		// script's shards (a storage command sent before the threshold
		// waits for the script instead; see docs/compatibility.md).
		waitBusy := func() {
			t.Helper()
			deadline := time.Now().Add(10 * time.Second)
			for {
				err := b.ConfigGet(ctx, "busy-reply-threshold").Err()
				if err != nil && strings.HasPrefix(err.Error(), "BUSY ") {
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("no BUSY reply while a script loops (last: %v)", err)
				}
				time.Sleep(20 * time.Millisecond)
			}
		}
		done := make(chan error, 1)
		go func() { done <- a.Eval(ctx, "local i = 0 while true do i = i + 1 end", nil).Err() }()
		waitBusy()
		must(t, b.ScriptKill(ctx).Err())
		if err := <-done; err == nil || !strings.HasPrefix(err.Error(), "ERR Script killed by user with SCRIPT KILL... script: ") {
			t.Fatalf("killed script replied %v", err)
		}
		if err := b.Get(ctx, "x").Err(); !errors.Is(err, redis.Nil) {
			t.Fatalf("GET after the kill: %v", err)
		}
		if err := b.ScriptKill(ctx).Err(); err == nil || !strings.HasPrefix(err.Error(), "NOTBUSY ") {
			t.Fatalf("SCRIPT KILL with none running: %v", err)
		}
		// A script inside one library call: a pattern search quadratic in
		// its subject (about 4 * 10^12 steps) stops too.
		go func() {
			done <- a.Eval(ctx, "return string.find(string.rep('a', 2000000), '(.-)%1$')", nil).Err()
		}()
		waitBusy()
		must(t, b.ScriptKill(ctx).Err())
		if err := <-done; err == nil || !strings.HasPrefix(err.Error(), "ERR Script killed by user with SCRIPT KILL... script: ") {
			t.Fatalf("killed pattern search replied %v", err)
		}

		go func() {
			done <- a.Eval(ctx, "redis.call('SET', KEYS[1], 'w') local t0 = redis.call('TIME')[1] "+
				"while redis.call('TIME')[1] - t0 < 2 do end return 1", []string{"w"}).Err()
		}()
		waitBusy()
		if err := b.ScriptKill(ctx).Err(); err == nil || !strings.HasPrefix(err.Error(), "UNKILLABLE ") {
			t.Fatalf("SCRIPT KILL of a script that wrote: %v", err)
		}
		if err := <-done; err != nil {
			t.Fatalf("the unkillable script: %v", err)
		}

		must(t, b.FunctionLoad(ctx, "#!lua name=spin\nredis.register_function('spin', function() while true do end end)").Err())
		go func() { done <- a.FCall(ctx, "spin", nil).Err() }()
		waitBusy()
		must(t, b.FunctionKill(ctx).Err())
		if err := <-done; err == nil || err.Error() != "ERR Script killed by user with SCRIPT KILL... script: spin, on @user_function:2." { // Redis 7.0 words it so
			t.Fatalf("killed function replied %v", err)
		}
	})
}

// TestScriptHostileResults: results that used to end the process (a table
// holding itself: Go's fatal stack overflow converting it to RESP) or hang
// it (a table holding itself twice, 2^7995 values; 100,000 nested blocks,
// quadratic to compile) get an error reply, and the server goes on
// serving the same connection and others.
//
// The table holding itself twice runs on the first driver only: its
// reply never reaches the store, and measuring 512 MiB of it before the
// bound stops it takes 1 s (14 s under the race detector) per server.
// (Writing it took 25 s and 75 s, past the connection's 60 s deadline.)
func TestScriptHostileResults(t *testing.T) {
	first := drivers()[0]
	forEachDriver(t, func(t *testing.T, addr string) {
		r := dialRaw(t, addr)
		got := r.do("EVAL", "local a = {}; local b = {a}; a[1] = b; return a", "0")
		if want := strings.Repeat("*1\r\n", 7995) + "-ERR reached lua stack limit\r\n"; got != want {
			t.Fatalf("cyclic table: %d bytes, want %d: ...%q", len(got), len(want), got[max(0, len(got)-80):])
		}
		if strings.HasSuffix(t.Name(), "/"+first) {
			got = r.do("EVAL", "local t = {}; t[1] = t; t[2] = t; return t", "0")
			if !strings.HasPrefix(got, "-ERR script reply is too large") {
				t.Fatalf("table holding itself twice: %.100q", got)
			}
		}
		got = r.do("EVAL", strings.Repeat("do ", 100_000)+strings.Repeat("end ", 100_000), "0")
		if got != "-ERR Error compiling script (new function): user_script:1: chunk has too many syntax levels\r\n" {
			t.Fatalf("100,000 nested blocks: %.100q", got)
		}
		got = r.do("EVAL", "return cjson.decode(string.rep('[', 10000000))", "0")
		if !strings.Contains(got, "Found too many nested data structures (1001) at character 1001") {
			t.Fatalf("deep JSON: %.100q", got)
		}
		if got := r.do("PING"); got != "+PONG\r\n" {
			t.Fatalf("PING on the same connection = %q", got)
		}
		c := newClient(t, addr, 2)
		if err := c.Set(context.Background(), "k", "v", 0).Err(); err != nil {
			t.Fatalf("SET from another client: %v", err)
		}
	})
}

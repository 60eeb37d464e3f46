package integration

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rekv/rekv/conf"
	"github.com/rekv/rekv/node"
)

// TestDebugLikeRedis: DEBUG is refused by default, as in Redis 7; with
// enable-debug-command yes (server.redis at start) its subset answers as
// redis-server does — PROTOCOL's samples in RESP2 and RESP3, SLEEP,
// SET-ACTIVE-EXPIRE (the GC expires nothing meanwhile), ERROR,
// RELOAD, the errors — and SLEEP makes the connection wait.
func TestDebugLikeRedis(t *testing.T) {
	off := dialRaw(t, startNode(t, drivers()[0], nil).Addr())
	offRedis := dialRaw(t, redisServer(t))
	if got, want := off.do("DEBUG", "SLEEP", "0"), offRedis.do("DEBUG", "SLEEP", "0"); got != want {
		t.Fatalf("DEBUG by default: rekv %q, redis %q", got, want)
	}

	red := redisServer(t, "--enable-debug-command", "yes")
	forEachDebugNode := func(fn func(t *testing.T, addr string)) {
		for _, d := range drivers() {
			t.Run(d, func(t *testing.T) {
				fn(t, startDebugNode(t, d).Addr())
			})
		}
	}
	forEachDebugNode(func(t *testing.T, addr string) {
		for _, proto := range []string{"2", "3"} {
			a, b := dialRaw(t, addr), dialRaw(t, red)
			a.do("HELLO", proto)
			b.do("HELLO", proto)
			for _, typ := range []string{"string", "integer", "double", "bignum", "null", "array", "set", "map",
				"attrib", "push", "verbatim", "true", "false", "nope"} {
				got, want := a.do("DEBUG", "PROTOCOL", typ), b.do("DEBUG", "PROTOCOL", typ)
				if typ == "push" && proto == "3" { // the push, then the reply
					got, want = got+a.reply(), want+b.reply()
				}
				if got != want {
					t.Errorf("RESP%s DEBUG PROTOCOL %s: rekv %q, redis %q", proto, typ, got, want)
				}
			}
		}
		// DEBUG SET-DISABLE-DENY-SCRIPTS 1 lets scripts call DEBUG
		// (Redis's tests of RESP3 replies in Lua): each protocol type
		// converted into Lua and back, per redis.setresp and client
		// protocol, as Redis does.
		for _, proto := range []string{"2", "3"} {
			a, b := dialRaw(t, addr), dialRaw(t, red)
			a.do("HELLO", proto)
			b.do("HELLO", proto)
			script := "return redis.call('debug', 'protocol', 'bignum')"
			if got, want := a.do("EVAL", script, "0"), b.do("EVAL", script, "0"); got != want {
				t.Errorf("RESP%s DEBUG from a script by default: rekv %q, redis %q", proto, got, want)
			}
			for _, x := range []*raw{a, b} {
				if got := x.do("DEBUG", "SET-DISABLE-DENY-SCRIPTS", "1"); got != "+OK\r\n" {
					t.Fatalf("DEBUG SET-DISABLE-DENY-SCRIPTS 1: %q", got)
				}
			}
			for _, setresp := range []string{"2", "3"} {
				for _, typ := range []string{"string", "integer", "double", "bignum", "null", "array", "set", "map",
					"attrib", "verbatim", "true", "false"} {
					script := "redis.setresp(" + setresp + "); return redis.call('debug', 'protocol', '" + typ + "')"
					if got, want := a.do("EVAL", script, "0"), b.do("EVAL", script, "0"); got != want {
						t.Errorf("RESP%s, redis.setresp(%s), DEBUG PROTOCOL %s from a script: rekv %q, redis %q", proto, setresp, typ, got, want)
					}
				}
			}
			for _, x := range []*raw{a, b} {
				x.do("DEBUG", "SET-DISABLE-DENY-SCRIPTS", "0")
			}
			if got, want := a.do("EVAL", script, "0"), b.do("EVAL", script, "0"); got != want {
				t.Errorf("RESP%s DEBUG from a script after SET-DISABLE-DENY-SCRIPTS 0: rekv %q, redis %q", proto, got, want)
			}
		}
		a, b := dialRaw(t, addr), dialRaw(t, red)
		for _, args := range [][]string{
			{"FLUSHALL"}, {"FUNCTION", "FLUSH"},
			// RELOAD NOFLUSH loads the saved data over itself: it fails
			// once a library exists, unless MERGE.
			{"DEBUG", "RELOAD", "NOFLUSH"}, {"DEBUG", "RELOAD", "BOGUS"},
			{"FUNCTION", "LOAD", "#!lua name=rl\nredis.register_function('rl', function() return 1 end)"},
			{"DEBUG", "RELOAD", "NOFLUSH"}, {"DEBUG", "RELOAD", "noflush", "merge"}, {"FUNCTION", "LIST"}, {"FUNCTION", "FLUSH"},
			{"DEBUG", "SLEEP", "0"}, {"DEBUG", "SLEEP", "x"}, {"DEBUG", "RELOAD"}, {"DEBUG", "CHANGE-REPL-ID"},
			{"DEBUG", "ERROR", "MYERR something failed"}, {"DEBUG", "LOG", "hello"}, {"DEBUG", "NOPE"}, {"DEBUG"},
			{"DEBUG", "PROTOCOL"}, {"DEBUG", "QUICKLIST-PACKED-THRESHOLD", "1K"}, {"DEBUG", "QUICKLIST-PACKED-THRESHOLD", "0"},
			{"DEBUG", "QUICKLIST-PACKED-THRESHOLD", "5gb"}, {"DEBUG", "QUICKLIST-PACKED-THRESHOLD", "x"},
			{"DEBUG", "REPLYBUFFER", "PEAK-RESET-TIME", "100"}, {"DEBUG", "REPLYBUFFER", "peak-reset-time", "never"},
			{"DEBUG", "REPLYBUFFER", "PEAK-RESET-TIME", "reset"}, {"DEBUG", "REPLYBUFFER", "PEAK-RESET-TIME", "x"},
			{"DEBUG", "REPLYBUFFER", "RESIZING", "0"}, {"DEBUG", "REPLYBUFFER", "NOPE", "1"}, {"DEBUG", "REPLYBUFFER", "RESIZING"},
			{"DEBUG", "PAUSE-CRON", "1"}, {"DEBUG", "PAUSE-CRON", "0"}, {"DEBUG", "PAUSE-CRON"},
			{"DEBUG", "SET-ACTIVE-EXPIRE", "0"}, {"SET", "k", "v", "PX", "20"},
		} {
			if got, want := a.do(args...), b.do(args...); got != want {
				t.Errorf("%v: rekv %q, redis %q", args, got, want)
			}
		}
		// LOADAOF (which Redis runs only with an AOF) makes the store
		// durable and serves what it holds.
		a.do("SET", "kept", "1")
		if got := a.do("DEBUG", "LOADAOF"); got != "+OK\r\n" {
			t.Errorf("DEBUG LOADAOF: %q", got)
		}
		if got := a.do("GET", "kept"); got != "$1\r\n1\r\n" {
			t.Errorf("GET after DEBUG LOADAOF: %q", got)
		}
		time.Sleep(400 * time.Millisecond) // several GC passes
		if info := a.do("INFO", "stats"); !strings.Contains(info, "\r\nexpired_keys:0\r\n") {
			t.Errorf("the GC expired a key while SET-ACTIVE-EXPIRE 0:\n%s", info)
		}
		for _, args := range [][]string{{"GET", "k"}, {"DEBUG", "SET-ACTIVE-EXPIRE", "1"}} {
			if got, want := a.do(args...), b.do(args...); got != want {
				t.Errorf("%v: rekv %q, redis %q", args, got, want)
			}
		}
		for deadline := time.Now().Add(5 * time.Second); !strings.Contains(a.do("INFO", "stats"), "\r\nexpired_keys:1\r\n"); {
			if time.Now().After(deadline) {
				t.Fatal("the GC did not expire the key after SET-ACTIVE-EXPIRE 1")
			}
			time.Sleep(20 * time.Millisecond)
		}
		start := time.Now()
		if got := a.do("DEBUG", "SLEEP", "0.2"); got != "+OK\r\n" || time.Since(start) < 190*time.Millisecond {
			t.Errorf("DEBUG SLEEP 0.2: %q after %v", got, time.Since(start))
		}
	})
}

// TestDebugSleepInMulti: MULTI; DEBUG SLEEP 0.2; EXEC answers [OK] after
// the sleep, as Redis does, and the server is still there afterwards
// (the sleep's deferred reply once came 0.2 s after EXEC's and ended the
// process: index out of range in the reply writer). WAIT in MULTI
// answers at once.
func TestDebugSleepInMulti(t *testing.T) {
	red := dialRaw(t, redisServer(t, "--enable-debug-command", "yes"))
	for _, d := range drivers() {
		t.Run(d, func(t *testing.T) {
			a := dialRaw(t, startDebugNode(t, d).Addr())
			for i := 0; i < 3; i++ {
				start := time.Now()
				var got, want []string
				for _, args := range [][]string{{"MULTI"}, {"DEBUG", "SLEEP", "0.2"}, {"WAIT", "0", "0"}, {"EXEC"}} {
					got, want = append(got, a.do(args...)), append(want, red.do(args...))
				}
				if took := time.Since(start); took < 190*time.Millisecond {
					t.Errorf("EXEC answered after %v, before the sleep ended", took)
				}
				if strings.Join(got, "") != strings.Join(want, "") {
					t.Errorf("rekv %q, redis %q", got, want)
				}
				time.Sleep(300 * time.Millisecond) // when the stray reply came
				if got := a.do("PING"); got != "+PONG\r\n" {
					t.Fatalf("PING after: %q", got)
				}
			}
		})
	}
}

// TestDebugObject: DEBUG OBJECT key answers Redis's line — the same
// encoding, refcount and serialized length as redis-server's for each
// type, an address kept by a change made in place (INCR) and a new one
// for a new value, lru_seconds_idle and an lru clock that moves with
// accesses — and Redis's errors (no such key, a wrong arity, DEBUG not
// allowed).
func TestDebugObject(t *testing.T) {
	red := dialRaw(t, redisServer(t, "--enable-debug-command", "yes"))
	a := dialRaw(t, startDebugNode(t, drivers()[0]).Addr())
	line := regexp.MustCompile(`^\+Value at:(0x[0-9a-f]+) refcount:(\d+) encoding:(\S+) serializedlength:(\d+) lru:(\d+) lru_seconds_idle:(\d+)(.*)\r\n$`)
	fields := func(who, got string) []string {
		t.Helper()
		m := line.FindStringSubmatch(got)
		if m == nil {
			t.Fatalf("%s: DEBUG OBJECT = %q", who, got)
		}
		return m[1:]
	}
	setup := [][]string{
		{"SET", "int", "20000"}, {"SET", "shared", "12"}, {"SET", "emb", "hello"}, {"SET", "raw", strings.Repeat("x", 100)},
		{"RPUSH", "list", "a", "b", "c"}, {"RPUSH", "biglist"}, {"HSET", "hash", "f", "v"}, {"SADD", "iset", "1", "2"}, {"SADD", "set", "a"},
		{"ZADD", "zset", "1", "m"},
	}
	for _, args := range setup {
		a.do(args...)
		red.do(args...)
	}
	for i := 0; i < 3000; i++ { // several nodes of 8 KiB: numbers, short and long strings
		v := []string{strconv.Itoa(i * 977), "element-" + strconv.Itoa(i), strings.Repeat("y", 70+i%50)}[i%3]
		a.do("RPUSH", "biglist", v)
		red.do("RPUSH", "biglist", v)
	}
	for _, key := range []string{"int", "shared", "emb", "raw", "list", "biglist", "hash", "iset", "set", "zset"} {
		got, want := fields("rekv", a.do("DEBUG", "OBJECT", key)), fields("redis", red.do("DEBUG", "OBJECT", key))
		if got[1] != want[1] || got[2] != want[2] || got[6] != want[6] {
			t.Errorf("DEBUG OBJECT %s: refcount %s encoding %s%s, redis %s %s%s", key, got[1], got[2], got[6], want[1], want[2], want[6])
		}
		// Redis compresses a long string (LZF) and serializes a small
		// collection as one listpack or intset blob, a list by its
		// nodes; rekv's DUMP does none of that, so only short strings
		// compare.
		if (key == "int" || key == "shared" || key == "emb") && got[3] != want[3] {
			t.Errorf("DEBUG OBJECT %s: serializedlength %s, redis %s", key, got[3], want[3])
		}
	}
	before := fields("rekv", a.do("DEBUG", "OBJECT", "int"))
	a.do("INCR", "int")
	if after := fields("rekv", a.do("DEBUG", "OBJECT", "int")); after[0] != before[0] {
		t.Errorf("INCR moved the value: at %s, then %s", before[0], after[0])
	}
	a.do("DEL", "int")
	a.do("SET", "int", "7")
	if after := fields("rekv", a.do("DEBUG", "OBJECT", "int")); after[0] == before[0] {
		t.Errorf("a new value at the address of the deleted one (%s)", after[0])
	}
	lru := fields("rekv", a.do("DEBUG", "OBJECT", "emb"))[4]
	time.Sleep(2100 * time.Millisecond)
	idle := fields("rekv", a.do("DEBUG", "OBJECT", "emb"))
	if secs, _ := strconv.Atoi(idle[5]); idle[4] != lru || secs < 2 {
		t.Errorf("2 s without access: lru %s -> %s, idle %s", lru, idle[4], idle[5])
	}
	a.do("GET", "emb")
	if now := fields("rekv", a.do("DEBUG", "OBJECT", "emb")); now[4] == lru || now[5] != "0" {
		t.Errorf("after a GET: lru %s (was %s), idle %s", now[4], lru, now[5])
	}
	for _, args := range [][]string{{"DEBUG", "OBJECT", "nokey"}, {"DEBUG", "OBJECT"}, {"DEBUG", "OBJECT", "emb", "extra"}} {
		if got, want := a.do(args...), red.do(args...); got != want {
			t.Errorf("%v: rekv %q, redis %q", args, got, want)
		}
	}
	off := dialRaw(t, startNode(t, drivers()[0], nil).Addr())
	offRedis := dialRaw(t, redisServer(t))
	off.do("SET", "k", "v")
	offRedis.do("SET", "k", "v")
	if got, want := off.do("DEBUG", "OBJECT", "k"), offRedis.do("DEBUG", "OBJECT", "k"); got != want {
		t.Errorf("DEBUG OBJECT by default: rekv %q, redis %q", got, want)
	}
}

// TestLazyExpiry: with active expiry paused (DEBUG SET-ACTIVE-EXPIRE 0),
// keys past their TTL still count in DBSIZE until a command looks them
// up, which deletes them (Redis's lazy expiry: its test "Redis should
// lazy expire keys" reads {3 3 0}), each counted in expired_keys — as
// redis-server does.
func TestLazyExpiry(t *testing.T) {
	red := dialRaw(t, redisServer(t, "--enable-debug-command", "yes"))
	for _, d := range drivers() {
		t.Run(d, func(t *testing.T) {
			a := dialRaw(t, startDebugNode(t, d).Addr())
			run := func(r *raw) []string {
				var out []string
				r.do("FLUSHALL")
				r.do("CONFIG", "RESETSTAT")
				r.do("DEBUG", "SET-ACTIVE-EXPIRE", "0")
				defer r.do("DEBUG", "SET-ACTIVE-EXPIRE", "1")
				for _, k := range []string{"key1{t}", "key2{t}", "key3{t}"} {
					r.do("PSETEX", k, "300", "a")
				}
				r.do("SET", "kept", "v")
				out = append(out, r.do("DBSIZE"))
				time.Sleep(600 * time.Millisecond)
				out = append(out, r.do("DBSIZE"), r.do("MGET", "key1{t}", "key2{t}"), r.do("DBSIZE"),
					r.do("EXISTS", "key3{t}"), r.do("DBSIZE"), r.do("GET", "kept"))
				for deadline := time.Now().Add(5 * time.Second); !strings.Contains(r.do("INFO", "stats"), "\r\nexpired_keys:3\r\n"); {
					if time.Now().After(deadline) {
						t.Fatalf("expired_keys after three lazy expiries: %q", r.do("INFO", "stats"))
					}
					time.Sleep(10 * time.Millisecond)
				}
				return out
			}
			if got, want := run(a), run(red); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("rekv %q\nredis %q", got, want)
			}
		})
	}
}

// startDebugNode starts a node of driver with enable-debug-command yes.
func startDebugNode(t *testing.T, driver string) *node.Node {
	t.Helper()
	return startNode(t, driver, func(c *conf.Config) {
		c.Server.Redis = map[string]string{"enable-debug-command": "yes"}
	})
}

// TestDebugObjectExpiredKey: with active expiry paused, DEBUG OBJECT
// still describes a key that expired but is stored, and removes nothing
// (Redis's dict look-up; unit/scripting "Script delete the expired key"
// relies on it); a script's EXISTS then deletes it. On redis-server and
// rekv.
func TestDebugObjectExpiredKey(t *testing.T) {
	besideRedis(t, func(t *testing.T, who, a string) {
		c := dialRaw(t, a)
		c.do("FLUSHALL")
		c.do("DEBUG", "SET-ACTIVE-EXPIRE", "0")
		c.do("SET", "key", "value", "PX", "1")
		time.Sleep(5 * time.Millisecond)
		for i := range 2 {
			if got := c.do("DEBUG", "OBJECT", "key"); !strings.HasPrefix(got, "+Value at:") || !strings.Contains(got, "encoding:embstr") {
				t.Errorf("%s: DEBUG OBJECT of the expired key (%d): %q", who, i+1, got)
			}
		}
		if got := c.do("DBSIZE"); got != ":1\r\n" {
			t.Errorf("%s: DBSIZE after DEBUG OBJECT = %q, want :1 (nothing removed)", who, got)
		}
		if got := c.do("EVAL", "return redis.call('EXISTS', 'key')", "0"); got != ":0\r\n" {
			t.Errorf("%s: EXISTS in a script = %q", who, got)
		}
		if got := c.do("DEBUG", "OBJECT", "key"); got != "-ERR no such key\r\n" {
			t.Errorf("%s: DEBUG OBJECT once the script deleted it: %q", who, got)
		}
		c.do("DEBUG", "SET-ACTIVE-EXPIRE", "1")
	})
}

// besideRedis runs fn on redis-server and on a rekv node of each driver,
// DEBUG enabled on both, in a subtest per driver: who names the server
// ("redis" or "rekv"), a is its address.
func besideRedis(t *testing.T, fn func(t *testing.T, who, a string)) {
	red := redisServer(t, "--enable-debug-command", "yes")
	for _, d := range drivers() {
		t.Run(d, func(t *testing.T) {
			addr := startDebugNode(t, d).Addr()
			for who, a := range map[string]string{"redis": red, "rekv": addr} {
				fn(t, who, a)
			}
		})
	}
}

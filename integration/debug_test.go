package integration

import (
	"strings"
	"testing"
	"time"

	"github.com/rekv/rekv/conf"
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
				n := startNode(t, d, func(c *conf.Config) {
					c.Server.Redis = map[string]string{"enable-debug-command": "yes"}
				})
				fn(t, n.Addr())
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
			{"FLUSHALL"}, {"DEBUG", "SLEEP", "0"}, {"DEBUG", "SLEEP", "x"}, {"DEBUG", "RELOAD"}, {"DEBUG", "CHANGE-REPL-ID"},
			{"DEBUG", "ERROR", "MYERR something failed"}, {"DEBUG", "LOG", "hello"}, {"DEBUG", "NOPE"}, {"DEBUG"},
			{"DEBUG", "PROTOCOL"}, {"DEBUG", "QUICKLIST-PACKED-THRESHOLD", "1K"}, {"DEBUG", "QUICKLIST-PACKED-THRESHOLD", "0"},
			{"DEBUG", "QUICKLIST-PACKED-THRESHOLD", "5gb"}, {"DEBUG", "QUICKLIST-PACKED-THRESHOLD", "x"},
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
			n := startNode(t, d, func(c *conf.Config) {
				c.Server.Redis = map[string]string{"enable-debug-command": "yes"}
			})
			a := dialRaw(t, n.Addr())
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

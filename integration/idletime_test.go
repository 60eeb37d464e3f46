package integration

import (
	"context"
	"strings"
	"testing"
)

// TestObjectIdleTime checks OBJECT IDLETIME the same way on rekv (both
// drivers) and on redis-server: RESTORE ... IDLETIME sets it; TYPE,
// EXISTS, the TTL family and OBJECT itself leave it; every other command
// on the key makes it an access (idle 0). Idle times are whole seconds
// read from a clock, so one tick between two commands is allowed.
func TestObjectIdleTime(t *testing.T) {
	check := func(t *testing.T, addr string) {
		ctx := context.Background()
		c := newClient(t, addr, 2)
		must(t, c.FlushAll(ctx).Err())
		must(t, c.Set(ctx, "src", "value", 0).Err())
		payload := c.Dump(ctx, "src").Val()
		idle := func(what string) int64 {
			t.Helper()
			n, err := c.Do(ctx, "object", "idletime", "k").Int64()
			if err != nil {
				t.Fatalf("%s: OBJECT IDLETIME: %v", what, err)
			}
			return n
		}
		restore := func() {
			t.Helper()
			must(t, c.Do(ctx, "restore", "k", 0, payload, "replace", "idletime", 1000).Err())
		}
		restore()
		for _, cmd := range []string{"type k", "exists k", "ttl k", "pttl k", "expiretime k", "pexpiretime k",
			"object encoding k", "object refcount k", "object idletime k"} {
			must(t, c.Do(ctx, args(cmd)...).Err())
			if n := idle(cmd); n < 1000 || n > 1001 {
				t.Fatalf("after %s: idle %d, want 1000 (not an access)", cmd, n)
			}
		}
		for _, cmd := range []string{"get k", "strlen k", "getrange k 0 1", "append k x", "expire k 100",
			"persist k", "touch k", "dump k", "setrange k 0 v", "copy k k2 replace", "bitcount k", "getex k"} {
			restore()
			if err := c.Do(ctx, args(cmd)...).Err(); err != nil && !strings.Contains(err.Error(), "nil") {
				t.Fatalf("%s: %v", cmd, err)
			}
			if n := idle(cmd); n > 1 {
				t.Fatalf("after %s: idle %d, want 0 (an access)", cmd, n)
			}
		}
		if err := c.Do(ctx, "object", "idletime", "missing").Err(); err == nil || !strings.Contains(err.Error(), "nil") {
			t.Fatalf("OBJECT IDLETIME of a missing key: %v, want nil", err)
		}
	}
	t.Run("redis-server", func(t *testing.T) { check(t, redisServer(t)) })
	forEachDriver(t, check)
}

func args(line string) []any {
	var out []any
	for _, f := range strings.Fields(line) {
		out = append(out, f)
	}
	return out
}

// TestClientNoTouch: with CLIENT NO-TOUCH ON (Redis 7.2) a client's reads
// leave a key's idle time alone, also inside MULTI; TOUCH still counts;
// OFF restores the usual accesses. CLIENT LIST shows the T flag. Idle
// times are whole seconds of a clock, so an access may read as idle 1 when
// the clock ticks between it and OBJECT IDLETIME (as in Redis).
func TestClientNoTouch(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		ctx := context.Background()
		c := newClient(t, addr, 2)
		must(t, c.Set(ctx, "src", "value", 0).Err())
		payload := c.Dump(ctx, "src").Val()
		r := dialRaw(t, addr)
		idle := func() string { return r.do("OBJECT", "IDLETIME", "k") }
		must(t, c.Do(ctx, "restore", "k", 0, payload, "replace", "idletime", 1000).Err())
		if got := r.do("CLIENT", "NO-TOUCH", "ON"); got != "+OK\r\n" {
			t.Fatalf("CLIENT NO-TOUCH ON: %q", got)
		}
		r.do("GET", "k")
		r.do("STRLEN", "k")
		r.write(encode("MULTI") + encode("GET", "k") + encode("EXEC"))
		for i := 0; i < 3; i++ {
			r.reply()
		}
		if got := idle(); got != ":1000\r\n" && got != ":1001\r\n" {
			t.Fatalf("reads under NO-TOUCH touched the key: idle %q", got)
		}
		if !strings.Contains(r.do("CLIENT", "INFO"), " flags=T ") {
			t.Fatalf("CLIENT INFO lacks the T flag: %q", r.do("CLIENT", "INFO"))
		}
		r.do("TOUCH", "k")
		if got := idle(); got != ":0\r\n" && got != ":1\r\n" {
			t.Fatalf("TOUCH under NO-TOUCH: idle %q", got)
		}
		must(t, c.Do(ctx, "restore", "k", 0, payload, "replace", "idletime", 1000).Err())
		r.do("CLIENT", "NO-TOUCH", "OFF")
		r.do("GET", "k")
		if got := idle(); got != ":0\r\n" && got != ":1\r\n" {
			t.Fatalf("GET after NO-TOUCH OFF: idle %q", got)
		}
		if got := r.do("CLIENT", "NO-TOUCH", "MAYBE"); got != "-ERR syntax error\r\n" {
			t.Fatalf("CLIENT NO-TOUCH MAYBE: %q", got)
		}
	})
}

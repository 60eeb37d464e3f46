package integration

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// TestSlowlogLikeRedis logs every command (slowlog-log-slower-than 0) on
// rekv (both drivers) and on redis-server and compares the entries once
// ids, times, durations and client ports are masked: which commands are
// logged, their arguments (long ones cut, many ones summed up, passwords
// redacted), the client name, and SLOWLOG LEN / GET count / RESET /
// slowlog-max-len.
func TestSlowlogLikeRedis(t *testing.T) {
	mask := regexp.MustCompile(`\*6\r\n:\d+\r\n:\d+\r\n:\d+\r\n`)
	port := regexp.MustCompile(`127\.0\.0\.1:\d+`)
	run := func(t *testing.T, addr string) []string {
		c := dialRaw(t, addr)
		var out []string
		do := func(args ...string) {
			r := c.do(args...)
			out = append(out, port.ReplaceAllString(mask.ReplaceAllString(r, "*6 entry\r\n"), "client"))
		}
		do("CONFIG", "SET", "slowlog-log-slower-than", "0")
		do("SLOWLOG", "RESET")
		do("CLIENT", "SETNAME", "bob")
		do("SET", "a", "b")
		do("AUTH", "x", "y")
		do("ACL", "SETUSER", "slow user", "+get")
		do("ACL", "SETUSER", "slowuser", "+get", "+set")
		do("CONFIG", "SET", "masterauth", "")
		do("GET", strings.Repeat("k", 300))
		many := []string{"DEL"}
		for i := 0; i < 40; i++ {
			many = append(many, fmt.Sprint("key", i))
		}
		do(many...)
		do("SLOWLOG", "LEN")
		do("SLOWLOG", "GET", "-1")
		do("SLOWLOG", "GET", "2")
		do("SLOWLOG", "GET", "x")
		do("SLOWLOG", "GET", "1", "2")
		do("CONFIG", "SET", "slowlog-max-len", "3")
		do("SLOWLOG", "LEN")
		do("SLOWLOG", "GET")
		do("CONFIG", "SET", "slowlog-log-slower-than", "-1")
		do("SLOWLOG", "RESET")
		do("SET", "a", "c")
		do("SLOWLOG", "LEN")
		do("SLOWLOG", "HELP")
		do("CONFIG", "SET", "slowlog-max-len", "128", "slowlog-log-slower-than", "10000")
		return out
	}
	want := run(t, redisServer(t))
	forEachDriver(t, func(t *testing.T, addr string) {
		got := run(t, addr)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("step %d:\nrekv:  %q\nredis: %q", i, got[i], want[i])
			}
		}
	})
}

// TestSlowlogSleepAndExec: DEBUG SLEEP is timed as its sleep (its
// connection waits; Redis's whole server does), and EXEC's queued
// commands are logged one by one, EXEC itself not (unit/slowlog). On
// redis-server and rekv.
func TestSlowlogSleepAndExec(t *testing.T) {
	besideRedis(t, func(t *testing.T, who, a string) {
		c := dialRaw(t, a)
		c.do("CONFIG", "SET", "slowlog-log-slower-than", "100000")
		c.do("SLOWLOG", "RESET")
		c.do("PING")
		c.do("DEBUG", "SLEEP", "0.2")
		if got := c.do("SLOWLOG", "LEN"); got != ":1\r\n" {
			t.Errorf("%s: SLOWLOG LEN after DEBUG SLEEP 0.2 = %q", who, got)
		}
		c.do("SLOWLOG", "RESET")
		c.do("MULTI")
		c.do("DEBUG", "SLEEP", "0.2")
		c.do("SET", "x", "y")
		c.do("EXEC")
		got := c.do("SLOWLOG", "GET")
		if !strings.HasPrefix(got, "*1\r\n") || !strings.Contains(got, "*3\r\n$5\r\nDEBUG\r\n$5\r\nSLEEP\r\n$3\r\n0.2\r\n") {
			t.Errorf("%s: SLOWLOG GET after MULTI; DEBUG SLEEP 0.2; SET; EXEC = %q, want the sleep alone", who, got)
		}
		c.do("CONFIG", "SET", "slowlog-log-slower-than", "10000")
	})
}

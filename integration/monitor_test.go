package integration

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestMonitorLikeRedis runs the same commands (quoting, redaction, MULTI,
// a script's calls, SELECT, an error) under MONITOR on rekv (both drivers)
// and on redis-server and requires the same lines once the time stamps
// and client ports are masked.
func TestMonitorLikeRedis(t *testing.T) {
	stamp := regexp.MustCompile(`^\+\d+\.\d{6} \[(\d+) (127\.0\.0\.1:\d+|lua)\]`)
	run := func(t *testing.T, addr string) string {
		mon, c := dialRaw(t, addr), dialRaw(t, addr)
		c.do("FLUSHALL")
		if got := mon.do("MONITOR"); got != "+OK\r\n" {
			t.Fatalf("MONITOR = %q", got)
		}
		cmds := [][]string{{"SET", "a", "x y"}, {"GET", "a\n\x01\"\\\t\r"}, {"AUTH", "foo", "bar"}, {"MULTI"}, {"INCR", "n"},
			{"SET", "k"}, {"EXEC"}, {"EVAL", "return redis.call('get','a')", "0"}, {"CLIENT", "SETNAME", "me"},
			{"HELLO", "2", "AUTH", "u", "p"}, {"SELECT", "3"}, {"LPUSH", "a", "b"}, {"SET", "k", "v", "BADOPT"},
			{"CONFIG", "GET", "maxmemory"}, {"NOSUCHCOMMAND"}, {"GET"}, {"SELECT", "0"}, {"PING"}}
		for _, cmd := range cmds {
			c.do(cmd...)
		}
		var lines []string
		for {
			_ = mon.conn.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
			line, err := readReply(mon.r)
			if err != nil {
				break // no more lines
			}
			m := stamp.FindStringSubmatchIndex(line)
			if m == nil {
				t.Fatalf("monitor line %q", line)
			}
			src := "client"
			if line[m[4]:m[5]] == "lua" {
				src = "lua"
			}
			lines = append(lines, "["+line[m[2]:m[3]]+" "+src+"]"+line[m[1]:])
		}
		if len(lines) < 10 {
			t.Fatalf("only %d monitor lines: %q", len(lines), lines)
		}
		return strings.Join(lines, "")
	}
	want := run(t, redisServer(t))
	forEachDriver(t, func(t *testing.T, addr string) {
		if got := run(t, addr); got != want {
			t.Fatalf("monitor lines:\n%s\nredis-server:\n%s", got, want)
		}
	})
}

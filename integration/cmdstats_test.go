package integration

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// TestCommandStatsLikeRedis: INFO commandstats counts what Redis counts —
// EXEC, the commands queued in MULTI, the calls scripts and functions
// make — with the same calls and failed_calls, on redis-server and rekv.
func TestCommandStatsLikeRedis(t *testing.T) {
	calls := regexp.MustCompile(`(?m)^cmdstat_([^:]+):calls=(\d+),.*rejected_calls=(\d+),failed_calls=(\d+)`)
	run := func(t *testing.T, addr string) map[string]string {
		c := dialRaw(t, addr)
		c.do("FLUSHALL")
		c.do("FUNCTION", "FLUSH")
		c.do("FUNCTION", "LOAD", "#!lua name=statlib\nredis.register_function('statf', function(keys, args) redis.call('incr', keys[1]) return redis.call('get', keys[1]) end)")
		c.do("CONFIG", "RESETSTAT")
		for _, cmd := range [][]string{
			{"EVAL", "redis.call('set', KEYS[1], '1') return redis.call('get', KEYS[1])", "1", "a"},
			{"EVAL", "return redis.pcall('lpush', KEYS[1], 'x')", "1", "a"}, // WRONGTYPE inside: a failed call
			{"MULTI"}, {"SET", "b", "1"}, {"INCR", "b"}, {"LPUSH", "b", "x"}, {"EXEC"},
			{"FCALL", "statf", "1", "c"},
			{"MULTI"}, {"GET", "b"}, {"DISCARD"},
		} {
			c.do(cmd...)
		}
		out := map[string]string{}
		for _, m := range calls.FindAllStringSubmatch(c.do("INFO", "commandstats"), -1) {
			if m[1] == "info" || strings.HasPrefix(m[1], "config") || m[1] == "hello" {
				continue
			}
			out[m[1]] = fmt.Sprintf("calls=%s rejected=%s failed=%s", m[2], m[3], m[4])
		}
		return out
	}
	want := run(t, redisServer(t))
	forEachDriver(t, func(t *testing.T, addr string) {
		if got := run(t, addr); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("commandstats\n rekv: %v\nredis: %v", got, want)
		}
	})
}

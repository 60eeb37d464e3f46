package integration

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestCommandStatsLikeRedis: INFO commandstats and errorstats count what
// Redis counts — EXEC, the commands queued in MULTI, the calls scripts
// and functions make, each once however often rekv ran it internally (a
// script reaching keys it built runs again holding every shard), arity
// errors and refusals as rejected_calls, an aborted EXEC, the errors
// inside EXEC's reply — on redis-server and rekv.
func TestCommandStatsLikeRedis(t *testing.T) {
	calls := regexp.MustCompile(`(?m)^cmdstat_([^:]+):calls=(\d+),.*rejected_calls=(\d+),failed_calls=(\d+)`)
	errs := regexp.MustCompile(`(?m)^(errorstat_[^:]+:count=\d+|total_error_replies:\d+)`)
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
			// Keys built inside the script (bull's, rsmq's).
			{"EVAL", "redis.call('incr', KEYS[1]..':Q') return redis.call('incr', KEYS[1])", "1", "k"},
			{"EVAL", "redis.call('incr', KEYS[1]..':Q') return redis.call('incr', KEYS[1])", "1", "k"},
			{"GET"}, {"CONFIG"}, {"NOSUCH"},
			{"MULTI"}, {"SET", "d"}, {"EXEC"},
			{"CONFIG", "SET", "maxmemory", "1"}, {"SET", "e", "1"},
			// Calls a script makes that are refused before they run count
			// as the command's rejected_calls (OOM, a write in a read-only
			// script, arity, a command scripts may not call).
			{"EVAL", "return redis.call('set', KEYS[1], 'y')", "1", "x"},
			{"EVAL", "return redis.pcall('lpush', KEYS[1], 'z')", "1", "y"},
			{"CONFIG", "SET", "maxmemory", "0"},
			{"EVAL_RO", "return redis.pcall('del', KEYS[1])", "1", "x"},
			{"EVAL", "return redis.pcall('set', KEYS[1])", "1", "x"},
			{"EVAL", "return redis.pcall('shutdown')", "0"},
			// Errors a script catches count in errorstats all the same,
			// as they happen; one it replies with counts once.
			{"SET", "str", "x"},
			{"EVAL", "redis.pcall('incr', KEYS[1]) return 1", "1", "str"},
			{"EVAL", "redis.pcall('nosuch') return 1", "0"},
			{"EVAL", "local ok = pcall(redis.call, 'incrby', KEYS[1], 'x') return 1", "1", "str"},
			{"EVAL", "local t = redis.pcall('incr', KEYS[1]) return t['ignore_error_stats_update']", "1", "str"},
			{"EVAL", "local t = redis.pcall('incr', KEYS[1]) return redis.error_reply(t['err'])", "1", "str"},
			{"CONFIG", "SET", "maxmemory", "1"},
			{"EVAL", "local t = redis.pcall('set', KEYS[1], 'y') return t['err']", "1", "x"},
			{"EVAL", "local t = redis.pcall('set', KEYS[1], 'y') error(t)", "1", "x"},
			{"CONFIG", "SET", "maxmemory", "0"},
			// An error inside a script's reply fails the script and counts
			// in errorstats, once (a call's error was counted when made).
			{"EVAL", "return {1, redis.pcall('incr', KEYS[1])}", "1", "str"},
			{"EVAL", "return {1, {err='NESTED one'}, {{err='NESTED two'}}}", "0"},
			{"EVAL", "return {1, {err='FLAGGED x', ignore_error_stats_update=true}}", "0"},
			{"MULTI"},
			{"EVAL", "return {{err='INEXEC y'}}", "0"},
			{"EXEC"},
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
		for _, m := range errs.FindAllString(c.do("INFO", "errorstats")+c.do("INFO", "stats"), -1) {
			out[m] = ""
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

// TestBlockedCommandStatsLikeRedis: a blocking command is counted in INFO
// commandstats when it answers — served or timed out — and slow-logged
// when served (not when it times out), as redis-server does.
func TestBlockedCommandStatsLikeRedis(t *testing.T) {
	ctx := context.Background()
	run := func(t *testing.T, addr string) string {
		c := newClient(t, addr, 2)
		must(t, c.ConfigSet(ctx, "slowlog-log-slower-than", "0").Err())
		t.Cleanup(func() { c.ConfigSet(ctx, "slowlog-log-slower-than", "10000") })
		must(t, c.ConfigResetStat(ctx).Err())
		waiter := dialRaw(t, addr)
		waiter.write(encode("BLPOP", "q", "5"))
		time.Sleep(100 * time.Millisecond) // it blocks
		must(t, c.Do(ctx, "slowlog", "reset").Err())
		must(t, c.RPush(ctx, "q", "x").Err())
		if got := waiter.reply(); got != "*2\r\n$1\r\nq\r\n$1\r\nx\r\n" {
			t.Fatalf("served BLPOP: %q", got)
		}
		if got := waiter.do("BLPOP", "q2", "0.1"); got != "*-1\r\n" {
			t.Fatalf("timed-out BLPOP: %q", got)
		}
		entries, err := c.SlowLogGet(ctx, 10).Result()
		if err != nil {
			t.Fatal(err)
		}
		var logged []string
		for _, e := range entries {
			if name := strings.ToLower(e.Args[0]); name == "blpop" || name == "rpush" {
				logged = append(logged, strings.Join(e.Args, " "))
			}
		}
		info, err := c.Info(ctx, "commandstats").Result()
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`cmdstat_blpop:calls=(\d+),.*failed_calls=(\d+)`).FindStringSubmatch(info)
		return fmt.Sprintf("slowlog %q; blpop %v", logged, m[1:])
	}
	want := run(t, redisServer(t))
	forEachDriver(t, func(t *testing.T, addr string) {
		if got := run(t, addr); got != want {
			t.Fatalf("\n rekv: %s\nredis: %s", got, want)
		}
	})
}

package integration

import (
	"crypto/sha1"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestBusyScriptSemantics: Redis 7.0's rules while a script or function
// runs past busy-reply-threshold, seen from a second connection (each
// reply measured on redis-server 7.0.15): MULTI, DISCARD and UNWATCH are
// served (WATCH is refused: docs/compatibility.md); a command queued in MULTI is refused BUSY, and EXEC
// then answers EXECABORT and ends the transaction; FUNCTION STATS shows
// the running function (BUSY during an EVAL); SCRIPT KILL refuses a
// function and FUNCTION KILL an EVAL; after the kill the server is not
// busy.
func TestBusyScriptSemantics(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		admin := dialRaw(t, addr)
		if got := admin.do("CONFIG", "SET", "busy-reply-threshold", "100"); got != "+OK\r\n" {
			t.Fatalf("CONFIG SET: %q", got)
		}
		lib := "#!lua name=busylib\nredis.register_function('spin', function() local a = 1 while true do a = a + 1 end end)"
		if got := admin.do("FUNCTION", "LOAD", "REPLACE", lib); got != "$7\r\nbusylib\r\n" {
			t.Fatalf("FUNCTION LOAD: %q", got)
		}
		for _, kind := range []string{"eval", "fcall"} {
			t.Run(kind, func(t *testing.T) {
				runner, b := dialRaw(t, addr), dialRaw(t, addr)
				busy := "-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.\r\n"
				wrongKill, rightKill := "FUNCTION", "SCRIPT"
				if kind == "eval" {
					runner.write(encode("EVAL", "local a = 1 while true do a = a + 1 end", "0"))
				} else {
					runner.write(encode("FCALL", "spin", "0"))
					busy = strings.Replace(busy, "SCRIPT KILL", "FUNCTION KILL", 1)
					wrongKill, rightKill = "SCRIPT", "FUNCTION"
				}
				waitReply(t, b, []string{"PING"}, busy)
				for _, c := range []struct {
					args []string
					want string
				}{
					{[]string{"MULTI"}, "+OK\r\n"},
					{[]string{"PING"}, busy},
					{[]string{"EXEC"}, "-EXECABORT Transaction discarded because of: " + busy[1:]},
					{[]string{"PING"}, busy}, // not QUEUED: the transaction ended
					{[]string{"MULTI"}, "+OK\r\n"},
					{[]string{"DISCARD"}, "+OK\r\n"},
					// Redis serves WATCH too; rekv's reads the key's state
					// on its shard, which the script may hold: BUSY.
					{[]string{"WATCH", "busy-w"}, busy},
					{[]string{"UNWATCH"}, "+OK\r\n"},
					{[]string{wrongKill, "KILL"}, busy},
				} {
					if got := b.do(c.args...); got != c.want {
						t.Errorf("%v: %q, want %q", c.args, got, c.want)
					}
				}
				stats := b.do("FUNCTION", "STATS")
				if kind == "eval" {
					if stats != busy {
						t.Errorf("FUNCTION STATS during an EVAL: %q", stats)
					}
				} else if !strings.HasPrefix(stats, "*4\r\n$14\r\nrunning_script\r\n*6\r\n$4\r\nname\r\n$4\r\nspin\r\n$7\r\ncommand\r\n*3\r\n$5\r\nFCALL\r\n$4\r\nspin\r\n$1\r\n0\r\n$11\r\nduration_ms\r\n:") ||
					!strings.HasSuffix(stats, "\r\n$7\r\nengines\r\n*2\r\n$3\r\nLUA\r\n*4\r\n$15\r\nlibraries_count\r\n:1\r\n$15\r\nfunctions_count\r\n:1\r\n") {
					t.Errorf("FUNCTION STATS during a function: %q", stats)
				}
				if got := b.do(rightKill, "KILL"); got != "+OK\r\n" {
					t.Fatalf("%s KILL: %q", rightKill, got)
				}
				want := "-ERR Script killed by user with SCRIPT KILL... script: spin, on @user_function:2.\r\n"
				if kind == "eval" {
					sum := sha1.Sum([]byte("local a = 1 while true do a = a + 1 end"))
					want = "-ERR Script killed by user with SCRIPT KILL... script: " + hex.EncodeToString(sum[:]) + ", on @user_script:1.\r\n"
				}
				if got := runner.reply(); got != want {
					t.Errorf("the killed %s replied %q, want %q", kind, got, want)
				}
				for _, c := range [][]string{{"PING"}, {"SET", "busy-after", "1"}, {"GET", "busy-after"}} {
					if got := b.do(c...); strings.HasPrefix(got, "-") {
						t.Errorf("after the kill, %v: %q", c, got)
					}
				}
				if got := b.do("FUNCTION", "STATS"); !strings.HasPrefix(got, "*4\r\n$14\r\nrunning_script\r\n$-1\r\n") {
					t.Errorf("FUNCTION STATS after the kill: %q", got)
				}
			})
		}
	})
}

// waitReply sends args on r until it answers want (10 s at most).
func waitReply(t *testing.T, r *raw, args []string, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := r.do(args...)
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%v: %q, want %q", args, got, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestScriptVersionMatchesInfo: redis.REDIS_VERSION and
// REDIS_VERSION_NUM are the version INFO reports, as in Redis.
func TestScriptVersionMatchesInfo(t *testing.T) {
	r := dialRaw(t, startNode(t, "badger", nil).Addr())
	info := r.do("INFO", "server")
	_, rest, ok := strings.Cut(info, "redis_version:")
	version, _, _ := strings.Cut(rest, "\r\n")
	if !ok || version == "" {
		t.Fatalf("INFO server has no redis_version: %q", info)
	}
	if got := r.do("EVAL", "return redis.REDIS_VERSION", "0"); got != "$"+strconv.Itoa(len(version))+"\r\n"+version+"\r\n" {
		t.Errorf("redis.REDIS_VERSION = %q, INFO says %q", got, version)
	}
	var num int
	for _, part := range strings.Split(version, ".") {
		n, _ := strconv.Atoi(part)
		num = num<<8 | n
	}
	if got := r.do("EVAL", "return redis.REDIS_VERSION_NUM", "0"); got != ":"+strconv.Itoa(num)+"\r\n" {
		t.Errorf("redis.REDIS_VERSION_NUM = %q, want %d", got, num)
	}
}

package integration

import (
	"strings"
	"testing"
	"time"
)

// TestBlockedClientsWokenLikeRedis runs, on redis-server and on rekv, the
// ways a blocked client is woken other than a push to its key, and
// compares what the blocked client gets:
//   - BRPOPLPUSH / BLMOVE whose destination holds another type: the waiter
//     gets WRONGTYPE when the source gets an element (which stays there);
//   - RENAME and COPY ... REPLACE of a list or sorted set onto the key a
//     client waits on serve it, as a push would;
//   - XREADGROUP: its stream deleted or overwritten (UNBLOCKED), its group
//     destroyed (NOGROUP), both recreated at once (it waits on); XREAD
//     waits on when its stream is deleted.
func TestBlockedClientsWokenLikeRedis(t *testing.T) {
	f := strings.Fields
	scenarios := []struct {
		name  string
		setup []string   // run first, on another connection
		block string     // the blocked command
		wake  [][]string // then, on that other connection
		after []string   // replies checked after the wake-up
	}{
		{name: "brpoplpush-dst-wrongtype", setup: []string{"SET {q}d x"}, block: "BRPOPLPUSH {q}s {q}d 5",
			wake: [][]string{f("RPUSH {q}s foo")}, after: []string{"LRANGE {q}s 0 -1", "GET {q}d"}},
		{name: "blmove-dst-wrongtype", setup: []string{"SET {q}d x"}, block: "BLMOVE {q}s {q}d LEFT RIGHT 5",
			wake: [][]string{f("LPUSH {q}s foo")}, after: []string{"LRANGE {q}s 0 -1"}},
		{name: "rename-onto-waited", setup: []string{"RPUSH {q}tmp a b"}, block: "BLPOP {q}k 5",
			wake: [][]string{f("RENAME {q}tmp {q}k")}, after: []string{"LRANGE {q}k 0 -1"}},
		{name: "copy-replace-onto-waited", setup: []string{"RPUSH {q}src x y", "SET {q}k str", "DEL {q}k"}, block: "BRPOP {q}k 5",
			wake: [][]string{f("COPY {q}src {q}k REPLACE")}, after: []string{"LRANGE {q}k 0 -1", "LRANGE {q}src 0 -1"}},
		{name: "xreadgroup-key-deleted", setup: []string{"XGROUP CREATE {q}s g $ MKSTREAM"}, block: "XREADGROUP GROUP g c BLOCK 5000 STREAMS {q}s >",
			wake: [][]string{f("DEL {q}s")}, after: []string{"EXISTS {q}s"}},
		{name: "xreadgroup-key-overwritten", setup: []string{"XGROUP CREATE {q}s g $ MKSTREAM"}, block: "XREADGROUP GROUP g c BLOCK 5000 STREAMS {q}s >",
			wake: [][]string{f("SET {q}s x")}, after: []string{"TYPE {q}s"}},
		{name: "xreadgroup-group-destroyed", setup: []string{"XGROUP CREATE {q}s g $ MKSTREAM"}, block: "XREADGROUP GROUP g c BLOCK 5000 STREAMS {q}s >",
			wake: [][]string{f("XGROUP DESTROY {q}s g")}, after: []string{"XLEN {q}s"}},
		{name: "xreadgroup-recreated-in-one-go", setup: []string{"XGROUP CREATE {q}s g $ MKSTREAM"}, block: "XREADGROUP GROUP g c BLOCK 300 STREAMS {q}s >",
			wake:  [][]string{{"EVAL", "redis.call('del', KEYS[1]) redis.call('xgroup', 'create', KEYS[1], 'g', '$', 'mkstream') return 1", "1", "{q}s"}},
			after: []string{"XLEN {q}s"}},
		{name: "xread-key-deleted", setup: []string{"XADD {q}s 1-1 f v"}, block: "XREAD BLOCK 300 STREAMS {q}s $",
			wake: [][]string{f("DEL {q}s")}, after: []string{"EXISTS {q}s"}},
		{name: "zset-rename-onto-waited", setup: []string{"ZADD {q}z 1 m 2 n"}, block: "BZPOPMIN {q}w 5",
			wake: [][]string{f("RENAME {q}z {q}w")}, after: []string{"ZRANGE {q}w 0 -1"}},
	}
	run := func(t *testing.T, addr string) []string {
		var out []string
		for _, sc := range scenarios {
			ctl := dialRaw(t, addr)
			ctl.do("FLUSHALL")
			for _, c := range sc.setup {
				ctl.do(strings.Fields(c)...)
			}
			waiter := dialRaw(t, addr)
			waiter.write(encode(strings.Fields(sc.block)...))
			time.Sleep(100 * time.Millisecond) // it blocks
			for _, c := range sc.wake {
				out = append(out, sc.name+": "+strings.Join(c, " ")+" -> "+ctl.do(c...))
			}
			out = append(out, sc.name+": waiter -> "+waiter.reply())
			for _, c := range sc.after {
				out = append(out, sc.name+": "+c+" -> "+ctl.do(strings.Fields(c)...))
			}
		}
		return out
	}
	want := run(t, redisServer(t))
	forEachDriver(t, func(t *testing.T, addr string) {
		got := run(t, addr)
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("\n rekv: %q\nredis: %q", got[i], want[i])
			}
		}
	})
}

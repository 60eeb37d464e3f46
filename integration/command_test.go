package integration

import (
	"strings"
	"testing"
)

// TestCommandInfoLikeRedis compares COMMAND INFO, entry by entry, with
// redis-server for every command and subcommand rekv has: flags (denyoom,
// movablekeys...), legacy key range, ACL categories, tips and key
// specifications, byte for byte. Left out: containers as a whole (their
// subcommands come in Redis's hash-table order; each is compared alone),
// and ZRANK / ZREVRANK, whose arity is Redis 7.2's (WITHSCORE).
func TestCommandInfoLikeRedis(t *testing.T) {
	red := dialRaw(t, redisServer(t))
	rk := dialRaw(t, startNode(t, "badger", nil).Addr())
	list := rk.do("COMMAND", "LIST")
	var names []string
	for _, l := range strings.Split(list, "\r\n") {
		if l != "" && l[0] != '*' && l[0] != '$' {
			names = append(names, l)
		}
	}
	if len(names) < 250 {
		t.Fatalf("COMMAND LIST: %d names", len(names))
	}
	compared := 0
	for _, n := range names {
		if n == "zrank" || n == "zrevrank" {
			continue
		}
		if !strings.Contains(n, "|") && strings.Contains(list, "\r\n"+n+"|") {
			continue // a container
		}
		want, got := red.do("COMMAND", "INFO", n), rk.do("COMMAND", "INFO", n)
		if want == "*1\r\n$-1\r\n" {
			continue // newer than Redis 7.0 (CLIENT SETINFO...)
		}
		compared++
		if got != want {
			t.Errorf("COMMAND INFO %s:\nrekv  %q\nredis %q", n, got, want)
		}
	}
	if compared < 250 {
		t.Fatalf("compared only %d entries", compared)
	}
	for _, args := range [][]string{
		{"LMOVE", "a", "b", "LEFT", "RIGHT"}, {"SET", "a", "b"}, {"SET", "a", "b", "GET"}, {"GET", "k"},
		{"ZUNIONSTORE", "d", "2", "a", "b", "WEIGHTS", "1", "2"}, {"MSET", "a", "1", "b", "2"}, {"RENAME", "a", "b"},
		{"SORT", "k", "STORE", "d"}, {"XREAD", "STREAMS", "s1", "s2", "0", "0"}, {"EVAL", "return 1", "2", "a", "b"},
		{"BITFIELD", "k", "GET", "u8", "0"}, {"BITFIELD", "k", "SET", "u8", "0", "1"}, {"BLPOP", "a", "b", "0"},
		{"GEOSEARCHSTORE", "d", "s", "FROMMEMBER", "m", "BYRADIUS", "1", "km"}, {"COPY", "a", "b"},
	} {
		q := append([]string{"COMMAND", "GETKEYSANDFLAGS"}, args...)
		if got, want := rk.do(q...), red.do(q...); got != want {
			t.Errorf("COMMAND GETKEYSANDFLAGS %v:\nrekv  %q\nredis %q", args, got, want)
		}
	}
	for _, q := range [][]string{{"COMMAND", "GETKEYSANDFLAGS", "GET"}, {"COMMAND", "GETKEYSANDFLAGS", "NOPE", "x"},
		{"COMMAND", "HELP", "x"}} {
		if got, want := rk.do(q...), red.do(q...); got != want {
			t.Errorf("%v: rekv %q, redis %q", q, got, want)
		}
	}
}

package integration

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/rekv/rekv/conf"
)

const counterLib = "#!lua name=counters\n" +
	"redis.register_function('bump', function(keys, args) return redis.call('INCRBY', keys[1], args[1]) end)"

// TestFunctionsSurviveRestart: a library loaded with FUNCTION LOAD is in
// storage: after a restart on the same directory FCALL finds it, and
// FUNCTION DUMP / RESTORE carry it to another server.
func TestFunctionsSurviveRestart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	onDir := func(c *conf.Config) { c.Storage.Badger.Dir = dir }
	first := startNode(t, "badger", onDir)
	c := newClient(t, first.Addr(), 2)
	if name, err := c.FunctionLoad(ctx, counterLib).Result(); err != nil || name != "counters" {
		t.Fatalf("FUNCTION LOAD = %q %v", name, err)
	}
	if n, err := c.FCall(ctx, "bump", []string{"n"}, 5).Int(); err != nil || n != 5 {
		t.Fatalf("FCALL = %d %v", n, err)
	}
	dump, err := c.FunctionDump(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if err := first.Close(ctx); err != nil {
		t.Fatal(err)
	}
	second := startNode(t, "badger", onDir)
	c2 := newClient(t, second.Addr(), 3)
	if n, err := c2.FCall(ctx, "bump", []string{"n"}, 2).Int(); err != nil || n != 7 {
		t.Fatalf("FCALL after restart = %d %v", n, err)
	}
	other := newClient(t, startNode(t, "badger", nil).Addr(), 2)
	if err := other.FunctionRestore(ctx, dump).Err(); err != nil {
		t.Fatal(err)
	}
	if n, err := other.FCall(ctx, "bump", []string{"m"}, 1).Int(); err != nil || n != 1 {
		t.Fatalf("FCALL after RESTORE = %d %v", n, err)
	}
	if err := other.FunctionRestore(ctx, dump[:len(dump)-1]+"x").Err(); err == nil || err.Error() != "ERR DUMP payload version or checksum are wrong" {
		t.Fatalf("RESTORE of a corrupt payload: %v", err)
	}
}

// TestFunctionsAcrossNodes: on a shared TiKV, a library loaded on one node
// is called on the others, and a replacement or deletion is seen there.
func TestFunctionsAcrossNodes(t *testing.T) {
	ctx := context.Background()
	addrs := startCluster(t, 3)
	a, b, c := newClient(t, addrs[0], 2), newClient(t, addrs[1], 2), newClient(t, addrs[2], 3)
	if err := a.FunctionLoad(ctx, counterLib).Err(); err != nil {
		t.Fatal(err)
	}
	if n, err := b.FCall(ctx, "bump", []string{"x"}, 1).Int(); err != nil || n != 1 {
		t.Fatalf("FCALL on node b = %d %v", n, err)
	}
	if n, err := c.FCall(ctx, "bump", []string{"x"}, 1).Int(); err != nil || n != 2 {
		t.Fatalf("FCALL on node c = %d %v", n, err)
	}
	replaced := "#!lua name=counters\nredis.register_function('bump', function(keys, args) return 'v2' end)"
	if err := c.FunctionLoadReplace(ctx, replaced).Err(); err != nil {
		t.Fatal(err)
	}
	if v, err := b.FCall(ctx, "bump", []string{"x"}, 1).Text(); err != nil || v != "v2" {
		t.Fatalf("FCALL on node b after REPLACE on c = %q %v", v, err)
	}
	if err := b.FunctionDelete(ctx, "counters").Err(); err != nil {
		t.Fatal(err)
	}
	if err := a.FCall(ctx, "bump", []string{"x"}, 1).Err(); err == nil || err.Error() != "ERR Function not found" {
		t.Fatalf("FCALL on node a after DELETE on b: %v", err)
	}
}

// TestFunctionDumpRestoreWithRedis: FUNCTION DUMP payloads are Redis
// 7.0's both ways: redis-server's (its library code LZF-compressed)
// restores into rekv, rekv's into redis-server, and the functions run on
// each; a corrupt payload and a key's DUMP payload are refused alike.
func TestFunctionDumpRestoreWithRedis(t *testing.T) {
	redisAddr := redisServer(t)
	lib := "#!lua name=dumped\nredis.register_function('echo_first', function(keys, args) return args[1] .. ' (from a dumped library)' end)"
	short := "#!lua name=s\nredis.register_function('s', function() return 7 end)"
	forEachDriver(t, func(t *testing.T, addr string) {
		rd, rk := dialRaw(t, redisAddr), dialRaw(t, addr)
		for _, c := range []*raw{rd, rk} {
			c.do("FUNCTION", "FLUSH")
		}
		for _, code := range []string{lib, short} {
			if got := rd.do("FUNCTION", "LOAD", code); strings.HasPrefix(got, "-") {
				t.Fatalf("redis FUNCTION LOAD: %q", got)
			}
		}
		fromRedis := bulk(t, rd.do("FUNCTION", "DUMP"))
		if got := rk.do("FUNCTION", "RESTORE", fromRedis); got != "+OK\r\n" {
			t.Fatalf("rekv FUNCTION RESTORE of redis's payload: %q", got)
		}
		want := "$26\r\nhi (from a dumped library)\r\n"
		if got := rk.do("FCALL", "echo_first", "0", "hi"); got != want {
			t.Fatalf("rekv FCALL after the restore: %q, want %q", got, want)
		}
		fromRekv := bulk(t, rk.do("FUNCTION", "DUMP"))
		rd.do("FUNCTION", "FLUSH")
		if got := rd.do("FUNCTION", "RESTORE", fromRekv); got != "+OK\r\n" {
			t.Fatalf("redis FUNCTION RESTORE of rekv's payload: %q", got)
		}
		if got := rd.do("FCALL", "echo_first", "0", "hi"); got != want {
			t.Fatalf("redis FCALL after the restore: %q", got)
		}
		if got := rd.do("FCALL", "s", "0"); got != ":7\r\n" {
			t.Fatalf("redis FCALL s: %q", got)
		}
		corrupt := []byte(fromRekv)
		corrupt[3] ^= 1
		rd.do("SET", "k", "v")
		rk.do("SET", "k", "v")
		keyDump := bulk(t, rd.do("DUMP", "k"))
		for _, c := range []struct{ payload, want string }{
			{string(corrupt), "-ERR DUMP payload version or checksum are wrong\r\n"},
			{"garbage", "-ERR DUMP payload version or checksum are wrong\r\n"},
			{keyDump, "-ERR given type is not a function\r\n"},
			// Either library may be named: Redis checks them in its
			// dictionary's (seeded) order, rekv in the payload's.
			{fromRekv, "-ERR Library (dumped|s) already exists\r\n"},
		} {
			r, k := rd.do("FUNCTION", "RESTORE", c.payload), rk.do("FUNCTION", "RESTORE", c.payload)
			want := regexp.MustCompile("^" + c.want + "$")
			if !want.MatchString(r) || !want.MatchString(k) {
				t.Errorf("FUNCTION RESTORE: redis %q, rekv %q, want %q", r, k, c.want)
			}
		}
	})
}

// bulk returns a bulk string reply's bytes.
func bulk(t *testing.T, reply string) string {
	t.Helper()
	head, rest, ok := strings.Cut(reply, "\r\n")
	if !ok || !strings.HasPrefix(head, "$") || !strings.HasSuffix(rest, "\r\n") {
		t.Fatalf("not a bulk string: %q", reply)
	}
	return strings.TrimSuffix(rest, "\r\n")
}

// TestCachedScriptsInInfo: INFO memory counts the script cache's
// scripts, and SCRIPT FLUSH empties it (Redis's number_of_cached_scripts).
func TestCachedScriptsInInfo(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		c := dialRaw(t, addr)
		c.do("SCRIPT", "FLUSH")
		c.do("EVAL", "return 1", "0")
		c.do("SCRIPT", "LOAD", "return 2")
		if got := c.do("INFO", "memory"); !strings.Contains(got, "\r\nnumber_of_cached_scripts:2\r\n") {
			t.Errorf("INFO memory after two scripts: %q", got)
		}
		c.do("SCRIPT", "FLUSH")
		if got := c.do("INFO", "memory"); !strings.Contains(got, "\r\nnumber_of_cached_scripts:0\r\n") {
			t.Errorf("INFO memory after SCRIPT FLUSH: %q", got)
		}
	})
}

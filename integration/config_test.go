package integration

import (
	"sort"
	"strings"
	"testing"
)

// TestConfigParametersLikeRedis compares CONFIG GET and SET with
// redis-server for every Redis 7.0 parameter: the same names, the same
// reply to setting each to Redis's default and to a series of bad values
// (same error text), and the same value read back. Left out: port, bind,
// dir and tls-port (rekv's own settings, fixed at run time), and the
// parameters whose setting on redis-server depends on its build or host
// (activedefrag needs jemalloc, oom-score-adj writes /proc, tls-* load
// certificates, bind-source-addr checks the address).
func TestConfigParametersLikeRedis(t *testing.T) {
	red := dialRaw(t, redisServer(t))
	n := startNode(t, "badger", nil)
	rk := dialRaw(t, n.Addr())
	names := func(c *raw) (out []string, values map[string]string) {
		values = map[string]string{}
		r := c.do("CONFIG", "GET", "*")
		lines := strings.Split(r, "\r\n")
		var flat []string
		for i := 1; i+1 < len(lines); i += 2 {
			flat = append(flat, lines[i+1])
		}
		for i := 0; i+1 < len(flat); i += 2 {
			out = append(out, flat[i])
			values[flat[i]] = flat[i+1]
		}
		sort.Strings(out)
		return out, values
	}
	want, defaults := names(red)
	got, _ := names(rk)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("CONFIG GET * names differ:\nrekv:  %v\nredis: %v", got, want)
	}
	skip := func(p string) bool {
		switch p {
		case "port", "bind", "dir", "tls-port", "activedefrag", "oom-score-adj", "bind-source-addr":
			return true
		}
		return strings.HasPrefix(p, "tls-")
	}
	checked := 0
	for _, p := range want {
		if skip(p) {
			continue
		}
		for _, v := range []string{defaults[p], "xyz-not-valid", "-1", "1kb", "99999999999999999999", "yes", "7%", defaults[p]} {
			w, g := red.do("CONFIG", "SET", p, v), rk.do("CONFIG", "SET", p, v)
			if w != g {
				t.Errorf("CONFIG SET %s %q: rekv %q, redis %q", p, v, g, w)
			}
			if w == "+OK\r\n" {
				if w, g := red.do("CONFIG", "GET", p), rk.do("CONFIG", "GET", p); w != g {
					t.Errorf("CONFIG GET %s after SET %q: rekv %q, redis %q", p, v, g, w)
				}
			}
			checked++
		}
	}
	// Several pairs: all or nothing; a repeated parameter is refused.
	for _, args := range [][]string{
		{"CONFIG", "SET", "maxmemory-samples", "7", "hz", "nope"},
		{"CONFIG", "SET", "maxmemory-samples", "7", "maxmemory-samples", "8"},
		{"CONFIG", "SET", "maxmemory-samples", "7", "slave-priority", "5"},
		{"CONFIG", "GET", "maxmemory-samples", "replica-priority", "slave-priority"},
		{"CONFIG", "SET", "hash-max-ziplist-entries", "9", "hash-max-listpack-entries", "10"},
		{"CONFIG", "GET", "hash-max-*-entries"},
		{"CONFIG", "SET", "nosuch", "1"},
		{"CONFIG", "SET", "maxmemory-samples"},
		{"CONFIG", "GET", "maxmemory-s*", "*-samples"},
	} {
		w, g := red.do(args...), rk.do(args...)
		if args[1] == "GET" { // Redis's order is its hash table's
			w, g = sortedPairs(w), sortedPairs(g)
		}
		if w != g {
			t.Errorf("%v: rekv %q, redis %q", args, g, w)
		}
	}
	t.Logf("%d parameters, %d CONFIG SET replies compared", len(want), checked)
}

// sortedPairs renders a CONFIG GET reply's name/value pairs sorted.
func sortedPairs(reply string) string {
	lines := strings.Split(reply, "\r\n")
	var pairs []string
	for i := 1; i+3 < len(lines); i += 4 {
		pairs = append(pairs, lines[i+1]+"="+lines[i+3])
	}
	sort.Strings(pairs)
	return lines[0] + " " + strings.Join(pairs, " ")
}

// TestConfigSetTakesEffect: the parameters with a meaning in rekv act at
// once: requirepass (new connections must AUTH; this one stays in),
// maxclients, proto-max-bulk-len and timeout.
func TestConfigSetTakesEffect(t *testing.T) {
	n := startNode(t, "badger", nil)
	admin := dialRaw(t, n.Addr())
	if got := admin.do("CONFIG", "SET", "requirepass", "s3cret", "maxclients", "3"); got != "+OK\r\n" {
		t.Fatalf("CONFIG SET = %q", got)
	}
	if got := admin.do("PING"); got != "+PONG\r\n" {
		t.Fatalf("the connection that set the password: %q", got)
	}
	other := dialRaw(t, n.Addr())
	if got := other.do("PING"); !strings.HasPrefix(got, "-NOAUTH") {
		t.Fatalf("new connection without AUTH: %q", got)
	}
	if got := other.do("AUTH", "s3cret"); got != "+OK\r\n" {
		t.Fatalf("AUTH = %q", got)
	}
	dialRaw(t, n.Addr()).do("PING") // the third
	fourth := dialRaw(t, n.Addr())
	if got := fourth.reply(); got != "-ERR max number of clients reached\r\n" {
		t.Fatalf("fourth client: %q", got)
	}
	if got := admin.do("CONFIG", "SET", "requirepass", "", "maxclients", "100", "proto-max-bulk-len", "1mb"); got != "+OK\r\n" {
		t.Fatalf("CONFIG SET = %q", got)
	}
	tooBig := dialRaw(t, n.Addr())
	tooBig.write("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1048577\r\n") // the header is enough
	if got := tooBig.reply(); got != "-ERR Protocol error: invalid bulk length\r\n" {
		t.Fatalf("bulk over proto-max-bulk-len: %q", got)
	}
	if got := admin.do("CONFIG", "SET", "timeout", "1"); got != "+OK\r\n" {
		t.Fatalf("CONFIG SET timeout = %q", got)
	}
	idle := dialRaw(t, n.Addr())
	idle.do("PING")
	if _, err := readReply(idle.r); err == nil {
		t.Fatal("an idle client was not closed after timeout 1")
	}
}

// TestMaxmemoryRefusesWrites: with used memory over maxmemory, commands
// that may grow the data set (Redis's denyoom) get Redis's OOM error —
// also when queued in MULTI, which then aborts — while reads and
// deletions go on; lifting the limit lets writes through again. Checked
// on redis-server too.
func TestMaxmemoryRefusesWrites(t *testing.T) {
	script := [][]string{
		{"SET", "k", "v"},
		{"CONFIG", "SET", "maxmemory", "1"},
		{"SET", "k2", "v"},
		{"LPUSH", "l", "x"},
		{"GET", "k"},
		{"DEL", "k"},
		{"MULTI"},
		{"SET", "k3", "v"},
		{"EXEC"},
		{"CONFIG", "SET", "maxmemory", "0"},
		{"SET", "k4", "v"},
	}
	run := func(addr string) []string {
		c := dialRaw(t, addr)
		c.do("FLUSHALL")
		var out []string
		for _, args := range script {
			out = append(out, c.do(args...))
		}
		return out
	}
	want := run(redisServer(t))
	if !strings.HasPrefix(want[2], "-OOM") {
		t.Fatalf("redis-server did not refuse: %q", want)
	}
	forEachDriver(t, func(t *testing.T, addr string) {
		got := run(addr)
		for i := range script {
			if got[i] != want[i] {
				t.Errorf("%v: rekv %q, redis %q", script[i], got[i], want[i])
			}
		}
	})
}

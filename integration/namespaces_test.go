package integration

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/conf"
	kv "github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/node"
)

// nsFamily is one command family of the namespace isolation test: write
// lines and read lines, where {t} is the namespace's tag (one letter, so
// that every namespace's values have the same sizes) and {n} a number of
// its own.
type nsFamily struct {
	name        string
	write, read [][]string
}

// nsFamilies are the key-bearing command families every namespace runs
// with the same key names.
func nsFamilies() []nsFamily {
	return []nsFamily{
		{"strings", [][]string{{"SET", "s", "v{t}"}, {"APPEND", "s", "x{t}"}, {"INCRBY", "n", "{n}"}, {"SETRANGE", "r", "2", "{t}"}},
			[][]string{{"GET", "s"}, {"MGET", "s", "n", "r"}, {"STRLEN", "s"}, {"GETRANGE", "s", "0", "1"}}},
		{"hash", [][]string{{"HSET", "h", "f", "v{t}", "g", "{n}"}, {"HINCRBY", "h", "g", "{n}"}},
			[][]string{{"HGETALL", "h"}, {"HGET", "h", "g"}, {"HLEN", "h"}}},
		{"list", [][]string{{"RPUSH", "l", "{t}1", "{t}2"}, {"LPUSH", "l", "{n}"}},
			[][]string{{"LRANGE", "l", "0", "-1"}, {"LLEN", "l"}, {"OBJECT", "ENCODING", "l"}}},
		{"set", [][]string{{"SADD", "st", "{t}", "x", "{n}"}},
			[][]string{{"SORT", "st", "ALPHA"}, {"SISMEMBER", "st", "{t}"}, {"SCARD", "st"}}},
		{"zset", [][]string{{"ZADD", "z", "{n}", "m{t}", "9", "nine"}},
			[][]string{{"ZRANGE", "z", "0", "-1", "WITHSCORES"}, {"ZSCORE", "z", "m{t}"}}},
		{"stream", [][]string{{"XADD", "x", "{n}-1", "f", "{t}"}},
			[][]string{{"XRANGE", "x", "-", "+"}, {"XLEN", "x"}}},
		{"hyperloglog", [][]string{{"PFADD", "p", "{t}", "{n}"}},
			[][]string{{"PFCOUNT", "p"}}},
		{"geo", [][]string{{"GEOADD", "g", "13.{n}", "38.1", "m{t}"}},
			[][]string{{"GEOHASH", "g", "m{t}"}}},
		{"bitmap", [][]string{{"SETBIT", "bm", "{n}", "1"}},
			[][]string{{"BITCOUNT", "bm"}, {"GETBIT", "bm", "{n}"}, {"GET", "bm"}}},
		{"expiry", [][]string{{"SET", "e", "{t}", "EXAT", "4000000{n}"}},
			[][]string{{"EXPIRETIME", "e"}, {"TTL", "nokey"}}},
		{"databases", [][]string{{"SELECT", "2"}, {"SET", "sd", "{t}"}, {"SELECT", "0"}, {"SET", "mv", "{t}"}, {"MOVE", "mv", "3"},
			{"COPY", "s", "cp", "DB", "4"}, {"SELECT", "5"}, {"SET", "sw", "{t}"}, {"SELECT", "0"}, {"SWAPDB", "5", "6"}},
			[][]string{{"SELECT", "2"}, {"GET", "sd"}, {"SELECT", "3"}, {"GET", "mv"}, {"SELECT", "4"}, {"GET", "cp"},
				{"SELECT", "6"}, {"GET", "sw"}, {"DBSIZE"}, {"SELECT", "5"}, {"DBSIZE"}, {"SELECT", "0"}, {"EXISTS", "mv"}}},
		{"sort", [][]string{{"RPUSH", "sl", "2", "1"}, {"SET", "w_1", "{t}"}, {"SET", "w_2", "{n}"}},
			[][]string{{"SORT", "sl", "BY", "nosort", "GET", "w_*"}, {"SORT", "sl", "GET", "#", "GET", "w_*"}}},
		{"scripts", [][]string{{"EVAL", "return redis.call('SET', KEYS[1], ARGV[1])", "1", "sc", "{t}"}},
			[][]string{{"EVAL", "return redis.call('GET', KEYS[1])", "1", "sc"}, {"EVAL_RO", "return redis.call('EXISTS', KEYS[1])", "1", "s"}}},
		{"functions", [][]string{{"FUNCTION", "LOAD", "REPLACE", "#!lua name=lib\nredis.register_function('f', function(keys, args) return redis.call('GET', keys[1]) .. '-{t}' end)"}},
			[][]string{{"FCALL", "f", "1", "s"}, {"FUNCTION", "DUMP"}, {"FUNCTION", "LIST"}}},
		{"objects", nil,
			[][]string{{"DUMP", "s"}, {"MEMORY", "USAGE", "h"}, {"TYPE", "z"}, {"OBJECT", "ENCODING", "h"}}},
		{"keyspace", nil,
			[][]string{{"KEYS", "*"}, {"DBSIZE"}, {"SCAN", "0", "COUNT", "1000"}, {"EXISTS", "s", "h", "l", "nokey"}, {"INFO", "keyspace"}}},
	}
}

// nsTags are the isolation test's three clients: the default namespace
// and two named ones, by tag and number.
var nsTags = []struct {
	tag string
	n   int
}{{"d", 1}, {"a", 2}, {"b", 3}}

func nsExpand(args []string, tag string, n int) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.ReplaceAll(strings.ReplaceAll(a, "{t}", tag), "{n}", strconv.Itoa(n))
	}
	return out
}

// TestNamespaceIsolation runs every key-bearing command family in the
// default namespace and two named ones with the same key names,
// interleaved, and checks that each namespace reads what it would alone:
// the same reads in a fourth namespace that ran only that namespace's
// writes. Then FLUSHALL in one namespace leaves the others' data whole,
// and NAMESPACE DEL makes a namespace's data unreachable at once and the
// GC reclaims it.
func TestNamespaceIsolation(t *testing.T) {
	for _, d := range drivers() {
		t.Run(d, func(t *testing.T) {
			// The GC runs only when the test says (a pass of its own
			// could reclaim the deleted namespace before it looks).
			n := startNode(t, d, func(c *conf.Config) { c.GC.Interval = time.Hour })
			nsIsolation(t, n.Addr(), n.Driver(), func() {
				if _, err := n.GC().Pass(context.Background()); err != nil {
					t.Fatal(err)
				}
			})
		})
	}
}

func nsIsolation(t *testing.T, addr string, drv kv.Driver, gcPass func()) {
	admin := dialRaw(t, addr)
	for _, def := range [][]string{{"a", "tok-a"}, {"b", "tok-b"}, {"ref", "tok-ref"}} {
		if got := admin.do("NAMESPACE", "ADD", def[0], def[1]); got != "+OK\r\n" {
			t.Fatalf("NAMESPACE ADD %s: %q", def[0], got)
		}
	}
	conns := map[string]*raw{"d": admin}
	for _, tag := range []string{"a", "b", "ref"} {
		c := dialRaw(t, addr)
		if got := c.do("AUTH", "tok-"+tag); got != "+OK\r\n" {
			t.Fatalf("AUTH tok-%s: %q", tag, got)
		}
		conns[tag] = c
	}
	families := nsFamilies()
	// Interleaved writes: the same line in each namespace in turn.
	for _, f := range families {
		for _, line := range f.write {
			for _, x := range nsTags {
				if got := conns[x.tag].do(nsExpand(line, x.tag, x.n)...); strings.HasPrefix(got, "-") {
					t.Fatalf("%s: %v in %s: %q", f.name, line, x.tag, got)
				}
			}
		}
	}
	reads := func(c *raw, tag string, n int) []string {
		var out []string
		for _, f := range families {
			for _, line := range f.read {
				out = append(out, f.name+" "+strings.Join(line, " ")+" -> "+c.do(nsExpand(line, tag, n)...))
			}
		}
		return out
	}
	got := map[string][]string{}
	for _, x := range nsTags {
		got[x.tag] = reads(conns[x.tag], x.tag, x.n)
	}
	ref := conns["ref"]
	for _, x := range nsTags {
		if r := ref.do("FLUSHALL"); r != "+OK\r\n" {
			t.Fatalf("FLUSHALL in ref: %q", r)
		}
		for _, f := range families {
			for _, line := range f.write {
				ref.do(nsExpand(line, x.tag, x.n)...)
			}
		}
		want := reads(ref, x.tag, x.n)
		for i := range want {
			if got[x.tag][i] != want[i] {
				t.Errorf("namespace %s: %q\n   alone: %q", x.tag, got[x.tag][i], want[i])
			}
		}
	}
	// The values are the namespace's own (the reference could not tell
	// if every namespace wrote nothing at all).
	for _, x := range nsTags {
		if r := conns[x.tag].do("GET", "s"); r != "$4\r\nv"+x.tag+"x"+x.tag+"\r\n" {
			t.Errorf("GET s in %s: %q", x.tag, r)
		}
	}

	// FLUSHALL in b flushes b's 16 databases only.
	before := map[string][]string{"d": reads(conns["d"], "d", 1), "a": reads(conns["a"], "a", 2)}
	if r := conns["b"].do("FLUSHALL"); r != "+OK\r\n" {
		t.Fatalf("FLUSHALL in b: %q", r)
	}
	for db := range 16 {
		conns["b"].do("SELECT", strconv.Itoa(db))
		if r := conns["b"].do("DBSIZE"); r != ":0\r\n" {
			t.Errorf("b's db %d after its FLUSHALL: DBSIZE %q", db, r)
		}
	}
	for _, tag := range []string{"d", "a"} {
		after := reads(conns[tag], tag, map[string]int{"d": 1, "a": 2}[tag])
		for i := range after {
			if after[i] != before[tag][i] {
				t.Errorf("%s after b's FLUSHALL: %q, was %q", tag, after[i], before[tag][i])
			}
		}
	}

	// NAMESPACE DEL: a's connection is closed, its token no longer
	// enters, its data is unreachable at once and the GC reclaims it.
	if r := admin.do("NAMESPACE", "DEL", "a"); r != "+OK\r\n" {
		t.Fatalf("NAMESPACE DEL a: %q", r)
	}
	if err := conns["a"].conn.SetReadDeadline(time.Now().Add(5 * time.Second)); err == nil {
		if _, err := readReply(conns["a"].r); err == nil {
			t.Error("a's connection is still open after NAMESPACE DEL a")
		}
	}
	c := dialRaw(t, addr)
	if r := c.do("AUTH", "tok-a"); !strings.HasPrefix(r, "-") {
		t.Errorf("AUTH with a deleted namespace's token: %q", r)
	}
	if r := admin.do("NAMESPACE", "ADD", "a", "tok-a"); r != "+OK\r\n" {
		t.Fatalf("NAMESPACE ADD a again: %q", r)
	}
	if r := c.do("AUTH", "tok-a"); r != "+OK\r\n" {
		t.Fatalf("AUTH tok-a: %q", r)
	}
	if r := c.do("DBSIZE"); r != ":0\r\n" {
		t.Errorf("a namespace added again under a deleted one's name sees %q keys", r)
	}
	if n := namespaceMetas(t, drv, 1); n == 0 {
		t.Error("no stored key of the deleted namespace before the GC: the test cannot tell the GC reclaims them")
	}
	gcPass()
	if n := namespaceMetas(t, drv, 1); n != 0 {
		t.Errorf("%d stored keys of the deleted namespace after a GC pass", n)
	}
	if r := conns["d"].do("GET", "s"); r != "$4\r\nvdxd\r\n" {
		t.Errorf("GET s in the default namespace after NAMESPACE DEL a: %q", r)
	}
}

// namespaceMetas counts the meta records stored in namespace id's 16
// databases.
func namespaceMetas(t *testing.T, drv kv.Driver, id uint32) int {
	t.Helper()
	tx, err := drv.Begin(false)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	start, _ := codec.MetaRange(codec.NamespaceDB(id, 0))
	_, end := codec.MetaRange(codec.NamespaceDB(id, 15))
	n := 0
	if err := tx.Iterate(start, end, kv.IterOptions{}, func(_, _ []byte) (bool, error) {
		n++
		return true, nil
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestNamespaceAdministration covers NAMESPACE's replies and errors, the
// administrator's commands refused inside a namespace, HELLO AUTH with a
// token, and the definitions surviving a restart.
func TestNamespaceAdministration(t *testing.T) {
	dir := t.TempDir()
	edit := func(c *conf.Config) {
		c.Server.RequirePass = "adminpw"
		c.Storage.Badger.Dir = dir
	}
	n := startNode(t, "badger", edit)
	admin := dialRaw(t, n.Addr())
	steps := []struct{ cmd, want string }{
		{"AUTH adminpw", "+OK\r\n"},
		{"NAMESPACE ADD t1 tok1", "+OK\r\n"},
		{"NAMESPACE ADD t2 tok1", "-ERR the token already exists\r\n"},
		{"NAMESPACE ADD t1 other", "-ERR the namespace already exists\r\n"},
		{"NAMESPACE ADD t2 adminpw", "-ERR the token is the administrator's password (requirepass)\r\n"},
		{"NAMESPACE ADD __namespace x", "-ERR the default namespace cannot be changed\r\n"},
		{"NAMESPACE SET nope x", "-ERR the namespace was not found\r\n"},
		{"NAMESPACE DEL nope", "-ERR the namespace was not found\r\n"},
		{"NAMESPACE ADD t2 tok2", "+OK\r\n"},
		{"NAMESPACE SET t2 tok2b", "+OK\r\n"},
		{"NAMESPACE GET t2", "$5\r\ntok2b\r\n"},
		{"NAMESPACE GET nope", "$-1\r\n"},
		{"NAMESPACE GET *", "*6\r\n$2\r\nt1\r\n$4\r\ntok1\r\n$2\r\nt2\r\n$5\r\ntok2b\r\n$11\r\n__namespace\r\n$7\r\nadminpw\r\n"},
		{"NAMESPACE FOO", "-ERR unknown subcommand 'FOO'. Try NAMESPACE HELP.\r\n"},
	}
	for _, s := range steps {
		if got := admin.do(strings.Fields(s.cmd)...); got != s.want {
			t.Errorf("%s: %q, want %q", s.cmd, got, s.want)
		}
	}
	tenant := dialRaw(t, n.Addr())
	if got := tenant.do("AUTH", "tok2"); got != "-WRONGPASS invalid username-password pair or user is disabled.\r\n" {
		t.Errorf("AUTH with a replaced token: %q", got)
	}
	if got := tenant.do("HELLO", "3", "AUTH", "default", "tok2b"); !strings.HasPrefix(got, "%7") {
		t.Fatalf("HELLO 3 AUTH default <token>: %q", got)
	}
	for _, cmd := range []string{"CONFIG GET port", "NAMESPACE GET *", "DEBUG SLEEP 0", "SHUTDOWN", "REPLICAOF NO ONE", "SAVE",
		"ACL SETUSER x", "ACL LIST", "CLIENT PAUSE 10", "SLOWLOG GET", "MONITOR", "CLUSTER RESET"} {
		if got := tenant.do(strings.Fields(cmd)...); got != "-NOPERM admin permission required to perform the command\r\n" {
			t.Errorf("%s in a namespace: %q", cmd, got)
		}
	}
	tenant.do("SET", "k", "t2")
	admin.do("SET", "k", "admin")
	// CLIENT LIST in a namespace lists that namespace's clients only.
	if got := tenant.do("CLIENT", "LIST"); strings.Count(got, "id=") != 1 {
		t.Errorf("CLIENT LIST in a namespace: %q", got)
	}
	if got := admin.do("CLIENT", "LIST"); strings.Count(got, "id=") != 2 {
		t.Errorf("CLIENT LIST of the administrator: %q", got)
	}
	// CLIENT KILL in a namespace cannot reach the administrator.
	if got := tenant.do("CLIENT", "KILL", "USER", "default", "SKIPME", "yes"); got != ":0\r\n" {
		t.Errorf("CLIENT KILL of other namespaces' clients: %q", got)
	}

	// The definitions and the data survive a restart.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := n.Close(ctx); err != nil {
		t.Fatal(err)
	}
	n = startNode(t, "badger", edit)
	c := dialRaw(t, n.Addr())
	if got := c.do("AUTH", "tok2b"); got != "+OK\r\n" {
		t.Fatalf("AUTH with a token after a restart: %q", got)
	}
	if got := c.do("GET", "k"); got != "$2\r\nt2\r\n" {
		t.Errorf("GET k in t2 after a restart: %q", got)
	}
	if got := c.do("AUTH", "adminpw"); got != "+OK\r\n" {
		t.Fatal(got)
	}
	if got := c.do("GET", "k"); got != "$5\r\nadmin\r\n" {
		t.Errorf("GET k after AUTH back to the administrator: %q", got)
	}
}

// TestNamespaceBoundUser covers the ACL rule that binds a user to a
// namespace: AUTH alice lands in her namespace with her ACL rights there,
// the rule is listed and saved, and a user bound to a missing namespace
// cannot authenticate.
func TestNamespaceBoundUser(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		admin := dialRaw(t, addr)
		admin.do("NAMESPACE", "ADD", "shop", "shoptoken")
		for _, s := range []struct{ cmd, want string }{
			{"ACL SETUSER alice on >pw namespace=shop ~* +@all -flushall", "+OK\r\n"},
			{"ACL SETUSER bob on >pw namespace=gone +@all", "+OK\r\n"},
			{"ACL SETUSER carol on >pw namespace=a\tb", "-ERR Error in ACL SETUSER modifier 'namespace=a\tb': A namespace a user is bound to cannot have spaces in its name\r\n"},
			{"SET cart admin", "+OK\r\n"},
		} {
			if got := admin.do(strings.Split(s.cmd, " ")...); got != s.want {
				t.Errorf("%s: %q, want %q", s.cmd, got, s.want)
			}
		}
		if got := admin.do("ACL", "LIST"); !strings.Contains(got, "user alice on namespace=shop #") {
			t.Errorf("ACL LIST does not show alice's namespace: %q", got)
		}
		alice := dialRaw(t, addr)
		if got := alice.do("AUTH", "alice", "pw"); got != "+OK\r\n" {
			t.Fatalf("AUTH alice: %q", got)
		}
		alice.do("SET", "cart", "alice")
		token := dialRaw(t, addr)
		token.do("AUTH", "shoptoken")
		if got := token.do("GET", "cart"); got != "$5\r\nalice\r\n" {
			t.Errorf("GET cart through the shop's token: %q", got)
		}
		if got := admin.do("GET", "cart"); got != "$5\r\nadmin\r\n" {
			t.Errorf("GET cart of the administrator: %q", got)
		}
		if got := alice.do("FLUSHALL"); !strings.HasPrefix(got, "-NOPERM") {
			t.Errorf("FLUSHALL by alice, whose ACL forbids it: %q", got)
		}
		bob := dialRaw(t, addr)
		if got := bob.do("AUTH", "bob", "pw"); got != "-ERR user 'bob' is bound to namespace 'gone', which does not exist\r\n" {
			t.Errorf("AUTH of a user bound to a missing namespace: %q", got)
		}
	})
}

// nsClients returns a connection in the default namespace (the
// administrator's) and one in each of two named namespaces, a and b.
func nsClients(t *testing.T, addr string) (d, a, b *raw) {
	t.Helper()
	d = dialRaw(t, addr)
	for _, name := range []string{"a", "b"} {
		if got := d.do("NAMESPACE", "ADD", name, "tok-"+name); got != "+OK\r\n" {
			t.Fatalf("NAMESPACE ADD %s: %q", name, got)
		}
	}
	a, b = dialRaw(t, addr), dialRaw(t, addr)
	for name, c := range map[string]*raw{"a": a, "b": b} {
		if got := c.do("AUTH", "tok-"+name); got != "+OK\r\n" {
			t.Fatalf("AUTH tok-%s: %q", name, got)
		}
	}
	return d, a, b
}

// silent fails the test if c receives anything within d.
func silent(t *testing.T, c *raw, d time.Duration, what string) {
	t.Helper()
	_ = c.conn.SetReadDeadline(time.Now().Add(d))
	if got, err := readReply(c.r); err == nil {
		t.Errorf("%s: got %q", what, got)
	}
	_ = c.conn.SetReadDeadline(time.Now().Add(60 * time.Second))
}

// TestNamespacePubSub: channels, patterns, shard channels, PUBSUB's
// counts and keyspace notifications stay inside their namespace.
func TestNamespacePubSub(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		d, a, b := nsClients(t, addr)
		d.do("CONFIG", "SET", "notify-keyspace-events", "KEA")
		subA, subB := dialRaw(t, addr), dialRaw(t, addr)
		subA.do("AUTH", "tok-a")
		subB.do("AUTH", "tok-b")
		for _, c := range []*raw{subA, subB} {
			c.write(encode("SUBSCRIBE", "news"))
			c.reply()
			c.write(encode("PSUBSCRIBE", "*"))
			c.reply()
			c.write(encode("SSUBSCRIBE", "shard"))
			c.reply()
		}
		// The default namespace's subscriber hears nothing of a's.
		subD := dialRaw(t, addr)
		subD.write(encode("PSUBSCRIBE", "*"))
		subD.reply()
		if got := a.do("PUBSUB", "NUMSUB", "news"); got != "*2\r\n$4\r\nnews\r\n:1\r\n" {
			t.Errorf("PUBSUB NUMSUB news in a: %q", got)
		}
		if got := d.do("PUBSUB", "NUMPAT"); got != ":1\r\n" {
			t.Errorf("PUBSUB NUMPAT in the default namespace: %q", got)
		}
		if got := d.do("PUBSUB", "CHANNELS"); got != "*0\r\n" {
			t.Errorf("PUBSUB CHANNELS in the default namespace: %q", got)
		}
		if got := a.do("PUBLISH", "news", "for-a"); got != ":2\r\n" {
			t.Errorf("PUBLISH in a reached %q, want a's channel and pattern subscriber", got)
		}
		if got := subA.reply(); got != "*3\r\n$7\r\nmessage\r\n$4\r\nnews\r\n$5\r\nfor-a\r\n" {
			t.Errorf("a's subscriber: %q", got)
		}
		if got := subA.reply(); got != "*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$4\r\nnews\r\n$5\r\nfor-a\r\n" {
			t.Errorf("a's pattern subscriber: %q", got)
		}
		if got := a.do("SPUBLISH", "shard", "s-a"); got != ":1\r\n" {
			t.Errorf("SPUBLISH in a reached %q", got)
		}
		if got := subA.reply(); got != "*3\r\n$8\r\nsmessage\r\n$5\r\nshard\r\n$3\r\ns-a\r\n" {
			t.Errorf("a's shard subscriber: %q", got)
		}
		// A keyspace event in b reaches b's pattern subscriber, as
		// b's database 0, and no one else.
		b.do("SET", "k", "v")
		for _, want := range []string{"__keyspace@0__:k", "__keyevent@0__:set"} {
			if got := subB.reply(); !strings.Contains(got, want) {
				t.Errorf("b's notification: %q, want %s", got, want)
			}
		}
		silent(t, subB, 300*time.Millisecond, "b's subscriber after its own events")
		silent(t, subD, 100*time.Millisecond, "the default namespace's pattern subscriber")
		silent(t, subA, 100*time.Millisecond, "a's subscriber after a's messages")
		if got := d.do("PUBLISH", "news", "for-d"); got != ":1\r\n" {
			t.Errorf("PUBLISH in the default namespace reached %q", got)
		}
		silent(t, subA, 100*time.Millisecond, "a's subscriber after the default namespace's PUBLISH")
		// A replica would take these for its master's namespaces.
		for _, ch := range []string{"__rekv__:namespaces", "__rekv__:namespace"} {
			if got := d.do("PUBLISH", ch, "[]"); got != "-ERR the channels starting with __rekv__: are reserved for rekv's replication\r\n" {
				t.Errorf("PUBLISH %s: %q", ch, got)
			}
		}
	})
}

// TestNamespaceBlockingWatchTracking: a push in another namespace wakes no
// BLPOP, a write there breaks no WATCH, and invalidates no tracked key.
func TestNamespaceBlockingWatchTracking(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		_, a, b := nsClients(t, addr)
		a.write(encode("BLPOP", "q", "2"))
		time.Sleep(100 * time.Millisecond)
		if got := b.do("RPUSH", "q", "from-b"); got != ":1\r\n" {
			t.Fatalf("RPUSH q in b: %q", got)
		}
		if got := a.reply(); got != "*-1\r\n" {
			t.Errorf("BLPOP in a after a push in b: %q, want its time-out", got)
		}
		if got := b.do("LLEN", "q"); got != ":1\r\n" {
			t.Errorf("b's list after a's BLPOP: %q", got)
		}

		a.do("WATCH", "w")
		b.do("SET", "w", "b")
		a.do("MULTI")
		a.do("SET", "w", "a")
		if got := a.do("EXEC"); got != "*1\r\n+OK\r\n" {
			t.Errorf("EXEC in a after b wrote the key a watched: %q", got)
		}

		a.do("HELLO", "3")
		a.do("CLIENT", "TRACKING", "on")
		a.do("GET", "t")
		b.do("SET", "t", "b")
		silent(t, a, 300*time.Millisecond, "a's tracking after b wrote a key a read")
		bc := dialRaw(t, addr)
		bc.do("HELLO", "3", "AUTH", "default", "tok-a")
		bc.do("CLIENT", "TRACKING", "on", "BCAST", "PREFIX", "p")
		b.do("SET", "p1", "b")
		silent(t, bc, 300*time.Millisecond, "a's BCAST tracking after b wrote under its prefix")
		a2 := dialRaw(t, addr)
		a2.do("AUTH", "tok-a")
		a2.do("SET", "t", "a")
		if got := a.reply(); got != ">2\r\n$10\r\ninvalidate\r\n*1\r\n$1\r\nt\r\n" {
			t.Errorf("a's tracking after a write in a: %q", got)
		}
	})
}

// TestNamespacesInClusterMode: three cluster-mode nodes on one store;
// a namespace defined on one node is entered on every node, cluster
// clients in two namespaces and the default one write the same key
// names across every slot and read their own values back, and a token
// changed on one node stops entering on the others within their poll.
func TestNamespacesInClusterMode(t *testing.T) {
	if !slices.Contains(drivers(), "tikv") && !slices.Contains(drivers(), "tikv-net") {
		t.Skip("cluster mode runs on a TiKV store (REKVTEST_DRIVERS)")
	}
	ctx := context.Background()
	nodes := clusterModeNodes(t, 3, true)
	var addrs []string
	var clients []*redis.Client
	for _, n := range nodes {
		addrs = append(addrs, n.Addr())
		clients = append(clients, newClient(t, n.Addr(), 2))
	}
	awaitAgreement(t, clients, 3)
	for _, tag := range []string{"a", "b"} {
		if err := clients[0].Do(ctx, "NAMESPACE", "ADD", tag, "tok-"+tag).Err(); err != nil {
			t.Fatal(err)
		}
	}
	cc := map[string]*redis.ClusterClient{}
	for _, tag := range []string{"d", "a", "b"} {
		o := &redis.ClusterOptions{Addrs: addrs, MaxRedirects: 8}
		if tag != "d" {
			o.Password = "tok-" + tag
		}
		cc[tag] = redis.NewClusterClient(o)
		t.Cleanup(func() { cc[tag].Close() })
	}
	const keys = 60
	for i := range keys {
		for tag, c := range cc {
			if err := c.Set(ctx, "k"+strconv.Itoa(i), tag, 0).Err(); err != nil {
				t.Fatalf("SET k%d in %s: %v", i, tag, err)
			}
		}
	}
	for tag, c := range cc {
		for i := range keys {
			if v, err := c.Get(ctx, "k"+strconv.Itoa(i)).Result(); err != nil || v != tag {
				t.Errorf("GET k%d in %s: %q %v", i, tag, v, err)
			}
		}
		// The nodes share one store: each one's DBSIZE counts the
		// namespace's whole keyspace.
		err := c.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
			if n, err := m.DBSize(ctx).Result(); err != nil || n != keys {
				t.Errorf("DBSIZE of a master in %s: %d (%v), want %d", tag, n, err, keys)
			}
			return nil
		})
		if err != nil {
			t.Error(err)
		}
	}
	if err := clients[0].Do(ctx, "NAMESPACE", "SET", "a", "tok-a2").Err(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(3 * namespacePollBound)
	for {
		c := dialRaw(t, addrs[2])
		got := c.do("AUTH", "tok-a")
		if strings.HasPrefix(got, "-") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("another node still takes the old token %v after NAMESPACE SET: %q", 3*namespacePollBound, got)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got := dialRaw(t, addrs[1]).do("AUTH", "tok-a2"); got != "+OK\r\n" {
		t.Errorf("AUTH with the new token on another node: %q", got)
	}
}

// namespacePollBound is how often a node reads the namespace definitions
// again (node.namespacePoll).
const namespacePollBound = time.Second

// meterAll runs the namespace meter's steps until a walk ends.
func meterAll(t *testing.T, n *node.Node) {
	t.Helper()
	for range 1000 {
		ended, err := n.GC().MeterStep(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if ended {
			return
		}
	}
	t.Fatal("the meter's walk did not end in 1000 steps")
}

// eventually retries do until it returns "" or 5 s pass (a node reads
// the namespace definitions and their usage every second).
func eventually(t *testing.T, what string, do func() string) {
	t.Helper()
	var last string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if last = do(); last == "" {
			return
		}
	}
	t.Errorf("%s: %s", what, last)
}

// TestNamespaceQuotas: each quota refuses what it bounds with an error
// naming the namespace and the limit, reads and deletions go on, and the
// usage the meter measures shows in INFO namespaces and /metrics.
func TestNamespaceQuotas(t *testing.T) {
	for _, d := range drivers() {
		t.Run(d, func(t *testing.T) {
			n := startNode(t, d, func(c *conf.Config) {
				c.GC.MeterInterval = time.Hour // the test runs the meter
				c.Metrics.Addr = "127.0.0.1:0"
			})
			admin := dialRaw(t, n.Addr())
			admin.do("NAMESPACE", "ADD", "q", "tok-q")
			if got := admin.do("NAMESPACE", "QUOTA", "q", "max-keys", "5"); got != "*8\r\n$8\r\nmax-keys\r\n:5\r\n$9\r\nmax-bytes\r\n:0\r\n$15\r\nmax-ops-per-sec\r\n:0\r\n$11\r\nmax-clients\r\n:0\r\n" {
				t.Fatalf("NAMESPACE QUOTA: %q", got)
			}
			for _, tc := range []struct{ cmd, want string }{
				{"NAMESPACE QUOTA q max-keys -1", "-ERR a quota must be an integer from 0 (none) up\r\n"},
				{"NAMESPACE QUOTA q max-cpu 1", "-ERR unknown quota 'max-cpu' (max-keys, max-bytes, max-ops-per-sec, max-clients)\r\n"},
				{"NAMESPACE QUOTA q max-keys", "-ERR syntax error\r\n"},
				{"NAMESPACE QUOTA nope", "-ERR the namespace was not found\r\n"},
			} {
				if got := admin.do(strings.Fields(tc.cmd)...); got != tc.want {
					t.Errorf("%s: %q, want %q", tc.cmd, got, tc.want)
				}
			}
			c := dialRaw(t, n.Addr())
			c.do("AUTH", "tok-q")
			for i := range 5 {
				if got := c.do("SET", "k"+strconv.Itoa(i), "v"); got != "+OK\r\n" {
					t.Fatalf("SET k%d: %q", i, got)
				}
			}
			meterAll(t, n)
			eventually(t, "max-keys", func() string {
				if got := c.do("SET", "k9", "v"); got != "-OOM namespace 'q' is over its quota of 5 keys (max-keys)\r\n" {
					return "SET past max-keys: " + got
				}
				return ""
			})
			if got := c.do("GET", "k1"); got != "$1\r\nv\r\n" {
				t.Errorf("GET over max-keys: %q", got)
			}
			if got := c.do("DEL", "k1", "k2"); got != ":2\r\n" {
				t.Errorf("DEL over max-keys: %q", got)
			}
			// (The SET k9 above may have gone in before the node read
			// the usage: the quota holds from the measurement on.)
			keys := strings.TrimSuffix(strings.TrimPrefix(c.do("DBSIZE"), ":"), "\r\n")
			meterAll(t, n)
			eventually(t, "max-keys after DEL", func() string {
				if got := c.do("SET", "k9", "v"); got != "+OK\r\n" {
					return "SET under max-keys again: " + got
				}
				return ""
			})
			info := admin.do("INFO", "namespaces")
			if !strings.Contains(info, "namespace0:clients=") || !strings.Contains(info, ",keys="+keys+",bytes=") || !strings.Contains(info, ",max_keys=5,") {
				t.Errorf("INFO namespaces: %q", info)
			}
			if own := c.do("INFO", "namespaces"); strings.Contains(own, "namespace0:") || !strings.Contains(own, ",name=q\r\n") {
				t.Errorf("INFO namespaces in q: %q", own)
			}
			resp, err := http.Get("http://" + n.MetricsAddr() + "/metrics")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			for _, want := range []string{`rekv_namespace_keys{namespace="q"} ` + keys, `rekv_namespace_quota{namespace="q",quota="max_keys"} 5`,
				`rekv_namespace_connected_clients{namespace="q"} 1`} {
				if !strings.Contains(string(body), want) {
					t.Errorf("/metrics lacks %s", want)
				}
			}

			// max-bytes: a value past it, metered, refuses the next SET.
			admin.do("NAMESPACE", "QUOTA", "q", "max-keys", "0", "max-bytes", "1000")
			c.do("SET", "big", strings.Repeat("x", 2000))
			meterAll(t, n)
			eventually(t, "max-bytes", func() string {
				if got := c.do("APPEND", "big", "y"); got != "-OOM namespace 'q' is over its quota of 1000 bytes (max-bytes)\r\n" {
					return "APPEND past max-bytes: " + got
				}
				return ""
			})

			// max-ops-per-sec: 200 pipelined commands, 50 a second.
			admin.do("NAMESPACE", "QUOTA", "q", "max-bytes", "0", "max-ops-per-sec", "50")
			eventually(t, "max-ops-per-sec", func() string {
				var b strings.Builder
				for range 200 {
					b.WriteString(encode("PING"))
				}
				c.write(b.String())
				refused := 0
				for range 200 {
					if got := c.reply(); got == "-ERR namespace 'q' is over its quota of 50 commands per second (max-ops-per-sec)\r\n" {
						refused++
					}
				}
				if refused < 50 {
					return fmt.Sprintf("%d of 200 commands refused", refused)
				}
				return ""
			})

			// max-clients: the third connection is refused on this node.
			admin.do("NAMESPACE", "QUOTA", "q", "max-ops-per-sec", "0", "max-clients", "2")
			eventually(t, "max-clients", func() string {
				c2 := dialRaw(t, n.Addr())
				if got := c2.do("AUTH", "tok-q"); got != "+OK\r\n" {
					return "the second connection: " + got
				}
				c3 := dialRaw(t, n.Addr())
				got := c3.do("AUTH", "tok-q")
				c2.conn.Close()
				if got != "-ERR namespace 'q' is at its quota of 2 connections (max-clients)\r\n" {
					return "the third connection: " + got
				}
				return ""
			})
		})
	}
}

// TestNamespaceReplication: a rekv replica of a rekv master gets every
// namespace — definitions, quotas, data and function libraries at its
// full sync, then every change through the stream (writes, NAMESPACE
// ADD, DEL and QUOTA) — while a Redis replica of the same master gets the
// default namespace alone.
func TestNamespaceReplication(t *testing.T) {
	ctx := context.Background()
	m := startNode(t, "badger", nil)
	admin := dialRaw(t, m.Addr())
	_, a, b := nsClients(t, m.Addr())
	admin.do("NAMESPACE", "QUOTA", "a", "max-keys", "100")
	admin.do("SET", "k", "default")
	a.do("SET", "k", "a")
	a.do("SELECT", "3")
	a.do("RPUSH", "l", "x", "y")
	a.do("SELECT", "0")
	a.do("FUNCTION", "LOAD", "#!lua name=la\nredis.register_function{function_name='who', callback=function() return 'a' end, flags={'no-writes'}}")
	b.do("SET", "k", "b")

	rn := startNode(t, "badger", nil)
	host, port, _ := strings.Cut(m.Addr(), ":")
	mc, rc := newClient(t, m.Addr(), 2), newClient(t, rn.Addr(), 2)
	must(t, rc.Do(ctx, "replicaof", host, port).Err())
	var redisReplica *redis.Client
	if _, err := exec.LookPath("redis-server"); err == nil {
		redisReplica = newClient(t, redisServer(t), 2)
		must(t, redisReplica.Do(ctx, "replicaof", host, port).Err())
	}
	waitCaughtUp(t, ctx, mc, rc)
	ra := dialRaw(t, rn.Addr())
	for _, s := range []struct{ cmd, want string }{
		{"AUTH tok-a", "+OK\r\n"},
		{"GET k", "$1\r\na\r\n"},
		{"FCALL_RO who 0", "$1\r\na\r\n"},
		{"SELECT 3", "+OK\r\n"},
		{"LRANGE l 0 -1", "*2\r\n$1\r\nx\r\n$1\r\ny\r\n"},
		{"SELECT 0", "+OK\r\n"},
	} {
		if got := ra.do(strings.Fields(s.cmd)...); got != s.want {
			t.Errorf("replica, %s: %q, want %q", s.cmd, got, s.want)
		}
	}
	if got := dialRaw(t, rn.Addr()).do("NAMESPACE", "QUOTA", "a"); !strings.Contains(got, "max-keys\r\n:100\r\n") {
		t.Errorf("the replica's quotas of a: %q", got)
	}
	if got := dialRaw(t, rn.Addr()).do("NAMESPACE", "ADD", "x", "tok-x"); got != "-READONLY You can't write against a read only replica.\r\n" {
		t.Errorf("NAMESPACE ADD on a replica: %q", got)
	}

	// The stream: writes, a new namespace, a deleted one.
	a.do("INCR", "n")
	admin.do("NAMESPACE", "ADD", "c", "tok-c")
	c := dialRaw(t, m.Addr())
	c.do("AUTH", "tok-c")
	c.do("SET", "k", "c")
	admin.do("NAMESPACE", "DEL", "b")
	waitCaughtUp(t, ctx, mc, rc)
	if got := ra.do("GET", "n"); got != "$1\r\n1\r\n" {
		t.Errorf("replica, a's INCR from the stream: %q", got)
	}
	rcc := dialRaw(t, rn.Addr())
	if got := rcc.do("AUTH", "tok-c"); got != "+OK\r\n" {
		t.Fatalf("replica, AUTH into a namespace added since: %q", got)
	}
	if got := rcc.do("GET", "k"); got != "$1\r\nc\r\n" {
		t.Errorf("replica, GET k in c: %q", got)
	}
	if got := dialRaw(t, rn.Addr()).do("AUTH", "tok-b"); !strings.HasPrefix(got, "-") {
		t.Errorf("replica, AUTH into a namespace deleted on the master: %q", got)
	}
	if n := namespaceMetas(t, rn.Driver(), 2); n != 0 {
		rn.GC().Pass(ctx)
		if n := namespaceMetas(t, rn.Driver(), 2); n != 0 {
			t.Errorf("replica: %d keys of the deleted namespace b after a GC pass", n)
		}
	}
	if redisReplica != nil {
		waitCaughtUp(t, ctx, mc, redisReplica)
		keys, err := redisReplica.Keys(ctx, "*").Result()
		if err != nil || fmt.Sprint(keys) != "[k]" {
			t.Errorf("the Redis replica's keys: %v %v", keys, err)
		}
		if v := redisReplica.Get(ctx, "k").Val(); v != "default" {
			t.Errorf("the Redis replica's k: %q", v)
		}
		for db := 1; db < 16; db++ {
			c := redis.NewClient(&redis.Options{Addr: redisReplica.Options().Addr, DB: db, Protocol: 2})
			if n, err := c.DBSize(ctx).Result(); err != nil || n != 0 {
				t.Errorf("the Redis replica's db %d: %d keys (%v)", db, n, err)
			}
			c.Close()
		}
	}
}

// TestNamespaceExpiry: the GC expires a named namespace's keys (its TTL
// index names the namespace's slot) and announces the expiry in that
// namespace only.
func TestNamespaceExpiry(t *testing.T) {
	for _, d := range drivers() {
		t.Run(d, func(t *testing.T) {
			n := startNode(t, d, func(c *conf.Config) { c.GC.Interval = time.Hour })
			dc, a, _ := nsClients(t, n.Addr())
			dc.do("CONFIG", "SET", "notify-keyspace-events", "Ex")
			subA, subD := dialRaw(t, n.Addr()), dialRaw(t, n.Addr())
			subA.do("AUTH", "tok-a")
			for _, c := range []*raw{subA, subD} {
				c.write(encode("SUBSCRIBE", "__keyevent@2__:expired"))
				c.reply()
			}
			a.do("SELECT", "2")
			if got := a.do("SET", "e", "v", "PX", "30"); got != "+OK\r\n" {
				t.Fatal(got)
			}
			time.Sleep(100 * time.Millisecond)
			if before := namespaceMetas(t, n.Driver(), 1); before != 1 {
				t.Fatalf("%d stored keys in a before the GC, want 1", before)
			}
			if _, err := n.GC().Pass(context.Background()); err != nil {
				t.Fatal(err)
			}
			if after := namespaceMetas(t, n.Driver(), 1); after != 0 {
				t.Errorf("%d stored keys in a after the GC expired e", after)
			}
			if got := subA.reply(); got != "*3\r\n$7\r\nmessage\r\n$22\r\n__keyevent@2__:expired\r\n$1\r\ne\r\n" {
				t.Errorf("a's expired event: %q", got)
			}
			silent(t, subD, 200*time.Millisecond, "the default namespace's subscriber to expired events")
		})
	}
}

package integration

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rekv/rekv/conf"
)

// aclFields returns GETUSER's reply without the commands field, whose
// single-command rules Redis lists in its hash table's order (rekv: name
// order); permissions are compared through DRYRUN instead.
func aclFields(t *testing.T, c *raw, user string) string {
	r := c.do("ACL", "GETUSER", user)
	i := strings.Index(r, "$8\r\ncommands\r\n")
	j := strings.Index(r, "$4\r\nkeys\r\n")
	if i < 0 || j < 0 {
		return r
	}
	return r[:i] + r[j:]
}

// TestACLLikeRedis applies the same ACL SETUSER rules on redis-server and
// rekv and compares, user by user: GETUSER's flags, passwords, keys and
// channels; what ACL DRYRUN says of a set of command lines (the
// permissions themselves); the rule errors; then AUTH, NOPERM for
// commands, keys and channels, WHOAMI, requirepass as the default user's
// password, and ACL LOG's entries.
func TestACLLikeRedis(t *testing.T) {
	users := map[string][]string{
		"alice": {"on", ">p1", "~cache:*", "%R~ro:*", "%W~wo:*", "&chan*", "+get", "+@hash", "-hdel", "+config|get", "+set"},
		"bob":   {"on", "nopass", "+@all", "-@dangerous", "allkeys", "allchannels"},
		"carol": {"on", ">a", ">b", "<a", "#" + strings.Repeat("ab", 32), "resetkeys", "~k*", "+@read", "-@string", "+get", "&news"},
		"dave":  {"on", ">x", "allcommands", "nocommands", "+@write", "+@read", "-set", "~*", "resetchannels"},
		"erin":  {"reset", "on", ">e", "+client", "-client|kill", "+acl|whoami", "+psubscribe", "&p.*"},
		"frank": {"off", ">f", "+@all", "~*"},
		"gina":  {"on", "nopass", "+@all", "%R~r:*", "%W~w:*", "~rw:*"},
		"hana":  {"on", "nopass", "+get", "~a*", "(+set ~b* &ch)", "(%R~c* +@read)", "(~x", "+hget)"},
	}
	lines := [][]string{
		{"get", "cache:1"}, {"get", "ro:1"}, {"get", "wo:1"}, {"get", "other"}, {"set", "cache:1", "v"}, {"set", "ro:1", "v"},
		{"set", "wo:1", "v"}, {"hset", "cache:h", "f", "v"}, {"hdel", "cache:h", "f"}, {"config", "get", "x"},
		{"config", "set", "a", "b"}, {"flushall"}, {"keys", "*"}, {"publish", "chan1", "m"}, {"publish", "other", "m"},
		{"client", "list"}, {"client", "kill", "id", "1"}, {"acl", "whoami"}, {"psubscribe", "p.*"}, {"psubscribe", "p.x"},
		{"subscribe", "news"}, {"mget", "k1", "x"}, {"strlen", "k1"}, {"lpush", "k1", "x"}, {"zrange", "k", "0", "1"},
		{"exists", "w:1"}, {"get", "w:1"}, {"set", "r:1", "v"}, {"copy", "r:1", "w:1"}, {"copy", "w:1", "r:1"},
		{"getdel", "r:1"}, {"getdel", "rw:1"}, {"lmove", "r:1", "w:1", "left", "left"}, {"lmove", "rw:1", "w:1", "left", "left"},
		{"sort", "r:1", "store", "w:1"}, {"set", "w:1", "v", "get"}, {"set", "w:1", "v"}, {"type", "w:1"},
		{"bitfield", "r:1", "get", "u8", "0"}, {"bitfield", "r:1", "set", "u8", "0", "1"}, {"del", "w:1"},
		{"set", "b1", "v"}, {"set", "a1", "v"}, {"get", "c1"}, {"get", "b1"}, {"strlen", "z"}, {"publish", "ch", "m"},
		{"hget", "zz", "f"}, {"hget", "x", "f"},
	}
	bad := [][]string{{"foo"}, {"+nosuch"}, {"+@nosuch"}, {"#abc"}, {"<nothere"}, {"~*", "~a"}, {"allchannels", "&x"},
		{"%X~a"}, {"!" + strings.Repeat("0", 64)}, {"(+get"}, {"(+nosuch)"}, {"(on)"}, {"(~x", ">p)"}}
	run := func(addr string) map[string]string {
		c := dialRaw(t, addr)
		out := map[string]string{}
		names := make([]string, 0, len(users))
		for n := range users {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			out["setuser "+n] = c.do(append([]string{"ACL", "SETUSER", n}, users[n]...)...)
			out["getuser "+n] = aclFields(t, c, n)
			for _, l := range lines {
				out["dryrun "+n+" "+strings.Join(l, " ")] = c.do(append([]string{"ACL", "DRYRUN", n}, l...)...)
			}
		}
		for _, b := range bad {
			out["bad "+strings.Join(b, " ")] = c.do(append([]string{"ACL", "SETUSER", "zed"}, b...)...)
		}
		out["dryrun unknown user"] = c.do("ACL", "DRYRUN", "nobody", "get", "x")
		out["dryrun unknown command"] = c.do("ACL", "DRYRUN", "alice", "nosuch")
		out["users"] = c.do("ACL", "USERS")
		out["deluser default"] = c.do("ACL", "DELUSER", "default")
		out["cat nope"] = c.do("ACL", "CAT", "nope")
		out["genpass 0"] = c.do("ACL", "GENPASS", "0")
		out["genpass len"] = strings.SplitN(c.do("ACL", "GENPASS", "10"), "\r\n", 2)[0]
		out["log reset"] = c.do("ACL", "LOG", "RESET")
		// Connections as the users.
		a := dialRaw(t, addr)
		out["auth wrong"] = a.do("AUTH", "alice", "nope")
		out["auth off"] = a.do("AUTH", "frank", "f")
		out["auth"] = a.do("AUTH", "alice", "p1")
		out["whoami denied"] = a.do("ACL", "WHOAMI")
		out["get denied"] = a.do("GET", "other")
		out["get allowed"] = a.do("GET", "cache:1")
		out["set read-only key"] = a.do("SET", "ro:1", "v")
		out["publish denied"] = a.do("PUBLISH", "other", "m")
		out["config get"] = a.do("CONFIG", "GET", "maxmemory-policy")
		e := dialRaw(t, addr)
		e.do("AUTH", "erin", "e")
		out["erin whoami"] = e.do("ACL", "WHOAMI")
		out["erin psubscribe"] = e.do("PSUBSCRIBE", "p.x")
		entries := c.do("ACL", "LOG")
		var kept []string // age and client details differ; the rest must not
		for _, f := range []string{"count", "reason", "context", "object", "username"} {
			kept = append(kept, f+":"+fieldValues(entries, f))
		}
		out["log"] = strings.Join(kept, "|")
		// requirepass is the default user's password.
		out["requirepass"] = c.do("CONFIG", "SET", "requirepass", "sekret")
		d := dialRaw(t, addr)
		out["noauth"] = d.do("GET", "x")
		out["auth default"] = d.do("AUTH", "sekret")
		out["default getuser"] = aclFields(t, c, "default")
		c.do("CONFIG", "SET", "requirepass", "")
		out["deluser"] = c.do("ACL", "DELUSER", "alice", "nobody")
		_, err := readReply(a.r)
		out["deleted user's connection"] = map[bool]string{true: "closed", false: "open"}[err != nil]
		return out
	}
	want := run(redisServer(t))
	forEachDriver(t, func(t *testing.T, addr string) {
		got := run(addr)
		keys := make([]string, 0, len(want))
		for k := range want {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if got[k] != want[k] {
				t.Errorf("%s:\nrekv  %q\nredis %q", k, got[k], want[k])
			}
		}
	})
}

// fieldValues returns the values of field in every map of an ACL LOG
// reply, joined.
func fieldValues(reply, field string) string {
	var vals []string
	parts := strings.Split(reply, "\r\n")
	for i := 0; i+2 < len(parts); i++ {
		if parts[i] == field {
			vals = append(vals, parts[i+2])
			if strings.HasPrefix(parts[i+1], ":") {
				vals[len(vals)-1] = parts[i+1]
			}
		}
	}
	return strings.Join(vals, ",")
}

// TestACLFile: with server.aclfile, ACL SAVE writes the users and ACL
// LOAD brings them back (all or none: a bad file changes nothing), as on
// redis-server started with an aclfile; server.acl_users gives users at
// start.
func TestACLFile(t *testing.T) {
	script := [][]string{
		{"ACL", "SETUSER", "alice", "on", ">p1", "~app:*", "&news", "+get"},
		{"ACL", "SAVE"},
		{"ACL", "SETUSER", "bob", "on", "nopass", "+@all", "~*"},
		{"ACL", "DELUSER", "alice"},
		{"ACL", "USERS"},
		{"ACL", "LOAD"},
		{"ACL", "USERS"},
		{"ACL", "LIST"},
	}
	run := func(addr, file string) []string {
		c := dialRaw(t, addr)
		var out []string
		for _, args := range script {
			out = append(out, c.do(args...))
		}
		if err := os.WriteFile(file, []byte("user alice on >p1 +get\nuser bob wrong-rule\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		r := c.do("ACL", "LOAD")
		out = append(out, strings.SplitN(r, " ", 2)[0]) // the error names the file and line differently
		out = append(out, c.do("ACL", "USERS"))
		a := dialRaw(t, addr)
		out = append(out, a.do("AUTH", "alice", "p1"), a.do("GET", "app:1"), a.do("SET", "app:1", "x"))
		return out
	}
	redisFile := filepath.Join(t.TempDir(), "users.acl")
	if err := os.WriteFile(redisFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	want := run(redisServer(t, "--aclfile", redisFile), redisFile)
	rekvFile := filepath.Join(t.TempDir(), "users.acl")
	n := startNode(t, "badger", func(c *conf.Config) { c.Server.ACLFile = rekvFile })
	got := run(n.Addr(), rekvFile)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("step %d: rekv %q, redis %q", i, got[i], want[i])
		}
	}

	m := startNode(t, "badger", func(c *conf.Config) {
		c.Server.ACLUsers = []string{"user carol on >c ~c:* +@read"}
	})
	c := dialRaw(t, m.Addr())
	if got := c.do("AUTH", "carol", "c"); got != "+OK\r\n" {
		t.Fatalf("server.acl_users: AUTH = %q", got)
	}
	if got := c.do("SET", "c:1", "x"); !strings.HasPrefix(got, "-NOPERM") {
		t.Fatalf("server.acl_users: SET = %q", got)
	}
}

// TestACLSharedAcrossNodes: on a shared TiKV store, a user set on one
// node can log in on the others, and a user deleted on one is refused
// everywhere.
func TestACLSharedAcrossNodes(t *testing.T) {
	addrs := startCluster(t, 3)
	a, b, c := dialRaw(t, addrs[0]), dialRaw(t, addrs[1]), dialRaw(t, addrs[2])
	if got := a.do("ACL", "SETUSER", "dora", "on", ">d", "~*", "+@all"); got != "+OK\r\n" {
		t.Fatal(got)
	}
	eventually := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within 10 s", what)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	eventually("a user set on node 1 logs in on node 3", func() bool { return c.do("AUTH", "dora", "d") == "+OK\r\n" })
	if got := b.do("ACL", "DELUSER", "dora"); got != ":1\r\n" {
		t.Fatalf("DELUSER on node 2: %q", got)
	}
	eventually("a user deleted on node 2 is refused on node 1", func() bool {
		return strings.HasPrefix(dialRaw(t, addrs[0]).do("AUTH", "dora", "d"), "-WRONGPASS")
	})
}

// TestACLScripts: the commands a script calls are checked against the
// caller's user, with Redis's script errors and "lua" ACL LOG entries.
func TestACLScripts(t *testing.T) {
	run := func(addr string) []string {
		a := dialRaw(t, addr)
		a.do("ACL", "LOG", "RESET")
		out := []string{a.do("ACL", "SETUSER", "sc", "on", ">s", "+eval", "+get", "~k*", "&ok")}
		b := dialRaw(t, addr)
		out = append(out, b.do("AUTH", "sc", "s"),
			b.do("EVAL", "return redis.call('set','k1','v')", "1", "k1"),
			b.do("EVAL", "return redis.call('get','x1')", "0"),
			b.do("EVAL", "return redis.pcall('set','k1','v')", "1", "k1"),
			b.do("EVAL", "return redis.call('get','k1')", "1", "k1"))
		log := a.do("ACL", "LOG")
		for _, f := range []string{"count", "reason", "context", "object", "username"} {
			out = append(out, f+":"+fieldValues(log, f))
		}
		a.do("ACL", "DELUSER", "sc")
		return out
	}
	compareSteps(t, run)
}

// TestACLRulesChangedUnderClients compares rekv with redis-server when an
// admin changes a user's rules while its clients are connected: commands
// queued in MULTI are checked again at EXEC (each denied one answers
// NOPERM with Redis's reason and is logged with the "multi" context, the
// others run); a script's calls are checked when they run; subscribers to
// channels or patterns no longer allowed are disconnected; a disabled
// user's connections go on (Redis 7.0) and a deleted user's are closed.
func TestACLRulesChangedUnderClients(t *testing.T) {
	run := func(addr string) []string {
		a := dialRaw(t, addr)
		a.do("ACL", "LOG", "RESET")
		a.do("FLUSHALL")
		var out []string
		setup := []string{"ACL", "SETUSER", "app", "reset", "on", ">pw", "~app:*", "&*", "+@all"}
		out = append(out, a.do(setup...))
		tx := dialRaw(t, addr)
		out = append(out, tx.do("AUTH", "app", "pw"), tx.do("MULTI"), tx.do("SET", "app:q", "1"), tx.do("GET", "app:q"),
			tx.do("PUBLISH", "ch", "x"), tx.do("PING"), tx.do("SET", "app:z", "1"))
		sc := dialRaw(t, addr)
		out = append(out, sc.do("AUTH", "app", "pw"))
		var subs []*raw
		for _, sub := range [][]string{{"SUBSCRIBE", "ch"}, {"PSUBSCRIBE", "c*"}, {"SUBSCRIBE", "other"}, {"SSUBSCRIBE", "ch"}, {"PSUBSCRIBE", "other"}} {
			s := dialRaw(t, addr)
			out = append(out, s.do("AUTH", "app", "pw"), s.do(sub...))
			subs = append(subs, s)
		}
		out = append(out, a.do("ACL", "SETUSER", "app", "~app:z", "resetchannels", "&other", "-ping", "-get"))
		out = append(out, tx.do("EXEC"), a.do("GET", "app:q"), a.do("GET", "app:z"))
		out = append(out, sc.do("EVAL", "return redis.call('get', 'app:z')", "0"),
			sc.do("EVAL", "return redis.pcall('set', 'app:q', 'x')", "0"),
			sc.do("EVAL", "return redis.call('set', 'app:z', 'y')", "0"))
		for i, s := range subs {
			s.write(encode("PING"))
			r, err := readReply(s.r)
			out = append(out, fmt.Sprintf("subscriber %d: %q %v", i, r, err != nil))
		}
		log := a.do("ACL", "LOG")
		for _, f := range []string{"count", "reason", "context", "object", "username"} {
			out = append(out, f+":"+fieldValues(log, f))
		}
		out = append(out, a.do("ACL", "SETUSER", "app", "off", "+ping"), sc.do("PING"), a.do("ACL", "DELUSER", "app"))
		sc.write(encode("PING"))
		_, err := readReply(sc.r)
		out = append(out, fmt.Sprintf("deleted user's connection closed: %v", err != nil))
		return out
	}
	compareSteps(t, run)
}

// compareSteps runs run against redis-server, then against rekv on each
// driver, and reports each step whose reply differs.
func compareSteps(t *testing.T, run func(addr string) []string) {
	t.Helper()
	want := run(redisServer(t))
	forEachDriver(t, func(t *testing.T, addr string) {
		got := run(addr)
		if len(got) != len(want) {
			t.Errorf("%d steps on rekv, %d on redis", len(got), len(want))
		}
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Errorf("step %d:\nrekv  %q\nredis %q", i, got[i], want[i])
			}
		}
	})
}
